"""Lose no work (issue 27), in the test's own process: the recovery sets' storage (`files.recovery`), their
content (`shell.recovery_set`), the autosave's pace and its cost to the event loop, restoring and Discard,
saves that fail and say why, a training setup of a file with its * and Ctrl+S, and pictures written whole."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QMessageBox

from playground.files.disk import failure_reason
from playground.files.recovery import (
    OwnSet,
    RecoverySet,
    open_own_set,
    orphaned_sets,
    remove_stray_locks,
)
from playground.graph.document import GraphDocument
from playground.shell.main_window import MainWindow
from playground.shell.recovery import Recovery
from playground.shell.recovery_set import (
    EditorPart,
    GraphShot,
    RecoveryError,
    Snapshot,
    decode,
    encode,
    to_dict,
)

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20_000

# -- the storage -----------------------------------------------------------------------------------------------

HOLD_LOCK = """
import sys, time
sys.path.insert(0, {root!r})
from playground.files.recovery import open_own_set
own = open_own_set({folder!r})
own.write('{{}}', 1)
print(own.path, flush=True)
time.sleep(60)
"""


def test_a_set_is_named_by_its_process_and_start_and_locked_before_its_name_appears(tmp_path):
    own = open_own_set(tmp_path, pid=4321, started=1_700_000_000.5)
    assert own.path.name.startswith("session-4321-") and own.path.suffix == ".json"
    assert own.lock_path.exists() and own.held
    assert not list(tmp_path.glob(".*.lock.tmp"))
    other = open_own_set(tmp_path, pid=4321, started=1_700_000_001.5)
    assert other.path != own.path  # two windows never share a set
    own.close()
    other.close()
    assert not list(tmp_path.iterdir())


def test_a_set_whose_process_runs_is_left_alone_and_one_whose_process_died_is_claimed(tmp_path):
    child = subprocess.Popen([sys.executable, "-c", HOLD_LOCK.format(root=str(ROOT), folder=str(tmp_path))],
                             stdout=subprocess.PIPE, text=True)
    try:
        path = Path(child.stdout.readline().strip())
        assert path.exists()
        assert orphaned_sets(tmp_path) == []  # its lock is held: another window's
    finally:
        child.kill()
        child.wait()
    found = orphaned_sets(tmp_path)
    assert [item.path for item in found] == [path] and found[0].held
    assert orphaned_sets(tmp_path) == []  # claimed by this process now: a second start leaves it to us
    found[0].release()


def test_later_writes_win_whichever_thread_ends_first(tmp_path):
    own = open_own_set(tmp_path)
    assert own.write("new", 5)
    assert not own.write("old", 4)  # handed over earlier, finished later: dropped
    assert own.path.read_text() == "new"
    assert not list(tmp_path.glob(".*.tmp"))
    own.close()
    assert not own.write("after the end", 6) and not own.path.exists()  # nothing written after a clean exit


def test_stray_locks_and_cut_writes_go_and_damaged_sets_move_aside(tmp_path):
    (tmp_path / "session-1-20260101-000000-000000.lock").write_text("")
    (tmp_path / ".session-1-20260101-000000-000000.json.k2j9.tmp").write_text("{half")  # a write a kill cut short
    running = open_own_set(tmp_path)
    written_now = tmp_path / f".{running.path.name}.x7q1.tmp"  # a running window's write under way: kept
    written_now.write_text("{")
    remove_stray_locks(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.lock_path.name, written_now.name])
    written_now.unlink()
    running.close()
    bad = RecoverySet(tmp_path / "session-2-20260101-000000-000000.json")
    bad.path.write_text("{")
    assert bad.claim()
    where = bad.move_aside()
    assert where == tmp_path / "damaged" / bad.path.name and where.read_text() == "{"
    assert not bad.path.exists() and not bad.lock_path.exists()


def test_a_failed_write_says_why_in_a_persons_words(tmp_path):
    target = tmp_path / "folder" / "graph.json"
    assert failure_reason(OSError(errno.EACCES, "Permission denied", str(target.parent / ".graph.json.x.tmp")),
                          target) == f"the folder {target.parent} cannot be written to (permission denied)"
    assert "read-only disk" in failure_reason(OSError(errno.EROFS, "Read-only file system"), target)
    assert "is full" in failure_reason(OSError(errno.ENOSPC, "No space left on device"), target)
    assert "does not exist" in failure_reason(OSError(errno.ENOENT, "No such file or directory"), target)


# -- the content -----------------------------------------------------------------------------------------------


def test_a_set_reads_back_whole_and_a_broken_one_is_refused_naming_the_part(tmp_path):
    document = GraphDocument.from_dict(json.loads((ROOT / "resources/examples/neuron.json").read_text()))
    snapshot = Snapshot(123, 1.0, 2.0, EditorPart(GraphShot.of(document), "/x/neuron.json", "neuron.json", True),
                        lesson={"id": "02-chain-rule", "state": {"step": 2}}, animator={"position": 3})
    back = decode(encode(snapshot))
    assert back.editor.graph.to_dict() == document.to_dict()
    assert (back.editor.path, back.editor.name, back.editor.modified) == ("/x/neuron.json", "neuron.json", True)
    assert back.lesson == {"id": "02-chain-rule", "state": {"step": 2}} and back.animator == {"position": 3}
    data = to_dict(snapshot)
    data["editor"]["graph"]["edges"][0]["to"] = "nowhere"
    with pytest.raises(RecoveryError, match="editor.graph"):
        decode(json.dumps(data))
    for text, words in (("", "not valid JSON"), ("[]", "not a recovery set"),
                        ('{"format": "x"}', "not a recovery set of this app"),
                        ('{"format": "autograd-playground-recovery", "version": 99}', "version 99")):
        with pytest.raises(RecoveryError, match=words):
            decode(text)


# -- in the window ---------------------------------------------------------------------------------------------


class Exited(Exception):
    pass


@pytest.fixture
def app_window(qtbot, tmp_path):
    """A main window with settings of its own and autosave and recovery in ``tmp_path / 'recovery'`` (ending the
    process is a stand-in that raises `Exited`)."""
    made = []

    def make(recover: bool = True):
        settings = QSettings(str(tmp_path / f"settings{len(made)}.ini"), QSettings.Format.IniFormat)
        settings.setValue("learn/visible", False)
        window = MainWindow(settings)
        window.ask_save_changes = lambda *_: QMessageBox.StandardButton.Discard
        window.errors = []
        window.show_error = lambda title, message: window.errors.append((title, message))
        qtbot.addWidget(window)
        window.resize(1300, 850)
        window.show()
        qtbot.waitUntil(lambda: window.training.data is not None, timeout=WAIT)

        def exit_process(code):
            raise Exited(code)

        window.recovery = Recovery(window, tmp_path / "recovery", exit_process)
        if recover:
            window.recovery.recover()
        made.append(window)
        return window

    yield make
    for window in made:
        window.recovery.autosave.stop()
        window.training.shutdown()


def wait_written(qtbot, window) -> None:
    autosave = window.recovery.autosave
    qtbot.waitUntil(lambda: autosave.idle() and autosave.written_generation == autosave.generation > 0,
                    timeout=WAIT)


def own_snapshot(window) -> Snapshot:
    return decode(window.recovery.own.path.read_text(encoding="utf-8"))


def test_changes_are_written_once_they_stop_not_at_every_one(app_window, qtbot):
    window = app_window()
    autosave = window.recovery.autosave
    x1 = next(node for node in window.document.nodes if node.label == "x1")
    qtbot.wait(600)  # what the window did as it came up is written first
    qtbot.waitUntil(autosave.idle, timeout=WAIT)
    generation = autosave.generation
    started = time.monotonic()
    for step in range(40):  # a drag: a move at every mouse event, for 0.3 s
        window.document.move_node(x1.id, x1.x + step, x1.y)
        qtbot.wait(7)
    assert autosave.generation == generation  # nothing taken while the changes go on
    wait_written(qtbot, window)
    assert autosave.generation == generation + 1  # one write for the whole drag
    assert time.monotonic() - started < 0.3 + 1.0
    assert own_snapshot(window).editor.graph.node(x1.id).x == x1.x


def test_the_event_loop_does_its_part_of_an_autosave_within_17_ms(app_window, qtbot):
    """A large graph and a wide network: the snapshot taken in the event loop is cheap; the text is made and
    written in a thread of its own."""
    window = app_window()
    nodes = "; ".join(f"w{i} = randn(64, 64, seed={i})" for i in range(12))
    window.editor.build_from_expression(nodes + "; L = sum(" + " + ".join(f"w{i}" for i in range(12)) + ")")
    settings = window.training.settings
    from dataclasses import replace

    window.training.set_settings(replace(settings, hidden=(64, 64, 64, 64)))
    qtbot.wait(300)
    wait_written(qtbot, window)
    autosave = window.recovery.autosave
    costs = []
    for _ in range(5):
        started = time.perf_counter()
        autosave.save()
        costs.append(time.perf_counter() - started)
        wait_written(qtbot, window)
    assert max(costs) < 0.017, costs
    # ... and when the worker's thread answers with the training tab's setup, what the event loop adds to it
    # (the curves) is as cheap.
    from playground.training.worker import _SetupRequest

    window.training.play()
    qtbot.waitUntil(lambda: window.training.step > 20, timeout=3 * WAIT)
    window.training.pause()
    request = _SetupRequest(True, anchor=False, answer=lambda setup: None)
    request.setup = window.training.worker.setup_now(True)
    started = time.perf_counter()
    window.training.setups._on_worker_setup_answered(request)
    assert time.perf_counter() - started < 0.017
    wait_written(qtbot, window)
    snapshot = own_snapshot(window)
    assert len(snapshot.editor.graph.nodes) == len(window.document.nodes)
    assert snapshot.training.setup.settings.hidden == (64, 64, 64, 64)


def test_training_is_written_while_it_runs(app_window, qtbot, monkeypatch):
    window = app_window()
    autosave = window.recovery.autosave
    autosave._training_timer.setInterval(300)  # the 10 s of the app, shortened
    window.training.play()
    qtbot.waitUntil(lambda: window.training.step > 20, timeout=WAIT)
    generation = autosave.generation
    qtbot.waitUntil(lambda: autosave.written_generation >= generation + 2, timeout=WAIT)
    window.training.pause()
    assert own_snapshot(window).training.setup.step > 0


def test_a_restored_set_brings_everything_back_and_discard_puts_it_away(app_window, qtbot, tmp_path):
    first = app_window()
    first.editor.build_from_expression("a = 2; b = 5; L = a * b")
    first.learning.start("02-chain-rule")
    first.learning.panel.next()
    lesson_step = first.learning.panel.run.index
    first.editor.build_from_expression("p = 3; q = 4; M = p + q")
    training = first.training
    for _ in range(4):
        target = training.step + 1
        training.step_requested.emit()
        qtbot.waitUntil(lambda target=target: training.step == target, timeout=WAIT)
    first.animate_backward()
    first.animator.seek(2)
    first.tabs.setCurrentWidget(first.training)
    wait_written(qtbot, first)
    weights = training.current_setup(True).weights
    # As if killed: the set stays, its lock let go.
    first.recovery.autosave.stop()
    first.recovery.own.release()

    second = app_window()
    recovery = second.recovery
    assert recovery.snapshot is not None
    assert sorted(n.label for n in second.document.nodes) == ["M", "p", "q"]
    assert second.isWindowModified() and not second.undo_stack.isClean()
    qtbot.waitUntil(lambda: second.training.step == 4, timeout=WAIT)
    restored = second.training.current_setup(True).weights
    assert all(np.array_equal(restored[name], weights[name]) for name in weights)
    assert second.learning.panel.run.lesson.id == "02-chain-rule" and second.learning.panel.run.index == lesson_step
    assert second.animator.position == 2
    assert second.tabs.currentWidget() is second.training
    assert recovery.notice.text.startswith("Restored the work of the session that ended at ")
    assert not Path(first.recovery.own.path).exists()  # taken over: the set is the new window's own
    wait_written(qtbot, second)
    assert own_snapshot(second).editor.graph.to_dict() == second.document.to_dict()

    recovery.notice.discard_button.click()
    assert second.files.name == "neuron (example)" and not second.isWindowModified()
    qtbot.waitUntil(lambda: second.training.step == 0, timeout=WAIT)
    assert not recovery.notice.isVisible()


def test_a_set_whose_restoring_failed_twice_is_put_aside(app_window, tmp_path):
    folder = tmp_path / "recovery"
    folder.mkdir()
    document = GraphDocument.from_dict(json.loads((ROOT / "resources/examples/neuron.json").read_text()))
    data = to_dict(Snapshot(1, 1.0, 2.0, EditorPart(document)))
    data["attempts"] = 2
    path = folder / "session-1-20260101-000000-000000.json"
    path.write_text(json.dumps(data))
    window = app_window()
    assert window.recovery.snapshot is None
    assert (folder / "damaged" / path.name).exists()
    assert "begun 2 times" in window.recovery.notice.text


def test_sigterm_writes_the_set_and_ends_without_asking(app_window, qtbot):
    window = app_window()
    window.editor.build_from_expression("u = 7; v = u * u")
    asked = []
    window.ask_save_changes = lambda *_: asked.append(1)
    with pytest.raises(Exited):
        window.recovery.terminate("SIGTERM")
    assert not asked
    snapshot = own_snapshot(window)
    assert sorted(n.label for n in snapshot.editor.graph.nodes) == ["u", "v"]
    assert window.training.is_shut_down


def test_a_clean_exit_takes_the_set_away(app_window, qtbot):
    window = app_window()
    window.editor.build_from_expression("u = 7; v = u * u")
    wait_written(qtbot, window)
    path = window.recovery.own.path
    assert path.exists()
    window.close()  # its question answered Discard
    assert not path.exists() and not path.with_suffix(".lock").exists()


@pytest.fixture
def read_only(tmp_path):
    """A folder no one may write in: its permissions, and for root (whom they do not stop) the immutable flag."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    (folder / "graph.json").write_text("{}")
    folder.chmod(0o555)
    immutable = False
    if os.geteuid() == 0:
        chattr = shutil.which("chattr")
        if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
            folder.chmod(0o755)
            pytest.skip("root writes in any folder, and chattr +i is not available here")
        immutable = True
    yield folder
    if immutable:
        subprocess.run(["chattr", "-i", str(folder)], check=False)
    folder.chmod(0o755)


