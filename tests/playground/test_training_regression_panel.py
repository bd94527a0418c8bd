"""Regression on the Training tab: problemCombo switches to the plane with one linear output and MSE, the
run reaches a test R² of 0.95 at Fastest, and the figures, curves and status say R² and MAE where a
classification says accuracy; back to classification, the moons return."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

WAIT = 20_000


def test_regression_on_the_plane_reaches_a_test_r2_of_095_within_10_seconds_at_fastest(qtbot, panel):
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": this test is about what the change does
    problem = panel.findChild(object, "problemCombo")
    assert problem.accessibleName() and [problem.itemText(i) for i in range(problem.count())] == \
        ["Classification", "Regression"]
    datasets = panel.findChild(object, "datasetCombo")
    assert not datasets.model().item(datasets.findData("plane")).isEnabled()  # a classification's list
    problem.setCurrentIndex(problem.findData("regression"))
    s = panel.settings
    assert (s.problem, s.dataset, s.loss, s.layer_sizes) == ("regression", "plane", "mse", (2, 16, 16, 1))
    assert datasets.model().item(datasets.findData("gaussians")).isEnabled()
    assert not datasets.model().item(datasets.findData("moons")).isEnabled()
    losses = panel.findChild(object, "lossCombo")
    assert losses.model().item(losses.findData("huber")).isEnabled()
    assert not losses.model().item(losses.findData("bce")).isEnabled()
    qtbot.waitUntil(lambda: panel.worker.session.settings.problem == "regression", timeout=WAIT)
    qtbot.waitUntil(lambda: panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
    panel.set_settings(replace(panel.settings, steps_per_second=None, stop_when="never"))
    start = time.perf_counter()
    panel.play()
    reached = []

    def good() -> bool:
        progress = panel._progress
        if progress is not None and progress.metrics.test_r2 is not None and progress.metrics.test_r2 >= 0.95:
            reached.append((progress.metrics.step, time.perf_counter() - start))
            return True
        return False

    qtbot.waitUntil(good, timeout=10_000)
    panel.pause()
    step, seconds = reached[0]
    print(f"test R² ≥ 0.95 at step {step}, {seconds:.2f} s after Play at Fastest")
    qtbot.wait(200)
    accuracy = panel.findChild(object, "accuracyLabel").text()
    assert accuracy.startswith("Test R² ") and float(accuracy.split()[-1].replace("−", "-")) >= 0.9
    assert panel.findChild(object, "testMaeLabel").isVisible()
    assert not panel.curves.confusion.isVisible()
    assert panel.curves.history.size > 0 and np.nanmax(panel.curves.history.column(4)) >= 0.95
    assert "R²" in panel.summary and "MAE" in panel.summary
    assert panel.boundary.regression and panel.boundary.levels[1] > 1.0

    problem.setCurrentIndex(problem.findData("classification"))
    s = panel.settings
    assert (s.problem, s.dataset, s.loss) == ("classification", "moons", "bce")
    qtbot.waitUntil(lambda: not panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
    assert panel.curves.confusion.isVisibleTo(panel.curves) and problem.currentIndex() == 0
