"""The gradient health plot: each layer's weight-gradient norm per step on a log scale, one line per layer
in the layer's colour, and under it each hidden layer's share of saturated tanh/sigmoid units or of dead
ReLUs. It draws what the worker sends (`model.gradient_log.HealthFrame`, copies)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGraphicsItem, QLabel, QVBoxLayout, QWidget

from ..common.numbers import format_number
from ..widgets.meaning_colours import fitted
from .axes import nice_ceiling
from .model.gradient_log import HealthFrame
from .widgets import named, style_plot

# One colour per layer, first to output: Okabe-Ito's hues as middle tones (relative luminance about 0.2), so
# that every line stands 3:1 off a white, a dark and a black plot (WCAG 1.4.11); a purple and a grey end it.
LAYER_COLOURS = ("#008e68", "#c05992", "#cd5b00", "#1983c0", "#a77400", "#9b62e0", "#7d7d7d")


# The widest tick labels pyqtgraph's log axis writes for norms (0.0001 and up as decimals, then powers).
WIDEST_NORM_LABELS = ("0.0001", "10⁻¹⁰", "10⁻¹⁵", "1000")
AXIS_MARGIN = 14  # pixels: the ticks and the gaps beside the labels
# Tall enough to read its decades on a 720-line projector (at 140 px its labels piled on one another).
PLOT_MIN_HEIGHT = 200


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade_label(power: int) -> str:
    """10^power as the axis writes it: 0.0001 to 1000 in decimals, beyond in powers (10⁻⁷)."""
    if -4 <= power <= 3:
        return format_number(10.0 ** power)
    return "10" + str(power).translate(_SUPERSCRIPTS)


def layer_colour(index: int) -> str:
    return LAYER_COLOURS[index % len(LAYER_COLOURS)]


def layer_text_colour(index: int, palette) -> str:
    """A layer's name at its line's end: the line's hue, deep (or light) enough to read as text on the plot."""
    return fitted(layer_colour(index), palette, palette.ColorRole.Base)


