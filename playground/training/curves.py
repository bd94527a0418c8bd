"""The output column: the figures of the latest report, the loss and accuracy curves of the run
with hover readouts, and the per-class accuracy and confusion matrices.

The curves keep the whole history (`History`); a plot is redrawn only when the panel's paint
timer says so (`draw`), and its axes move in nice jumps, since new tick labels are the costliest
part of painting a plot.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Slot
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette, QPen
from PySide6.QtWidgets import QApplication, QCheckBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from engine.tf_playground import format_loss

from ..common.numbers import format_number
from ..widgets.spoken import ReadOutLabel
from .axes import LossAxis, PercentAxis, StepAxis, nice_ceiling
from .confusion import ConfusionView
from .gradient_plot import GradientHealthPlot
from .model.run_history import RunHistory, StepLosses, drawn
from .model.session import Metrics, percent
from .widgets import CURVE_PENS, fix_size, heading_font, named, scale_plot_text, style_plot
from .worker import Progress

CURVE_PLOTS = ("loss", "accuracy")
AXIS_WIDTH = 52  # both curve plots' left axes: their step axes line up
RESTORE_COLOUR = "#df473e"  # the line where a divergence put the weights back (a middle tone: 3:1 on any plot)
READOUT_COLOUR = "#777e86"  # the hover readout's line and border
LEGEND_POINTS = 8.0  # the train/test legend in each curve plot's title row
CURVE_MIN_DATA = 60  # a curve plot's data area at least this tall at 100%: a curve one can follow
STEP_MARGINS = (0.04, 0.02)  # room left and right of the step axis' range, as shares of it


class Readout:
    """Hover values on a curve plot: a vertical line at the nearest report and its figures beside it; where a
    step's own loss is nearer than any report (between two reports at "Fastest"), that step and its loss."""

    def __init__(self, plot: pg.PlotWidget, text_for_index, text_for_step=None):
        self.plot = plot
        self.text_for_index = text_for_index
        self.text_for_step = text_for_step  # (index into `traced`) -> text
        self.steps = np.empty(0)
        self.traced = np.empty(0)  # the steps whose own loss is known
        self._mouse: QPointF | None = None  # where the mouse was last seen over the plot (scene coordinates)
        self.line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(READOUT_COLOUR, style=Qt.PenStyle.DashLine))
        self.label = pg.TextItem(anchor=(0, 0), color="#202124", fill=pg.mkBrush(255, 255, 255, 225),
                                 border=pg.mkPen(READOUT_COLOUR))
        for item in (self.line, self.label):
            item.setVisible(False)
            item.setZValue(100)
            plot.addItem(item, ignoreBounds=True)
        plot.scene().sigMouseMoved.connect(self.show_at)

    @property
    def text(self) -> str:
        return self.label.toPlainText() if self.label.isVisible() else ""

    def set_steps(self, steps: np.ndarray, traced: np.ndarray | None = None) -> None:
        """New reports (and steps with their own loss): a readout on show reads the one now under the mouse
        (the axis may have moved)."""
        self.steps = steps
        if traced is not None:
            self.traced = traced
        if self.label.isVisible() and self._mouse is not None:
            self.show_at(self._mouse)

    def show_at(self, scene_pos: QPointF) -> None:
        vb = self.plot.getPlotItem().vb
        self._mouse = QPointF(scene_pos)
        if not len(self.steps) or not vb.sceneBoundingRect().contains(scene_pos):
            self.hide()
            return
        point = vb.mapSceneToView(scene_pos)
        index = _nearest(self.steps, point.x())
        x, text = self.steps[index], self.text_for_index(index)
        if self.text_for_step is not None and len(self.traced):
            step = _nearest(self.traced, point.x())
            if abs(self.traced[step] - point.x()) < abs(x - point.x()):
                x, text = self.traced[step], self.text_for_step(step)
        self.line.setPos(x)
        self.label.setText(text)
        (x0, x1), (y0, y1) = vb.viewRange()
        right = point.x() > (x0 + x1) / 2
        top = point.y() > (y0 + y1) / 2
        self.label.setAnchor((1.0 if right else 0.0, 0.0 if top else 1.0))
        self.label.setPos(x, point.y())
        self.line.setVisible(True)
        self.label.setVisible(True)

    def hide(self) -> None:
        self.line.setVisible(False)
        self.label.setVisible(False)


