"""Per-class accuracy and the confusion matrices of the training and the test points, side by side,
painted from the counts in each progress report."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..numbers import format_number
from .colours import class_colours, pale
from .points import COLOUR_NAMES
from .widgets import named

CELL_MAX, CELL_MIN = 30, 14
MATRICES = ("train", "test")


def per_class_accuracy(matrix: np.ndarray) -> np.ndarray:
    """Of each class's points, the share predicted as that class (the diagonal over the row sums);
    nan for a class without points."""
    totals = matrix.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, np.diag(matrix) / np.maximum(totals, 1), np.nan)


class ConfusionView(QWidget):
    """Rows: the true class; columns: the predicted one; a last column with the class's accuracy.
    A cell is shaded by the share of its row; hovering it says what it counts."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "confusionMatrix", "Confusion matrices, train and test: rows are the true class, columns "
                                       "the predicted one; the last column is each class's accuracy")
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.matrices: dict[str, np.ndarray | None] = dict.fromkeys(MATRICES)
        self.classes: tuple[str, ...] = COLOUR_NAMES[:2]
        self.dark = False
        self._cells: list[tuple[QRectF, str]] = []  # for the tooltips

    def set_classes(self, classes: tuple[str, ...]) -> None:
        if tuple(classes) != self.classes:
            self.classes = tuple(classes)
            self.matrices = dict.fromkeys(MATRICES)
            self.updateGeometry()
            self.update()

    def set_matrices(self, train: np.ndarray | None, test: np.ndarray | None) -> None:
        self.matrices = {"train": train, "test": test}
        self.update()

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        self.update()

    def _cell(self) -> float:
        k = len(self.classes)
        columns = 2 * (k + 2) + 1  # each matrix: a swatch column, k cells, the accuracy; a gap between
        return float(np.clip(self.width() / columns, CELL_MIN, CELL_MAX))

    def sizeHint(self) -> QSize:
        k = len(self.classes)
        return QSize(2 * (k + 2) * CELL_MAX, int((k + 2) * CELL_MAX * 0.8))

    def minimumSizeHint(self) -> QSize:
        k = len(self.classes)
        return QSize(2 * (k + 2) * CELL_MIN, (k + 2) * CELL_MIN)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        k = len(self.classes)
        cell = float(np.clip(width / (2 * (k + 2) + 1), CELL_MIN, CELL_MAX))
        return int((k + 1.6) * cell) + 4

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.Text)
        k = len(self.classes)
        cell = self._cell()
        font = QFont(self.font())
        font.setPixelSize(max(8, int(cell * 0.42)))
        painter.setFont(font)
        colours = class_colours(self.dark)
        self._cells = []
        for block, which in enumerate(MATRICES):
            left = block * (k + 3) * cell
            matrix = self.matrices[which]
            painter.setPen(text)
            painter.drawText(QRectF(left, 0, (k + 2) * cell, cell * 0.6), Qt.AlignmentFlag.AlignCenter,
                             which.upper())
            top = cell * 0.6
            for c in range(k):  # the predicted classes' swatches along the top, the true ones down the side
                self._swatch(painter, QRectF(left + (c + 1) * cell, top, cell, cell), colours[c])
                self._swatch(painter, QRectF(left, top + (c + 1) * cell, cell, cell), colours[c])
            painter.setPen(text)
            painter.drawText(QRectF(left + (k + 1) * cell, top, cell, cell), Qt.AlignmentFlag.AlignCenter, "acc")
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
                    painter.setBrush(QColor(*np.round(tint).astype(int), int(40 + 215 * share)))
                    painter.drawRect(rect)
                    painter.setPen(text)
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, format_number(count))
                    self._cells.append((rect, f"{which}: {format_number(count)} of the {format_number(totals[row])} "
                                              f"{self.classes[row]} points predicted {self.classes[column]}"))
                rect = QRectF(left + (k + 1) * cell, top + (row + 1) * cell, cell * 1.2, cell)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                                 "–" if np.isnan(accuracy[row]) else format_number(round(100 * accuracy[row])))
                self._cells.append((rect, f"{which}: {self.classes[row]} accuracy "
                                          f"{format_number(100 * accuracy[row])}% "
                                          f"({format_number(matrix[row, row])} of {format_number(totals[row])})"))
        painter.end()

    def _swatch(self, painter: QPainter, rect: QRectF, colour: str) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(colour))
        painter.drawEllipse(rect.center(), rect.width() * 0.22, rect.width() * 0.22)

    def cell_text(self, point) -> str:
        return next((text for rect, text in self._cells if rect.contains(point)), "")

    def mouseMoveEvent(self, event) -> None:
        text = self.cell_text(event.position())
        if text:
            QToolTip.showText(event.globalPosition().toPoint(), text, self)
        else:
            QToolTip.hideText()
        super().mouseMoveEvent(event)