class GradientHealthPlot(QWidget):
    """Gradient norms per layer (log scale) and the units' health, for a class to see gradients vanish."""

    def __init__(self, palette, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plot = named(pg.PlotWidget(), "gradientHealthPlot",
                          "Each layer's weight-gradient norm per step, on a log scale, one line per layer",
                          spoken="Gradient health plot: each layer's gradient norm per step")
        self.text_palette = palette  # the layers' names are coloured to read on its base
        style_plot(self.plot, palette)
        item = self.plot.getPlotItem()
        item.setLogMode(y=True)
        item.setLabel("left", "‖∇W‖")
        item.setLabel("bottom", "step")
        item.setMouseEnabled(False, False)
        # Redrawn with every picture while training runs: the axes move in whole jumps (steps: 100, 200,
        # 500, ...; norms: whole decades), not with every point, since new tick labels cost the most.
        item.enableAutoRange(axis="xy", enable=False)
        self._ranges: tuple | str | None = None  # the axes' ranges shown, "empty" before the first step
        self._show_empty_ranges()
        self.plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        self._fix_axis_width()
        layout.addWidget(self.plot, 1)
        self.shares_label = named(QLabel("–"), "gradientHealthShares",
                                  "Each hidden layer's share of saturated (tanh, sigmoid) or dead (ReLU) units")
        self.shares_label.setWordWrap(True)
        layout.addWidget(self.shares_label)
        self.lines: list[HealthLine] = []
        # Each line says which layer it is at its end, in its colour: the colour alone named no layer.
        self.layer_labels: list[pg.TextItem] = []
        self.frame: HealthFrame | None = None
        self.redraws = 0  # the lines put on the plot, for the speed bench

    def restyle(self, palette) -> None:
        """A new theme: the plot's colours and the layers' names."""
        self.text_palette = palette
        style_plot(self.plot, palette)
        for index, label in enumerate(self.layer_labels):
            label.setColor(layer_text_colour(index, palette))

    def _fix_axis_width(self) -> None:
        """The norms' axis as wide as the widest label it may write, from the start: a new decade's wider
        label used to widen it mid-run, and the plot's every line was drawn again beside training (7 ms)."""
        metrics = QFontMetrics(self.plot.font())
        widest = max(metrics.horizontalAdvance(label) for label in WIDEST_NORM_LABELS)
        self.plot.getPlotItem().getAxis("left").setWidth(widest + metrics.height() + AXIS_MARGIN)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:  # presentation mode: larger tick labels
            self._fix_axis_width()
            for label in self.layer_labels:
                label.setFont(self.font())
        super().changeEvent(event)

    def show_health(self, frame: HealthFrame | None) -> None:
        """The lines and the shares of ``frame`` (None: nothing yet)."""
        self.show_lines(frame)
        self.show_shares(frame)

    def show_lines(self, frame: HealthFrame | None) -> None:
        """Each layer's gradient norms so far: with every picture of the network, at the display's rate
        while it trains (the shares' text changes at the readouts' pace, `show_shares`)."""
        self.frame = frame
        self.redraws += 1
        if frame is None or not len(frame.steps):
            for line in self.lines:
                line.clear()
            self._show_empty_ranges()
            return
        layers = frame.norms.shape[1]
        item = self.plot.getPlotItem()
        while len(self.lines) < layers:
            self.lines.append(HealthLine(item, layer_colour(len(self.lines))))
            label = pg.TextItem(f"layer {len(self.lines)}", anchor=(1, 1),
                                color=layer_text_colour(len(self.lines) - 1, self.text_palette))
            label.setFont(self.font())
            item.getViewBox().addItem(label, ignoreBounds=True)
            self.layer_labels.append(label)
        self._follow_ranges(frame)
        for index, line in enumerate(self.lines):
            line.set_shown(index < layers)
            if index < layers:
                line.show_norms(frame.steps, frame.norms[:, index], frame.steps_per_bin)
        self._place_layer_labels(frame, layers)

    def _place_layer_labels(self, frame: HealthFrame, layers: int) -> None:
        """Each layer's name just above its line's last point, moved up or down where two would overlap."""
        ends = []
        for index in range(layers):
            norms = frame.norms[:, index]
            finite = np.flatnonzero(np.isfinite(norms) & (norms > 0))
            if finite.size:
                ends.append((float(np.log10(norms[finite[-1]])), index, float(frame.steps[finite[-1]])))
        view = self.plot.getPlotItem().getViewBox()
        low, high = view.viewRange()[1]
        pixels = max(view.height(), 1.0)
        line_height = QFontMetrics(self.font()).height() * (high - low) / pixels  # one label, in log10 units
        first, last = view.viewRange()[0]
        # Lowest first, each at least a label's height above the one below; then, from the top, none above the
        # plot's top (a label's anchor is its bottom).
        placed, floor = [], -math.inf
        for y, index, step in sorted(ends):
            y = max(y, floor)
            floor = y + line_height
            placed.append([y, index, step])
        ceiling = high - 1.2 * line_height  # the text's own margin above its letters
        for entry in reversed(placed):
            entry[0] = min(entry[0], ceiling)
            ceiling = entry[0] - line_height
        shown = set()
        for y, index, step in placed:
            label = self.layer_labels[index]
            # Right of the line's end, or left of it near the plot's right edge: never cut off.
            label.setAnchor((1, 1) if step > first + 0.7 * (last - first) else (0, 1))
            label.setPos(step, y)
            shown.add(index)
        for index, label in enumerate(self.layer_labels):
            label.setVisible(index in shown)

    def _show_empty_ranges(self) -> None:
        """Before the first step: 100 steps and the decades 10⁻³ to 1 (less than a decade in view had
        pyqtgraph's log axis label every minor tick, one pile of numbers)."""
        if self._ranges != "empty":
            self._ranges = "empty"
            item = self.plot.getPlotItem()
            item.setXRange(0, 100, padding=0.02)
            item.setYRange(-3, 0, padding=0.02)
            self._label_decades(-3, 0)

    def _follow_ranges(self, frame: HealthFrame) -> None:
        """Steps from the first to a nice number past the last; the norms' whole decades (log10 units)."""
        first, last = float(frame.steps[0]), float(frame.steps[-1])
        norms = frame.norms[np.isfinite(frame.norms) & (frame.norms > 0)]
        low, high = ((math.floor(np.log10(norms.min())), math.ceil(np.log10(norms.max()))) if norms.size
                     else (-1, 0))
        ranges = (first, nice_ceiling(max(last - first, 100.0)), low, max(high, low + 1))
        if ranges != self._ranges:
            self._ranges = ranges
            item = self.plot.getPlotItem()
            item.setXRange(first, first + ranges[1], padding=0.02)
            item.setYRange(ranges[2], ranges[3], padding=0.02)
            self._label_decades(ranges[2], ranges[3])

    def _label_decades(self, low: int, high: int) -> None:
        """Ticks at every decade from 10^low to 10^high, labelled, and at its 2s to 9s, not: pyqtgraph's own log
        axis labelled the 2s and 5s too when few decades were in view, one pile of numbers."""
        majors = [(float(k), decade_label(k)) for k in range(low, high + 1)]
        minors = [(math.log10(m) + k, "") for k in range(low, high) for m in range(2, 10)]
        self.plot.getPlotItem().getAxis("left").setTicks([majors, minors])

    def show_shares(self, frame: HealthFrame | None) -> None:
        """Each hidden layer's share of saturated or dead units, in words."""
        self.frame = frame
        shown = frame is not None and len(frame.steps)
        label = self.shares_label
        label.setText(shares_text(frame) if shown else "–")
        # Its height grows with the lines its text wraps to and never shrinks during a run: a share going
        # from 9.9% to 10% could wrap a word to the next line and back, and each time the plot above
        # changed height and drew every line again.
        needed = label.heightForWidth(label.width()) if label.width() > 0 else label.sizeHint().height()
        label.setMinimumHeight(max(needed, label.minimumHeight() if shown else 0))

    def last_norms(self) -> np.ndarray:
        """Each layer's weight-gradient norm at the last step drawn (first layer first)."""
        return self.frame.latest.copy() if self.frame is not None else np.empty(0)


class HealthLine:
    """One layer's line, in pieces: the points that no longer change (the log's full bins, `peak_bins`)
    in segments of `SEGMENT_POINTS`, each painted once into a picture that is kept
    (`DeviceCoordinateCache`) until the axes move, and the recent tail, drawn with every picture. The
    whole 2-pixel line drawn with every picture cost the GUI thread 4 ms a frame for three layers, a
    quarter of a display's frame."""

    SEGMENT_POINTS = 128

    def __init__(self, item: pg.PlotItem, colour: str):
        self._view = item.getViewBox()
        self.pen = pg.mkPen(colour, width=2)
        self.segments: list[pg.PlotCurveItem] = []
        self.settled = 0       # segments holding their points
        self._binning = None   # (first step, steps per bin) the segments were cut for
        self.tail = self._part(cached=False)
        self._shown = True

    def _part(self, cached: bool) -> pg.PlotCurveItem:
        """A piece of the line: a bare curve in the plot's view, its norms given as log10 (the axis is a log
        axis). A `PlotDataItem` added to the plot would map them itself, and cost some 3 ms to make."""
        part = pg.PlotCurveItem(pen=self.pen)
        if cached:
            part.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._view.addItem(part)
        return part

    def isVisible(self) -> bool:
        return self._shown

    def show_norms(self, steps: np.ndarray, norms: np.ndarray, steps_per_bin: int) -> None:
        """The points ``norms`` at ``steps``, all but the last bin's (two points, or one) settled: each
        piece starts at the point before it, so that the pieces join."""
        binning = (float(steps[0]), steps_per_bin)
        if binning != self._binning or len(steps) < self.settled * self.SEGMENT_POINTS:
            self._binning, self.settled = binning, 0
        full = len(steps) - (2 if steps_per_bin > 1 else 1)
        while (self.settled + 1) * self.SEGMENT_POINTS <= full:
            if self.settled == len(self.segments):
                self.segments.append(self._part(cached=True))
            start = max(self.settled * self.SEGMENT_POINTS - 1, 0)
            stop = (self.settled + 1) * self.SEGMENT_POINTS
            self.segments[self.settled].setData(*_drawable(steps[start:stop], norms[start:stop]))
            self.settled += 1
        for index, segment in enumerate(self.segments):
            segment.setVisible(self._shown and index < self.settled)
        start = max(self.settled * self.SEGMENT_POINTS - 1, 0)
        self.tail.setData(*_drawable(steps[start:], norms[start:]))

    def set_shown(self, shown: bool) -> None:
        self._shown = shown
        self.tail.setVisible(shown)
        for index, segment in enumerate(self.segments):
            segment.setVisible(shown and index < self.settled)

    def clear(self) -> None:
        self._binning, self.settled = None, 0
        for part in (*self.segments, self.tail):
            part.setData([], [])

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        """The points drawn (log10 of the norms, as the log axis has them), piece after piece, the point two
        pieces share once."""
        parts = [part.getData() for part in (*self.segments[:self.settled], self.tail)]
        parts = [(x, y) for x, y in parts if x is not None and len(x)]
        if not parts:
            return np.empty(0), np.empty(0)
        x, y = np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])
        repeated = np.append(False, (x[1:] == x[:-1]) & (y[1:] == y[:-1]))
        return x[~repeated], y[~repeated]


def _drawable(steps: np.ndarray, norms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The steps and log10 of the norms, where there is a norm to show (a log scale has no place for 0)."""
    keep = np.isfinite(norms) & (norms > 0)
    return steps[keep], np.log10(norms[keep])


def shares_text(frame: HealthFrame) -> str:
    """Per hidden layer, in its colour: ``layer 1: 12% saturated`` or ``layer 2: 25% dead``."""
    parts = []
    for index, (activation, saturated, dead) in enumerate(zip(frame.activations, frame.saturated, frame.dead)):
        if activation is None:
            continue
        if saturated is not None:
            what = f"{format_number(round(100 * saturated, 1))}% saturated"
        elif dead is not None:
            what = f"{format_number(round(100 * dead, 1))}% dead"
        else:
            continue
        parts.append(f"<span style='color:{layer_colour(index)}'>■</span> layer {index + 1}: {what}")
    return " &nbsp; ".join(parts) or "no tanh, sigmoid or ReLU layer"
