"""A node's maps over the plane as one image: its columns' maps stacked top to bottom, each drawn from its own
part (`source`). While a graph trains, every card with maps gets new ones each frame: one image a card,
made with one copy, costs the GUI thread less than an image a map (up to 16 a card, each made from Python)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem


class MapStrip:
    """``words`` (columns, r, r) 0xffRRGGBB, row 0 at the top, as one r wide image, map ``i`` at rows i·r to
    (i + 1)·r. Drawn scaled from a source rectangle, a map takes no colour from its neighbours (Qt samples
    within the rectangle), so it looks as an image of its own would."""

    def __init__(self, words: np.ndarray | None = None):
        if words is None or len(words) == 0:
            self.image, self._count, self._side = QImage(), 0, 0
            return
        words = np.ascontiguousarray(words, dtype=np.uint32)
        count, side = words.shape[0], words.shape[-1]
        self.image = QImage(words.data, side, count * side, side * 4, QImage.Format.Format_RGB32).copy()
        self._count, self._side = count, side

    def __len__(self) -> int:
        return self._count

    @property
    def side(self) -> int:
        """A map's side in pixels."""
        return self._side

    def smooth_at(self, painter: QPainter, shown_side: float) -> bool:
        """Scale the maps smoothly where they are drawn larger than their pixels (``shown_side``: a map's side in
        the painter's units), else pick the nearest pixel: a smooth field shrunk loses nothing to it, and smooth
        shrinking cost four times as much (a trained graph's fifty maps, thirty times a second). Returns the
        painter's setting before, for the caller to put back."""
        before = painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        device = painter.device()
        pixels = device.devicePixelRatioF() if device is not None else 1.0  # a HiDPI screen's pixels, not points
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform()) * shown_side * pixels
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, scale > self._side)
        return before

    def source(self, column: int) -> QRectF:
        """Where map ``column`` is in `image`."""
        return QRectF(0, column * self._side, self._side, self._side)
