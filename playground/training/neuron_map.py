"""The diagram's neurons: each one's place and mouse (`NeuronMap`), a frame's maps, biases and dead
neurons as Qt paints them (`LayerMaps`, `paint_neurons`: a map over the plane, its bias as a small
square in the corner, a red cross when it is a dead ReLU), and the box where a person types a weight
or a bias (`ParameterEditor`)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QDoubleValidator, QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import QLineEdit, QWidget

from ..common.colours import MISCLASSIFIED, rgb_words
from ..common.contrast import GRAPHICS_RATIO, readable
from .model.neuron_images import NeuronImages
from .widgets import named


class NeuronMap(QWidget):
    """One neuron of the diagram: it says when the mouse comes, goes and clicks; the diagram decides what
    that means, and paints it (`paint_neurons`), every neuron in one paint event: a network of six
    layers of 64 has 386 of them, and a paint event each cost more than the pictures."""

    entered = Signal(object)          # this neuron
    left = Signal(object)
    clicked = Signal(object, QPoint)  # this neuron, where in its parent

    def __init__(self, layer: int, index: int, parent: QWidget):
        super().__init__(parent)
        named(self, f"neuronMap_{layer}_{index}", spoken=f"Map of neuron {index + 1} in layer {layer}")
        self.layer, self.index = layer, index
        self.hovered = False
        self._place()
        self.setCursor(Qt.CursorShape.PointingHandCursor if layer > 0 else Qt.CursorShape.ArrowCursor)

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


class LayerMaps:
    """One frame's neuron maps as Qt paints them: per layer one image, the layer's maps stacked top to
    bottom over the worker's own pixels (not copied), each neuron's bias colour, and which are dead.
    One image a layer and not one a neuron: making and handing out 386 images a frame cost the GUI
    thread more than painting them."""

    def __init__(self, images: NeuronImages, dead: tuple[np.ndarray, ...]):
        self.pixels = images.maps  # per layer (neurons, r, r) uint32 0xffRRGGBB; keeps the images' memory
        self.sides = [maps.shape[2] for maps in self.pixels]
        self.images = [QImage(maps.data, side, len(maps) * side, 4 * side, QImage.Format.Format_RGB32)
                       for maps, side in zip(self.pixels, self.sides)]
        self.bias_words = [None, *(rgb_words(biases).tolist() for biases in images.biases)]
        self.dead = [np.flatnonzero(flags).tolist() for flags in dead]

    def paint(self, painter: QPainter, layer: int, index: int, rect: QRectF) -> None:
        side = self.sides[layer]
        # The source rectangle bounds the smooth scaling: no row of the neighbour's map bleeds in.
        painter.drawImage(rect, self.images[layer], QRectF(0, index * side, side, side))


def frame_colour(palette: QPalette) -> QColor:
    """A neuron's frame: the palette's Mid grey, deepened (lightened on a dark window) to 3:1 off the window it
    is drawn on (WCAG 1.4.11); Fusion's light Mid is 1.7:1, and the frame is where a pale map ends."""
    mid, window = palette.color(QPalette.ColorRole.Mid), palette.color(QPalette.ColorRole.Window)
    return QColor(readable(mid.getRgb()[:3], window.getRgb()[:3], GRAPHICS_RATIO))


def paint_neurons(painter: QPainter, columns: list[list[NeuronMap]], shown: list[tuple[int, int, int]],
                  maps: LayerMaps | None, palette: QPalette, hovered: NeuronMap | None) -> None:
    """Draw the neurons ``shown`` (per layer: the layer and the range of its neurons in sight) where they
    lie on the diagram's ``painter``: maps and bias squares first, then every frame and bias square's
    edge in one call each (a pen set per neuron cost as much as its picture)."""
    window = palette.color(QPalette.ColorRole.Window)
    frames, biases, crosses = [], [], []
    device_pixels = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    for layer, start, stop in shown:
        column = columns[layer]
        bias_words = maps.bias_words[layer] if maps is not None else None
        if maps is not None and start < stop:
            # Smooth where a map is drawn larger than its pixels; shrunk, the nearest pixel (a smooth field loses
            # nothing to it, and smooth shrinking cost four times as much).
            shown_side = column[start].frame_rect.width() * device_pixels
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, shown_side > maps.sides[layer])
        for index in range(start, stop):
            neuron = column[index]
            if maps is not None:
                maps.paint(painter, layer, index, neuron.frame_rect)
            else:
                painter.fillRect(neuron.frame_rect, window)
            if bias_words is not None:
                painter.fillRect(neuron.bias_rect, QColor.fromRgb(bias_words[index]))
                biases.append(neuron.bias_rect)
            frames.append(neuron.frame_rect)
        if maps is not None:
            crosses.extend(column[index].frame_rect for index in maps.dead[layer] if start <= index < stop)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(frame_colour(palette), 1.0))
    painter.drawRects(frames)
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 0.8))
    painter.drawRects(biases)
    painter.setPen(QPen(QColor(MISCLASSIFIED), 2.0))
    for rect in crosses:  # a dead ReLU: zero over the whole plane
        painter.drawLine(rect.topLeft(), rect.bottomRight())
        painter.drawLine(rect.topRight(), rect.bottomLeft())
    if hovered is not None:
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2.0))
        painter.drawRect(hovered.frame_rect)


class ParameterEditor(QLineEdit):
    """Where a person types a weight: Enter commits, Escape or clicking away cancels."""

    committed = Signal(float)

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        named(self, "weightEditor", "Type a new value and press Enter (Escape: keep the old one)",
              spoken="New value of the weight")
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
