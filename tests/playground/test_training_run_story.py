"""A run keeps its story (issue 30, item 1): a divergence that puts the weights back no longer cuts the curves
back; the blow-up stays on them, faded, where the weights went back is a line that says to which step, the
pause message names the steps the curves show, and going on continues the curve from there."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt

from playground.training.model.run_history import Restore, RunHistory

WAIT = 20_000


def test_a_rewind_keeps_the_stretch_it_undid_and_marks_it():
    history = RunHistory()
    for step, loss in [(0, 0.7), (1, 0.5), (2, 3.0), (3, 9.0), (4, 30.0)]:
        history.add(step, loss, loss, 0.5, 0.5)
    history.add(1, 0.5, 0.5, 0.6, 0.6)  # the weights went back to step 1
    history.add(2, 0.45, 0.45, 0.7, 0.7)
    assert list(history.steps) == [0, 1, 2] and list(history.column(1)) == [0.7, 0.5, 0.45]
    assert history.restores == [Restore(1.0, 4.0)]
    steps, losses = history.abandoned_column(1)
    assert list(steps) == [1, 2, 3, 4] and list(losses) == [0.5, 3.0, 9.0, 30.0]  # from where it left the curve
    assert history.all_values(1).max() == 30.0 and history.last_step == 4.0
    history.add(2, 0.44, 0.44, 0.7, 0.7)  # the same step again (a pause): replaced, no restore
    assert len(history.restores) == 1 and history.column(1)[-1] == 0.44


def test_a_diverging_run_keeps_its_blow_up_on_the_curve_and_marks_where_the_weights_went_back(qtbot, panel):
    # At 50 steps a second every step is reported (a tick's chunk is a step): at "Fastest" a chunk of some thirty
    # steps can hold the whole blow-up, and the curves, which are of reported steps, never see it.
    panel.set_settings(replace(panel.settings, optimizer="momentum", learning_rate=10.0, stop_when="never",
                               steps_per_second=50))
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    match = re.search(r"against (\S+) at step (\d+)\).*The weights are back at step (\d+)", panel.message)
    assert match is not None, panel.message
    best_loss, best_step, back = float(match.group(1)), int(match.group(2)), int(match.group(3))
    qtbot.waitUntil(lambda: panel.step == back, timeout=WAIT)
    panel._redraw(force=True)
    curves = panel.curves
    history = curves.history
    assert history.restores and history.restores[-1].to_step == back
    # The blow-up is on the plot: its losses, above the best, are drawn, faded (the plot holds them as log10 on
    # its log scale). How far above depends on which steps were reported (one a chunk of steps, and a chunk may
    # hold most of the blow-up), and the watch calls a loss far above its best at twice the start, too.
    _steps, drawn = curves.abandoned_curves["loss"][0].getData()
    assert np.nanmax(history.abandoned_column(1)[1]) > best_loss
    assert np.nanmax(drawn) == pytest.approx(np.log10(np.nanmax(history.abandoned_column(1)[1])))
    line = curves.restore_lines["loss"][-1]
    assert line.value() == back and line.label.format == f"weights restored to step {back}"
    # The message's steps are the curve's: its point at the best step is that best loss.
    at = {float(s): loss for s, loss in zip(*history.abandoned_column(1)) if np.isfinite(s)}
    at.update(zip(history.steps.tolist(), history.column(1).tolist()))
    if best_step in at:  # reported (a report comes every chunk of steps)
        assert at[best_step] == pytest.approx(best_loss, rel=1e-3)
    # Going on: the curve goes on from the step the weights went back to.
    panel.set_settings(replace(panel.settings, learning_rate=0.03))
    panel.play()
    qtbot.waitUntil(lambda: panel.step > back + 30, timeout=WAIT)
    panel.pause()
    panel._redraw(force=True)
    assert history.steps[0] == 0 and history.steps[-1] > back + 30
    assert len(history.restores) == 1  # going on is no restore


# -- a trained run is never thrown away without a word (issue 30, item 3) -------------------------------------


def _trained(qtbot, panel, steps: int = 30) -> None:
    panel.set_settings(replace(panel.settings, steps_per_second=None, stop_when="epochs", stop_at=float(steps)))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing and panel.step == steps, timeout=WAIT)


@pytest.mark.parametrize("control, value, words", [
    ("activationCombo", "relu", "Another activation starts over"),
    ("datasetCombo", "circles", "Other data starts over"),
    ("problemCombo", "regression", "Another problem starts over"),
])
def test_a_change_that_starts_over_asks_first_as_reset_does(qtbot, panel, control, value, words):
    _trained(qtbot, panel)
    combo = panel.findChild(object, control)
    before = panel.settings
    combo.setCurrentIndex(combo.findData(value))
    box = panel.reset_confirmation.box
    assert box is not None and words in box.text() and "30 steps" in box.text()
    box.findChild(object, "resetCancelButton").click()  # keep the trained network
    qtbot.waitUntil(lambda: panel.reset_confirmation.box is None, timeout=5000)
    assert panel.settings == before and panel.step == 30 and combo.currentData() == getattr(before, {
        "activationCombo": "activation", "datasetCombo": "dataset", "problemCombo": "problem"}[control])
    combo.setCurrentIndex(combo.findData(value))
    panel.reset_confirmation.box.findChild(object, "resetConfirmButton").click()  # start over
    qtbot.waitUntil(lambda: panel.step == 0 and panel.settings != before, timeout=WAIT)


def test_a_change_that_keeps_the_weights_asks_nothing(qtbot, panel):
    _trained(qtbot, panel)
    panel.findChild(object, "learningRateInput").setValue(0.03)
    assert panel.reset_confirmation.box is None and panel.settings.learning_rate == 0.03 and panel.step == 30


# -- messages that no longer hold go (issue 30, item 4) --------------------------------------------------------


def test_a_pause_message_goes_when_the_setting_it_names_changes_even_by_a_lesson(qtbot, panel):
    panel.set_settings(replace(panel.settings, optimizer="momentum", learning_rate=10.0, stop_when="never",
                               steps_per_second=None))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    assert "The learning rate 10 is probably too large for SGD + momentum" in panel.message
    panel.set_settings(replace(panel.settings, optimizer="adam", learning_rate=0.01))  # as lesson 7 step 4 does
    assert panel.message == ""


def test_the_hint_never_says_press_play_while_it_plays(qtbot, panel):
    hint = panel.status.hint_label
    assert hint.toolTip().startswith("Press Play to train")
    panel.set_settings(replace(panel.settings, stop_when="never"))
    panel.play()
    assert "Press Play" not in hint.toolTip() and hint.toolTip().startswith("Training: press Play again to pause")
    panel.pause()
    assert hint.toolTip().startswith("Press Play to train")


# -- a regression speaks of what it does (issue 30, item 5) ----------------------------------------------------


def test_a_regression_stops_at_its_test_r2_names_a_predicted_value_and_draws_an_r2_below_0(qtbot, panel):
    panel.reset_confirmation.set_asks(False)
    panel.findChild(object, "problemCombo").setCurrentIndex(panel.findChild(object, "problemCombo").findData(
        "regression"))
    qtbot.waitUntil(lambda: panel._data is not None and panel._data.settings.regression, timeout=WAIT)
    combo = panel.findChild(object, "stopConditionCombo")
    view = combo.view()
    assert view.isRowHidden(combo.findData("test_accuracy")) and not view.isRowHidden(combo.findData("test_r2"))
    assert panel.boundary_column.title.text() == "PREDICTED VALUE"
    assert [label.text() for label in panel.network_view.canvas._name_labels][-1] == "ŷ"
    combo.setCurrentIndex(combo.findData("test_r2"))
    panel.findChild(object, "stopR2Input").setValue(0.9)
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_r2", 0.9)
    panel.findChild(object, "fastestButton").click()
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    assert re.search(r"the test R² reached (\S+) \(stop at ≥ 0\.9\)", panel.message), panel.message
    # The multi Gaussian starts far below an R² of 0: the R² axis goes down to it, so it is drawn.
    dataset = panel.findChild(object, "datasetCombo")
    dataset.setCurrentIndex(dataset.findData("gaussians"))
    qtbot.waitUntil(lambda: panel.settings.dataset == "gaussians" and panel.step == 0, timeout=WAIT)
    panel.play()
    qtbot.waitUntil(lambda: panel.step > 5, timeout=WAIT)
    panel.pause()
    panel._redraw(force=True)
    lowest = 100 * min(panel.curves.history.column(4))
    assert lowest < 0
    bottom, _top = panel.accuracy_plot.getPlotItem().viewRange()[1]
    assert bottom <= lowest
    back = panel.findChild(object, "problemCombo")
    back.setCurrentIndex(back.findData("classification"))
    qtbot.waitUntil(lambda: not panel._data.settings.regression, timeout=WAIT)
    assert panel.boundary_column.title.text() == "DECISION BOUNDARY"
    assert not view.isRowHidden(combo.findData("test_accuracy")) and view.isRowHidden(combo.findData("test_r2"))


# -- a setup keeps the run's curves (issue 30, item 2) ---------------------------------------------------------


def test_a_setup_keeps_the_curves_and_the_restores_and_opens_with_them(qtbot, panel):
    from playground.training.model.setup_file import from_text, to_dict, to_text

    panel.set_settings(replace(panel.settings, optimizer="momentum", learning_rate=10.0, stop_when="never",
                               steps_per_second=None))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)  # diverged: a restore on the curves
    panel.set_settings(replace(panel.settings, learning_rate=0.03, stop_when="epochs", stop_at=120.0))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing and panel.step == 120, timeout=WAIT)
    history = RunHistory.from_dict(panel.curves.history.to_dict())  # a copy: Reset clears the panel's own
    assert history.restores and history.abandoned
    setup = panel.current_setup()
    saved = to_dict(setup)
    assert saved["version"] == 2 and len(saved["history"]["rows"]) == history.size
    opened = from_text(to_text(setup))  # the text to paste in a message carries them too
    assert to_dict(opened) == saved
    panel.findChild(object, "resetButton").click()  # another run meanwhile
    if panel.reset_confirmation.box is not None:
        panel.reset_confirmation.box.findChild(object, "resetConfirmButton").click()
    qtbot.waitUntil(lambda: panel.step == 0 and panel.curves.history.size <= 1, timeout=WAIT)
    panel.apply_setup(opened)
    qtbot.waitUntil(lambda: panel.step == 120 and panel.curves.history.size >= history.size, timeout=WAIT)
    again = panel.curves.history
    assert np.array_equal(again.steps[:history.size], history.steps)
    assert np.array_equal(again.column(1)[:history.size], history.column(1), equal_nan=True)
    assert again.restores == history.restores and len(again.abandoned) == len(history.abandoned)
    assert again.steps[0] == 0  # the curve from the start, not a single point at the saved step
