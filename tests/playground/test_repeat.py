"""Repeat (issue 40, item 3): the tab's setup trained several times, each run from initial weights of its own on
the same points, their test-loss curves on one plot, the spread of their ends, each run's boundary; a run pressed
becomes the tab's. The same for a second setup beside it."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt

from playground.training.model.repeat import (
    RepeatRuns,
    groups_for,
    loss_on_test_points,
    run_seeds,
    spread_of,
    thumbnail_words,
)
from playground.training.model.session import TrainingSession, TrainingSettings

WAIT = 60_000
XOR_RELU_3 = TrainingSettings(dataset="xor", points=200, noise=0.1, test_fraction=0.5, hidden=(3,),
                              activation="relu", optimizer="sgd", learning_rate=0.1, batch_size=10, stop_when="never")


# -- the model, without Qt ------------------------------------------------------------------------------------


def test_runs_share_the_points_and_the_batches_and_differ_in_their_initial_weights_alone():
    data = TrainingSession(XOR_RELU_3).data
    runs = RepeatRuns(groups_for(XOR_RELU_3), data, 4, 60)
    assert run_seeds(XOR_RELU_3, 4) == [0, 1, 2, 3]
    first = [session.state_dict()["0.weight"] for session in runs.sessions]
    assert all(not np.array_equal(first[0], other) for other in first[1:])  # other initial weights
    assert all(np.array_equal(session.data.X_train, data.X_train) for session in runs.sessions)
    # Run 0 is the tab's own run taken again: the same weights after the same steps.
    tab = TrainingSession(XOR_RELU_3, data=data)
    tab.train_steps(60)
    while not runs.done:
        runs.advance(25)
    assert all(session.step == 60 for session in runs.sessions)
    assert np.allclose(runs.sessions[0].state_dict()["0.weight"], tab.state_dict()["0.weight"], rtol=0, atol=0)
    curve = runs.curves[0]
    assert curve.steps[0] == 0 and curve.steps[-1] == 60 and curve.converged == pytest.approx(loss_on_test_points(tab))
    spread = runs.spread(0)
    ends = sorted(c.converged for c in runs.curves)
    assert (spread.lowest, spread.highest, spread.median) == (ends[0], ends[-1], pytest.approx(np.median(ends)))
    # A run taken on by the tab: its seed, its step, its weights; the points are the settings' own (not carried).
    setup = runs.setup_of(2)
    assert setup.settings.init_seed == 2 and setup.step == 60 and setup.data is None
    assert np.array_equal(setup.weights["0.weight"], runs.sessions[2].state_dict()["0.weight"])


def test_a_second_setup_differs_in_one_setting_and_is_refused_when_it_does_not():
    groups = groups_for(XOR_RELU_3, ("activation", "tanh"))
    assert [g.name for g in groups] == ["This setup", "Tanh"] and groups[1].settings.activation == "tanh"
    assert groups_for(XOR_RELU_3, ("init", "xavier"))[1].name == "Xavier / Glorot"
    with pytest.raises(ValueError, match="must differ"):
        groups_for(XOR_RELU_3, ("activation", "relu"))
    with pytest.raises(ValueError, match="compares"):
        groups_for(XOR_RELU_3, ("dataset", "moons"))
    with pytest.raises(ValueError, match="2 to 10 runs"):
        RepeatRuns(groups, TrainingSession(XOR_RELU_3).data, 11, 10)


def test_a_diverging_run_is_marked_and_left_out_of_the_spread():
    settings = replace(XOR_RELU_3, learning_rate=10.0, optimizer="adam", batch_size=None, hidden=(16, 16))
    runs = RepeatRuns(groups_for(settings), TrainingSession(settings).data, 3, 200)
    while not runs.done:
        runs.advance(50)
    diverged = [curve for curve in runs.curves if curve.diverged]
    assert diverged and all(math.isnan(curve.converged) for curve in diverged)
    spread = runs.spread(0)
    assert spread is None or spread.diverged == len(diverged)
    assert spread_of([math.nan, 0.2, 0.4], 1).ratio == pytest.approx(2.0)


def _link_with_first_progress(steps: int):
    import time

    from playground.training.model.repeat_process import RepeatJob, RepeatLink, RepeatProgress

    data = TrainingSession(XOR_RELU_3).data
    link = RepeatLink(RepeatJob(tuple(groups_for(XOR_RELU_3)), data, 3, steps))
    deadline, taken = time.monotonic() + 60, []
    while not any(isinstance(m, RepeatProgress) and m.step > 0 for m in taken) and time.monotonic() < deadline:
        taken += link.take()
        time.sleep(0.02)
    assert not link.broken and taken, "the process never sent its progress"
    return link, taken


def test_repeat_s_process_sends_its_runs_and_stops_when_asked(capfd):
    from playground.training.model.repeat_process import RepeatPictures, RepeatProgress

    link, taken = _link_with_first_progress(10_000_000)
    assert isinstance(taken[0], RepeatProgress) and taken[0].step == 0 and len(taken[0].curves) == 3
    assert any(isinstance(m, RepeatPictures) and len(m.boundaries) == 3 for m in taken)
    process = link._process
    link.close()  # mid-run, as a closed dialog does
    assert process.poll() is not None and not link.finished
    assert "Traceback" not in capfd.readouterr().err


def test_repeat_s_process_ends_quietly_when_the_app_goes_without_a_word(capfd):
    link, _taken = _link_with_first_progress(10_000_000)
    process = link._process
    link._connection.close()  # no "stop": the app's end simply gone, as in a crash
    process.wait(timeout=20)
    assert "Traceback" not in capfd.readouterr().err


def test_a_thumbnail_is_the_boundary_in_the_plot_s_colours_top_row_first():
    picture = np.zeros((4, 4), dtype=np.float32)
    picture[0] = 1.0  # the plane's bottom row: class 1
    words = thumbnail_words(picture, True, False)
    assert words.dtype == np.uint32 and words.shape == (4, 4)
    assert len(set(words[-1].tolist())) == 1 and words[-1, 0] != words[0, 0]  # drawn at the bottom


# -- through the window ----------------------------------------------------------------------------------------


def test_repeat_through_the_tab_shows_every_run_their_spread_and_makes_a_pressed_run_the_tab_s(qtbot, panel):
    panel.set_settings(replace(XOR_RELU_3, steps_per_second=None))
    qtbot.waitUntil(lambda: panel.data is not None and panel.settings.dataset == "xor", timeout=WAIT)
    button = panel.toolbar.repeat_button
    qtbot.waitUntil(button.isEnabled, timeout=WAIT)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    dialog = panel.dialogs.repeat
    assert dialog is not None and dialog.isVisible() and not panel.is_playing
    dialog.runs_spin.setValue(4)
    dialog.steps_spin.setValue(300)
    dialog.compare_combo.setCurrentIndex(dialog.compare_combo.findData("activation"))
    dialog.activation_combo.setCurrentIndex(dialog.activation_combo.findData("tanh"))
    qtbot.mouseClick(dialog.repeat_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.progress is not None and dialog.progress.done, timeout=WAIT)
    dialog._on_redraw_timer_timeout()
    assert len(dialog.curves) == 8 and len(dialog.thumbnails) == 8
    for plotted, curve in zip(dialog.curves, dialog.progress.curves):
        xs, _ys = plotted.getData()
        assert xs[-1] == 300 and curve.steps[-1] == 300
    # The spread in words, of the numbers the runs ended at, each setup its own line.
    ends = sorted(c.converged for c in dialog.progress.curves if c.group == 0)
    words = dialog.spread_labels[0].text()
    assert words.startswith("This setup, 4 runs: test loss at the end lowest") and f"{ends[0]:.3f}" in words
    assert f"highest {ends[-1]:.3f}" in words and dialog.spread_labels[1].text().startswith("Tanh, 4 runs")
    # Each run's picture is a button a screen reader names, its boundary as its icon.
    third = dialog.thumbnails[2]
    assert not third.icon().isNull() and third.accessibleName().startswith("Run 3, This setup, seed 2")
    # They trained in a process of their own, to the very numbers the same runs reach here.
    assert dialog.worker is None and dialog.link is not None and dialog.link.finished
    while not dialog.runs.done:
        dialog.runs.advance(100)
    expected = dialog.runs.sessions[2].state_dict()["0.weight"].copy()
    assert [c.test_losses for c in dialog.runs.curves] == [c.test_losses for c in dialog.progress.curves]
    # Pressed, it becomes the tab's run: its seed, its step and its weights.
    qtbot.mouseClick(third, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.step == 300 and panel.settings.init_seed == 2, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights() is not None and np.array_equal(panel.weights()["0.weight"], expected),
                    timeout=WAIT)
    assert third.isChecked() and "now has run 3 (This setup, seed 2) at step 300:" in dialog.status_label.text()
    dialog.close()
    assert dialog.worker is None and dialog.link is None


def test_where_its_process_cannot_start_repeat_trains_its_runs_in_a_thread(qtbot, panel, monkeypatch):
    from playground.training.model import repeat_process

    def no_process(*_arguments, **_keywords):
        raise OSError("no processes here")

    monkeypatch.setattr(repeat_process, "start_child", no_process)
    panel.set_settings(replace(XOR_RELU_3, steps_per_second=None))
    qtbot.waitUntil(lambda: panel.data is not None and panel.settings.dataset == "xor", timeout=WAIT)
    qtbot.waitUntil(panel.toolbar.repeat_button.isEnabled, timeout=WAIT)
    qtbot.mouseClick(panel.toolbar.repeat_button, Qt.MouseButton.LeftButton)
    dialog = panel.dialogs.repeat
    dialog.runs_spin.setValue(2)
    dialog.steps_spin.setValue(100)
    qtbot.mouseClick(dialog.repeat_button, Qt.MouseButton.LeftButton)
    assert dialog.link is None and dialog.worker is not None
    qtbot.waitUntil(lambda: dialog.progress is not None and dialog.progress.done and not dialog.is_running,
                    timeout=WAIT)
    assert all(curve.steps[-1] == 100 for curve in dialog.progress.curves)
    dialog.close()
    assert dialog.worker is None


def test_repeat_trains_the_editor_s_graph_when_the_tab_does(qtbot, panel):
    from playground.graph.expression import parse_expression

    graph = ("X = points(); W1 = randn(2, 4, seed=0); b1 = zeros(4); W2 = randn(4, 1, seed=1); b2 = zeros(1); "
             "out = tanh(X @ W1 + b1) @ W2 + b2")
    panel.set_settings(replace(XOR_RELU_3, steps_per_second=None))
    qtbot.waitUntil(lambda: panel.data is not None and panel.settings.dataset == "xor", timeout=WAIT)
    panel.train_graph(parse_expression(graph))
    qtbot.waitUntil(lambda: panel.settings.trains_graph and panel.toolbar.repeat_button.isEnabled(), timeout=WAIT)
    dialog = panel.dialogs.open_repeat(2, 50)
    assert not dialog.status_label.text().startswith("Cannot repeat"), dialog.status_label.text()
    assert not dialog.repeat_button.isEnabled()  # the drawn values are every run's first: the runs would be alike
    qtbot.waitUntil(lambda: not dialog.is_running and dialog.progress is not None and dialog.progress.done,
                    timeout=WAIT)
    first, second = dialog.progress.curves
    assert first.steps[-1] == second.steps[-1] == 50 and first.test_losses == second.test_losses
    setup = dialog._setups[1]
    assert setup.graph is not None and setup.settings.trains_graph and setup.step == 50
    dialog.close()


def test_another_activation_is_every_layer_s_even_where_the_layers_differ():
    settings = replace(XOR_RELU_3, hidden=(3, 3), activations=("relu", "tanh"))
    second = groups_for(settings, ("activation", "sigmoid"))[1].settings
    assert second.activations == () and second.activation == "sigmoid"
