"""The Training tab in the main window: its own summary at the right of the status bar, Ctrl+Z that undoes a
typed weight there (not the editor's last edit), and a window that fits a 1366-pixel laptop beside the
Learn dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.app import MainWindow

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


def test_the_summary_changes_at_most_a_few_times_a_second(qtbot, window):
    training = window.training
    window.tabs.setCurrentWidget(training)
    seen = []
    training.summary_changed.connect(seen.append)
    training.findChild(object, "fastestButton").click()
    training.play()
    qtbot.wait(1500)
    training.pause()
    qtbot.waitUntil(lambda: training._progress is not None and not training._progress.running, timeout=WAIT)
    qtbot.wait(400)  # the last state comes out after the pause
    assert 2 <= len(seen) <= 4 * 1.9 + 2  # four a second, while the step count changed fifty times a second
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
