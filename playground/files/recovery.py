"""Where the recovery sets live and who owns each, Qt-free: the storage under autosave (`shell.autosave`) and
recovery at the next start (`shell.recovery`). What a set holds is `shell.recovery_set`'s.

One recovery set per running instance of the app, in ``<the app's data folder>/recovery/``: the file
``session-<pid>-<start>.json`` (the process id and the time it started, so two windows never write the
same file) beside ``session-<pid>-<start>.lock``, which the running instance holds locked (``flock``) for
as long as it lives. The kernel lets go of that lock however the process ends (SIGKILL, a crash, a power
cut: after a reboot nothing holds it), so a set whose lock can be taken belongs to no running instance: its
work is there to be recovered. A set whose lock is held is another window's, and left alone.

Every write of a set goes through a temporary file and a rename (as `disk.write_atomic`, its temporary named as
disk's are): a kill at any moment leaves the set as it was before the write or as it is after it, never half of
it, and the temporary it leaves goes at the next start (`remove_stray_locks`). A set that cannot be read
is moved aside into ``recovery/damaged/``, never deleted and never read again.
"""

from __future__ import annotations

import errno
import math
import os
import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .disk import new_temporary, remove_leftovers

try:  # POSIX: the owner's lock is a flock, released by the kernel when the process ends
    import fcntl
except ImportError:  # pragma: no cover - the app runs on Linux; elsewhere the owner's pid is asked
    fcntl = None

FOLDER_NAME = "recovery"
DAMAGED = "damaged"
_NAME = re.compile(r"^session-(\d+)-(\d{8}-\d{6}(?:-\d+)?)\.json$")


class RecoveryError(ValueError):
    """A recovery set that cannot be read or used; the message says why."""


def recovery_folder(data_folder: str | Path) -> Path:
    """The folder of the recovery sets inside the app's data folder."""
    return Path(data_folder) / FOLDER_NAME


def set_stem(pid: int, started: float) -> str:
    """``session-<pid>-<YYYYmmdd-HHMMSS-micro>``: the process and its start make the name."""
    moment = datetime.fromtimestamp(started)
    return f"session-{pid}-{moment:%Y%m%d-%H%M%S}-{moment.microsecond:06d}"


def _lock(handle) -> bool:
    """Take the lock of an open lock file without waiting; False if another process holds it."""
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def _pid_alive(pid: int) -> bool:  # pragma: no cover - used only where flock is missing
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class RecoverySet:
    """One instance's set: its JSON file and its lock file. ``handle``: the open lock file while this process
    holds the lock (its own set, or one it claimed to recover)."""

    path: Path
    handle: object | None = None

    @property
    def lock_path(self) -> Path:
        return self.path.with_suffix(".lock")

    @property
    def pid(self) -> int | None:
        match = _NAME.match(self.path.name)
        return int(match.group(1)) if match else None

    @property
    def held(self) -> bool:
        return self.handle is not None

    def exists(self) -> bool:
        return self.path.is_file()

    def saved_at(self) -> float | None:
        """When the set was last written (its file's time), or None if it has no file."""
        try:
            return self.path.stat().st_mtime
        except OSError:
            return None

    def claim(self) -> bool:
        """Take the set's lock (creating the lock file if it went); False if its instance still runs."""
        if self.held:
            return True
        try:
            handle = open(self.lock_path, "a+")  # noqa: SIM115 - kept open: the lock lives as long as it
        except OSError:
            return False
        if not _lock(handle) or (fcntl is None and self.pid is not None and _pid_alive(self.pid)):
            handle.close()
            return False
        self.handle = handle
        return True

    def release(self, remove_lock_file: bool = False) -> None:
        """Let go of the lock (and take the lock file away with it when the set is done with)."""
        if self.handle is None:
            return
        if remove_lock_file:
            self.lock_path.unlink(missing_ok=True)
        self.handle.close()
        self.handle = None

    def read_text(self) -> str:
        try:
            data = self.path.read_bytes()
        except OSError as error:
            raise RecoveryError(f"it cannot be read ({error.strerror or error})") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecoveryError("it is not text") from None

    def remove(self) -> None:
        """The set's file and lock file go (a clean exit, or a set recovered into another)."""
        self.path.unlink(missing_ok=True)
        self.release(remove_lock_file=True)

    def move_aside(self) -> Path | None:
        """Move the set's file into ``damaged/`` (keeping it for a person to look at); returns where it went."""
        folder = self.path.parent / DAMAGED
        target = folder / self.path.name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if self.path.exists():
                os.replace(self.path, target)
            else:
                target = None
        except OSError:
            target = None
        self.release(remove_lock_file=True)
        return target