def test_a_save_into_a_read_only_folder_is_refused_with_its_reason_and_the_work_kept(app_window, qtbot, read_only):
    window = app_window()
    window.editor.build_from_expression("keep = 3; me = keep * 2")
    target = read_only / "graph.json"
    assert not window.files.save_to(target)
    title, message = window.errors[-1]
    assert title == "graph.json could not be saved"
    assert f"the folder {read_only} cannot be written to" in message and "Your work is kept" in message
    assert ".tmp" not in message  # the temporary file is no one's business
    assert target.read_text() == "{}"  # the file there is as it was
    assert window.isWindowModified() and window.files.current_path is None  # still unsaved, still here
    wait_written(qtbot, window)
    assert sorted(n.label for n in own_snapshot(window).editor.graph.nodes if n.label) == ["keep", "me"]  # autosaved
    assert not window.training_setups.save(read_only / "training.json")
    assert "cannot be written to" in window.errors[-1][1]


def test_a_training_setup_of_a_file_has_its_star_its_question_and_ctrl_s(app_window, qtbot, tmp_path):
    window = app_window()
    path = tmp_path / "training.json"
    assert window.training_setups.save(path)
    assert "training setup training.json" in window.windowTitle() and not window.isWindowModified()
    window.tabs.setCurrentWidget(window.training)
    assert window.open_path(path)
    assert not window.training_setups.modified and not window.isWindowModified()  # opening is no change
    window.training.step_requested.emit()
    qtbot.waitUntil(lambda: window.training.step == 1, timeout=WAIT)
    assert window.training_setups.modified and window.isWindowModified()
    asked = []
    window.ask_save_changes = lambda *args: asked.append(args) or QMessageBox.StandardButton.Cancel
    window.close()
    assert window.isVisible() and asked  # Cancel: the window stays
    window.ask_save_changes = lambda *_: QMessageBox.StandardButton.Discard
    assert window.save_current()  # Ctrl+S on the Training tab: to the file it came from
    assert not window.training_setups.modified and not window.isWindowModified()
    assert json.loads(path.read_text())["step"] == 1


