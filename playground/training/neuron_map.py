"""One neuron of the diagram (`NeuronMap`: its map over the plane, its bias, a mark when it is dead)
and the box where a person types a weight or a bias (`ParameterEditor`)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QDoubleValidator, QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import QLineEdit, QWidget

from .model.colours import MISCLASSIFIED
from .widgets import named


class NeuronMap(QWidget):
    """One neuron: its map over the plane, its bias as a small square in the corner, a red cross when it
    is a dead ReLU (zero over the whole plane). It says when the mouse comes, goes and clicks; the
    diagram decides what that means."""

    entered = Signal(object)          # this neuron
    left = Signal(object)
    clicked = Signal(object, QPoint)  # this neuron, where in its parent

    def __init__(self, layer: int, index: int, parent: QWidget):
        super().__init__(parent)
        named(self, f"neuronMap_{layer}_{index}")
        self.layer, self.index = layer, index
        self._pixels: np.ndarray | None = None  # keeps the QImage's memory alive
        self._image: QImage | None = None
        self.bias_colour: QColor | None = None
        self.dead = False
        self.hovered = False
        self.setCursor(Qt.CursorShape.PointingHandCursor if layer > 0 else Qt.CursorShape.ArrowCursor)
        # It paints every pixel of itself: the diagram under it (wires) need not be painted again.
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def set_pixels(self, pixels: np.ndarray) -> None:
        """An (r, r, 3) uint8 C-contiguous image, row 0 at the top: kept, and made a QImage only when it
        is painted (in a large network most neurons are scrolled out of sight)."""
        self._pixels = pixels
        self._image = None
        self.update()

    @property
    def has_map(self) -> bool:
        return self._pixels is not None

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        if self._image is None and self._pixels is not None:
            height, width = self._pixels.shape[:2]
            self._image = QImage(self._pixels.data, width, height, 3 * width, QImage.Format.Format_RGB888)
        if self._image is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(rect, self._image)
        else:
            painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Window))
        palette = self.palette()
        role = QPalette.ColorRole.Highlight if self.hovered else QPalette.ColorRole.Mid
        painter.setPen(QPen(palette.color(role), 2.0 if self.hovered else 1.0))
        painter.drawRect(rect)
        if self.bias_colour is not None:
            side = max(4.0, self.width() / 4)
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 0.8))
            painter.setBrush(self.bias_colour)
            painter.drawRect(QRectF(0.5, self.height() - side - 0.5, side, side))
        if self.dead:
            painter.setPen(QPen(QColor(MISCLASSIFIED), 2.0))
            painter.drawLine(rect.topLeft(), rect.bottomRight())
            painter.drawLine(rect.topRight(), rect.bottomLeft())
        painter.end()

    def enterEvent(self, event) -> None:
        self.entered.emit(self)
        super().enterEvent(event)

    def leaveEvent(self, event) -> None:
        self.left.emit(self)
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.layer > 0:
            self.clicked.emit(self, self.mapToParent(event.position().toPoint()))
        super().mousePressEvent(event)


class ParameterEditor(QLineEdit):
    """Where a person types a weight: Enter commits, Escape or clicking away cancels."""

    committed = Signal(float)

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        named(self, "weightEditor", "Type a new value and press Enter (Escape: keep the old one)")
        validator = QDoubleValidator(self)
        validator.setNotation(QDoubleValidator.Notation.ScientificNotation)
        self.setValidator(validator)
        self.returnPressed.connect(self._on_return_pressed)
        self.target = None
        self.hide()

    def open_at(self, point, text: str, target) -> None:
        self.target = target
        self.setText(text)
        self.setFixedWidth(max(110, self.fontMetrics().horizontalAdvance(text) + 16))
        parent = self.parentWidget()
        x = min(max(0, point.x() - self.width() // 2), max(0, parent.width() - self.width()))
        y = min(max(0, point.y() + 8), max(0, parent.height() - self.height()))
        self.move(x, y)
        self.show()
        self.raise_()
        self.setFocus()
        self.selectAll()

    def _on_return_pressed(self) -> None:
        try:
            value = float(self.text().replace(",", "."))
        except ValueError:
            return
        self.hide()
        self.committed.emit(value)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.hide()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        self.hide()
        super().focusOutEvent(event)
