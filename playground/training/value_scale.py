"""A regression's colour bar: the scale the big plot colours its predicted values and its points on,
from the lowest value (orange) through 0 (neutral) to the highest (blue), with the numbers at its ends."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QPen
from PySide6.QtWidgets import QWidget

from ..common.colours import strong_diverging_lut
from ..common.numbers import format_number
from .widgets import named

BAR_HEIGHT = 12  # pixels of colour; the numbers go under it


class ValueScale(QWidget):
    """The colour bar under the big plot while it shows a regression (`set_levels`)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "valueColourBar", "Colour scale of the predicted value: orange low, neutral 0, blue high",
              spoken="Colour scale of the predicted value")
        self.levels = (-1.0, 1.0)
        self.dark = False

    def set_levels(self, levels: tuple[float, float]) -> None:
        self.levels = (float(levels[0]), float(levels[1]))
        self.setToolTip(f"Predicted value from {self.texts()[0]} (orange) to {self.texts()[2]} (blue)")
        self.update()

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        self.update()

    def texts(self) -> tuple[str, str, str]:
        """The numbers written under the bar: its low end, its middle, its high end."""
        low, high = self.levels
        return format_number(low), format_number((low + high) / 2), format_number(high)

    def sizeHint(self) -> QSize:
        return QSize(200, BAR_HEIGHT + self.fontMetrics().height() + 6)

    def minimumSizeHint(self) -> QSize:
        return QSize(80, self.sizeHint().height())

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        margin = 24
        bar = QRectF(margin, 2, max(self.width() - 2 * margin, 10), BAR_HEIGHT)
        gradient = QLinearGradient(bar.left(), 0, bar.right(), 0)
        lut = strong_diverging_lut(self.dark)
        for stop in range(0, 256, 32):
            gradient.setColorAt(stop / 255, QColor(*lut[stop].tolist()))
        gradient.setColorAt(1.0, QColor(*lut[255].tolist()))
        painter.fillRect(bar, gradient)
        painter.setPen(QPen(self.palette().color(self.foregroundRole())))
        painter.drawRect(bar)
        top = int(bar.bottom()) + 2
        height = self.height() - top
        low, middle, high = self.texts()
        flags = Qt.AlignmentFlag.AlignTop
        painter.drawText(QRectF(0, top, 2 * margin + 40, height), flags | Qt.AlignmentFlag.AlignLeft, low)
        painter.drawText(QRectF(0, top, self.width(), height), flags | Qt.AlignmentFlag.AlignHCenter, middle)
        painter.drawText(QRectF(self.width() - 2 * margin - 40, top, 2 * margin + 40, height),
                         flags | Qt.AlignmentFlag.AlignRight, high)
        painter.end()
