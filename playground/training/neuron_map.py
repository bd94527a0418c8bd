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
    diagram decides what that means.

    The widget takes the mouse; the diagram paints it (`paint_neurons`), every neuron in one paint event:
    a network of six layers of 64 has 386 of them, and a paint event each cost more than the pictures."""

    entered = Signal(object)          # this neuron
    left = Signal(object)
    clicked = Signal(object, QPoint)  # this neuron, where in its parent

    def __init__(self, layer: int, index: int, parent: QWidget):
        super().__init__(parent)
        named(self, f"neuronMap_{layer}_{index}")
        self.layer, self.index = layer, index
        self._pixels: np.ndarray | None = None  # keeps the QImage's memory alive
        self._image: QImage | None = None
        self.bias_rgb: tuple[int, int, int] | None = None  # the bias's colour
        self.dead = False
        self.hovered = False
        self._place()
        self.setCursor(Qt.CursorShape.PointingHandCursor if layer > 0 else Qt.CursorShape.ArrowCursor)

    def set_pixels(self, pixels: np.ndarray) -> None:
        """An (r, r) uint32 C-contiguous image of 0xffRRGGBB words, row 0 at the top: kept, and made a
        QImage only when it is painted (in a large network most neurons are scrolled out of sight)."""
        self._pixels = pixels
        self._image = None

    @property
    def has_map(self) -> bool:
        return self._pixels is not None

    def update(self) -> None:
        """Painted by the diagram: its own area of the diagram is painted again."""
        self.parentWidget().update(self.geometry())

    def resizeEvent(self, event) -> None:
        self._place()
        super().resizeEvent(event)

    def moveEvent(self, event) -> None:
        self._place()
        super().moveEvent(event)

    def _place(self) -> None:
        self.frame_rect = QRectF(self.geometry()).adjusted(0.5, 0.5, -0.5, -0.5)
        side = max(4.0, self.frame_rect.width() / 4)
        self.bias_rect = QRectF(self.frame_rect.left(), self.frame_rect.bottom() - side, side, side)

    def image(self) -> QImage | None:
        """The map as a QImage over the kept pixels (made when first painted)."""
        if self._image is None and self._pixels is not None:
            height, width = self._pixels.shape[:2]
            self._image = QImage(self._pixels.data, width, height, 4 * width, QImage.Format.Format_RGB32)
        return self._image


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


def paint_neurons(painter: QPainter, neurons: list[NeuronMap], palette: QPalette) -> None:
    """Draw ``neurons`` where they lie on the diagram's ``painter``: maps first, then every frame and bias
    square in one call each (a pen set per neuron cost as much as its picture)."""
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    window = palette.color(QPalette.ColorRole.Window)
    for neuron in neurons:
        image = neuron.image()
        if image is not None:
            painter.drawImage(neuron.frame_rect, image)
        else:
            painter.fillRect(neuron.frame_rect, window)
        if neuron.bias_rgb is not None:
            painter.fillRect(neuron.bias_rect, QColor(*neuron.bias_rgb))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1.0))
    painter.drawRects([neuron.frame_rect for neuron in neurons])
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 0.8))
    painter.drawRects([neuron.bias_rect for neuron in neurons if neuron.bias_rgb is not None])
    painter.setPen(QPen(QColor(MISCLASSIFIED), 2.0))
    for neuron in neurons:
        if neuron.dead:
            rect = neuron.frame_rect
            painter.drawLine(rect.topLeft(), rect.bottomRight())
            painter.drawLine(rect.topRight(), rect.bottomLeft())
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2.0))
    for neuron in neurons:
        if neuron.hovered:
            painter.drawRect(neuron.frame_rect)


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
