"""Gradient health: each layer's weight-gradient norm per step, logged by the session as it trains, sent
as copies and drawn on a log scale one line per layer; through six sigmoid layers the first layer's
gradient is orders of magnitude below the output layer's (it vanishes), through tanh much less so."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.nn import Linear
from playground.training.gradient_plot import layer_colour
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings

WAIT = 20_000
SIX = (8, 8, 8, 8, 8, 8)


def first_over_last(session: TrainingSession) -> float:
    norms = session.gradient_log.norms[0]
    return float(norms[0] / norms[-1])


@pytest.mark.parametrize("seed", range(4))
def test_through_six_sigmoid_layers_the_first_layers_gradient_vanishes(seed):
    sigmoid = TrainingSession(TrainingSettings(seed=seed, hidden=SIX, activation="sigmoid"))
    tanh = TrainingSession(TrainingSettings(seed=seed, hidden=SIX, activation="tanh"))
    sigmoid.train_steps(1)
    tanh.train_steps(1)
    print(f"seed {seed}: first/output layer gradient norm, sigmoid {first_over_last(sigmoid):.2e}, "
          f"tanh {first_over_last(tanh):.2e}")
    assert first_over_last(sigmoid) < 1e-3
    assert first_over_last(tanh) > 1e-2


def test_the_log_holds_every_steps_norms_as_the_weights_gradients_had_them():
    session = TrainingSession(TrainingSettings(batch_size=20))
    linears = [m for m in session.model.modules if isinstance(m, Linear)]
    for step in range(1, 6):
        session.train_steps(1)
        expected = [np.linalg.norm(layer.weight.grad) for layer in linears]
        assert session.gradient_log.norms[-1] == pytest.approx(expected, rel=1e-12)
        assert session.gradient_log.steps[-1] == step
    frame = session.health()
    assert frame.norms.shape == (5, 3) and list(frame.steps) == [1, 2, 3, 4, 5]
    frame.norms[:] = 0  # a copy: the log is untouched
    assert np.all(session.gradient_log.norms > 0)
    assert frame.activations == ("tanh", "tanh", None) and frame.saturated[0] is not None
    session.reset()
    assert session.gradient_log.size == 0


def test_the_plot_shows_six_sigmoid_layers_gradients_orders_of_magnitude_apart(qtbot, panel):
    plot = panel.curves.gradient_health
    assert panel.findChild(object, "gradientHealthPlot").accessibleName() and not plot.isVisible()
    check = panel.findChild(object, "gradientHealthCheck")
    assert check.accessibleName()
    check.setChecked(True)
    assert plot.isVisible() and plot.plot.height() >= 140
    panel.set_settings(replace(panel.settings, hidden=SIX, activation="sigmoid", steps_per_second=None,
                               stop_when="never"))
    panel.play()
    qtbot.waitUntil(lambda: plot.frame is not None and len(plot.frame.steps) >= 50, timeout=WAIT)
    panel.pause()
    qtbot.wait(200)
    norms = plot.last_norms()
    visible = [line for line in plot.lines if line.isVisible()]
    assert len(norms) == 7 and len(visible) == 7
    assert [line.pen.color().name().upper() for line in visible] == [layer_colour(i).upper()
                                                                               for i in range(7)]
    # the lines are the worker's numbers (pyqtgraph keeps log10 of them on a log axis)
    first, last = visible[0].getData()[1], visible[-1].getData()[1]
    assert first[0] == pytest.approx(np.log10(plot.frame.norms[0, 0])) and len(first) == len(plot.frame.steps)
    ratio = plot.frame.norms[0, 0] / plot.frame.norms[0, -1]
    print(f"step {plot.frame.steps[0]:.0f}: first layer's gradient norm {plot.frame.norms[0, 0]:.2e}, "
          f"the output layer's {plot.frame.norms[0, -1]:.2e} (ratio {ratio:.1e})")
    assert ratio < 1e-3  # at the start, orders of magnitude apart: the gradient vanishes on its way down
    assert last[0] - first[0] > 3  # and so the lines start more than three decades apart on the plot
    assert plot.plot.getPlotItem().ctrl.logYCheck.isChecked()
    assert "saturated" in plot.shares_label.text() and "layer 6" in plot.shares_label.text()


def test_dead_relus_are_counted_per_layer(qtbot, panel):
    plot = panel.curves.gradient_health
    panel.set_settings(replace(panel.settings, activation="relu", learning_rate=1.0, steps_per_second=None,
                               stop_when="never"))
    panel.play()
    qtbot.waitUntil(lambda: plot.frame is not None and len(plot.frame.steps) >= 100, timeout=WAIT)
    panel.pause()
    qtbot.wait(200)
    dead = plot.frame.dead
    print(f"dead ReLU shares per layer: {dead}")
    assert dead[0] is not None and dead[1] is not None and dead[2] is None
    assert "dead" in plot.shares_label.text()