def _nearest(steps: np.ndarray, x: float) -> int:
    """The index of the step in ``steps`` (sorted, not empty) nearest to ``x``."""
    index = int(np.clip(np.searchsorted(steps, x), 0, len(steps) - 1))
    if index > 0 and abs(steps[index - 1] - x) < abs(steps[index] - x):
        index -= 1
    return index


def _curve_plot(name: str, tip: str, axis_label: str, axis: pg.AxisItem, palette, spoken: str) -> pg.PlotWidget:
    plot = named(pg.PlotWidget(axisItems={"left": axis, "bottom": StepAxis(orientation="bottom")}), name, tip,
                 spoken=spoken)
    style_plot(plot, palette)
    item = plot.getPlotItem()
    item.setMouseEnabled(False, False)
    item.setLabel("left", axis_label)
    item.getAxis("left").setWidth(AXIS_WIDTH)
    item.setLabel("bottom", "step")
    item.showGrid(True, True, alpha=0.25)
    show_legend(plot, palette)
    return plot


def show_legend(plot: pg.PlotWidget, palette, text_scale: float = 1.0, batches: bool = False) -> None:
    """The legend in the plot's title row, above the data, never on it: a wide pale line for train and a
    thin dark one for test, as the curves are drawn (where they coincide, the thin one runs inside the wide);
    with ``batches``, the dotted line of each minibatch's own loss."""
    text = palette.color(palette.ColorRole.Text).name()
    train, test, batch = CURVE_PENS["train"], CURVE_PENS["test"], CURVE_PENS["batch"]
    each_batch = (f"&nbsp;&nbsp;&nbsp;<span style='color:{batch[0]}'>┈┈</span>&nbsp;<span style='color:{text}'>"
                  "batch</span>" if batches else "")
    plot.getPlotItem().setTitle(
        f"<span style='color:{train[0]}; font-weight:900'>━━</span>&nbsp;<span style='color:{text}'>train</span>"
        f"&nbsp;&nbsp;&nbsp;<span style='color:{test[0]}'>──</span>&nbsp;<span style='color:{text}'>test</span>"
        f"{each_batch}", size=f"{LEGEND_POINTS * text_scale:g}pt")


def curve_pen(which: str) -> QPen:
    colour, width = CURVE_PENS[which]
    style = Qt.PenStyle.DotLine if which == "batch" else Qt.PenStyle.SolidLine  # told apart without colour
    return pg.mkPen(colour, width=width, style=style)


def faded_pen(which: str) -> QPen:
    """What a divergence undid: the curve's colour, faded and dashed (told apart without its colour)."""
    colour, width = CURVE_PENS[which]
    faded = QColor(colour)
    faded.setAlpha(110)
    return pg.mkPen(faded, width=max(1.0, width - 0.5), style=Qt.PenStyle.DashLine)


