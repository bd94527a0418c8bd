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
    assert combo.findData("test_accuracy") == -1 and combo.findData("test_r2") >= 0  # the regression's own only
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
    assert combo.findData("test_accuracy") >= 0 and combo.findData("test_r2") == -1


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


# -- every step on the curves, at every speed (issue 39, item 2) -------------------------------------------------


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
@pytest.mark.parametrize("pace", [None, 1000, 200, 50, 10])
def test_a_diverging_run_keeps_every_step_on_the_loss_curve_up_to_the_step_its_message_names(
        qtbot, panel, optimizer, pace):
    # At "Fastest" a chunk of twenty-odd steps between two frames held the whole blow-up: the curve had 2 points.
    if pace == 10 and optimizer == "sgd":
        pytest.skip("one optimizer is enough at a pace where each tick takes a step")
    panel.set_settings(replace(panel.settings, optimizer=optimizer, learning_rate=10.0, stop_when="never",
                               steps_per_second=pace))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    match = re.search(r"up to step (\d+)|at step (\d+)\.", panel.message)
    assert match is not None, panel.message
    named = int(match.group(1) or match.group(2))
    back = int(re.search(r"The weights are back at step (\d+)", panel.message).group(1))
    qtbot.waitUntil(lambda: panel.step == back, timeout=WAIT)
    panel._redraw(force=True)
    history = panel.curves.history
    # Every step the run took is on the curve, up to the one the message names, blow-up and all.
    steps = np.concatenate([history.trace_column(0), history.abandoned_trace_column(0)[0]])
    assert set(range(named + 1)) <= set(steps[np.isfinite(steps)].astype(int).tolist())
    assert history.last_step == named
    losses = np.concatenate([history.trace_column(1), history.trace_column(2),
                             *(history.abandoned_trace_column(index)[1] for index in (1, 2))])
    losses = losses[np.isfinite(losses) & (losses > 0)]
    assert losses.max() / losses.min() >= 10
    # ... drawn: the plot holds that highest loss (as log10, its log scale), and marks where the weights came from.
    drawn = [curve.getData()[1] for curve in (*panel.curves.step_curves.values(), *panel.curves.abandoned_step_curves)]
    drawn = np.concatenate([values for values in drawn if values is not None and len(values)])
    assert np.nanmax(drawn) == pytest.approx(np.log10(losses.max()))
    if back < named:
        assert history.restores[-1].to_step == back
        assert panel.curves.restore_lines["loss"][-1].value() == back


def test_a_fastest_run_has_every_step_on_its_curve_and_its_full_batch_losses_are_the_train_loss(qtbot, panel):
    panel.set_settings(replace(panel.settings, steps_per_second=None, stop_when="epochs", stop_at=300.0))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing and panel.step == 300, timeout=WAIT)
    history = panel.curves.history
    assert history.size < 300  # a report a chunk of steps
    assert list(history.trace_column(0)) == list(range(300))  # and a loss every step
    # A full batch: a step's own loss is the train loss at that step, the report's to the last digit.
    traced = dict(zip(history.trace_column(0).tolist(), history.trace_column(1).tolist()))
    reports = zip(history.steps.tolist(), history.column(1).tolist())
    reported = [(step, loss) for step, loss in reports if step in traced]
    assert len(reported) > 5
    assert all(traced[step] == pytest.approx(loss, rel=1e-12) for step, loss in reported)
    assert not panel.curves.batches_in_legend and ">batch<" not in panel.loss_plot.getPlotItem().titleLabel.text


def test_minibatches_draw_each_batch_dotted_under_the_train_curve_and_name_it(qtbot, panel):
    panel.set_settings(replace(panel.settings, batch_size=10, steps_per_second=None, stop_when="epochs",
                               stop_at=20.0))
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    panel._redraw(force=True)
    history = panel.curves.history
    assert history.trace_size == panel.step and np.isnan(history.trace_column(1)).all()
    assert np.isfinite(history.trace_column(2)).all()
    assert panel.curves.batches_in_legend and ">batch<" in panel.loss_plot.getPlotItem().titleLabel.text
    pen = panel.curves.step_curves["batch"].opts["pen"]
    assert pen.style() == Qt.PenStyle.DotLine
    # Hovering between two reports reads that step's batch loss.
    curves = panel.curves
    gap = next(step for step in history.trace_column(0) if step not in set(history.steps.tolist()))
    assert curves._step_loss_text(int(gap)).startswith(f"step {int(gap)}\nbatch loss ")


def test_a_long_trace_goes_to_the_plot_in_bounded_points_with_its_spike_and_to_a_file_with_it():
    from playground.training.model.run_history import MAX_DRAWN, MAX_SAVED_ROWS, StepLosses, drawn

    history = RunHistory()
    losses = np.full(50_000, 0.3)
    losses[31_337] = 40.0  # one step's blow-up among fifty thousand
    history.add(0, 0.7, 0.7, 0.5, 0.5)
    history.add_steps(StepLosses(0, losses, True))
    steps, values = drawn(history.trace_column(0), history.trace_column(1))
    assert len(steps) <= MAX_DRAWN and values.max() == 40.0
    saved = history.to_dict()
    assert len(saved["trace"]) <= MAX_SAVED_ROWS and max(row[1] for row in saved["trace"]) == 40.0
    again = RunHistory.from_dict(saved)
    assert again.trace_column(1).max() == 40.0 and again.last_step == 49_999


def test_steps_then_a_report_back_at_an_earlier_step_set_the_steps_past_it_aside():
    from playground.training.model.run_history import StepLosses

    history = RunHistory()
    history.add(0, 0.7, 0.7, 0.5, 0.5)
    history.add_steps(StepLosses(0, np.array([0.7, 0.5, 3.0, 9.0, 30.0]), True))  # steps 0..4, in one chunk
    history.add(1, 0.5, 0.5, 0.6, 0.6)  # diverged: the weights went back to step 1
    assert history.restores == [Restore(1.0, 4.0)]
    assert list(history.trace_column(0)) == [0]
    steps, losses = history.abandoned_trace_column(1)
    assert list(steps) == [1, 2, 3, 4] and list(losses) == [0.5, 3.0, 9.0, 30.0]
    history.add_steps(StepLosses(1, np.array([0.5, 0.45]), True))  # going on from step 1: no restore
    assert len(history.restores) == 1 and list(history.trace_column(0)) == [0, 1, 2]
    history.add(3, 0.4, 0.4, 0.7, 0.7)
    history.add_steps(StepLosses(3, np.array([0.4]), True))  # the report at 3, then the loss computed at 3
    assert len(history.restores) == 1 and list(history.steps) == [0, 1, 3]
