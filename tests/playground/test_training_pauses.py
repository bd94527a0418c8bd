"""The panel pauses by itself and says why, driven as a person drives it: once the run has learned (the
default Stop at), at once when the loss goes wrong; what it said goes when the run starts over, and a
note about a typed number stays while that number stands."""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from playground.training.model.learned import PATIENCE

WAIT = 20_000


def play_fastest(qtbot, panel) -> None:
    panel.findChild(object, "fastestButton").click()
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    assert panel.is_playing


def test_the_default_run_pauses_once_learned_and_play_goes_on(qtbot, panel):
    combo = panel.findChild(object, "stopConditionCombo")
    assert combo.currentData() == "learned" and combo.currentText() == "When learned"
    assert not any(panel.findChild(object, name).isVisible()
                   for name in ("stopAccuracyInput", "stopLossInput", "stopEpochsInput"))
    play_fastest(qtbot, panel)
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    match = re.fullmatch(r"Learned: 100% test accuracy at step (\d+)\. Play to go on, or change Stop at\.",
                         panel.message)
    assert match is not None, panel.message
    best = int(match.group(1))
    assert 100 <= best <= 150
    qtbot.waitUntil(lambda: panel.step == best + PATIENCE, timeout=WAIT)
    assert not panel.findChild(object, "playButton").isChecked()
    panel.play()  # on past it: no pause at once (100% cannot be beaten)
    assert panel.message == ""
    qtbot.waitUntil(lambda: panel.step > best + PATIENCE + 300, timeout=WAIT)
    assert panel.is_playing and panel.message == ""
    panel.pause()


def test_never_trains_on_past_the_point_it_has_learned(qtbot, panel):
    combo = panel.findChild(object, "stopConditionCombo")
    combo.setCurrentIndex(combo.findData("never"))
    assert panel.settings.stop_when == "never"
    play_fastest(qtbot, panel)
    qtbot.waitUntil(lambda: panel.step > 400, timeout=WAIT)
    assert panel.is_playing and panel.message == ""
    panel.pause()


def test_adam_at_learning_rate_10_pauses_within_twenty_steps_naming_the_rate(qtbot, panel):
    panel.set_settings(replace(panel.settings, learning_rate=10.0))
    play_fastest(qtbot, panel)
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    assert panel.message.startswith("Training paused: the loss stayed far above its best for 20 steps")
    assert "The learning rate 10 is probably too large for Adam: each step overshoots. Try 0.01." in panel.message
    assert panel.worker.session.step <= 1  # the weights are back where the loss was at its best


def test_a_pause_message_goes_when_the_run_starts_over(qtbot, panel):
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": this test is about what the change does
    play_fastest(qtbot, panel)
    qtbot.waitUntil(lambda: panel.message.startswith("Learned:"), timeout=WAIT)
    dataset = panel.findChild(object, "datasetCombo")
    dataset.setCurrentIndex(dataset.findData("spiral"))  # new data, a new network: the banner is old news
    qtbot.waitUntil(lambda: panel.worker.session.settings.dataset == "spiral", timeout=WAIT)
    qtbot.waitUntil(lambda: panel.message == "", timeout=WAIT)
    assert panel.findChild(object, "hintLabel").isVisible()


def test_a_clamped_learning_rate_note_stays_on_play_until_another_edit(qtbot, panel):
    box = panel.findChild(object, "learningRateInput")
    box.setFocus()
    box.lineEdit().selectAll()
    QTest.keyClicks(box.lineEdit(), "0.0000001")
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    note = panel.message
    assert note.startswith("Learning rate 1e-07 is below the minimum") and panel.settings.learning_rate == 1e-05
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.step > 5, timeout=WAIT)
    assert panel.message == note  # still there while that rate trains
    panel.pause()
    qtbot.mouseClick(panel.findChild(object, "stepButton"), Qt.MouseButton.LeftButton)
    assert panel.message == note
    panel.findChild(object, "noiseSlider").setValue(panel.findChild(object, "noiseSlider").value() + 5)  # moves on
    assert panel.message == ""


def test_lesson_7_too_small_starts_fresh_and_too_large_pauses_by_itself(qtbot, tmp_path):
    """The lesson's steps through the Learn panel as a student clicks them (the claims themselves, over
    five seeds and from every start: test_lesson_training_claims)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    training = window.training
    try:
        window.learning.start("07-training")
        qtbot.waitUntil(lambda: training.step > 150, timeout=WAIT)  # the student watches gradient descent
        window.learning.panel.next()
        assert window.learning.panel.run.step.title == "Too small"
        qtbot.waitUntil(lambda: 0 < training.step < 100 and training.is_playing, timeout=WAIT)  # from fresh
        assert training.worker.session.settings.learning_rate == 0.001
        window.learning.panel.next()
        assert window.learning.panel.run.step.title == "Too large" and training.is_playing
        qtbot.waitUntil(lambda: not training.is_playing, timeout=WAIT)
        assert "The learning rate 10 is probably too large for SGD + momentum" in training.message
    finally:
        training.pause()
        window.close()
