"""The curve plots read well: legends above the data, never on it; the accuracy axis labels 0 and 100; the
log loss axis writes every decade the same way; train and test curves that coincide both stay visible."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from playground.training.axes import LossAxis, power_of_ten
from playground.training.curves import CurvesColumn
from playground.training.model.session import Metrics
from playground.training.widgets import CURVE_PENS


def drawn_labels(axis) -> list[str]:
    """The tick labels pyqtgraph decides to draw on ``axis`` at its current size and range."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in texts]


@pytest.fixture
def curves(qtbot):
    column = CurvesColumn("bce")
    qtbot.addWidget(column)
    column.resize(420, 720)
    column.show()
    qtbot.waitExposed(column)
    return column


def feed(column, steps, train_loss, test_loss, train_accuracy, test_accuracy):
    for step, a, b, c, d in zip(steps, train_loss, test_loss, train_accuracy, test_accuracy):
        column.add(Metrics(int(step), float(a), float(b), float(c), float(d)))
    column.draw("loss")
    column.draw("accuracy")


def test_legends_sit_above_the_data_not_on_it(curves):
    for plot in curves.plots:
        item = plot.getPlotItem()
        assert item.legend is None  # no legend box inside the data
        title = item.titleLabel
        assert "train" in title.text and "test" in title.text
        legend_box = title.mapRectToScene(title.boundingRect())
        data_box = item.vb.sceneBoundingRect()
        assert legend_box.height() > 5 and legend_box.bottom() <= data_box.top() + 1


def test_the_accuracy_axis_labels_100_while_the_curve_sits_there(qtbot, curves):
    steps = np.arange(0, 400, 10)
    feed(curves, steps, np.full(40, 0.01), np.full(40, 0.01), np.ones(40), np.ones(40))
    qtbot.wait(50)
    labels = drawn_labels(curves.accuracy_plot.getPlotItem().getAxis("left"))
    assert "100" in labels and "0" in labels
    curves.accuracy_plot.resize(300, 120)  # a short plot still has its 100
    qtbot.wait(50)
    assert "100" in drawn_labels(curves.accuracy_plot.getPlotItem().getAxis("left"))


def test_the_log_loss_axis_writes_every_decade_as_a_power_of_ten(qtbot, curves):
    steps = np.arange(0, 500, 10)
    losses = np.logspace(-0.2, -5.5, 50)  # 0.63 down to 3e-6: the axis spans 10^0 to 10^-6
    feed(curves, steps, losses, losses * 1.1, np.ones(50), np.ones(50))
    qtbot.wait(50)
    labels = [text for text in drawn_labels(curves.loss_plot.getPlotItem().getAxis("left")) if text]
    assert len(labels) >= 3
    assert all(re.fullmatch("10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+", text) for text in labels), labels  # no 0.001 beside 10⁻⁵
    # Every decade or every other one, as the axis' height and the font allow (a test before may leave a larger font).
    assert "10⁻²" in labels and ("10⁻⁵" in labels or "10⁻⁶" in labels)
    assert power_of_ten(0) == "10⁰" and power_of_ten(-12) == "10⁻¹²"
    # Less than a decade in view: no pile of 0.2 0.3 ... 0.9 labels, only the decades.
    axis = LossAxis(orientation="left")
    axis.setLogMode(y=True)
    minor = axis.tickValues(-1.0, 0.0, 200)[1][1]
    assert axis.tickStrings(minor, 1.0, None) == [""] * len(minor)
    # Less than a decade's two ends (the TF Playground's losses near 0.5): the numbers in view, never none.
    values = axis.tickValues(math.log10(0.4), math.log10(0.6), 200)
    assert len(values) == 1 and axis.tickStrings(values[0][1], 1.0, values[0][0]) == ["0.4", "0.6"]
    for low, high, said in ((0.406, 0.578, ["0.45", "0.5", "0.55"]), (0.5001, 0.5003, ["0.5001", "0.5002", "0.5003"])):
        values = axis.tickValues(math.log10(low), math.log10(high), 240)
        assert axis.tickStrings(values[0][1], 1.0, values[0][0]) == said
    tight = axis.tickValues(math.log10(0.11), math.log10(0.99), 200)[0][1]
    assert np.min(np.diff(tight)) * 200 / math.log10(9) >= 18  # no two labels on top of each other
    axis.setLogMode(y=False)  # linear: the app's number format, no float noise
    assert axis.tickStrings([0.30000000000000004, 1.0], 1.0, 0.1) == ["0.3", "1"]


def test_train_and_test_curves_that_coincide_both_stay_visible(qtbot, curves):
    steps = np.arange(0, 300, 10)
    accuracy = np.linspace(0.5, 1.0, 30)
    feed(curves, steps, np.full(30, 0.3), np.full(30, 0.3), accuracy, accuracy)  # identical curves
    qtbot.wait(50)
    image = curves.accuracy_plot.grab().toImage()
    pixels = np.array([[image.pixelColor(x, y).getRgb()[:3] for x in range(0, image.width(), 2)]
                       for y in range(0, image.height(), 2)], dtype=float)

    def seen(colour: str) -> int:
        target = np.array(QColor(colour).getRgb()[:3], dtype=float)
        return int(np.sum(np.abs(pixels - target).sum(axis=2) < 30))

    train_colour, test_colour = CURVE_PENS["train"][0], CURVE_PENS["test"][0]
    assert seen(test_colour) > 40 and seen(train_colour) > 40  # the thin test line inside the wide train line
    assert CURVE_PENS["train"][1] >= 2 * CURVE_PENS["test"][1]