class CurvesColumn(QWidget):
    """OUTPUT: test accuracy in big, the other figures, and the loss and accuracy curves."""

    def __init__(self, loss: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.history = RunHistory()
        self.loss = loss  # the loss the curves show: another one starts them afresh
        self.behind: list[str] = []  # curve plots not yet showing the latest history
        self._step_axis = dict.fromkeys(CURVE_PLOTS, (0.0, 0.0))
        self._loss_axis_range = None
        self._percent_axis_low = 0.0  # the accuracy (R²) axis' bottom: 0, or a regression's worst R² below it
        self.text_scale = 1.0  # presentation mode
        self.tf_playground = False  # its losses with three decimals, as it shows them (`set_tf_playground`)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("OUTPUT")
        title.setFont(heading_font(self))
        layout.addWidget(title)
        # Read-outs: a screen reader reads each as what it is and its value ("train loss 0.2746").
        self.accuracy_label = ReadOutLabel("Test accuracy –", "Test", "accuracyLabel",  # "Test R² 0.93" too
                                           "Accuracy on the test points")
        big = QFont(self.accuracy_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.35)
        big.setBold(True)
        self.accuracy_label.setFont(big)
        fix_size(self.accuracy_label, "Test accuracy 100.0%")
        layout.addWidget(self.accuracy_label)
        figures = QGridLayout()
        figures.setHorizontalSpacing(10)
        self.figure_labels: dict[str, ReadOutLabel] = {}
        self.figure_titles: dict[str, QLabel] = {}
        for row, (key, title) in enumerate((("train_accuracy", "train accuracy"), ("train_loss", "train loss"),
                                            ("test_loss", "test loss"), ("learning_rate", "learning rate"),
                                            ("test_mae", "test MAE"))):
            self.figure_titles[key] = QLabel(title)
            figures.addWidget(self.figure_titles[key], row, 0)
            first, *rest = key.split("_")
            value = ReadOutLabel("–", title, first + "".join(word.capitalize() for word in rest) + "Label", title)
            fix_size(value, "0.000000000")
            self.figure_labels[key] = value
            figures.addWidget(value, row, 1)
        figures.setColumnStretch(2, 1)
        layout.addLayout(figures)
        self.regression = False
        for widget in (self.figure_titles["test_mae"], self.figure_labels["test_mae"]):
            widget.hide()  # a regression's

        palette = self.palette()
        self.loss_plot = _curve_plot("lossPlot", "Loss per step; hover for the values", "loss",
                                     LossAxis(orientation="left"), palette, "Loss curves, train and test")
        item = self.loss_plot.getPlotItem()
        item.enableAutoRange(axis="xy", enable=False)  # ranges move in nice jumps: see draw
        self.train_loss_curve = item.plot(pen=curve_pen("train"), name="train")
        self.test_loss_curve = item.plot(pen=curve_pen("test"), name="test")
        for curve in (self.train_loss_curve, self.test_loss_curve):
            curve.setClipToView(True)
            curve.setDownsampling(auto=True, method="peak")
        # Every step's own loss (`RunHistory.add_steps`), so that what happens between two reports is drawn too:
        # with a full batch it is the train loss, drawn with the train curve's pen (the two coincide at every
        # report); with minibatches it is each batch's loss, thin and dotted, under the two.
        self.step_curves = {"whole": item.plot(pen=curve_pen("train"), connect="finite"),
                            "batch": item.plot(pen=curve_pen("batch"), connect="finite")}
        self.step_curves["batch"].setZValue(-1)
        self.batches_in_legend = False
        # What a divergence undid stays on the plot, faded and dashed, and where the weights went back is a line.
        self.abandoned_curves = {"loss": (item.plot(pen=faded_pen("train"), connect="finite"),
                                          item.plot(pen=faded_pen("test"), connect="finite"))}
        self.abandoned_step_curves = (item.plot(pen=faded_pen("train"), connect="finite"),
                                      item.plot(pen=faded_pen("batch"), connect="finite"))
        self.restore_lines: dict[str, list[pg.InfiniteLine]] = {"loss": [], "accuracy": []}
        self.loss_readout = Readout(self.loss_plot, self._loss_text, self._step_loss_text)
        layout.addWidget(self.loss_plot, 3)
        self.log_scale_check = named(QCheckBox("Log scale"), "lossLogCheck", "Show the loss on a log scale")
        self.log_scale_check.toggled.connect(self._on_log_scale_check_toggled)
        self.log_scale_check.setChecked(True)  # a loss falling from 0.7 to 0.0001 reads best in decades
        layout.addWidget(self.log_scale_check)

        self.accuracy_plot = _curve_plot("accuracyPlot", "Accuracy per step; hover for the values", "accuracy %",
                                         PercentAxis(orientation="left"), palette,
                                         "Accuracy curves, train and test")
        item = self.accuracy_plot.getPlotItem()
        item.setYRange(0, 100, padding=0.03)
        item.enableAutoRange(axis="xy", enable=False)
        self.train_accuracy_curve = item.plot(pen=curve_pen("train"), name="train")
        self.test_accuracy_curve = item.plot(pen=curve_pen("test"), name="test")
        self.abandoned_curves["accuracy"] = (item.plot(pen=faded_pen("train"), connect="finite"),
                                             item.plot(pen=faded_pen("test"), connect="finite"))
        self.accuracy_readout = Readout(self.accuracy_plot, self._accuracy_text)
        layout.addWidget(self.accuracy_plot, 2)
        self.confusion = ConfusionView()
        layout.addWidget(self.confusion)
        # Gradient health, shown on request: the column keeps its room for the loss and accuracy plots.
        self.gradient_health_check = named(QCheckBox("Gradient health"), "gradientHealthCheck",
                                           "Show each layer's weight-gradient norm per step and its saturated or "
                                           "dead units")
        layout.addWidget(self.gradient_health_check)
        self.gradient_health = GradientHealthPlot(palette)
        self.gradient_health.hide()
        self.gradient_health_check.toggled.connect(self.gradient_health.setVisible)
        layout.addWidget(self.gradient_health, 2)
        self._keep_plots_readable()

    @property
    def plots(self) -> tuple[pg.PlotWidget, ...]:
        return (self.loss_plot, self.accuracy_plot)

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: the plots' labels, legends and axes, and the confusion cells ``factor`` times larger."""
        self.text_scale = float(factor)
        for plot in self.plots:
            scale_plot_text(plot, factor, LEGEND_POINTS)
            plot.getPlotItem().getAxis("left").setWidth(round(AXIS_WIDTH * factor))
        scale_plot_text(self.gradient_health.plot, factor, LEGEND_POINTS)  # its axis sizes itself to its labels
        self.confusion.set_text_scale(factor)
        self._keep_plots_readable()

    def _keep_plots_readable(self) -> None:
        """Each curve plot at least as tall as its axis' name written up its side (and `CURVE_MIN_DATA`), with
        its legend above and its step axis below: a short screen scrolls the column rather than cut
        "accuracy %" to "curacy"."""
        metrics = QFontMetrics(QApplication.font())
        for plot in self.plots:
            item = plot.getPlotItem()
            name = item.getAxis("left").labelText
            data = max(metrics.horizontalAdvance(name), round(CURVE_MIN_DATA * self.text_scale))
            plot.setMinimumHeight(data + 3 * metrics.height() + 8)

    # -- the history --

    def add(self, metrics: Metrics, losses: tuple[StepLosses, ...] = ()) -> None:
        """A report, after the steps' own losses since the last one."""
        for steps in losses:
            self.history.add_steps(steps)
        m = metrics  # a regression's R² where a classification has its accuracies
        train, test = (m.train_accuracy, m.test_accuracy) if m.train_r2 is None else (m.train_r2, m.test_r2)
        self.history.add(m.step, m.train_loss, m.test_loss, train, test)
        self.mark_behind()

    def mark_behind(self) -> None:
        self.behind += [p for p in CURVE_PLOTS if p not in self.behind]

    def clear(self) -> None:
        self._loss_axis_range = None
        self.history.clear()
        for readout in (self.loss_readout, self.accuracy_readout):
            readout.hide()
        self.mark_behind()

    def start_over(self) -> None:
        """A new network: new curves, and the step axes back to their first range."""
        self._step_axis = dict.fromkeys(CURVE_PLOTS, (0.0, 0.0))
        self.clear()

    def set_problem(self, regression: bool) -> None:
        """A regression reads R² (in the accuracies' places, as a percentage on the plot) and the mean
        absolute error; it has no confusion matrices."""
        if regression == self.regression:
            return
        self.regression = regression
        self.figure_titles["train_accuracy"].setText("train R²" if regression else "train accuracy")
        self.figure_labels["train_accuracy"].set_what(self.figure_titles["train_accuracy"].text())
        for widget in (self.figure_titles["test_mae"], self.figure_labels["test_mae"]):
            widget.setVisible(regression)
        self.accuracy_plot.getPlotItem().getAxis("left").setLabel("R² %" if regression else "accuracy %")
        self.confusion.setVisible(not regression)
        self.show_figures(None)
        self.clear()

    def set_tf_playground(self, on: bool) -> None:
        """The TF Playground setting: the losses written as it writes them, with three decimals ("0.177")."""
        self.tf_playground = on

    def _loss_words(self, loss: float) -> str:
        return format_loss(loss) if self.tf_playground else format_number(loss)

    def set_loss(self, loss: str) -> None:
        """Another loss is another unit: its curves start afresh."""
        if loss != self.loss:
            self.loss = loss
            self.clear()

    # -- painting --

    def show_figures(self, progress: Progress | None) -> None:
        self.gradient_health.show_shares(progress.health if progress is not None else None)
        if progress is None:
            self.accuracy_label.setText("Test R² –" if self.regression else "Test accuracy –")
            for label in self.figure_labels.values():
                label.setText("–")
            self.confusion.set_matrices(None, None)
            return
        m = progress.metrics
        if m.train_r2 is not None:  # a regression
            self.accuracy_label.setText(f"Test R² {format_number(m.test_r2)}")
            self.figure_labels["train_accuracy"].setText(format_number(m.train_r2))
            self.figure_labels["test_mae"].setText(format_number(m.test_mae))
            self.figure_labels["train_loss"].setText(self._loss_words(m.train_loss))
            self.figure_labels["test_loss"].setText(self._loss_words(m.test_loss))
            self.figure_labels["learning_rate"].setText(format_number(m.learning_rate))
            return
        self.accuracy_label.setText(f"Test accuracy {percent(m.test_accuracy)}")
        self.figure_labels["train_accuracy"].setText(percent(m.train_accuracy))
        self.figure_labels["train_loss"].setText(self._loss_words(m.train_loss))
        self.figure_labels["test_loss"].setText(self._loss_words(m.test_loss))
        self.figure_labels["learning_rate"].setText(format_number(m.learning_rate))
        self.confusion.set_matrices(m.train_confusion, m.test_confusion)

    def draw_behind(self, every: bool = False) -> None:
        """Draw the first plot that is behind (all of them with ``every``)."""
        for plot in self.behind if every else self.behind[:1]:
            self.draw(plot)
        self.behind = [] if every else self.behind[1:]

    def draw(self, which: str) -> None:
        """Put the whole history on the loss or the accuracy plot."""
        h = self.history
        steps = h.steps
        plot = self.loss_plot if which == "loss" else self.accuracy_plot
        # The step axis starts where the history does (step 0, or the step of a setup opened mid-run, whose
        # earlier curves the file does not carry), and grows in nice jumps (100, 200, 500, 1000, ... steps),
        # not on every redraw: a new range means new tick labels to lay out, the costliest part of painting a plot.
        left = h.first_step if h.first_step is not None else 0.0
        span = nice_ceiling(max(h.last_step - left if h.last_step is not None else 0.0, 100.0))
        if (left, span) != self._step_axis[which]:
            self._step_axis[which] = (left, span)
            item = plot.getPlotItem()
            # A little more room on the left than on the right: the first report's dot clear of the axis.
            item.setXRange(left - STEP_MARGINS[0] * span, left + span * (1 + STEP_MARGINS[1]), padding=0)
            item.getAxis("bottom").set_start(left)
        if which == "loss":
            floor = 1e-12 if self.log_scale_check.isChecked() else -np.inf  # log of 0 has no place on the plot
            self._draw_loss_axis(self._draw_step_losses(floor))
            self.loss_readout.set_steps(steps.copy(), h.trace_column(0).copy())
            curves = ((self.train_loss_curve, np.maximum(h.column(1), floor)),
                      (self.test_loss_curve, np.maximum(h.column(2), floor)))
            scale = lambda values: np.fmax(values, floor)  # noqa: E731 - nan (between stretches) stays nan
        else:
            self.accuracy_readout.set_steps(steps.copy())
            curves = ((self.train_accuracy_curve, 100 * h.column(3)), (self.test_accuracy_curve, 100 * h.column(4)))
            scale = lambda values: 100 * values  # noqa: E731
            self._draw_percent_axis()
        first = 1 if which == "loss" else 3
        for index, abandoned in enumerate(self.abandoned_curves[which]):
            abandoned_steps, values = h.abandoned_column(first + index)
            abandoned.setData(abandoned_steps, scale(values))
        self._draw_restores(which, plot)
        symbol = "o" if len(steps) == 1 else None  # one report is a dot, not yet a line
        for (curve, values), colour in zip(curves, (CURVE_PENS["train"][0], CURVE_PENS["test"][0])):
            curve.setData(steps, values)
            if curve.opts["symbol"] != symbol:
                curve.setSymbol(symbol)
                curve.setSymbolBrush(colour)
                curve.setSymbolPen(colour)
                curve.setSymbolSize(6)

    def _draw_step_losses(self, floor: float) -> np.ndarray:
        """Every step's own loss on the loss plot, in at most `run_history.MAX_DRAWN` points a line (each bin's
        lowest and highest), and what a divergence undid of them; returns the losses drawn (for the axis)."""
        h = self.history
        shown = []
        trace_steps = h.trace_column(0)
        for index, curve in enumerate(self.step_curves.values(), start=1):
            steps, values = drawn(trace_steps, np.maximum(h.trace_column(index), floor))  # a nan stays nan
            curve.setData(steps, values)
            shown.append(values)
        for index, curve in enumerate(self.abandoned_step_curves, start=1):
            steps, values = h.abandoned_trace_column(index)
            steps, values = drawn(steps, np.maximum(values, floor))
            curve.setData(steps, values)
            shown.append(values)
        batches = bool(np.isfinite(h.trace_column(2)).any()) if h.trace_size else False
        if batches != self.batches_in_legend:  # minibatches: their dotted line is named in the legend
            self.batches_in_legend = batches
            show_legend(self.loss_plot, self.palette(), self.text_scale, batches)
        return np.concatenate(shown)

    def _draw_restores(self, which: str, plot: pg.PlotWidget) -> None:
        """A line where the weights went back, for each restore: "weights restored to step 544"."""
        lines, restores = self.restore_lines[which], self.history.restores
        while len(lines) > len(restores):
            plot.getPlotItem().removeItem(lines.pop())
        for restore in restores[len(lines):]:
            label = f"weights restored to step {format_number(restore.to_step)}" if which == "loss" else None
            line = pg.InfiniteLine(restore.to_step, angle=90, pen=pg.mkPen(RESTORE_COLOUR, width=1.5,
                                                                            style=Qt.PenStyle.DashLine),
                                   label=label, labelOpts={"position": 0.85,  # its words in the text's colour
                                                           "color": self.palette().color(QPalette.ColorRole.Text),
                                                           "anchors": [(0, 0), (0, 0)]})
            plot.getPlotItem().addItem(line)
            lines.append(line)

    def _draw_percent_axis(self) -> None:
        """0 to 100%; a regression's R² below 0 (a fit worse than the mean: the multi Gaussian starts at about
        -190%) takes the axis down to it, in nice steps, so that it is drawn too."""
        lowest = 0.0
        if self.regression:
            values = 100 * np.concatenate([self.history.all_values(3), self.history.all_values(4)])
            values = values[np.isfinite(values)]
            if len(values) and values.min() < 0:
                lowest = -nice_ceiling(-float(values.min()))
        if lowest != self._percent_axis_low:
            self._percent_axis_low = lowest
            self.accuracy_plot.getPlotItem().setYRange(lowest, 100, padding=0.03)

    def _draw_loss_axis(self, step_losses: np.ndarray) -> None:
        """The loss axis in whole decades (log scale) or up to a nice number, changed only when it must: the
        reports' losses and ``step_losses``, the steps' own as drawn, all in sight."""
        h = self.history
        losses = np.concatenate([h.all_values(1), h.all_values(2), step_losses])
        losses = losses[np.isfinite(losses)]
        if self.log_scale_check.isChecked():
            positive = losses[losses > 0]
            low, high = ((math.floor(math.log10(max(positive.min(), 1e-12))), math.ceil(math.log10(positive.max())))
                         if len(positive) else (-3, 0))
            y_range = (low, max(high, low + 1))
        else:
            y_range = (0.0, nice_ceiling(max(float(losses.max()) if len(losses) else 1.0, 1e-6)))
        if y_range != self._loss_axis_range:
            self._loss_axis_range = y_range
            self.loss_plot.getPlotItem().setYRange(*y_range, padding=0.03)

    def _loss_text(self, index: int) -> str:
        h = self.history
        return (f"step {format_number(h.steps[index])}\ntrain loss {self._loss_words(h.column(1)[index])}\n"
                f"test loss  {self._loss_words(h.column(2)[index])}")

    def _step_loss_text(self, index: int) -> str:
        """A step between two reports: its own loss, the train loss (a full batch) or its batch's."""
        h = self.history
        if index >= h.trace_size:  # gone back meanwhile: the next redraw says what is there
            return ""
        whole = h.trace_column(1)[index]
        what, value = ("train loss", whole) if not math.isnan(whole) else ("batch loss", h.trace_column(2)[index])
        return f"step {format_number(h.trace_column(0)[index])}\n{what} {format_number(value)}"

    def _accuracy_text(self, index: int) -> str:
        h = self.history
        shown = (lambda r2: f"R² {format_number(r2)}") if self.regression else percent
        return (f"step {format_number(h.steps[index])}\ntrain {shown(h.column(3)[index])}\n"
                f"test  {shown(h.column(4)[index])}")

    @Slot(bool)
    def _on_log_scale_check_toggled(self, checked: bool) -> None:
        self.loss_plot.getPlotItem().setLogMode(y=checked)
        self._loss_axis_range = None
        self.mark_behind()

    def restyle(self, palette) -> None:
        self.confusion.set_theme(palette.color(palette.ColorRole.Window).lightness() < 128)
        for plot in self.plots:
            style_plot(plot, palette)
            show_legend(plot, palette, self.text_scale, plot is self.loss_plot and self.batches_in_legend)
        self.gradient_health.restyle(palette)
