"""Reading and writing the app's files: atomic writes, and clear messages for files that cannot be read.

Every write goes through a temporary file beside its target, then a rename. A kill (or a power cut) during the
write leaves that temporary behind; it is named as nothing else is (`TEMPORARY_MARKER` and the writer's process id,
``.graph.json.autograd-playground-4711-k2j8x9ab.tmp``), so that `remove_leftovers` can take away exactly those
whose writer is gone, and never a person's own ``.notes.json.tmp`` or a save still under way in another window.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .validation import parse_json

# Files larger than this are refused before they are read: no graph, setup or lesson comes near it.
MAX_FILE_BYTES = 50 * 1024 * 1024


class FileFormatError(ValueError):
    """A file that cannot be opened; the message names the file and says what is wrong."""


def without_file_name(message: str, name: str) -> str:
    """``message`` without the file name it starts with ("bad.lesson, line 8: ..." gives "line 8: ...",
    "bad.json is not ..." gives "the file is not ..."),
    for a caller that names the file itself (a dialog's title, the command's "path: ...")."""
    for separator in (": ", ", "):
        if message.startswith(name + separator):
            return message[len(name) + len(separator):]
    if message.startswith(name + " "):  # "bad.json is not valid JSON" gives "the file is not valid JSON"
        return "the file" + message[len(name):]
    return message


def _new_file_mode() -> int:
    mask = os.umask(0)  # reading the umask means setting it: put it straight back
    os.umask(mask)
    return 0o666 & ~mask


NEW_FILE_MODE = _new_file_mode()


TEMPORARY_MARKER = "autograd-playground"
# ``.<name>.autograd-playground-<pid>-<mkstemp's random letters>.tmp``: the name is greedy, so a file whose own name
# holds the marker is still told apart by the last one. Older versions named theirs ``.<name>.<random>.tmp``, which
# a person's ``.notes.json.backup01.tmp`` also matches: those are never taken for ours.
_TEMPORARY = re.compile(rf"^\.(?P<name>.+)\.{TEMPORARY_MARKER}-(?P<pid>[1-9][0-9]*)-[a-z0-9_]+\.tmp$")
# A temporary this fresh is left alone even when its writer looks gone: this process's own writes are counted in
# `_under_way` only just after the file appears, a writer in another PID namespace (a container, a sandboxed app)
# sharing the folder looks gone, and a kill a moment ago loses nothing by waiting for a later start.
LEFTOVER_AGE_S = 10.0

_under_way: set[str] = set()  # the names of the temporaries this process is writing now
_under_way_lock = threading.Lock()


@contextmanager
def new_temporary(path: str | Path) -> Iterator[tuple[int, Path]]:
    """A new, empty, private file beside ``path`` (its open descriptor, for the caller to close, and its path),
    named as `remove_leftovers` recognises, and counted as a write under way until the block ends. If the block
    fails the file is removed; the block renames it into place (or removes it) when it succeeds."""
    path = Path(path)
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.{TEMPORARY_MARKER}-{os.getpid()}-", suffix=".tmp",
                                        dir=path.parent)
    temporary = Path(name)
    with _under_way_lock:
        _under_way.add(temporary.name)
    try:
        yield descriptor, temporary
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        with _under_way_lock:
            _under_way.discard(temporary.name)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; when the block ends it replaces ``path``, with the
    permissions any new file gets, or, if the block fails, it is removed and ``path`` is left as it was."""
    path = Path(path)
    with new_temporary(path) as (descriptor, temporary):
        os.close(descriptor)
        yield temporary
        os.chmod(temporary, NEW_FILE_MODE)  # mkstemp makes it private (0600)
        os.replace(temporary, path)


def _writer_running(pid: int) -> bool:
    """Whether process ``pid`` runs (this process's own writes are told by `_under_way` instead). Where that
    cannot be asked, it is taken to run: a leftover kept costs nothing, a write cut short costs a save."""
    if pid == os.getpid():
        return False
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return True
    try:
        os.kill(pid, 0)  # signal 0: nothing is sent, only asked
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's process runs with that id
        return True
    return True


