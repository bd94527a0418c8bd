"""The decision plot's shape and range: it shows the data with a margin, not a band of empty plane.

The worker draws the plane over the data's square (`points.square_extent`, the same for every
shape of plot, so the small neuron maps stay comparable). The plot shows the part of that square
the data fills (`fitted_view`: the points' box with a margin), with equal scales on both axes: its
data area is given that box's shape where the column has room for it, or any shape between that
and the square, the view growing along the short side towards the square (`view_for_aspect`),
never beyond it. `FittedPlotHolder` places the plot so in whatever room its column has; the room
left over stays empty beside or under the plot.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRect, QTimer
from PySide6.QtWidgets import QSizePolicy, QWidget

MARGIN_SHARE, MARGIN = 0.15, 0.1  # around the points: 15% of their half-span and 0.1 more, as the square's
SHORTEST_SHARE = 0.35  # a plot's short side never shows less than this share of the square's side


def fitted_view(points: np.ndarray, square) -> tuple[float, float, float, float]:
    """The points' box with a margin, centred on the data's ``square`` and never beyond it:
    (x_min, x_max, y_min, y_max)."""
    x0, x1, y0, y1 = square
    half_square = (x1 - x0) / 2
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if not len(points):
        return tuple(float(v) for v in square)
    # Half the span on each axis, measured from the square's centre: the box stays centred as the square is.
    reach = np.max(np.abs(points - centre), axis=0)
    halves = np.clip(reach * (1 + MARGIN_SHARE) + MARGIN, SHORTEST_SHARE * half_square, half_square)
    return (float(centre[0] - halves[0]), float(centre[0] + halves[0]),
            float(centre[1] - halves[1]), float(centre[1] + halves[1]))


def aspect_of(view) -> float:
    x0, x1, y0, y1 = view
    return (x1 - x0) / (y1 - y0)


def aspect_range(fitted) -> tuple[float, float]:
    """The shapes (width / height) the plot's data area may take: from the square's to the box's."""
    aspect = aspect_of(fitted)
    return min(1.0, aspect), max(1.0, aspect)


def view_for_aspect(fitted, aspect: float) -> tuple[float, float, float, float]:
    """``fitted`` grown along its short side to ``aspect`` (width / height), about its centre."""
    x0, x1, y0, y1 = fitted
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2
    if hx / hy < aspect:
        hx = hy * aspect
    else:
        hy = hx / aspect
    return (cx - hx, cx + hx, cy - hy, cy + hy)


class FittedPlotHolder(QWidget):
    """Holds the decision plot: sizes it so that its data area (inside the axes) has the largest shape
    `aspect_range` allows in the room it has, and shows the view of that shape (`view_for_aspect`)."""

    def __init__(self, plot: pg.PlotWidget, minimum: int):
        super().__init__()
        self.plot = plot
        plot.setParent(self)
        self.fitted: tuple[float, float, float, float] | None = None
        self.view: tuple[float, float, float, float] | None = None
        self.inner_minimum = 0  # the data area's smallest side, when asked for (`set_inner_minimum`)
        self._pads = (0, 0)  # the most room the axes took around the data area, for this data and scale
        self.setMinimumSize(minimum, minimum)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # The axes' sizes are known once pyqtgraph has laid the plot out: fit again then.
        plot.getPlotItem().vb.sigResized.connect(self._fit)

    def show_fitted(self, fitted) -> None:
        """The region the plot should show (`fitted_view`)."""
        self.fitted = tuple(float(v) for v in fitted)
        self.view = None
        self._pads = (0, 0)
        self._fit()

    def set_inner_minimum(self, side: int) -> None:
        """Never smaller than ``side`` pixels inside the axes, however much room their tick labels take."""
        self.inner_minimum = int(side)
        self._pads = (0, 0)
        self._fit()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, self._fit)  # a tab shown again: the plot lays itself out anew first

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self, *_) -> None:
        rect = self.plot.getPlotItem().vb.sceneBoundingRect()
        pad_x, pad_y = self.plot.width() - round(rect.width()), self.plot.height() - round(rect.height())
        if rect.width() <= 0 or pad_x < 0 or pad_y < 0:
            # pyqtgraph lays the plot out again only once it is shown: until then its data area may be of
            # an older size. The room measured before stands in, and the plot is fitted again soon.
            QTimer.singleShot(0, self, self._fit)
        else:
            # The axes' tick labels change with the plot's size and range (a larger plot may show "-0.5"
            # where a smaller one shows "-1"): the room kept for them only grows, so that the plot's size
            # and its labels never chase each other. New data or a new scale measures it afresh.
            self._pads = (max(self._pads[0], pad_x), max(self._pads[1], pad_y))
        pad_x, pad_y = self._pads
        if self.inner_minimum:
            smallest = (self.inner_minimum + pad_x + 1, self.inner_minimum + pad_y + 1)  # +1: rounding
            if (self.minimumWidth(), self.minimumHeight()) != smallest:
                self.setMinimumSize(*smallest)
        room_w, room_h = max(10, self.width() - pad_x), max(10, self.height() - pad_y)
        low, high = aspect_range(self.fitted) if self.fitted is not None else (1.0, 1.0)
        aspect = float(np.clip(room_w / room_h, low, high))
        if room_w / room_h > aspect:  # wider than the data wants: as tall as the room, bands beside
            width, height = round(room_h * aspect), room_h
        else:
            width, height = room_w, round(room_w / aspect)
        geometry = QRect((self.width() - width - pad_x) // 2, 0, width + pad_x, height + pad_y)
        # No taller than the plot can use at this width: the column's other lines come right under it.
        tallest = max(round(room_w / low) + pad_y, self.minimumHeight())
        if self.maximumHeight() != tallest:
            self.setMaximumHeight(tallest)
        if geometry != self.plot.geometry():
            self.plot.setGeometry(geometry)
        if self.fitted is not None:
            # The data area as it came out (the axes may take less than the room kept for them): the view
            # of its shape, so that pyqtgraph, which keeps the scales equal, never widens it past the square.
            area = self.plot.getPlotItem().vb.size()
            shown = area.width() / area.height() if area.height() > 0 else aspect
            view = view_for_aspect(self.fitted, float(np.clip(shown, low, high)))
            if view != self.view:
                self.view = view
                self.plot.getPlotItem().vb.setRange(xRange=view[:2], yRange=view[2:], padding=0)
