"""The boundary's picture (`training.plane_image`): made in Qt's own pixel format, with the very colours
pyqtgraph's ImageItem gives the same values, levels and colour table."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage

from playground.common.colours import diverging_lut, probability_lut
from playground.training.plane_image import PlaneImage


def _pixels(item) -> np.ndarray:
    item.render()
    image = item.qimage.convertToFormat(QImage.Format.Format_RGB32)
    words = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.width() * image.height())
    return words.reshape(image.height(), image.width()) & 0xFFFFFF


def _both(image, **options):
    mine, theirs = PlaneImage(), pg.ImageItem(axisOrder="row-major")
    for item in (mine, theirs):
        item.setImage(image, autoLevels=False, **options)
        item.render()  # as a paint would
    return mine, theirs


@pytest.mark.parametrize("levels", [(0.0, 1.0), (-1.0, 1.0), (-3.5, 2.25), (0.5, 0.5)])
@pytest.mark.parametrize("lut", [probability_lut(False), probability_lut(True), diverging_lut(False)],
                         ids=["probability", "probability dark", "diverging"])
def test_values_through_a_colour_table_look_as_pyqtgraph_shows_them(qtbot, levels, lut):
    rng = np.random.default_rng(1)
    values = rng.uniform(-4, 4, size=(37, 53)).astype(np.float32)
    values[0, :4] = [levels[0], levels[1], -np.inf, np.inf]  # the ends, and beyond them
    mine, theirs = _both(values, levels=levels, lut=lut)
    assert mine.qimage.format() == QImage.Format.Format_RGB32  # drawn as it is
    assert np.array_equal(_pixels(mine), _pixels(theirs))


def test_an_rgb_picture_is_shown_as_it_is(qtbot):
    rgb = np.random.default_rng(2).integers(0, 256, size=(20, 30, 3), dtype=np.uint8)
    mine, theirs = _both(rgb, levels=(0, 255), lut=None)
    assert mine.qimage.format() == QImage.Format.Format_RGB32
    assert np.array_equal(_pixels(mine), _pixels(theirs))
    assert np.array_equal(_pixels(mine), rgb[..., 0].astype(np.uint32) << 16 | rgb[..., 1].astype(np.uint32) << 8
                          | rgb[..., 2])


def test_values_with_a_gap_are_left_to_pyqtgraph(qtbot):
    values = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    values[1, 1] = np.nan  # pyqtgraph leaves it see-through
    mine, theirs = _both(values, levels=(0.0, 1.0), lut=probability_lut(False))
    assert mine.qimage.format() == theirs.qimage.format() != QImage.Format.Format_RGB32
