"""Reset asks first when training would be lost (a step taken), goes back to the trained network on "Cancel"
(and on with the run that was playing), and stops asking once told not to, remembered in QSettings."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from playground.shell.main_window import MainWindow
from playground.training.panel import TrainingPanel

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.data is not None and panel.weights() is not None, timeout=WAIT)
    yield panel
    panel.shutdown()


def take_steps(qtbot, panel, count: int) -> None:
    for _ in range(count):
        target = panel.step + 1
        panel.step_requested.emit()
        qtbot.waitUntil(lambda target=target: panel.step == target, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights_step == panel.step, timeout=WAIT)


def click_reset(panel) -> QMessageBox | None:
    panel.findChild(object, "resetButton").click()
    return panel.reset_confirmation.box


def test_an_untrained_network_resets_without_a_question(qtbot, panel):
    run = panel._run
    assert click_reset(panel) is None
    qtbot.waitUntil(lambda: panel._run == run + 1, timeout=WAIT)


def test_reset_asks_and_cancel_keeps_the_trained_network(qtbot, panel):
    take_steps(qtbot, panel, 3)
    trained, run = {k: v.copy() for k, v in panel.weights().items()}, panel._run
    box = click_reset(panel)
    assert box is not None and box.isVisible() and "3 steps" in box.text()
    assert box.defaultButton() is box.findChild(object, "resetCancelButton")  # Enter keeps the work
    box.findChild(object, "resetCancelButton").click()
    qtbot.waitUntil(lambda: panel.reset_confirmation.box is None, timeout=WAIT)
    qtbot.wait(200)
    assert panel._run == run and panel.step == 3 and panel.worker.session.step == 3
    assert all(np.array_equal(panel.weights()[k], w) for k, w in trained.items())

    box = click_reset(panel)
    box.findChild(object, "resetConfirmButton").click()
    qtbot.waitUntil(lambda: panel._run == run + 1 and panel.step == 0 and panel.weights_step == 0, timeout=WAIT)
    assert panel.reset_confirmation.asks  # not ticked: it asks next time too
    take_steps(qtbot, panel, 1)
    assert click_reset(panel) is not None and "1 step," in panel.reset_confirmation.box.text()
    panel.reset_confirmation.box.reject()  # Escape


def test_cancel_lets_a_playing_run_go_on(qtbot, panel):
    panel.play()
    qtbot.waitUntil(lambda: panel.step > 3, timeout=WAIT)
    box = click_reset(panel)
    assert box is not None and not panel.is_playing  # no training while the question is on show
    box.findChild(object, "resetCancelButton").click()
    assert panel.is_playing
    stepped = panel.step
    qtbot.waitUntil(lambda: panel.step > stepped + 3, timeout=WAIT)
    panel.pause()


def test_dont_ask_again_is_remembered_in_the_window_s_settings(qtbot, tmp_path):
    path = str(tmp_path / "settings.ini")
    windows = []

    def make_window() -> MainWindow:
        settings = QSettings(path, QSettings.Format.IniFormat)
        settings.setValue("learn/visible", False)
        window = MainWindow(settings)
        window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
        qtbot.addWidget(window)
        window.show()
        window.tabs.setCurrentWidget(window.training)
        qtbot.waitUntil(lambda: window.training.weights() is not None, timeout=WAIT)
        windows.append(window)
        return window

    try:
        panel = make_window().training
        take_steps(qtbot, panel, 2)
        box = click_reset(panel)
        box.findChild(object, "resetDontAskCheck").setChecked(True)
        box.findChild(object, "resetConfirmButton").click()
        qtbot.waitUntil(lambda: panel.step == 0, timeout=WAIT)
        take_steps(qtbot, panel, 2)
        assert click_reset(panel) is None  # at once
        qtbot.waitUntil(lambda: panel.step == 0, timeout=WAIT)
        windows[0].settings.sync()

        assert not windows[0].findChild(QAction, "actionAskBeforeReset").isChecked()  # the menu follows
        windows[0].settings.sync()

        window = make_window()  # a new window, the same settings file
        panel = window.training
        assert not panel.reset_confirmation.asks
        ask = window.findChild(QAction, "actionAskBeforeReset")
        assert not ask.isChecked()
        take_steps(qtbot, panel, 2)
        assert click_reset(panel) is None
        qtbot.waitUntil(lambda: panel.step == 0, timeout=WAIT)
        ask.trigger()  # Edit > Ask before resetting a trained network: the question comes back
        assert ask.isChecked() and panel.reset_confirmation.asks
        take_steps(qtbot, panel, 1)
        box = click_reset(panel)
        assert box is not None
        box.reject()
    finally:
        for window in windows:
            window.training.shutdown()
