"""A run a teacher can narrate: epochs counted beside the steps, a default pace slow enough to talk over
with "Fastest" one click away, a stop condition that pauses and says why, and a run that goes nowhere
said in the status line."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings

WAIT = 20_000


# -- the session: epochs and the stop condition --------------------------------------------------


def test_epochs_count_points_seen_over_the_training_points():
    full = TrainingSession()
    full.train_steps(7)
    assert full.epoch == 7 and full.evaluate().epoch == 7 and full.batch == 140
    mini = TrainingSession(TrainingSettings(batch_size=10))
    mini.train_steps(28)
    assert mini.epoch == pytest.approx(2.0) and mini.evaluate().batch == 10
    mini.add_point(0.0, 0.0, 1)  # a bigger training set: the epochs so far stay, later ones are longer
    mini.train_steps(141)
    assert mini.epoch == pytest.approx(2.0 + 1410 / 141)
    mini.reset()
    assert mini.epoch == 0


def test_the_stop_condition_ends_training_at_the_step_that_meets_it():
    session = TrainingSession(TrainingSettings(batch_size=20, stop_when="epochs", stop_at=3.0))
    result = session.train_steps(1000, stop_condition=True)
    assert result.stopped is not None and session.step == 21 and session.epoch == pytest.approx(3.0)
    assert result.stopped.message() == ("Training paused at step 21, epoch 3: 3 epochs are done. "
                                        "Press Play to go on, or change Stop at.")
    # Play again: the condition is already met, so it does not stop at once; the run goes on.
    session.arm_stop()
    assert session.train_steps(50, stop_condition=True).stopped is None and session.step == 71

    accurate = TrainingSession(TrainingSettings(stop_when="test_accuracy", stop_at=0.95))
    result = accurate.train_steps(2000, stop_condition=True)
    assert result.stopped is not None and accurate.evaluate().test_accuracy >= 0.95
    step = accurate.step
    before = TrainingSession(TrainingSettings())
    before.train_steps(step - 1)
    assert before.evaluate().test_accuracy < 0.95  # the step before had not reached it
    assert "the test accuracy reached" in result.stopped.message() and "(stop at ≥ 95%)" in result.stopped.message()

    low = TrainingSession(TrainingSettings(stop_when="train_loss", stop_at=0.05))
    result = low.train_steps(2000, stop_condition=True)
    assert result.stopped is not None and low.evaluate().train_loss <= 0.05
    assert TrainingSession().train_steps(300).stopped is None  # "never", the default
    with pytest.raises(ValueError, match="share in"):
        TrainingSettings(stop_when="test_accuracy", stop_at=97.0)


# -- the panel -------------------------------------------------------------------------------------


def test_the_default_pace_can_be_talked_over_and_fastest_is_one_click_away(qtbot, panel):
    assert panel.settings.steps_per_second == 20
    assert panel.findChild(object, "speedCombo").currentText() == "20 steps/s"
    panel.set_settings(replace(panel.settings, stop_when="never"))  # past the point it has learned
    started = time.perf_counter()
    panel.play()
    qtbot.wait(1000)
    panel.pause()
    elapsed = time.perf_counter() - started
    qtbot.waitUntil(lambda: panel._progress is not None and not panel._progress.running, timeout=WAIT)
    assert 1 <= panel.step <= 20 * elapsed + 6  # never faster than the pace (at most a quarter second caught up)

    fastest = panel.findChild(object, "fastestButton")
    qtbot.mouseClick(fastest, Qt.MouseButton.LeftButton)
    assert fastest.isChecked() and panel.settings.steps_per_second is None
    assert panel.findChild(object, "speedCombo").currentText() == "Fastest"
    step = panel.step
    panel.play()
    qtbot.waitUntil(lambda: panel.step > step + 400, timeout=WAIT)
    panel.pause()
    qtbot.mouseClick(fastest, Qt.MouseButton.LeftButton)  # again: back to the pace before
    assert panel.settings.steps_per_second == 20 and not fastest.isChecked()


def test_the_epoch_count_stands_beside_the_step_with_the_batch(qtbot, panel):
    label = panel.findChild(object, "epochLabel")
    panel.step_requested.emit()
    qtbot.waitUntil(lambda: panel.step == 1 and label.text() == "epoch 1 · full batch", timeout=WAIT)
    panel.findChild(object, "batchSizeSpin").setValue(35)
    qtbot.waitUntil(lambda: panel.worker.session.settings.batch_size == 35, timeout=WAIT)
    for _ in range(2):
        panel.step_requested.emit()
    qtbot.waitUntil(lambda: panel.step == 3, timeout=WAIT)
    qtbot.waitUntil(lambda: label.text() == "epoch 1.5 · batch 35", timeout=WAIT)  # 1 + 70 / 140


def test_the_stop_condition_pauses_training_and_says_why(qtbot, panel):
    combo = panel.findChild(object, "stopConditionCombo")
    combo.setCurrentIndex(combo.findData("epochs"))
    epochs = panel.findChild(object, "stopEpochsInput")
    assert epochs.isVisible() and not panel.findChild(object, "stopAccuracyInput").isVisible()
    epochs.setValue(30)
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("epochs", 30.0)
    panel.findChild(object, "fastestButton").click()
    panel.findChild(object, "playButton").click()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.step == 30, timeout=WAIT)
    assert panel.worker.session.step == 30
    assert panel.message == ("Training paused at step 30, epoch 30: 30 epochs are done. "
                             "Press Play to go on, or change Stop at.")
    assert not panel.findChild(object, "playButton").isChecked()
    panel.play()  # on past the condition
    qtbot.waitUntil(lambda: panel.step > 60, timeout=WAIT)
    panel.pause()


def test_a_stuck_run_is_said_in_the_status_line_and_training_goes_on(qtbot, panel):
    panel.set_settings(replace(panel.settings, regularization="l2", regularization_rate=1.0,
                                         steps_per_second=None))  # as a person sets it
    panel.play()
    qtbot.waitUntil(lambda: "probably pulls every weight to zero" in panel.message, timeout=WAIT)
    assert panel.message.startswith("The network predicts one class (orange) everywhere")
    assert panel.is_playing  # said, not stopped: a teacher may want to show where it goes
    panel.pause()


def test_a_reopened_setup_counts_its_epochs_and_reads_the_first_files_pace():
    from playground.training.model.setup_file import capture, from_dict, restore, to_dict

    session = TrainingSession(TrainingSettings(batch_size=35, stop_when="epochs", stop_at=12.0,
                                               steps_per_second=None))
    session.train_steps(8)
    document = to_dict(capture(session))
    assert document["settings"]["steps_per_second"] is None and document["settings"]["stop_at"] == 12.0
    reopened = restore(from_dict(document))
    assert reopened.step == 8 and reopened.epoch == pytest.approx(2.0)  # 8 steps of 35 out of 140
    assert reopened.settings.stop_when == "epochs"
    assert reopened.train_steps(1000, stop_condition=True).stopped is not None and reopened.step == 48
    old = dict(document, settings={**{k: v for k, v in document["settings"].items() if k != "steps_per_second"},
                                   "steps_per_frame": 10})
    assert from_dict(old).settings.steps_per_second == 500  # ten steps at each of 50 frames a second


def test_the_gui_thread_waits_at_most_half_a_millisecond_for_the_interpreter(qtbot, panel):
    """The training thread runs Python; the GUI thread asks for the interpreter some twenty times a frame."""
    import sys

    from playground.training.worker_threads import GIL_SWITCH_S

    assert sys.getswitchinterval() <= GIL_SWITCH_S