def test_lesson_progress_is_written_all_or_nothing():
    """Lesson progress lives in the settings, which Qt writes through a temporary file and a rename (QSaveFile)
    unless told not to: the app never tells it so."""
    settings = QSettings()
    assert settings.isAtomicSyncRequired()
    source = "\n".join(p.read_text() for p in (ROOT / "playground").rglob("*.py"))
    assert "setAtomicSyncRequired(False)" not in source


def test_picture_exports_are_written_whole(app_window, tmp_path, read_only):
    window = app_window()
    target = tmp_path / "graph.png"
    window.exports.export_image(target)
    assert QImage(str(target)).width() > 0
    assert not list(tmp_path.glob(".graph.png.*"))
    with pytest.raises(OSError):
        window.exports.export_image(read_only / "graph.json")
    assert (read_only / "graph.json").read_text() == "{}"

    from playground.animator.export import write_png_frames

    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert write_png_frames([image, image], tmp_path / "frames") == 2
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["frame_0001.png", "frame_0002.png"]


def test_own_set_is_private(tmp_path):
    own = open_own_set(tmp_path)
    own.write("{}", 1)
    assert own.path.stat().st_mode & 0o077 == 0  # the work of one person, not for others on the machine
    own.close()
    assert isinstance(own, OwnSet)


def test_a_run_on_the_editors_graph_comes_back_on_that_graph(app_window, qtbot):
    first = app_window()
    first.editor.build_from_expression("X = points(); W1 = randn(2, 8, seed=0); b1 = zeros(8); "
                                       "W2 = randn(8, 1, seed=1); b2 = zeros(1); out = tanh(X @ W1 + b1) @ W2 + b2")
    assert first.graph_link.train()
    training = first.training
    for _ in range(3):
        target = training.step + 1
        training.step_requested.emit()
        qtbot.waitUntil(lambda target=target: training.step == target, timeout=WAIT)
    wait_written(qtbot, first)
    weights = training.current_setup(True).weights
    first.recovery.autosave.stop()
    first.recovery.own.release()

    second = app_window()
    qtbot.waitUntil(lambda: second.training.step == 3 and second.training.settings.trains_graph, timeout=WAIT)
    qtbot.wait(200)  # the link between the editor and the tab has looked at the graph: nothing starts over
    assert second.training.step == 3
    assert second.document.to_dict() == second.training.graph_training.graph.to_dict()
    restored = second.training.current_setup(True).weights
    assert all(np.array_equal(restored[name], weights[name]) for name in weights)
