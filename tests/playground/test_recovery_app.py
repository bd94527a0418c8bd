"""Lose no work (issue 27), end to end: the app started as the command starts it, in a child process
(`recovery_child.py`), driven through its window, killed (SIGKILL, SIGTERM) and started again on the same data
folder, which must bring every edit back."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from playground.files.recovery import orphaned_sets
from playground.shell.recovery_set import decode

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("recovery_child.py")
START_S = 60  # a start on a busy machine


class Child:
    """One run of the app in a child process, its ``CHILD`` lines read as they come."""

    def __init__(self, home: Path, mode: str, *files: str) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
               "QT_QPA_PLATFORM": "offscreen", "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen([sys.executable, str(CHILD), mode, *files], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: list[tuple[str, object]] = []
        self.errors: list[str] = []
        self._new = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            if line.startswith("CHILD "):
                _, word, payload = line.rstrip("\n").split(" ", 2)
                with self._new:
                    self.lines.append((word, json.loads(payload)))
                    self._new.notify_all()

    def _read_errors(self) -> None:
        for line in self.process.stderr:
            self.errors.append(line)

    def wait_for(self, word: str, timeout: float = START_S, count: int = 1):
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                found = [payload for said, payload in self.lines if said == word]
                if len(found) >= count:
                    return found[count - 1]
                if self.process.poll() is not None and not found:
                    self._new.wait(0.2)  # what it printed last may still be on its way
                    found = [payload for said, payload in self.lines if said == word]
                    if len(found) >= count:
                        return found[count - 1]
                    raise AssertionError(f"the app ended ({self.process.returncode}) before '{word}':\n"
                                         + "".join(self.errors[-30:]))
                left = deadline - time.monotonic()
                if left <= 0:
                    self.kill()
                    raise AssertionError(f"no '{word}' from the app in {timeout} s:\n" + "".join(self.errors[-30:]))
                self._new.wait(min(left, 0.2))

    def count(self, word: str) -> int:
        with self._new:
            return sum(1 for said, _ in self.lines if said == word)

    def kill(self, signal_number: int = signal.SIGKILL) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal_number)
        self.process.wait(timeout=30)


def run_report(home: Path, *files: str) -> dict:
    child = Child(home, "report", *files)
    state = child.wait_for("state")
    child.process.wait(timeout=30)
    return state


def recovery_folder(home: Path) -> Path:
    return home / "data" / "Autograd Playground" / "Autograd Playground" / "recovery"


def test_every_edit_comes_back_after_a_kill(tmp_path):
    """An expression typed, a value changed, a setting changed, training steps taken; 1.5 s later SIGKILL: the
    next start shows every one of them, and says so."""
    child = Child(tmp_path, "edit")
    edited = child.wait_for("edited")
    time.sleep(1.5)
    child.kill()
    assert child.process.returncode == -signal.SIGKILL
    state = run_report(tmp_path)
    assert state["restored"]
    assert state["graph"] == edited["graph"]  # the graph, its name, and its * (unsaved)
    assert state["graph"]["modified"] and "[*]" in state["graph"]["title"]
    assert state["training"]["optimizer"] == "adam"
    assert state["training"]["step"] == edited["training"]["step"] == 7
    assert state["training"]["weights"] == edited["training"]["weights"]  # bit for bit
    assert state["training"]["curve_points"] == edited["training"]["curve_points"]
    assert state["tab"] == 2  # the Training tab, where the person was
    assert state["notice"].startswith("Restored the work of the session that ended at ")


def test_a_kill_at_any_moment_of_the_autosaves_leaves_a_set_that_opens_whole(tmp_path):
    """The app writes its set back to back (an edit, a write, the next edit...); SIGKILL lands at random moments
    of 200 and more writes, over several runs: each time the set on disk reads whole, the old or the new, and
    the next start restores it."""
    rng = random.Random(27)
    written, runs = 0, 0
    while written < 200 or runs < 3:
        runs += 1
        child = Child(tmp_path, "churn")
        child.wait_for("written")
        before = child.count("written")
        time.sleep(rng.uniform(0.2, 2.0))  # somewhere in the middle of a write, or between two
        child.kill()
        after = child.count("written")
        written += after
        sets = sorted(recovery_folder(tmp_path).glob("session-*.json"))
        assert len(sets) == 1, sets  # one set: the one this run took over and wrote
        snapshot = decode(sets[0].read_text(encoding="utf-8"))  # whole: every part reads
        value = max(n.value for n in snapshot.editor.graph.nodes if n.kind in ("input", "parameter"))
        values = [payload["value"] for word, payload in child.lines if word == "written"]
        # The last write reported, or one that ended between that report and the kill: never an older one.
        assert values[-1] <= value <= values[-1] + 3, (value, values[-3:])
        assert after >= before
    state = run_report(tmp_path)
    assert state["restored"] and not [m for m in state["messages"] if "could not" in m]


def test_two_instances_killed_together_are_each_recovered(tmp_path):
    first, second = Child(tmp_path, "edit"), Child(tmp_path, "idle")
    edited = first.wait_for("edited")
    second.wait_for("ready")
    time.sleep(1.5)
    first.kill()
    second.kill()
    assert len(list(recovery_folder(tmp_path).glob("session-*.json"))) == 2
    # Two new windows, started one after the other while the first still runs: each takes one set.
    one = Child(tmp_path, "idle")
    one.wait_for("ready")
    two = Child(tmp_path, "idle")
    two.wait_for("ready")
    one.kill()
    two.kill()
    sets = sorted(recovery_folder(tmp_path).glob("session-*.json"))
    assert len(sets) == 2
    graphs = sorted(len(decode(path.read_text(encoding="utf-8")).editor.graph.nodes) for path in sets)
    assert len(edited["graph"]["nodes"]) in graphs  # the edited window's graph is one of them


def test_a_running_instances_set_is_left_alone(tmp_path):
    running = Child(tmp_path, "idle")
    ready = running.wait_for("ready")
    assert orphaned_sets(recovery_folder(tmp_path)) == []  # its lock is held
    state = run_report(tmp_path)
    assert not state["restored"]
    assert Path(ready["set"]).exists()  # still there, still its own
    running.kill()


def test_a_damaged_set_is_refused_with_a_message_and_moved_aside(tmp_path):
    folder = recovery_folder(tmp_path)
    folder.mkdir(parents=True)
    damaged = folder / "session-999999-20260101-120000-000000.json"
    damaged.write_text('{"format": "autograd-playground-recovery", "version": 1, "editor": {"gra', encoding="utf-8")
    state = run_report(tmp_path)
    assert not state["restored"]
    assert any("could not be restored" in m and "not valid JSON" in m for m in state["messages"])
    assert "moved to" in state["notice"]
    assert not damaged.exists()
    assert (folder / "damaged" / damaged.name).exists()


def test_sigterm_with_a_modal_question_open_ends_the_app_within_2_s_and_the_work_comes_back(tmp_path):
    child = Child(tmp_path, "modal")
    modal = child.wait_for("modal")
    assert modal["title"] == "Unsaved changes"
    started = time.monotonic()
    child.process.send_signal(signal.SIGTERM)
    child.process.wait(timeout=10)
    took = time.monotonic() - started
    assert took < 2.0, took
    assert child.process.returncode == 0
    state = run_report(tmp_path)
    assert state["restored"]
    assert state["graph"]["nodes"] == modal["graph"]["nodes"]  # the graph built by hand, not lesson 2's
    assert state["graph"]["modified"]


@pytest.mark.parametrize("name", ["SIGHUP"])
def test_sighup_writes_the_set_and_ends_the_app(tmp_path, name):
    child = Child(tmp_path, "edit")
    edited = child.wait_for("edited")
    started = time.monotonic()
    child.process.send_signal(getattr(signal, name))
    child.process.wait(timeout=10)
    assert time.monotonic() - started < 2.0
    state = run_report(tmp_path)
    assert state["graph"] == edited["graph"]
    assert state["training"]["step"] == 7


def test_a_clean_exit_leaves_no_set(tmp_path):
    child = Child(tmp_path, "idle")
    ready = child.wait_for("ready")
    child.process.send_signal(signal.SIGINT)  # Ctrl+C: the window closes as its close button would
    child.process.wait(timeout=30)
    assert not Path(ready["set"]).exists()
    assert not list(recovery_folder(tmp_path).glob("session-*"))


def test_a_file_from_the_command_line_gets_its_unsaved_changes_back(tmp_path):
    graph = tmp_path / "mine.json"
    graph.write_text((ROOT / "resources" / "examples" / "neuron.json").read_text(encoding="utf-8"), encoding="utf-8")
    child = Child(tmp_path, "edit_file", str(graph))
    edited = child.wait_for("edited")
    time.sleep(1.5)
    child.kill()
    state = run_report(tmp_path, str(graph))
    assert state["graph"]["path"] == str(graph)
    assert state["graph"]["nodes"] == edited["graph"]["nodes"]
    assert state["graph"]["modified"] and state["graph"]["name"] == "mine.json"
