"""The plane on a pyqtgraph plot: what the network predicts as a colour image, its boundary lines,
the training and test points of every class, the mistakes ringed, and in place of the output, when
asked, one neuron's map (`show_focus`)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem

from ..common.class_marks import class_symbol
from ..common.colours import (
    POINT_OUTLINE,
    class_colours,
    class_line_colours,
    class_regions_rgb,
    diverging_lut,
    map_rgb,
    probability_lut,
    strong_diverging_lut,
    value_levels,
)
from .model.contour import contour_segments
from .model.grid import FocusMap
from .model.points import grid_axes
from .model.settings import MAX_CLASSES
from .plane_image import PlaneImage

LINE_COLOURS = {False: "#202124", True: "#E8EAED"}


class BoundaryView:
    """Two classes: P(class 1) on the diverging map and its 0.5 line. k classes: each pixel in its most
    likely class's colour, shaded by how sure the network is, and the lines between the classes."""

    def __init__(self, plot: pg.PlotWidget, point_size: int = 8):
        self.plot = plot
        plot.setBackground(plot.palette().color(plot.palette().ColorRole.Window))  # the margin blends in
        item = plot.getPlotItem()
        item.setMouseEnabled(False, False)
        item.setAspectLocked(True)
        item.showGrid(False, False)
        item.vb.disableAutoRange()
        self.image = PlaneImage()
        item.addItem(self.image)
        self.contour = pg.PlotCurveItem(connect="pairs", antialias=True)
        item.addItem(self.contour)
        # Each class in its own shape as well as its colour; training points filled, test points hollow.
        self.train = [pg.ScatterPlotItem(symbol=class_symbol(label), size=point_size, name="train")
                      for label in range(MAX_CLASSES)]
        self.test = [pg.ScatterPlotItem(symbol=class_symbol(label), size=point_size + 2, name="test")
                     for label in range(MAX_CLASSES)]
        self.wrong = pg.ScatterPlotItem(symbol="o", size=point_size + 8, pen=pg.mkPen(POINT_OUTLINE[False], width=2.2),
                                        brush=None, name="misclassified")
        # A regression's points: one scatter each for training and test, every point in the colour of its
        # value on the picture's scale (`value_levels`).
        self.train_values = pg.ScatterPlotItem(symbol="o", size=point_size, name="train values")
        self.test_values = pg.ScatterPlotItem(symbol="t1", size=point_size + 3, name="test values")
        for scatter in (*self.train, *self.test, self.wrong, self.train_values, self.test_values):
            # The points stay put while the picture under them changes up to 60 times a second: each scatter
            # is painted once into a pixmap of the screen's pixels and that pixmap drawn again, until its
            # points or the view change (pyqtgraph paints a scatter, even an empty one, point by point).
            scatter.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            item.addItem(scatter)
        self.regression = False
        self.levels = (-1.0, 1.0)  # a regression's colour scale, from its targets
        self._values: tuple | None = None  # (X_train, y_train, X_test, y_test) of a regression
        self.extent: tuple[float, float, float, float] | None = None  # the data's square: always in view
        self.plane_extent: tuple[float, float, float, float] | None = None  # what the picture covers
        self.redraws = 0
        self.dark = False
        self.discrete = False  # the predicted class only, no shades of probability
        self.shows_test = True
        self.focus: FocusMap | None = None  # a neuron shown in place of the output
        self.focus_levels = (-1.0, 1.0)
        self._output = None  # (probability, extent, contour): the last output, to show again
        self._wrong_points = np.zeros((0, 2))  # the mistakes ringed now: a frame with the same ones redraws none
        self.set_theme(False)

    # -- what it shows --

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        colours, lines = class_colours(dark), class_line_colours(dark)
        outline = pg.mkPen(POINT_OUTLINE[dark], width=1.2)  # 3:1 off the plot where the class colour is not
        for label, (train, test) in enumerate(zip(self.train, self.test)):
            train.setPen(outline)
            train.setBrush(pg.mkBrush(colours[label]))
            test.setPen(pg.mkPen(lines[label], width=2.2))
            test.setBrush(pg.mkBrush(None))
        # A mistake's ring: its shape says it (the legend's ◯), in the outline's colour that stands 3:1 off every
        # region (a red ring would vanish on the pale orange).
        self.wrong.setPen(pg.mkPen(POINT_OUTLINE[dark], width=2.2))
        self.contour.setPen(pg.mkPen(LINE_COLOURS[dark], width=2))
        if self._values is not None:
            self.set_values(*self._values)
        self._repaint()

    def set_values(self, X_train, y_train, X_test, y_test) -> None:
        """A regression's points, each coloured by its value on the scale the picture uses (symmetric about
        0, out to the largest value); the classes' scatters empty."""
        self.regression = True
        self._values = (X_train, y_train, X_test, y_test)
        self.levels = value_levels(np.concatenate([y_train, y_test]))
        for scatter in (*self.train, *self.test):
            self._set_scatter(scatter, np.zeros((0, 2)))
        self._wrong_points = np.zeros((0, 2))
        self._set_scatter(self.wrong, self._wrong_points)
        lut = strong_diverging_lut(self.dark)
        outline, line = pg.mkPen(POINT_OUTLINE[self.dark], width=1.0), pg.mkPen(LINE_COLOURS[self.dark], width=1.0)
        sets = ((self.train_values, X_train, y_train, outline), (self.test_values, X_test, y_test, line))
        for scatter, X, y, pen in sets:
            colours = lut[_lut_index(y, self.levels)]
            self._set_scatter(scatter, X, brush=[pg.mkBrush(*c) for c in colours.tolist()], pen=pen)

    def point_colours(self, test: bool = False) -> np.ndarray:
        """(n, 3) the colours a regression's training (or test) points are drawn in."""
        brushes = (self.test_values if test else self.train_values).data["brush"]
        return np.array([b.color().getRgb()[:3] for b in brushes], dtype=np.uint8).reshape(-1, 3)

    def set_points(self, X_train, y_train, X_test, y_test) -> None:
        """A classification's points, in their classes' colours (a regression's scatters emptied)."""
        self.regression, self._values = False, None
        for scatter in (self.train_values, self.test_values):
            self._set_scatter(scatter, np.zeros((0, 2)))
        for label in range(MAX_CLASSES):
            self._set_scatter(self.train[label], X_train[y_train == label])
            self._set_scatter(self.test[label], X_test[y_test == label])

    def _set_scatter(self, scatter: pg.ScatterPlotItem, pos: np.ndarray, **style) -> None:
        """``scatter`` shows the points ``pos``; it is hidden while it has none (or is a test set the
        person hid): an empty scatter costs a paint all the same."""
        scatter.setData(pos=pos, **style)
        scatter.setVisible(len(pos) > 0 and (self.shows_test or not self._is_test(scatter)))

    def _is_test(self, scatter: pg.ScatterPlotItem) -> bool:
        return scatter is self.test_values or any(scatter is test for test in self.test)

    def set_extent(self, extent) -> None:
        """Keep the data's square ``extent`` in view; with equal scales on both axes, the plot shows more
        of the plane across or up, as far as its shape asks (the picture may cover that too)."""
        if extent == self.extent:
            return
        self.extent = extent
        x0, x1, y0, y1 = extent
        self.plot.getPlotItem().vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def set_probability(self, probability: np.ndarray, extent, contour=None,
                        misclassified: np.ndarray | None = None) -> None:
        """Show what the network predicts: P(class 1) as (R, R), or k classes' probabilities as (k, R, R);
        ``contour`` is its boundary as segment pairs (for two classes computed here if not given)."""
        if contour is None:
            xs, ys = grid_axes(extent, probability.shape[-1], probability.shape[-2])
            contour = (contour_segments(probability, 0.5, xs, ys) if probability.ndim == 2
                       else (np.empty(0), np.empty(0)))
        self._output = (probability, extent, contour)
        if misclassified is not None and not np.array_equal(misclassified, self._wrong_points):
            self._wrong_points = misclassified
            self._set_scatter(self.wrong, misclassified)
        if self.focus is None:
            self._paint(probability, extent, contour)

    def show_focus(self, focus: FocusMap | None, levels: tuple[float, float] = (-1.0, 1.0)) -> None:
        """Show one neuron's map (values from ``levels[0]`` to ``levels[1]`` on the diverging map, and its
        level line) in place of the output; None shows the output again."""
        self.focus, self.focus_levels = focus, levels
        self._repaint()

    def set_discrete(self, discrete: bool) -> None:
        self.discrete = discrete
        self._repaint()

    def set_test_visible(self, visible: bool) -> None:
        self.shows_test = visible
        for scatter in (*self.test, self.test_values):
            scatter.setVisible(visible and len(scatter.data) > 0)

    # -- painting --

    def _repaint(self) -> None:
        if self.focus is not None and self.extent is not None:
            self._paint_focus()
        elif self._output is not None:
            self._paint(*self._output)

    def _paint(self, probability: np.ndarray, extent, contour) -> None:
        if self.extent is None:
            self.set_extent(extent)
        if self.regression:  # the predicted value on the points' scale, pale as the classes' areas
            self.image.setImage(map_rgb(probability, *self.levels, self.dark), autoLevels=False, levels=(0, 255),
                                lut=None)
        elif probability.ndim == 3:
            self.image.setImage(class_regions_rgb(probability, self.dark, self.discrete), autoLevels=False,
                                levels=(0, 255), lut=None)
        else:
            shown = (probability > 0.5).astype(np.float32) if self.discrete else probability
            lut = diverging_lut(self.dark) if self.discrete else probability_lut(self.dark)
            self.image.setImage(shown, autoLevels=False, levels=(0.0, 1.0), lut=lut)
        self._place_image(extent)
        self.contour.setData(*contour, connect="pairs")
        self.redraws += 1

    def _paint_focus(self) -> None:
        focus = self.focus
        self.image.setImage(focus.image, autoLevels=False, levels=self.focus_levels, lut=diverging_lut(self.dark))
        self._place_image(self.plane_extent or self.extent)
        self.contour.setData(*focus.contour, connect="pairs")
        self.redraws += 1

    def _place_image(self, extent) -> None:
        self.plane_extent = extent
        x0, x1, y0, y1 = extent
        self.image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))  # after setImage: the scale needs the image's size


def _lut_index(values: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """Each value's row of a 256-row map spanning ``levels`` (clipped; nan in the middle)."""
    low, high = levels
    index = (np.asarray(values, dtype=np.float64) - low) * (255.0 / (high - low)) + 0.5
    return np.clip(np.nan_to_num(index, nan=127.5), 0, 255).astype(np.intp)