def leftover_temporaries(folder: str | Path, name: str | None = None, now: float | None = None) -> list[Path]:
    """The temporary files in ``folder`` (of the file ``name`` only, when given) that writes of this app left when
    they were cut short: named as `new_temporary` names them, their writer no longer running (nor, for this
    process's own, under way), and untouched for `LEFTOVER_AGE_S`. A folder that cannot be read has none."""
    now = time.time() if now is None else now
    found = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                match = _TEMPORARY.match(entry.name)
                if match is None or (name is not None and match["name"] != name):
                    continue
                with _under_way_lock:
                    if entry.name in _under_way:
                        continue
                if _writer_running(int(match["pid"])):
                    continue
                try:
                    status = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone meanwhile
                if stat.S_ISREG(status.st_mode) and now - status.st_mtime >= LEFTOVER_AGE_S:
                    found.append(Path(entry.path))
    except OSError:
        return []
    return found


def remove_leftovers(folder: str | Path, name: str | None = None) -> list[Path]:
    """Remove `leftover_temporaries` ``(folder, name)``; returns what was removed. Never raises: a folder that
    cannot be read or written keeps its leftovers, and one another window removed first is not counted."""
    removed = []
    for path in leftover_temporaries(folder, name):
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed


def remove_leftovers_in(folders: Iterable[str | Path]) -> list[Path]:
    """`remove_leftovers` in each of ``folders`` (each folder once); returns what was removed."""
    removed, seen = [], set()
    for folder in folders:
        key = os.path.abspath(folder)
        if key not in seen:
            seen.add(key)
            removed.extend(remove_leftovers(folder))
    return removed


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then replace ``path`` with it.

    A crash or a full disk mid-write leaves the old file as it was, never half a file.
    """
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())


def failure_reason(error: OSError, path: str | Path) -> str:
    """Why writing ``path`` failed, in a person's words, naming the folder rather than the temporary file the
    write went through ("[Errno 13] Permission denied: '/x/.graph.json.k2j.tmp'" gives "the folder /x cannot
    be written to (permission denied)")."""
    path = Path(path)
    folder = path.parent
    code = getattr(error, "errno", None)
    if code in (errno.EACCES, errno.EPERM):
        return f"the folder {folder} cannot be written to (permission denied)"
    if code == errno.EROFS:
        return f"the folder {folder} is on a read-only disk"
    if code == errno.ENOSPC:
        return f"the disk of {folder} is full"
    if code == getattr(errno, "EDQUOT", None):
        return f"the disk quota for {folder} is used up"
    if code in (errno.ENOENT, errno.ENOTDIR):
        return f"the folder {folder} does not exist (any more)" if not folder.is_dir() else \
            f"{path.name} went away while it was written"
    if code == errno.EISDIR:
        return f"{path.name} is a folder"
    if code == errno.ENAMETOOLONG:
        return "the file's name is too long"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[:1].lower() + error.strerror[1:]
    return str(error)


def read_text(path: str | Path, error=FileFormatError) -> str:
    """A file's text; raises ``error`` (or OSError) for a file too big, not text, or empty."""
    path = Path(path)
    if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
        raise error(f"{path.name} is {path.stat().st_size / 2**20:.0f} MB, too big to be a file of this app")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark some editors write is not content
    except UnicodeDecodeError:
        raise error(f"{path.name} is not a text file") from None
    if not text.strip():
        raise error(f"{path.name} is empty")
    return text


def read_json(path: str | Path, text: str, error=FileFormatError) -> Any:
    """``text`` parsed; every way it can fail (broken JSON, nesting too deep, a number too long) raises
    ``error`` naming the file."""
    try:
        return parse_json(text)
    except ValueError as problem:
        hint = "; it may be truncated or not a file of this app" if str(problem).startswith("not valid JSON") else ""
        raise error(f"{Path(path).name} is {problem}{hint}") from None
