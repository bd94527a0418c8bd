"""The decision boundary's picture: pyqtgraph's ImageItem, its pixels made in Qt's own format.

A map of values through a colour table (P(class 1), a neuron's map) became, in pyqtgraph, an 8-bit image indexed
into the table, which Qt turned into RGB32 again at every paint; an RGB picture (k classes, a regression) became
24-bit RGB, converted the same way. Made as 0xffRRGGBB words here, the colours looked up once, the picture is
drawn as it is: a 150 x 210 plot's paint fell from 1.2 ms to 0.7 ms, thirty to sixty times a second.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage

from ..common.colours import rgb_words


class PlaneImage(pg.ImageItem):
    """An `ImageItem` (row-major) that makes its own picture for the images the boundary plot shows: float values
    with levels and an RGB colour table, or an 8-bit RGB picture shown as it is. Anything else (nan in the values,
    another table) is pyqtgraph's to make, as before."""

    def __init__(self):
        super().__init__(axisOrder="row-major")
        self._words: np.ndarray | None = None  # the pixels the picture is made from: kept while it is shown

    def render(self) -> None:
        words = self._words_of(self.image, self.levels, self.lut)
        if words is None:
            self._words = None
            super().render()
            return
        self._words = words
        rows, columns = words.shape
        self.qimage = QImage(words.data, columns, rows, 4 * columns, QImage.Format.Format_RGB32)
        self._renderRequired = False
        self._unrenderable = False

    def _words_of(self, image, levels, lut) -> np.ndarray | None:
        if image is None or image.size == 0 or self.autoDownsample:
            return None
        if image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8 and lut is None and (
                levels is None or tuple(np.ravel(levels)) == (0, 255)):
            return np.ascontiguousarray(rgb_words(image))
        if (image.ndim != 2 or image.dtype.kind != "f" or levels is None or np.ndim(levels) != 1
                or not isinstance(lut, np.ndarray) or lut.dtype != np.uint8 or lut.ndim != 2 or lut.shape[1] != 3
                or len(lut) > 256 or np.isnan(image.min())):
            return None
        # pyqtgraph's own mapping (`functions_qimage`): the levels' span in as many steps as the table has colours.
        low, high = float(levels[0]), float(levels[1])
        span = (high - low) or 1.0
        index = (image - np.float32(low)) * np.float32(len(lut) / span)
        np.clip(index, 0, len(lut) - 1, out=index)
        return np.ascontiguousarray(rgb_words(lut)[index.astype(np.uint8)])
