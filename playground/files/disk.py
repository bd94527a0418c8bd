"""Reading and writing the app's files: atomic writes, and clear messages for files that cannot be read."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
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


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; when the block ends it replaces ``path``, with the
    permissions any new file gets, or, if the block fails, it is removed and ``path`` is left as it was."""
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(descriptor)
    try:
        yield Path(temporary)
        os.chmod(temporary, NEW_FILE_MODE)  # mkstemp makes it private (0600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
