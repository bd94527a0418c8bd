"""The training panel as a person uses it: Play trains two moons live, Pause stops, settings reset only what
they must, divergence pauses with a message, bad files are refused, clicks add points, exports work, and
closing mid-run leaves no thread behind."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QScrollArea, QStyle

from engine.data import load_csv
from playground.common.numbers import format_number
from playground.training.compare import CompareDialog
from playground.training.model.session import TrainingSession
from playground.training.model.settings import Change
from playground.training.panel import TrainingPanel

WAIT = 20_000  # generous: a loaded 2-core machine


def step_count(panel) -> int:
    return int("".join(ch for ch in panel.findChild(object, "stepLabel").text() if ch.isdigit()) or 0)


def wait_paused(qtbot, panel):
    """Until the worker has confirmed the pause (its last report says it is not running) and the step label
    and the boundary show that last report."""
    qtbot.waitUntil(lambda: panel._progress is not None and not panel._progress.running
                    and step_count(panel) == panel.step == panel.weights_step, timeout=WAIT)


def same_weights(a, b) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_controls_have_object_and_accessible_names(panel):
    names = ("trainingPanel", "datasetCombo", "noiseSlider", "pointsSpin", "playButton", "stepButton",
             "resetButton", "optimizerCombo", "learningRateInput", "boundaryPlot", "lossPlot",
             "compareOptimizersButton")
    assert panel.objectName() == "trainingPanel"
    spoken = ("Dataset", "Noise", "Number of points", "Play", "Step", "Reset", "Optimizer", "Learning rate",
              "Decision boundary plot: click, or arrows and Enter, add a point", "Loss curves, train and test",
              "Compare optimizers")
    for name, said in zip(names[1:], spoken, strict=True):  # said by what they do, not by objectName (issue 32)
        widget = panel.findChild(object, name)
        assert widget is not None, name
        assert widget.accessibleName() == said
    # Read-outs are named by what they show, with their value (issue 32): tests/playground/test_colour_cues.py
    for name in ("accuracyLabel", "stepLabel"):
        assert panel.findChild(object, name).accessibleName().startswith(("Test accuracy", "Step"))
    assert panel.findChild(object, "datasetCombo").currentText() == "Two moons"
    assert panel.findChild(object, "pointsSpin").value() == 200
    assert panel.findChild(object, "noiseSlider").value() == 10
    assert panel.findChild(object, "optimizerCombo").currentText() == "Adam"
    assert panel.findChild(object, "learningRateInput").value() == pytest.approx(0.01)
    assert panel.findChild(object, "architectureLabel").text() == "2 → 16 → 16 → 1"


def test_play_trains_the_default_setup_and_updates_the_plots(qtbot, panel):
    first_image = panel.boundary.image.image.copy()
    redraws = panel.boundary_redraws
    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    assert panel.is_playing
    qtbot.waitUntil(lambda: (panel.test_accuracy or 0) >= 0.95, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.findChild(object, "accuracyLabel").text().endswith("%")
                    and float(panel.findChild(object, "accuracyLabel").text().split()[-1][:-1]) >= 95, timeout=WAIT)
    # The curves redraw in turns, so each is waited for on its own.
    curves = panel.curves
    qtbot.waitUntil(lambda: panel.boundary_redraws >= redraws + 5 and curves.train_loss_curve.xData is not None
                    and len(curves.train_loss_curve.xData) >= 5 and curves.test_accuracy_curve.yData is not None
                    and len(curves.test_accuracy_curve.yData) >= 5, timeout=WAIT)
    assert step_count(panel) > 0
    image = panel.boundary.image.image
    assert image.shape[0] >= 150 and image.shape[1] >= 150
    assert not np.array_equal(image, first_image)  # the boundary moved
    losses = panel.curves.train_loss_curve.yData
    assert losses[-1] < losses[0]  # and the loss came down
    contour_x, _ = panel.boundary.contour.getData()
    assert contour_x is not None and len(contour_x) > 10  # the 0.5 line is drawn


def test_pause_stops_the_step_count(qtbot, panel):
    panel.findChild(object, "playButton").click()
    qtbot.waitUntil(lambda: step_count(panel) > 30, timeout=WAIT)
    panel.findChild(object, "playButton").click()
    assert not panel.is_playing and panel.findChild(object, "playButton").text().endswith("Play")
    wait_paused(qtbot, panel)
    stopped = step_count(panel)
    qtbot.wait(400)
    assert step_count(panel) == stopped == panel.worker.session.step
    panel.findChild(object, "stepButton").click()
    qtbot.waitUntil(lambda: step_count(panel) == stopped + 1, timeout=WAIT)

    panel.play()
    qtbot.waitUntil(lambda: step_count(panel) > stopped + 10, timeout=WAIT)
    panel.findChild(object, "resetButton").click()  # stops, asks, and starts over from the initial weights
    assert not panel.is_playing
    panel.reset_confirmation.box.findChild(object, "resetConfirmButton").click()
    qtbot.waitUntil(lambda: step_count(panel) == 0 and panel.weights_step == 0, timeout=WAIT)
    wait_paused(qtbot, panel)
    assert same_weights(panel.weights(), TrainingSession().state_dict())
    # The curves start over (empty for a moment, between the reset and the first report: xData is None then).
    qtbot.waitUntil(lambda: len(panel.curves.train_loss_curve.xData if panel.curves.train_loss_curve.xData is not None
                                else ()) == 1, timeout=WAIT)


def test_changing_the_learning_rate_keeps_the_weights(qtbot, panel):
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": this test is about what the change does
    panel.play()
    qtbot.waitUntil(lambda: step_count(panel) > 40, timeout=WAIT)
    panel.pause()
    wait_paused(qtbot, panel)
    trained, step = panel.weights(), step_count(panel)
    assert step > 40

    panel.findChild(object, "learningRateInput").setValue(0.03)
    qtbot.waitUntil(lambda: panel.last_change == Change.OPTIMIZER, timeout=WAIT)
    assert panel.worker.session.optimizer.lr == pytest.approx(0.03)
    frame = panel._frame
    panel.publish_requested.emit()
    qtbot.waitUntil(lambda: panel._frame is not frame, timeout=WAIT)
    assert same_weights(panel.weights(), trained) and step_count(panel) == step

    panel.findChild(object, "optimizerCombo").setCurrentIndex(1)  # SGD: a fresh optimizer, the same weights
    qtbot.waitUntil(lambda: panel.last_change == Change.OPTIMIZER_KIND, timeout=WAIT)
    frame = panel._frame
    panel.publish_requested.emit()
    qtbot.waitUntil(lambda: panel._frame is not frame, timeout=WAIT)
    assert same_weights(panel.weights(), trained)

    panel.play()  # training goes on from where it was
    qtbot.waitUntil(lambda: step_count(panel) > step + 5, timeout=WAIT)
    panel.pause()

    panel.findChild(object, "noiseSlider").setValue(20)  # new data: a new network from the seed
    qtbot.waitUntil(lambda: panel.last_change == Change.DATA and step_count(panel) == 0, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights() is not None, timeout=WAIT)
    assert not same_weights(panel.weights(), trained)


def test_a_divergent_learning_rate_pauses_with_a_message(qtbot, panel):
    panel.findChild(object, "optimizerCombo").setCurrentIndex(panel.findChild(object, "optimizerCombo").findData("sgd"))
    panel.findChild(object, "lossCombo").setCurrentIndex(panel.findChild(object, "lossCombo").findData("mse"))
    panel.findChild(object, "learningRateInput").setValue(10.0)
    panel.findChild(object, "playButton").click()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=WAIT)
    message = panel.findChild(object, "messageLabel")
    assert message.isVisible() and "Training paused" in message.text() and "learning rate 10" in message.text()
    assert not panel.findChild(object, "playButton").isChecked()
    wait_paused(qtbot, panel)
    qtbot.waitUntil(lambda: not panel._frame_dirty, timeout=WAIT)
    assert np.all(np.isfinite(panel.boundary.image.image))  # no garbage painted
    assert all(np.all(np.isfinite(w)) for w in panel.weights().values())
    assert math.isfinite(panel._progress.metrics.train_loss)


def test_a_bad_csv_is_refused_and_the_data_stays(qtbot, panel, tmp_path):
    before = panel.data
    bad = tmp_path / "bad.csv"
    bad.write_text("x1,x2,label\n0.1,0.2,0\n0.3,oops,1\n")
    assert panel.load_csv(bad) is False
    message = panel.findChild(object, "messageLabel")
    assert message.isVisible() and "line 3" in message.text() and "unchanged" in message.text()
    nine = tmp_path / "nine.csv"
    nine.write_text("".join(f"{i},{i},{i}\n" for i in range(9)))
    assert panel.load_csv(nine) is False and "Could not use nine.csv: " in panel.message
    assert "9 classes" in panel.message
    assert panel.load_csv(tmp_path / "missing.csv") is False
    qtbot.wait(200)
    assert panel.data is before and panel.findChild(object, "datasetCombo").currentData() == "moons"
    assert panel.worker.session.settings.dataset == "moons"

    good = tmp_path / "good.csv"
    rng = np.random.default_rng(0)
    points = rng.normal(size=(40, 2))
    good.write_text("x1,x2,label\n" + "".join(f"{a},{b},{int(a > 0)}\n" for a, b in points))
    assert panel.load_csv(good) is True and panel.message == ""
    qtbot.waitUntil(lambda: panel.data.name == "good.csv", timeout=WAIT)
    assert len(panel.data.X_train) + len(panel.data.X_test) == 40
    assert panel.findChild(object, "datasetCombo").currentText() == "Your CSV: good.csv"
    assert not panel.findChild(object, "pointsSpin").isEnabled()
    assert panel.findChild(object, "pointsSpin").value() == 40  # the file's points, not the moons'


def click_plot(panel, x, y, modifier=Qt.KeyboardModifier.NoModifier):
    plot = panel.findChild(object, "boundaryPlot")
    scene_point = plot.getPlotItem().vb.mapViewToScene(QPointF(x, y))
    QTest.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, modifier, plot.mapFromScene(scene_point))


def test_clicking_the_plot_adds_a_point(qtbot, panel):
    count = len(panel.data.X_train)
    panel.findChild(object, "clickClass1Radio").setChecked(True)
    click_plot(panel, 0.5, 1.5)
    qtbot.waitUntil(lambda: len(panel.data.X_train) == count + 1, timeout=WAIT)
    assert panel.data.y_train[-1] == 1
    assert np.allclose(panel.data.X_train[-1], [0.5, 1.5], atol=0.05)
    click_plot(panel, -0.5, -1.0, Qt.KeyboardModifier.ShiftModifier)  # shift: the other class
    qtbot.waitUntil(lambda: len(panel.data.X_train) == count + 2, timeout=WAIT)
    assert panel.data.y_train[-1] == 0
    assert np.allclose(panel.data.X_train[-1], [-0.5, -1.0], atol=0.05)
    assert panel.worker.session.step == 0  # no reset happened, the weights stay
    assert len(panel.boundary.train[1].data) + len(panel.boundary.train[0].data) == count + 2


def test_closing_the_window_mid_training_leaves_no_thread_running(qtbot, panel, qtlog):
    panel.play()
    qtbot.waitUntil(lambda: step_count(panel) > 20, timeout=WAIT)
    thread = panel.worker_thread
    assert thread.isRunning()
    panel.close()
    assert panel.is_shut_down and thread.isFinished() and not thread.isRunning()
    assert panel.worker.thread() is not thread  # the worker came home to be deleted safely
    step = panel.worker.session.step
    qtbot.wait(200)
    assert panel.worker.session.step == step
    panel.shutdown()  # twice is harmless
    assert not [r for r in qtlog.records if "QThread" in r.message or "Timers" in r.message]


def test_exports_plots_weights_and_data(qtbot, panel, tmp_path):
    panel.findChild(object, "stepButton").click()
    qtbot.waitUntil(lambda: step_count(panel) == 1 and panel.weights_step == 1, timeout=WAIT)
    for which in ("boundary", "loss"):
        panel.export_plot(which, tmp_path / f"{which}.png")
        panel.export_plot(which, tmp_path / f"{which}.svg")
        image = QImage(str(tmp_path / f"{which}.png"))
        assert not image.isNull() and image.width() >= 1200
        assert (tmp_path / f"{which}.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    panel.export_weights(tmp_path / "weights.json")
    document = json.loads((tmp_path / "weights.json").read_text())
    assert document["step"] == 1 and document["architecture"]["hidden"] == [16, 16]
    assert np.array_equal(np.array(document["state_dict"]["0.weight"]), panel.weights()["0.weight"])
    panel.export_dataset(tmp_path / "data.csv")
    X, y = load_csv(tmp_path / "data.csv")
    assert X.shape == (200, 2) and set(y) == {0, 1}
    assert sorted(map(tuple, X)) == sorted(map(tuple, np.concatenate([panel.data.X_train, panel.data.X_test])))


def test_architecture_and_feature_controls_rebuild_the_network(qtbot, panel):
    panel.findChild(object, "addLayerButton").click()
    panel.findChild(object, "featureX1SquaredCheck").setChecked(True)
    assert panel.findChild(object, "architectureLabel").text() == "3 → 16 → 16 → 16 → 1"
    qtbot.waitUntil(lambda: panel.weights() is not None and panel.weights()["0.weight"].shape == (16, 3)
                    and "6.weight" in panel.weights(), timeout=WAIT)
    panel.findChild(object, "layer1Spin").setValue(4)
    qtbot.waitUntil(lambda: panel.weights() is not None and panel.weights()["0.weight"].shape == (4, 3), timeout=WAIT)
    for _ in range(3):
        panel.findChild(object, "removeLayerButton").click()
    assert panel.findChild(object, "architectureLabel").text() == "3 → 1"
    for name in ("featureX1Check", "featureX2Check", "featureX1SquaredCheck"):
        panel.findChild(object, name).setChecked(False)
    assert panel.findChild(object, "featureX1SquaredCheck").isChecked()  # the last feature stays
    assert "at least one input feature" in panel.message


def test_hovering_the_loss_plot_shows_the_values(qtbot, panel):
    panel.play()
    curve = panel.curves.train_loss_curve
    qtbot.waitUntil(lambda: curve.xData is not None and len(curve.xData) > 10, timeout=WAIT)
    panel.pause()
    wait_paused(qtbot, panel)
    panel._redraw(force=True)
    plot = panel.findChild(object, "lossPlot")
    step = panel.curves.train_loss_curve.xData[3]
    y = (plot.getPlotItem().vb.viewRange()[1][0] + plot.getPlotItem().vb.viewRange()[1][1]) / 2
    panel.curves.loss_readout.show_at(plot.getPlotItem().vb.mapViewToScene(QPointF(step, y)))
    readout = panel.curves.loss_readout.text
    assert readout.startswith(f"step {format_number(step)}") and "train loss" in readout
    # The mouse stays while training goes on: the readout reads the report now under it, not the old one.
    x_before = panel.curves.loss_readout.line.value()
    readout = panel.curves.loss_readout  # the axis moved under the mouse (the reports' steps and every step's)
    readout.set_steps(readout.steps * 2, readout.traced * 2)
    assert panel.curves.loss_readout.line.value() != x_before
    panel.findChild(object, "lossLogCheck").setChecked(False)
    assert not plot.getPlotItem().ctrl.logYCheck.isChecked()


def test_a_warning_takes_the_hint_s_place_and_moves_no_control(qtbot, panel):
    play = panel.findChild(object, "playButton")
    plot = panel.findChild(object, "boundaryPlot")
    before = (play.mapTo(panel, play.rect().topLeft()), plot.mapTo(panel, plot.rect().topLeft()))
    panel.show_message("Training paused: the loss exploded")
    qtbot.wait(20)
    assert panel.status.message_label.isVisible() and not panel.status.hint_label.isVisible()
    assert (play.mapTo(panel, play.rect().topLeft()), plot.mapTo(panel, plot.rect().topLeft())) == before
    qtbot.mouseClick(panel.findChild(object, "dismissMessageButton"), Qt.MouseButton.LeftButton)
    assert panel.message == "" and panel.status.hint_label.isVisible()


def test_a_new_loss_starts_new_curves_and_keeps_the_weights(qtbot, panel):
    panel.play()
    qtbot.waitUntil(lambda: panel.step > 100, timeout=WAIT)
    panel.pause()
    wait_paused(qtbot, panel)
    step = panel.step
    panel._redraw(force=True)
    panel.curves.loss_readout.show_at(panel.curves.loss_plot.getPlotItem().vb.mapViewToScene(QPointF(50, -1)))
    assert panel.curves.loss_readout.text
    panel.findChild(object, "lossCombo").setCurrentIndex(panel.findChild(object, "lossCombo").findData("mse"))
    qtbot.waitUntil(lambda: panel.last_change is not None and panel.curves.loss == "mse", timeout=WAIT)
    assert panel.curves.history.size == 0 and panel.curves.loss_readout.text == ""  # no BCE values on an MSE plot
    panel.step_requested.emit()
    qtbot.waitUntil(lambda: panel.step == step + 1, timeout=WAIT)  # the weights and the count go on
    qtbot.waitUntil(lambda: panel.curves.history.size >= 1, timeout=WAIT)
    assert panel.curves.history.steps[0] > step - 1


def test_network_controls_fit_six_layers_and_no_layer_has_no_activation(panel):
    for _ in range(6):
        panel.findChild(object, "addLayerButton").click()
    area = panel.network_controls.parentWidget().parentWidget().parentWidget()
    assert isinstance(area, QScrollArea)
    room = area.width() - area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    assert area.widget().minimumSizeHint().width() <= room  # nothing cut off on the right, even with a scroll bar
    for _ in range(8):
        panel.findChild(object, "removeLayerButton").click()
    assert panel.findChild(object, "architectureLabel").text() == "2 → 1"
    assert not panel.findChild(object, "activationCombo").isEnabled()


def test_compare_optimizers_races_from_the_same_weights(qtbot, panel):
    button = panel.findChild(object, "compareOptimizersButton")
    qtbot.waitUntil(button.isEnabled, timeout=5000)  # once the worker has made the points
    button.click()
    dialog = panel.findChild(CompareDialog, "compareDialog")
    assert dialog is not None and dialog.isVisible()
    # A fair race: each optimizer at a rate it does well at, the panel's Adam at the panel's 0.01 (issue 30)
    rates = {name: box.value() for name, box in dialog.rate_inputs.items()}
    assert rates == pytest.approx({"SGD": 0.1, "Momentum": 0.1, "Adam": panel.settings.learning_rate})
    qtbot.waitUntil(lambda: dialog.finished_race, timeout=60_000)
    qtbot.waitUntil(lambda: all(len(h) > 5 for h in dialog._history.values()), timeout=WAIT)
    starts = {name: history[0][1] for name, history in dialog._history.items()}
    assert max(starts.values()) == pytest.approx(min(starts.values()))  # same initial weights, same loss
    finals = {name: history[-1][1] for name, history in dialog._history.items()}
    assert finals["Adam"] < finals["SGD"]
    qtbot.waitUntil(lambda: all(view.redraws > 0 for view in dialog.views.values()), timeout=WAIT)
    qtbot.waitUntil(lambda: "Adam: step 1000," in dialog.titles["Adam"].text(), timeout=WAIT)
    dialog.close()
    assert dialog.worker is None


def test_training_runs_off_the_gui_thread(qtbot, monkeypatch):
    import threading

    threads = set()
    original = TrainingSession.train_steps

    def recording(self, *args, **kwargs):
        threads.add(threading.get_ident())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(TrainingSession, "train_steps", recording)
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.play()
    qtbot.waitUntil(lambda: panel.step > 10, timeout=WAIT)
    panel.shutdown()
    assert threads and threading.get_ident() not in threads
