"""The Training tab in the main window: its own summary at the right of the status bar, Ctrl+Z that undoes a
typed weight there (not the editor's last edit), and a window that fits a 1366-pixel laptop beside the
Learn dock."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.shell.main_window import MainWindow

# Timing and layouts coming to rest: run alone, after the parallel workers (`make test`).
pytestmark = pytest.mark.serial

WAIT = 20_000


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.training.shutdown()


def test_the_training_tab_shows_its_own_summary_in_the_status_bar(qtbot, window):
    label = window.findChild(object, "evaluationLabel")
    training = window.training
    window.tabs.setCurrentWidget(training)
    qtbot.waitUntil(lambda: label.text().startswith("Step 0 · "), timeout=WAIT)
    training.step_requested.emit()
    qtbot.waitUntil(lambda: label.text().startswith("Step 1 · epoch 1 · test accuracy "), timeout=WAIT)
    assert label.text().endswith("%") and label.text() == training.summary
    window.tabs.setCurrentWidget(window.editor)
    assert label.text() == "Output = 0.7071"
    window.tabs.setCurrentWidget(training)
    assert label.text().startswith("Step 1 · epoch 1")


def test_the_toolbar_and_the_status_bar_show_the_same_step_while_training(qtbot, window):
    label, training = window.findChild(object, "evaluationLabel"), window.training
    window.tabs.setCurrentWidget(training)
    toolbar = training.toolbar
    seen = []

    def look() -> None:  # what a person sees at any moment between two paints
        status = label.text()
        if status.startswith("Step "):
            seen.append((toolbar.step_label.text(), toolbar.epoch_label.text().split(" · ")[0],
                         status.split(" · ")[0], status.split(" · ")[1],
                         training.curves.accuracy_label.text(), status.split(" · ")[2]))

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(7)
    training.play()  # 20 steps a second: a step every 50 ms, each shown
    qtbot.waitUntil(lambda: training.step > 30, timeout=WAIT)
    training.pause()
    qtbot.waitUntil(lambda: training._progress is not None and not training._progress.running, timeout=WAIT)
    qtbot.wait(200)
    timer.stop()
    assert len({row[0] for row in seen}) > 8  # the count moved on many times while we looked
    for step, epoch, status_step, status_epoch, accuracy, status_accuracy in seen:
        assert step == status_step and epoch == status_epoch
        assert accuracy.lower() == status_accuracy  # "Test accuracy 85%" beside the curves, "test accuracy 85%"
    assert toolbar.step_label.text() == f"Step {training.step}" and training.summary.startswith(
        f"Step {training.step} ·")


def test_the_summary_changes_at_most_ten_times_a_second(qtbot, window):
    training = window.training
    window.tabs.setCurrentWidget(training)
    seen = []
    training.summary_changed.connect(seen.append)
    training.set_settings(replace(training.settings, stop_when="never"))  # on past the point it has learned
    training.findChild(object, "fastestButton").click()
    training.play()
    qtbot.wait(1500)
    training.pause()
    qtbot.waitUntil(lambda: training._progress is not None and not training._progress.running, timeout=WAIT)
    qtbot.wait(400)  # the last state comes out after the pause
    assert 2 <= len(seen) <= 10 * 1.9 + 2  # ten a second, while the step count changed fifty times a second
    assert training.summary.startswith(f"Step {training.step} ·")


def test_ctrl_z_on_the_training_tab_undoes_the_typed_weight_not_the_editor(qtbot, window):
    editor_stack, training = window.undo_stack, window.training
    window.editor.build_from_expression("a=2; b=a*35")
    editor_steps = editor_stack.index()
    assert editor_steps > 0
    window.tabs.setCurrentWidget(training)
    qtbot.waitUntil(lambda: training.weights() is not None, timeout=WAIT)
    old = float(training.weights()["0.weight"][0, 0])
    training.network_view.parameter_edited.emit("0.weight", (0, 0), old, 3.5)
    qtbot.waitUntil(lambda: float(training.weights()["0.weight"][0, 0]) == 3.5, timeout=WAIT)
    undo = window.findChild(QAction, "actionUndo")
    assert undo.isEnabled() and "0.weight" in undo.text()
    QTest.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: float(training.weights()["0.weight"][0, 0]) == old, timeout=WAIT)
    assert editor_stack.index() == editor_steps  # the editor's graph is untouched
    redo = window.findChild(QAction, "actionRedo")
    redo.trigger()
    qtbot.waitUntil(lambda: float(training.weights()["0.weight"][0, 0]) == 3.5, timeout=WAIT)

    window.tabs.setCurrentWidget(window.animator)  # the animator has no undo of its own
    assert not undo.isEnabled() and not redo.isEnabled()
    window.tabs.setCurrentWidget(window.editor)
    assert undo.isEnabled()
    undo.trigger()
    assert editor_stack.index() == editor_steps - 1
    assert training.undo_stack.index() == 1  # the typed weight stays done


def minimum_width(window) -> int:
    QApplication.processEvents()
    return window.minimumSizeHint().width()


def test_the_window_with_the_learn_dock_fits_a_1366_pixel_laptop(window):
    window.learning.show_panel()
    window.learning.start("02-chain-rule")
    window.learning.panel.next()  # an exercise: the widest the dock gets
    window.tabs.setCurrentWidget(window.training)
    for _ in range(6):  # six hidden layers: the widest the settings column gets
        window.training.findChild(object, "addLayerButton").click()
    assert window.training.minimumSizeHint().width() <= 900
    assert minimum_width(window) <= 1366 - 16  # room for a window frame


def test_the_readout_pace_holds_back_reports_while_running_and_ends_on_the_last():
    from playground.training.model.summary import NOTHING, ReadoutPace

    now = [0.0]
    pace = ReadoutPace(interval=0.1, clock=lambda: now[0])
    pace.offer("step 1")
    assert pace.due() == "step 1" and pace.due() is NOTHING
    now[0] = 0.05
    pace.offer("step 2")
    pace.offer("step 3")
    assert pace.due() is NOTHING  # too soon: held back
    now[0] = 0.11
    assert pace.due() == "step 3"  # the latest, not every one
    pace.offer(None, urgent=True)  # a new network, or a step taken while paused: at once
    assert pace.due() is None
    pace.offer("step 4")
    assert pace.due() is NOTHING and pace.due(force=True) == "step 4"
