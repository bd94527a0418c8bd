"""What a kill during a save leaves (issue 39): the temporary beside the file, named as only our writer names its
temporaries, goes at the next start and at the next open or save of that file; a person's look-alike, an older
version's ambiguous name and the temporary of a save still under way (another window's, or this process's) stay."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from playground.files.disk import (
    LEFTOVER_AGE_S,
    TEMPORARY_MARKER,
    atomic_path,
    leftover_temporaries,
    remove_leftovers,
    write_atomic,
)
from playground.files.recovery import open_own_set, remove_stray_locks
from playground.graph.file_io import save_document
from playground.shell.recovery import start_leftover_sweep
from playground.widgets.file_dialogs import FILE_FOLDER

ROOT = Path(__file__).resolve().parents[2]
CHUNK_BYTES = 1 << 20

# A save of a large file, slow: a megabyte written through `atomic_path`, the temporary's path said, then the rest
# of the file only once a line comes on stdin (the test kills one writer there, and lets the other finish).
SLOW_SAVE = """
import sys
from playground.files.disk import atomic_path
with atomic_path(sys.argv[1]) as temporary, open(temporary, "w") as stream:
    stream.write("x" * {chunk_bytes}); stream.flush()
    print(temporary, flush=True)
    sys.stdin.readline()
    stream.write("the rest")
"""


def slow_save(target: Path) -> tuple[subprocess.Popen, Path]:
    """A child process in the middle of saving ``target``, and its temporary."""
    child = subprocess.Popen([sys.executable, "-c", SLOW_SAVE.format(chunk_bytes=CHUNK_BYTES), str(target)], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    temporary = Path(child.stdout.readline().strip())
    assert temporary.parent == target.parent and temporary.stat().st_size == CHUNK_BYTES
    return child, temporary


def age(*paths: Path, seconds: float = 60.0) -> None:
    """As the next start finds them, a minute later."""
    then = time.time() - seconds
    for path in paths:
        os.utime(path, (then, then))


def dead_pid() -> int:
    """The id of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def ours(folder: Path, name: str, pid: int) -> Path:
    """A temporary named as our writer names them, by process ``pid``, a minute old."""
    path = folder / f".{name}.{TEMPORARY_MARKER}-{pid}-k2j8x9ab.tmp"
    path.write_text("{half")
    age(path)
    return path


def look_alikes(folder: Path) -> list[Path]:
    """Files a person (or another program, or an older version of ours) made, a minute old: never ours to take."""
    made = []
    for name in (".notes.json.tmp", ".graph.json.k2j8x9ab.tmp", ".graph.json.backup01.tmp",
                 f"graph.json.{TEMPORARY_MARKER}-1-abc.tmp", f".graph.json.{TEMPORARY_MARKER}-1-abc.txt"):
        (folder / name).write_text("mine")
        made.append(folder / name)
    age(*made)
    return made


def test_a_save_killed_mid_write_leaves_a_temporary_that_the_next_start_removes_and_nothing_else(tmp_path):
    target = tmp_path / "graph.json"
    write_atomic(target, "the saved graph")
    killed, leftover = slow_save(target)
    living, under_way = slow_save(target)  # the same file saved in another window, still writing
    try:
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        assert leftover.exists() and target.read_text() == "the saved graph"  # the kill cut the save short
        assert leftover.name.startswith(".graph.json.") and str(killed.pid) in leftover.name
        assert remove_leftovers(tmp_path) == []  # killed a moment ago: left to a later start
        kept = look_alikes(tmp_path)
        age(leftover, under_way)

        assert remove_leftovers(tmp_path) == [leftover]
        assert sorted(tmp_path.iterdir()) == sorted([target, under_way, *kept])

        living.stdin.write("go on\n")  # the other window's save was never disturbed
        living.stdin.close()
        assert living.wait(10) == 0
        assert target.read_text() == "x" * CHUNK_BYTES + "the rest" and not under_way.exists()
    finally:
        living.kill()
        living.wait()


def test_this_processs_own_writes_under_way_stay_and_its_pids_old_leftovers_go(tmp_path):
    """A leftover named with this process's id (a kill before a reboot that gave us its pid) is a leftover; a write
    this process has under way (another thread's save, the autosave) is not, however long it takes."""
    stale = ours(tmp_path, "graph.json", os.getpid())
    with atomic_path(tmp_path / "graph.json") as temporary:
        temporary.write_text("under way")
        age(temporary)
        assert leftover_temporaries(tmp_path) == [stale]
        assert remove_leftovers(tmp_path) == [stale] and temporary.exists()
    assert [path.name for path in tmp_path.iterdir()] == ["graph.json"]


def test_only_the_leftovers_of_the_file_named_go_when_a_name_is_given(tmp_path):
    pid = dead_pid()
    graph, setup = ours(tmp_path, "graph.json", pid), ours(tmp_path, "training.json", pid)
    assert remove_leftovers(tmp_path, "graph.json") == [graph] and setup.exists()
    assert remove_leftovers(tmp_path / "no such folder") == []  # a folder that went: nothing, no error


def test_the_recovery_folders_leftovers_go_with_its_stray_locks(tmp_path):
    """The recovery sets are written through the same writer: a kill while an instance opened its set (before its
    lock file's rename) or wrote it leaves temporaries of its pid, which the next start's stray locks take."""
    pid = dead_pid()
    lock_temporary = ours(tmp_path, "session-1-20260101-000000-000000.lock", pid)
    set_temporary = ours(tmp_path, "session-1-20260101-000000-000000.json", pid)
    running = open_own_set(tmp_path)
    assert running.write("{}", 1)
    remove_stray_locks(tmp_path)
    assert not lock_temporary.exists() and not set_temporary.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.path.name, running.lock_path.name])
    running.close()


def test_the_start_sweeps_the_recent_files_folders_and_an_open_or_save_its_files_own(window, tmp_path):
    recent, dialogs = tmp_path / "class", tmp_path / "exports"
    recent.mkdir()
    dialogs.mkdir()
    save_document(recent / "graph.json", window.document)
    window.recent.remember(recent / "graph.json")
    FILE_FOLDER.remember(dialogs / "graph.png")
    pid = dead_pid()
    in_recent, in_dialogs = ours(recent, "graph.json", pid), ours(dialogs, "graph.png", pid)
    kept = look_alikes(recent)

    start_leftover_sweep(window).join(10)  # as `cli.main` starts it, after the recovery
    assert not in_recent.exists() and not in_dialogs.exists() and all(path.exists() for path in kept)

    graph, other = ours(recent, "graph.json", pid), ours(recent, "other.json", pid)
    assert window.files.save_to(recent / "graph.json")
    assert not graph.exists() and other.exists()  # a save takes its own file's leftovers only
    save_document(recent / "other.json", window.document)  # (written by another window)
    assert window.open_path(recent / "other.json") and not other.exists()  # and so does an open
    assert all(path.exists() for path in kept)


def test_a_leftover_is_one_a_minute_old_and_not_one_of_a_moment_ago():
    assert 1.0 <= LEFTOVER_AGE_S <= 30.0  # "a few seconds": what `age` gives is always old enough