class OwnSet(RecoverySet):
    """The running instance's own set: locked from its start to its end, written atomically and in order
    (a write handed over later never loses to one handed over earlier, whichever thread finishes first)."""

    def __init__(self, path: Path, handle) -> None:
        super().__init__(path, handle)
        self._written = 0
        self._replace_lock = threading.Lock()

    def write(self, text: str, generation: int) -> bool:
        """Write ``text`` as the set, unless a later generation was written already; True if it was written."""
        with new_temporary(self.path) as (descriptor, temporary):
            with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            with self._replace_lock:  # the check and the rename together: the later generation always wins
                if generation < self._written:
                    os.unlink(temporary)
                    return False
                os.replace(temporary, self.path)
                self._written = generation
        _sync_folder(self.path.parent)
        return True

    def close(self) -> None:
        """The set is done with (a clean exit): its file and lock file go, and a write still under way is not
        put in place after that."""
        with self._replace_lock:
            self._written = math.inf
            self.path.unlink(missing_ok=True)
        self.release(remove_lock_file=True)

    def adopt(self, other: RecoverySet) -> None:
        """Take a claimed set's file as this instance's own (one rename: its work is never unowned), and let
        go of the other's lock."""
        os.replace(other.path, self.path)
        other.release(remove_lock_file=True)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` last through a power cut (where the system allows it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def open_own_set(folder: str | Path, pid: int | None = None, started: float | None = None) -> OwnSet:
    """This instance's set in ``folder`` (created), its lock taken before its name appears, so that no other
    instance ever sees it unlocked. Raises OSError if the folder cannot be written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pid = os.getpid() if pid is None else pid
    started = time.time() if started is None else started
    path = folder / f"{set_stem(pid, started)}.json"
    lock_path = path.with_suffix(".lock")
    with new_temporary(lock_path) as (descriptor, temporary):  # a kill before the rename: a leftover of ours
        handle = os.fdopen(descriptor, "a+")  # noqa: SIM115 - kept open for the instance's life
        if not _lock(handle):  # pragma: no cover - a name of our own pid and start: nobody else has it
            handle.close()
            raise OSError(errno.EEXIST, f"{path.name} is taken")
        os.replace(temporary, lock_path)
    return OwnSet(path, handle)


def candidate_sets(folder: str | Path, own: RecoverySet | None = None) -> list[RecoverySet]:
    """The sets in ``folder`` but ``own``, newest first, none claimed yet: `RecoverySet.claim` each in turn
    (False for a set whose instance runs, or one another starting instance took first)."""
    folder = Path(folder)
    try:
        paths = [entry for entry in folder.iterdir() if _NAME.match(entry.name)]
    except OSError:
        return []
    items = [RecoverySet(path) for path in paths if own is None or path != own.path]
    items.sort(key=lambda item: item.saved_at() or 0.0, reverse=True)
    return items


def orphaned_sets(folder: str | Path, own: RecoverySet | None = None) -> list[RecoverySet]:
    """The sets in ``folder`` with no running instance, newest first, each one claimed (locked by this
    process: another instance starting now leaves it alone). Sets of running instances are not listed."""
    found = []
    for item in candidate_sets(folder, own):
        if item.claim():
            if item.exists():
                found.append(item)
            else:  # it went while we looked (recovered by another instance)
                item.release()
    return found


def remove_stray_locks(folder: str | Path) -> None:
    """Lock files left without a set (an instance killed before its first write), and temporary files of writes
    a kill cut short: taken away when no running instance owns them."""
    folder = Path(folder)
    remove_leftovers(folder)  # a lock file's temporary (a kill as the instance started), by its writer's pid
    try:
        entries = list(folder.glob("session-*.lock"))
        temporaries = list(folder.glob(".session-*.json.*.tmp"))
    except OSError:
        return
    for temporary in temporaries:
        item = RecoverySet(folder / (temporary.name[1:].split(".json.")[0] + ".json"))
        if item.claim():  # its writer is gone: the write will never end
            temporary.unlink(missing_ok=True)
            item.release(remove_lock_file=not item.exists())
    for lock in entries:
        if lock.with_suffix(".json").exists():
            continue
        item = RecoverySet(lock.with_suffix(".json"))
        if item.claim():
            if not item.exists():
                item.release(remove_lock_file=True)
            else:
                item.release()
