"""A scene of node cards and wires: lookup by id, selection, hit testing, theme and the dotted background.

`GraphScene` (the editor) builds on it to follow and edit a graph document; the backward
animator builds on it to show a read-only copy of a graph or a tensor graph.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from .cards import CardItem, PortItem
from .document import Edge
from .style import DARK_COLORS, LIGHT_COLORS
from .wires import WireItem

GRID_STEP = 20.0


class CardScene(QGraphicsScene):
    """Holds a `CardItem` per node id and a `WireItem` per edge; subclasses fill them."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.colors = LIGHT_COLORS
        self._dark = False
        self._nodes: dict[str, CardItem] = {}
        self._wires: dict[Edge, WireItem] = {}
        self.setBackgroundBrush(self.colors["background"])

    # -- theme -------------------------------------------------------------------------------

    @property
    def dark(self) -> bool:
        return self._dark

    def set_theme(self, dark: bool) -> None:
        """Swap the palette the items draw with (`style.LIGHT_COLORS` / `style.DARK_COLORS`)."""
        self._dark = bool(dark)
        self.colors = DARK_COLORS if dark else LIGHT_COLORS
        self.setBackgroundBrush(self.colors["background"])
        self.update()

    # -- items -------------------------------------------------------------------------------

    def node_item(self, node_id: str) -> CardItem | None:
        return self._nodes.get(node_id)

    def wire_item(self, edge: Edge) -> WireItem | None:
        return self._wires.get(edge)

    def node_items(self) -> list[CardItem]:
        return list(self._nodes.values())

    def wire_items(self) -> list[WireItem]:
        return list(self._wires.values())

    def items_bounding_rect(self) -> QRectF:
        """The rectangle around every node and wire."""
        rect = QRectF()
        for item in (*self._nodes.values(), *self._wires.values()):
            rect = rect.united(item.sceneBoundingRect())
        return rect

    def place_labels_near(self, *areas: QRectF) -> None:
        """Find new spots for the wire labels in ``areas``, where a card has just arrived or left."""
        area = QRectF()
        for rect in areas:
            area = area.united(rect)
        if area.isEmpty():
            return
        for item in self.items(area):
            if isinstance(item, WireItem):
                item.place_label()

    def _clear_items(self) -> None:
        for wire in self._wires.values():
            wire.detach()
            if wire.scene() is self:
                self.removeItem(wire)
        for item in self._nodes.values():
            if item.scene() is self:
                self.removeItem(item)
        self._wires.clear()
        self._nodes.clear()

    # -- selection ---------------------------------------------------------------------------

    def selected_node_ids(self) -> list[str]:
        return [node_id for node_id, item in self._nodes.items() if item.isSelected()]

    def selected_edges(self) -> list[Edge]:
        return [edge for edge, item in self._wires.items() if item.isSelected()]

    def select_nodes(self, node_ids: Iterable[str]) -> None:
        """Select exactly these nodes; one selection change is announced, not one per node."""
        wanted = set(node_ids)
        self.blockSignals(True)
        try:
            self.clearSelection()
            for node_id in wanted:
                if node_id in self._nodes:
                    self._nodes[node_id].setSelected(True)
        finally:
            self.blockSignals(False)
        self._on_selection_changed()

    def _on_selection_changed(self) -> None:
        """Called after `select_nodes`; a subclass announces the new selection."""

    # -- hit testing -------------------------------------------------------------------------

    def _top_item_at(self, pos: QPointF) -> QGraphicsItem | None:
        """The topmost port, node or wire under ``pos`` (ignoring anything else, such as an inline editor)."""
        for item in self.items(pos):
            if isinstance(item, (PortItem, CardItem, WireItem)):
                return item
        return None

    def node_at(self, pos: QPointF) -> CardItem | None:
        item = self._top_item_at(pos)
        if isinstance(item, PortItem):
            return item.node_item
        return item if isinstance(item, CardItem) else None

    def port_at(self, pos: QPointF) -> PortItem | None:
        item = self._top_item_at(pos)
        return item if isinstance(item, PortItem) else None

    def wire_at(self, pos: QPointF, tolerance: float = 4.0) -> WireItem | None:
        area = QRectF(pos.x() - tolerance, pos.y() - tolerance, 2 * tolerance, 2 * tolerance)
        for item in self.items(area):
            if isinstance(item, CardItem):
                return None  # a card covers the point: the card wins
            if isinstance(item, WireItem):
                return item
        return None

    # -- background --------------------------------------------------------------------------

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        """The background colour and a dot grid every 20 units (one dashed line per row of dots)."""
        super().drawBackground(painter, rect)
        scale = painter.worldTransform().m11()
        if scale < 0.5:
            return
        dot = 2.0 / scale
        pen = QPen(self.colors["grid"], dot, Qt.PenStyle.CustomDashLine, Qt.PenCapStyle.FlatCap)
        pen.setDashPattern([1.0, GRID_STEP / dot - 1.0])
        painter.setPen(pen)
        left = math.floor(rect.left() / GRID_STEP) * GRID_STEP - dot / 2
        y = math.floor(rect.top() / GRID_STEP) * GRID_STEP
        while y < rect.bottom() + GRID_STEP:
            painter.drawLine(QPointF(left, y), QPointF(rect.right() + GRID_STEP, y))
            y += GRID_STEP
