"""A node's maps held as one image (`MapStrip`): each map drawn from its part looks as an image of its own
would, at any scale, its neighbours' colours kept out."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from playground.canvas.map_strip import MapStrip


def _words(count: int, side: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    return (0xFF000000 | rng.integers(0, 0xFFFFFF, size=(count, side, side))).astype(np.uint32)


def _drawn(scale: float, draw) -> np.ndarray:
    canvas = QImage(120, 120, QImage.Format.Format_RGB32)
    canvas.fill(QColor("white"))
    painter = QPainter(canvas)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.scale(scale, scale)
    draw(painter, QRectF(10.3, 7.6, 26, 26))
    painter.end()
    return np.frombuffer(canvas.constBits(), np.uint32, 120 * 120).copy()


@pytest.mark.parametrize("scale", [0.45, 1.0, 2.7])
def test_each_map_drawn_from_the_strip_is_the_map_drawn_alone(qtbot, scale):
    words = _words(3, 30)
    strip = MapStrip(words)
    assert len(strip) == 3 and strip.image.width() == 30 and strip.image.height() == 90
    for column in range(3):
        alone = QImage(words[column].tobytes(), 30, 30, 120, QImage.Format.Format_RGB32).copy()
        from_strip = _drawn(scale, lambda p, r, c=column: p.drawImage(r, strip.image, strip.source(c)))
        assert np.array_equal(from_strip, _drawn(scale, lambda p, r, a=alone: p.drawImage(r, a)))


def test_no_words_no_maps(qtbot):
    assert len(MapStrip(None)) == 0 and not MapStrip(np.zeros((0, 30, 30), np.uint32))


def test_maps_are_scaled_smoothly_only_where_they_are_drawn_larger_than_their_pixels(qtbot):
    strip = MapStrip(np.full((2, 30, 30), 0xFF336699, dtype=np.uint32))
    for ratio, scale, side, smooth in ((1.0, 1.0, 26.0, False), (1.0, 1.5, 26.0, True), (2.0, 1.0, 26.0, True),
                                       (1.0, 0.5, 80.0, True), (1.0, 0.5, 50.0, False)):
        image = QImage(200, 200, QImage.Format.Format_RGB32)
        image.setDevicePixelRatio(ratio)
        painter = QPainter(image)
        painter.scale(scale, scale)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, not smooth)
        before = strip.smooth_at(painter, side)
        assert before is (not smooth)  # what the caller puts back
        assert painter.testRenderHint(QPainter.RenderHint.SmoothPixmapTransform) is smooth, (ratio, scale, side)
        painter.end()
