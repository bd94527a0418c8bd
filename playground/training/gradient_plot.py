"""The gradient health plot: each layer's weight-gradient norm per step on a log scale, one line per layer
in the layer's colour, and under it each hidden layer's share of saturated tanh/sigmoid units or of dead
ReLUs. It draws what the worker sends (`model.gradient_log.HealthFrame`, copies)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ..numbers import format_number
from .axes import nice_ceiling
from .model.gradient_log import HealthFrame
from .widgets import named, style_plot

# One colour per layer, first to output (Okabe-Ito, without the classes' orange and blue).
LAYER_COLOURS = ("#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#E69F00", "#0072B2", "#000000")


def layer_colour(index: int) -> str:
    return LAYER_COLOURS[index % len(LAYER_COLOURS)]


class GradientHealthPlot(QWidget):
    """Gradient norms per layer (log scale) and the units' health, for a class to see gradients vanish."""

    def __init__(self, palette, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plot = named(pg.PlotWidget(), "gradientHealthPlot",
                          "Each layer's weight-gradient norm per step, on a log scale, one line per layer")
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
        self._bins = 0  # steps drawn as one pixel's lowest and highest
        self.plot.setMinimumHeight(140)
        layout.addWidget(self.plot, 1)
        self.shares_label = named(QLabel("–"), "gradientHealthShares",
                                  "Each hidden layer's share of saturated (tanh, sigmoid) or dead (ReLU) units")
        self.shares_label.setWordWrap(True)
        layout.addWidget(self.shares_label)
        self.curves: list[pg.PlotDataItem] = []
        self.frame: HealthFrame | None = None
        self.redraws = 0  # the lines put on the plot, for the speed bench

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
            for curve in self.curves:
                curve.setData([], [])
            self._show_empty_ranges()
            return
        layers = frame.norms.shape[1]
        item = self.plot.getPlotItem()
        while len(self.curves) < layers:
            index = len(self.curves)
            curve = item.plot(pen=pg.mkPen(layer_colour(index), width=2), name=f"layer {index + 1}")
            curve.setClipToView(True)
            curve.setDownsampling(ds=max(self._bins, 1), auto=False, method="peak")
            self.curves.append(curve)
        self._follow_ranges(frame)
        # A wide line costs its every segment: one bin of steps a pixel across, each drawn as its lowest
        # and highest norm (a spike stays), 2 points a pixel (pyqtgraph's own rule allows 10).
        bins = max(1, len(frame.steps) // max(self.plot.width(), 50))
        if bins != self._bins:
            self._bins = bins
            for curve in self.curves:
                curve.setDownsampling(ds=bins, auto=False, method="peak")
        for index, curve in enumerate(self.curves):
            if index < layers:
                norms = frame.norms[:, index]
                keep = np.isfinite(norms) & (norms > 0)  # a log scale has no place for 0
                curve.setData(frame.steps[keep], norms[keep])
                curve.show()
            else:
                curve.hide()

    def _show_empty_ranges(self) -> None:
        """Before the first step: 100 steps and the decades 10⁻³ to 1 (less than a decade in view had
        pyqtgraph's log axis label every minor tick, one pile of numbers)."""
        if self._ranges != "empty":
            self._ranges = "empty"
            item = self.plot.getPlotItem()
            item.setXRange(0, 100, padding=0.02)
            item.setYRange(-3, 0, padding=0.02)

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

    def show_shares(self, frame: HealthFrame | None) -> None:
        """Each hidden layer's share of saturated or dead units, in words."""
        self.frame = frame
        self.shares_label.setText(shares_text(frame) if frame is not None and len(frame.steps) else "–")

    def last_norms(self) -> np.ndarray:
        """Each layer's weight-gradient norm at the last step drawn (first layer first)."""
        return self.frame.norms[-1].copy() if self.frame is not None and len(self.frame.steps) else np.empty(0)


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
