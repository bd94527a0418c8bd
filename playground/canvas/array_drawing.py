"""How a card draws an array: up to 4×4 elements as numbers, a larger array as a small heat map.

A 1-D array is drawn as one row, a scalar as one cell. The heat map colours each element on the
training panel's diverging map (`common.colours.diverging_lut`), symmetric about zero so that
white is zero, orange negative and blue positive. `ArrayGrid` measures the drawing and finds the
element under a point, so a card can read out the element under the mouse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter, QPen

from ..common.colours import diverging_lut, rgb_words
from ..common.numbers import format_number
from .style import pixel_font

INLINE_SIDE = 4  # up to 4×4 elements are written out; more become a heat map
NUMBER_DIGITS = 3
NUMBER_FONT_SIZE = 10
CELL_HEIGHT = 15.0
MIN_NUMBER_WIDTH = 24.0
HEAT_SIDE = 96.0  # the longer side of a heat map, at most
HEAT_CELL = (3.0, 14.0)  # the smallest and largest heat map cell


def grid_shape(shape: tuple[int, ...]) -> tuple[int, int]:
    """Rows and columns the drawing has: a scalar is 1×1, a vector one row."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return shape[0], shape[1]


def as_grid(value) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    rows, columns = grid_shape(array.shape)
    return array.reshape(rows, columns)


def is_inline(shape: tuple[int, ...]) -> bool:
    rows, columns = grid_shape(shape)
    return rows <= INLINE_SIDE and columns <= INLINE_SIDE


def cell_text(x: float) -> str:
    return format_number(x, NUMBER_DIGITS)


def cell_texts(value) -> list[list[str]]:
    """The numbers an inline drawing writes, row by row (a vector is one row)."""
    return [[cell_text(x) for x in row] for row in as_grid(value)]


@dataclass(frozen=True)
class ArrayGrid:
    """The layout of one array's drawing: its shape, and its cells' size (numbers or heat map)."""

    shape: tuple[int, ...]
    cell_width: float
    cell_height: float

    @classmethod
    def for_values(cls, shape: tuple[int, ...], *arrays) -> ArrayGrid:
        """Cells wide enough for every number of ``arrays`` (each None or of ``shape``)."""
        rows, columns = grid_shape(shape)
        if is_inline(shape):
            metrics = QFontMetricsF(pixel_font(NUMBER_FONT_SIZE))
            widest = MIN_NUMBER_WIDTH
            for array in arrays:
                if array is not None:
                    for x in np.asarray(array, dtype=np.float64).ravel():
                        widest = max(widest, metrics.horizontalAdvance(cell_text(x)) + 10)
            return cls(tuple(shape), widest, CELL_HEIGHT)
        side = min(HEAT_CELL[1], max(HEAT_CELL[0], HEAT_SIDE / max(rows, columns)))
        return cls(tuple(shape), side, side)

    @property
    def inline(self) -> bool:
        return is_inline(self.shape)

    @property
    def size(self) -> tuple[float, float]:
        rows, columns = grid_shape(self.shape)
        return columns * self.cell_width, rows * self.cell_height

    def index_at(self, point: QPointF) -> tuple[int, ...] | None:
        """The index (in the array's own shape) of the element at ``point``, relative to the grid's corner."""
        rows, columns = grid_shape(self.shape)
        row, column = int(point.y() // self.cell_height), int(point.x() // self.cell_width)
        if not (0 <= row < rows and 0 <= column < columns and point.x() >= 0 and point.y() >= 0):
            return None
        if len(self.shape) == 0:
            return ()
        return (column,) if len(self.shape) == 1 else (row, column)


def heat_colors(values: np.ndarray, dark: bool) -> np.ndarray:
    """(rows, columns, 3) uint8 on the diverging map, symmetric about zero (nan in the middle)."""
    if np.isfinite(values).all():  # the usual case, in half the numpy calls (a trained graph's cards: 8 a frame)
        reach = float(np.abs(values).max()) if values.size else 0.0
        reach = reach if reach > 0 else 1.0
        return diverging_lut(dark)[((values / reach + 1.0) * 127.5).astype(np.uint8)]
    finite = values[np.isfinite(values)]
    reach = float(np.max(np.abs(finite))) if finite.size else 0.0
    reach = reach if reach > 0 else 1.0
    index = np.clip(np.nan_to_num((values / reach + 1.0) * 127.5, nan=127.5, posinf=255, neginf=0), 0, 255)
    return diverging_lut(dark)[index.astype(np.uint8)]


def heat_image(value, dark: bool) -> QImage:
    """The heat map of ``value`` (an array too large to write out): one pixel an element, which `paint_array`
    scales up without smoothing."""
    values = as_grid(value)
    rows, columns = values.shape
    words = np.ascontiguousarray(rgb_words(heat_colors(values, dark)))
    return QImage(words.data, columns, rows, 4 * columns, QImage.Format.Format_RGB32).copy()


class HeatImages:
    """A card's heat maps, made once per array shown rather than at every paint: a trained graph's parameter
    cards are repainted each frame, their gradients new only a few times a second. An entry holds its array,
    so that another array cannot come to have its id; `clear` when an array may have changed in place."""

    def __init__(self):
        self._made: dict[str, tuple[object, bool, QImage]] = {}

    def image(self, which: str, value, dark: bool) -> QImage:
        made = self._made.get(which)
        if made is None or made[0] is not value or made[1] != dark:
            made = self._made[which] = (value, dark, heat_image(value, dark))
        return made[2]

    def clear(self) -> None:
        self._made.clear()


def paint_array(painter: QPainter, grid: ArrayGrid, corner: QPointF, value, colors: dict[str, QColor],
                dark: bool, concealed: bool = False, heat: QImage | None = None) -> None:
    """Draw ``value`` (None: not computed, drawn as dashes) in ``grid``'s cells from ``corner``; ``heat``: its heat
    map made already (`HeatImages`), if it is drawn as one."""
    width, height = grid.size
    area = QRectF(corner.x(), corner.y(), width, height)
    painter.setPen(QPen(colors["card_border"], 0.8))
    painter.setBrush(colors["port"])
    painter.drawRect(area)
    if value is None or concealed:
        painter.setFont(pixel_font(NUMBER_FONT_SIZE, bold=True))
        painter.setPen(colors["muted"])
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter, "?" if concealed else "—")
        return
    if grid.inline:
        values = as_grid(value)
        painter.setFont(pixel_font(NUMBER_FONT_SIZE, bold=True))
        for row, texts in enumerate(cell_texts(values)):
            for column, text in enumerate(texts):
                cell = QRectF(corner.x() + column * grid.cell_width, corner.y() + row * grid.cell_height,
                              grid.cell_width, grid.cell_height)
                painter.setPen(colors["problem"] if not np.isfinite(values[row, column]) else colors["text"])
                painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, text)
        return
    # One image of a pixel a cell, scaled up without smoothing: crisp cells, and one call instead of a
    # rectangle a cell (a 64 x 64 array took 18 ms as 4,096 rectangles).
    image = heat if heat is not None else heat_image(value, dark)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
    painter.drawImage(QRectF(corner.x(), corner.y(), width, height), image)
    painter.restore()
