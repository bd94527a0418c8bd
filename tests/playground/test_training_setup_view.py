"""A setup pasted or opened in a running tab is drawn like any other run: the decision boundary's map fills
the plot (the plane drawn over the data's square, behind whatever part of it the plot shows), and the
curves, which a setup does not carry, start at the setup's step and grow from there."""

from __future__ import annotations

from dataclasses import replace

import pytest

from playground.training.panel import TrainingPanel

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.resize(1300, 900)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
    yield panel
    panel.shutdown()


def map_covers_plot(panel) -> bool:
    image = panel.boundary.image.mapRectToScene(panel.boundary.image.boundingRect())
    area = panel.boundary_plot.getPlotItem().vb.sceneBoundingRect()
    return (image.top() <= area.top() + 2 and image.bottom() >= area.bottom() - 2
            and image.left() <= area.left() + 2 and image.right() >= area.right() - 2)


def take_steps(qtbot, panel, count: int) -> None:
    for _ in range(count):
        target = panel.step + 1
        panel.step_requested.emit()
        qtbot.waitUntil(lambda target=target: panel.step == target, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights_step == panel.step, timeout=WAIT)


def painted(panel, step: int) -> bool:
    """The frame of the current run at ``step`` is on the plot."""
    frame = panel._frame
    return frame is not None and frame.run == panel._run and frame.step == step and not panel._frame_dirty


@pytest.mark.parametrize("reset_between", [False, True])
def test_a_pasted_setup_s_map_fills_the_plot(qtbot, panel, reset_between):
    qtbot.waitUntil(lambda: map_covers_plot(panel), timeout=WAIT)
    take_steps(qtbot, panel, 5)
    setup = panel.current_setup()
    if reset_between:
        panel.reset_requested.emit()
        qtbot.waitUntil(lambda: painted(panel, 0), timeout=WAIT)
    run = panel._run
    panel.apply_setup(setup)
    qtbot.waitUntil(lambda: panel._run > run and painted(panel, 5), timeout=WAIT)
    assert map_covers_plot(panel)
    # The plane drawn is the data's square, which holds every view the plot shows.
    assert panel._frame.extent == pytest.approx(panel.data.extent)


def test_the_curves_of_a_pasted_setup_start_at_its_step_and_grow_from_there(qtbot, panel):
    take_steps(qtbot, panel, 60)
    # A setup written before setups kept their curves (version 1, weights and no history): its curves start at
    # its step. One that keeps them opens with them (test_training_run_story).
    setup = replace(panel.current_setup(), history=None)
    panel.reset_requested.emit()
    qtbot.waitUntil(lambda: painted(panel, 0), timeout=WAIT)
    panel.apply_setup(setup)
    qtbot.waitUntil(lambda: painted(panel, 60), timeout=WAIT)
    panel._redraw(force=True)
    for plot in (panel.loss_plot, panel.accuracy_plot):
        (left, right), _ = plot.getPlotItem().vb.viewRange()
        # The axis begins at the setup's step (no empty stretch from 0 with everything at its right end),
        # and the one report there is a dot with room to its right for the steps to come.
        assert 55 <= left <= 60 and 100 <= right - left <= 300
        # The step the curves start at is labelled, and the dot there is clear of the left axis.
        axis = plot.getPlotItem().getAxis("bottom")
        (_, major), *_ = axis.tickValues(left, right, axis.geometry().width())
        assert 60.0 in major and "60" in axis.tickStrings(major, 1.0, 20.0)
        assert left < 59
    assert panel.curves.train_loss_curve.opts["symbol"] == "o"
    take_steps(qtbot, panel, 10)
    panel._redraw(force=True)
    steps = panel.curves.train_loss_curve.xData
    assert steps[0] == 60 and steps[-1] == 70 and len(steps) == 11
    assert panel.curves.train_loss_curve.opts["symbol"] is None
    (left, right), _ = panel.loss_plot.getPlotItem().vb.viewRange()
    assert 55 <= left <= 60 and right >= 70
    # A reset starts the axis at 0 again.
    panel.reset_requested.emit()
    qtbot.waitUntil(lambda: painted(panel, 0) and panel.curves.history.size == 1, timeout=WAIT)
    panel._redraw(force=True)
    (left, right), _ = panel.loss_plot.getPlotItem().vb.viewRange()
    assert left <= 0 < right
