"""Per-class accuracy and the confusion matrices of the training and the test points, painted from
the counts in each progress report: side by side when there is room, else one at a time (click
the other one's title to see it)."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..common.class_marks import class_glyph
from ..common.colours import class_colours, class_line_colours, pale
from ..common.contrast import over, text_on
from ..common.numbers import format_number
from ..widgets.meaning_colours import text_ratio
from .model.points import COLOUR_NAMES
from .widgets import named

CELL_MAX, CELL_MIN = 30, 14
CELL_WIDE = 20     # cells narrower than this side by side: one matrix at a time
BOTH_UP_TO = 3     # up to this many classes, the column always has room for both matrices
BLOCK_EXTRA = 2.6  # a matrix is k cells wide plus its swatches, its accuracy column and a gap
REPAINT_S = 0.1    # new counts are painted at most ten times a second: a table needs no more
MATRICES = ("train", "test")


def per_class_accuracy(matrix: np.ndarray) -> np.ndarray:
    """Of each class's points, the share predicted as that class (the diagonal over the row sums);
    nan for a class without points."""
    totals = matrix.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, np.diag(matrix) / np.maximum(totals, 1), np.nan)


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return a is b or (a is not None and b is not None and np.array_equal(a, b))


class ConfusionView(QWidget):
    """Rows: the true class; columns: the predicted one; a last column with the class's accuracy.
    A cell is shaded by the share of its row; hovering it says what it counts."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "confusionMatrix", "Confusion matrices, train and test: rows are the true class, columns "
                                       "the predicted one; the last column is each class's accuracy",
              spoken="Confusion matrices, train and test")
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.matrices: dict[str, np.ndarray | None] = dict.fromkeys(MATRICES)
        self.classes: tuple[str, ...] = COLOUR_NAMES[:2]
        self.dark = False
        self.text_scale = 1.0  # presentation mode
        self.shown = "test"  # the one matrix shown when there is no room for both
        self._cells: list[tuple[QRectF, str]] = []  # for the tooltips
        self._marks: list[tuple[QRectF, str]] = []  # each class's mark, with its name for the tooltip
        self._titles: list[tuple[QRectF, str]] = []  # where to click to see the other matrix
        self._painted_at = 0.0
        self._repaint_timer = QTimer(self)  # paints counts that came too soon after the last painting
        self._repaint_timer.setSingleShot(True)
        self._repaint_timer.timeout.connect(self.update)

    def set_classes(self, classes: tuple[str, ...]) -> None:
        if tuple(classes) != self.classes:
            self.classes = tuple(classes)
            self.matrices = dict.fromkeys(MATRICES)
            self.updateGeometry()
            self.update()

    def set_matrices(self, train: np.ndarray | None, test: np.ndarray | None) -> None:
        new = {"train": train, "test": test}
        if all(_same(new[w], self.matrices[w]) for w in MATRICES):
            return
        self.matrices = new
        wait = REPAINT_S - (time.perf_counter() - self._painted_at)
        if wait <= 0:
            self.update()
        elif not self._repaint_timer.isActive():
            self._repaint_timer.start(int(wait * 1000) + 1)

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        self.update()

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: cells (and the numbers in them) ``factor`` times their usual size."""
        self.text_scale = float(factor)
        self.updateGeometry()
        self.update()

    def _geometry(self, width: int) -> tuple[float, bool]:
        """The side of a cell, and whether the two matrices stand side by side (else one at a time)."""
        k = len(self.classes)
        side_by_side = width / (2 * (k + BLOCK_EXTRA)) >= CELL_WIDE * self.text_scale
        cell = width / ((2 if side_by_side else 1) * (k + BLOCK_EXTRA))
        return float(np.clip(cell, CELL_MIN * self.text_scale, CELL_MAX * self.text_scale)), side_by_side

    def _block_height(self, cell: float) -> float:
        return (len(self.classes) + 1.6) * cell

    def sizeHint(self) -> QSize:
        k = len(self.classes)
        cell = CELL_MAX * self.text_scale
        return QSize(int(2 * (k + BLOCK_EXTRA) * cell), int(self._block_height(cell)) + 4)

    def minimumSizeHint(self) -> QSize:
        """Room for both matrices side by side, with cells wide enough to read (`CELL_WIDE` in the text's
        scale); with more than `BOTH_UP_TO` classes, room for one (the other a click away)."""
        k = len(self.classes)
        cell = CELL_WIDE * self.text_scale
        blocks = 2 if k <= BOTH_UP_TO else 1
        return QSize(int(np.ceil(blocks * (k + BLOCK_EXTRA) * cell)) + 1, int(self._block_height(cell)) + 4)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return int(self._block_height(self._geometry(width)[0])) + 4

    def paintEvent(self, event) -> None:
        self._painted_at = time.perf_counter()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        window = palette.color(QPalette.ColorRole.Window)
        page = (window.red(), window.green(), window.blue())  # what the see-through cells are painted over
        k = len(self.classes)
        cell, side_by_side = self._geometry(self.width())
        font = QFont(self.font())
        font.setPixelSize(max(8, int(cell * 0.42)))
        painter.setFont(font)
        colours = class_colours(self.dark)
        marks = class_line_colours(self.dark)  # a class's shape beside its row stands 3:1 off the page
        self._cells, self._titles, self._marks = [], [], []
        shown = MATRICES if side_by_side else (self.shown,)
        for block, which in enumerate(shown):
            left = block * (k + BLOCK_EXTRA) * cell
            matrix = self.matrices[which]
            painter.setPen(text)
            if side_by_side:
                painter.drawText(QRectF(left, 0, (k + 2) * cell, cell * 0.6), Qt.AlignmentFlag.AlignCenter,
                                 which.upper())
            else:
                self._draw_titles(painter, (k + 2) * cell, cell * 0.6, text)
            top = cell * 0.6
            for c in range(k):  # the predicted classes' marks along the top, the true ones down the side
                for rect, role in ((QRectF(left + (c + 1) * cell, top, cell, cell), "predicted"),
                                   (QRectF(left, top + (c + 1) * cell, cell, cell), "true")):
                    self._swatch(painter, rect, c, marks[c])
                    self._marks.append((rect, f"{role} class {self.classes[c]} ({class_glyph(c)})"))
            painter.setPen(text)
            painter.drawText(QRectF(left + (k + 1) * cell, top, cell * 1.4, cell), Qt.AlignmentFlag.AlignCenter, "acc")
            if matrix is None or matrix.shape != (k, k):
                continue
            totals = matrix.sum(axis=1)
            accuracy = per_class_accuracy(matrix)
            for row in range(k):
                for column in range(k):
                    count = int(matrix[row, column])
                    share = count / totals[row] if totals[row] else 0.0
                    rect = QRectF(left + (column + 1) * cell, top + (row + 1) * cell, cell, cell)
                    tint = pale(colours[row] if row == column else "#808080", self.dark)
                    painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 0.5))
                    alpha = int(40 + 215 * share)
                    painter.setBrush(QColor(*np.round(tint).astype(int), alpha))
                    painter.drawRect(rect)
                    self._draw_count(painter, rect, format_number(count), over(tint, alpha / 255, page), palette)
                    self._cells.append((rect, f"{which}: {format_number(count)} of the {format_number(totals[row])} "
                                              f"{self.classes[row]} points predicted {self.classes[column]}"))
                rect = QRectF(left + (k + 1) * cell, top + (row + 1) * cell, cell * 1.4, cell)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                                 "–" if np.isnan(accuracy[row]) else format_number(round(100 * accuracy[row])))
                self._cells.append((rect, f"{which}: {self.classes[row]} accuracy "
                                          f"{format_number(100 * accuracy[row])}% "
                                          f"({format_number(matrix[row, row])} of {format_number(totals[row])})"))
        painter.end()

    def _draw_count(self, painter: QPainter, rect: QRectF, words: str, cell, palette: QPalette) -> None:
        """A cell's count in black or white, whichever reads on the cell's shade (4.5:1, 7:1 in high contrast);
        where neither does (a middle tone in high contrast), on a plate of the page's own colour."""
        colour = text_on(cell, text_ratio(palette))
        if colour is None:
            bounds = painter.boundingRect(rect, Qt.AlignmentFlag.AlignCenter, words).adjusted(-2, 0, 2, 0)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.color(QPalette.ColorRole.Base))
            painter.drawRoundedRect(bounds, 2, 2)
            colour = palette.color(QPalette.ColorRole.Text)
        painter.setPen(QColor(colour))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, words)

    def _draw_titles(self, painter: QPainter, width: float, height: float, text: QColor) -> None:
        """TRAIN and TEST, the one shown in bold; the other is a click away."""
        for index, which in enumerate(MATRICES):
            rect = QRectF(index * width / 2, 0, width / 2, height)
            font = QFont(painter.font())
            font.setBold(which == self.shown)
            font.setUnderline(which != self.shown)
            painter.setFont(font)
            painter.setPen(text)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, which.upper())
            self._titles.append((rect, which))
        font = QFont(painter.font())
        font.setBold(False)
        font.setUnderline(False)
        painter.setFont(font)

    def show_matrix(self, which: str) -> None:
        """Which matrix to show when only one fits: "train" or "test"."""
        if which not in MATRICES:
            raise ValueError(f"no {which!r} matrix; choose train or test")
        self.shown = which
        self.update()

    def mousePressEvent(self, event) -> None:
        picked = next((which for rect, which in self._titles if rect.contains(event.position())), None)
        if picked is not None:
            self.show_matrix(picked)
        super().mousePressEvent(event)

    def _swatch(self, painter: QPainter, rect: QRectF, label: int, colour: str) -> None:
        """Class ``label``'s mark: its shape (the one its points have on the plot) in its colour, so that
        the rows and columns are told apart without the colour too."""
        painter.setPen(QColor(colour))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, class_glyph(label))

    def cell_text(self, point) -> str:
        return next((text for rect, text in (*self._cells, *self._marks) if rect.contains(point)), "")

    def mouseMoveEvent(self, event) -> None:
        text = self.cell_text(event.position())
        if text:
            QToolTip.showText(event.globalPosition().toPoint(), text, self)
        else:
            QToolTip.hideText()
        super().mouseMoveEvent(event)
