"""A scene of node cards and wires: lookup by id, selection, hit testing, theme and the dotted background.

`GraphScene` (the editor) builds on it to follow and edit a graph document; the backward
animator builds on it to show a read-only copy of a graph or a tensor graph.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from ..graph.document import Edge
from .cards import CardItem, PortItem
from .style import HIGH_CONTRAST, LIGHT_COLORS, THEME_COLORS, theme_name
from .wires import WireItem

GRID_STEP = 20.0
CARD_CELL = 256.0  # the cell of the grid that finds the cards near a wire label
DRAG_REST_MS = 150  # a card dragged by hand and held still this long: the wires about it find their way


class CardScene(QGraphicsScene):
    """Holds a `CardItem` per node id and a `WireItem` per edge; subclasses fill them. While a graph trains,
    `show_maps` puts a picture of what each node computes over the plane on its card, and the map under the
    mouse is announced (`map_hovered`)."""

    map_hovered = Signal(str, int)  # the node and column whose map is under the mouse ("", -1: none)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.colors = LIGHT_COLORS
        self._theme = "light"
        self._nodes: dict[str, CardItem] = {}
        self._wires: dict[Edge, WireItem] = {}
        # Cards by grid cell, for `cards_in`: built when asked, dropped when a card moves or comes. The
        # editor's scene keeps no spatial index (its wires change shape as cards move), and asking Qt
        # for the items in a rectangle would visit every item: a label per wire made that quadratic.
        self._card_grid: dict[tuple[int, int], list[tuple[QRectF, CardItem]]] | None = None
        # The wire labels placed so far, by grid cell, so that a label keeps clear of the others too
        # (x * x: two wires from one card to the next would put their labels on top of each other).
        self._label_rects: dict[WireItem, QRectF] = {}
        # Wires go round the cards in their way; not while every card glides at once (auto-layout), which would
        # route every wire at every frame: they take their plain curves until the cards have landed.
        self.routing = True
        # While the mouse drags cards, the wires about them keep plain curves (routing every wire they meet at
        # every mouse move cost up to 25 ms a move); they find their way when the cards rest or land.
        self._dragged: set[CardItem] | None = None  # the cards moved in the drag going on (None: no drag)
        self._drag_rest = QTimer(self)
        self._drag_rest.setSingleShot(True)
        self._drag_rest.setInterval(DRAG_REST_MS)
        self._drag_rest.timeout.connect(self._on_drag_rest_timeout)
        self._label_grid: dict[tuple[int, int], set[WireItem]] = {}
        self.setBackgroundBrush(self.colors["background"])

    def show_maps(self, maps: dict, totals: dict[str, int] | None = None) -> None:
        """Each node's maps on its card (`NodeItem.set_maps`): node id -> (columns, r, r) 0xffRRGGBB words, row 0
        at the top; ``totals``: a node's columns in all, where it has more than it shows. A card not named
        shows none."""
        totals = totals or {}
        for node_id, item in self._nodes.items():
            if hasattr(item, "set_maps"):
                item.set_maps(maps.get(node_id), totals.get(node_id))

    # -- theme -------------------------------------------------------------------------------

    @property
    def dark(self) -> bool:
        """Whether the canvas is dark (the dark and the high-contrast themes): the maps are coloured for it."""
        return self._theme in ("dark", HIGH_CONTRAST)

    @property
    def theme(self) -> str:
        return self._theme

    def set_theme(self, theme: str | bool) -> None:
        """Swap the palette the items draw with (`style.THEME_COLORS`): ``theme`` is one of `style.THEMES`, or
        True for dark and False for light."""
        self._theme = theme_name(theme)
        self.colors = THEME_COLORS[self._theme]
        self.setBackgroundBrush(self.colors["background"])
        self.forget_item_pictures()
        self.update()

    def forget_item_pictures(self) -> None:
        """The cards and ports keep pictures of themselves (`cards`); after a change of palette each is drawn anew.
        (An item's `update` does not do it here: in the repaint `setBackgroundBrush` asks for, Qt keeps the items'
        old pictures.)"""
        for item in self.items():
            mode = item.cacheMode()
            if mode != QGraphicsItem.CacheMode.NoCache:
                item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
                item.setCacheMode(mode)

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

    def add_card(self, node_id: str, item: CardItem) -> None:
        """Show ``item`` as the card of ``node_id``."""
        self.addItem(item)
        self._nodes[node_id] = item
        item.geometry_changed.connect(self._forget_card_grid)
        item.geometry_changed.connect(self._on_card_geometry_changed)
        self._card_grid = None

    def any_card_in(self, rect: QRectF) -> bool:
        """Whether the body of some card meets ``rect``."""
        grid = self._card_grid if self._card_grid is not None else self._build_card_grid()
        return any(card_rect.intersects(rect) for cell in _cells(rect) for card_rect, _card in grid.get(cell, ()))

    def cards_in(self, rect: QRectF) -> list[CardItem]:
        """The cards whose body meets ``rect`` (a wire goes round those in its way)."""
        grid = self._card_grid if self._card_grid is not None else self._build_card_grid()
        found: dict[int, CardItem] = {}
        for cell in _cells(rect):
            for card_rect, card in grid.get(cell, ()):
                if card_rect.intersects(rect):
                    found[id(card)] = card
        return list(found.values())

    def any_label_in(self, rect: QRectF, besides: WireItem) -> bool:
        """Whether the label of some wire other than ``besides`` meets ``rect``."""
        for cell in _cells(rect):
            for wire in self._label_grid.get(cell, ()):
                if wire is not besides and self._label_rects[wire].intersects(rect):
                    return True
        return False

    def note_label(self, wire: WireItem, rect: QRectF | None) -> None:
        """``wire``'s label now sits at ``rect`` (None: it has none, or the wire is leaving)."""
        old = self._label_rects.pop(wire, None)
        if old is not None:
            for cell in _cells(old):
                holders = self._label_grid.get(cell)
                if holders is not None:
                    holders.discard(wire)
                    if not holders:
                        del self._label_grid[cell]
        if rect is not None and not rect.isEmpty():
            self._label_rects[wire] = QRectF(rect)
            for cell in _cells(rect):
                self._label_grid.setdefault(cell, set()).add(wire)

    def _build_card_grid(self) -> dict[tuple[int, int], list[tuple[QRectF, CardItem]]]:
        grid: dict[tuple[int, int], list[tuple[QRectF, CardItem]]] = {}
        for card in self._nodes.values():
            rect = card.card_rect()
            for cell in _cells(rect):
                grid.setdefault(cell, []).append((rect, card))
        self._card_grid = grid
        return grid

    def remove_card(self, node_id: str) -> CardItem | None:
        """Take the card of ``node_id`` off the scene; returns it (None if there was none)."""
        item = self._nodes.pop(node_id, None)
        if item is not None:
            self.removeItem(item)
            self._card_grid = None
        return item

    def _forget_card_grid(self) -> None:
        self._card_grid = None

    def set_routing(self, on: bool) -> None:
        """Wires go round cards (on), or keep their plain curves while many cards move (off); turned on again,
        every wire finds its way (and its label its spot)."""
        self.routing = bool(on)
        if self.routing:
            for wire in self._wires.values():
                wire.update_path()

    def _on_card_geometry_changed(self) -> None:
        """A card moved or changed size: the wires it does not join find their way again where it now stands in
        their way, or where they went round it (its own wires follow it by themselves)."""
        card = self.sender()
        if not isinstance(card, CardItem):
            return
        if self._dragged is not None:  # dragged by hand: once it rests or lands
            self._dragged.add(card)
            self._drag_rest.start()
            return
        if self.routing:
            self._route_about([card], own_wires=False)

    def _route_about(self, cards: list[CardItem], own_wires: bool = True) -> None:
        """The wires of ``cards`` (with ``own_wires``) and those that now meet one of them, or went round one,
        find their way again."""
        areas = [card.card_rect() for card in cards]
        for wire in self._wires.values():
            if wire.source_item in cards or wire.target_item in cards:
                if own_wires:
                    wire.update_path()
            elif any(wire.goes_round(card) for card in cards) or any(
                    wire.path_rect().intersects(area) and wire.crosses(area) for area in areas):
                wire.update_path()

    def begin_drag(self) -> None:
        """The mouse starts dragging cards: the wires about them take plain curves until they rest or land."""
        if self.routing:
            self._dragged = set()
            self.routing = False

    def end_drag(self) -> None:
        """The cards dragged have landed: the wires about them find their way."""
        if self._dragged is None:
            return
        dragged, self._dragged = self._dragged, None
        self._drag_rest.stop()
        self.routing = True
        if dragged:
            self._route_about([card for card in dragged if card.scene() is self])

    def _on_drag_rest_timeout(self) -> None:
        """The dragged cards rest, the mouse still down: the wires about them show their way from here."""
        if self._dragged:
            self.routing = True
            try:
                self._route_about([card for card in self._dragged if card.scene() is self])
            finally:
                self.routing = False

    def place_labels_near(self, *areas: QRectF) -> None:
        """Find new spots for the wire labels in ``areas``, where a card has just arrived or left."""
        area = QRectF()
        for rect in areas:
            area = area.united(rect)
        if area.isEmpty():
            return
        for wire in self._wires.values():
            if wire.sceneBoundingRect().intersects(area):
                wire.place_label()

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
        self._card_grid = None
        self._label_rects.clear()
        self._label_grid.clear()

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

    def helpEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """The mouse rests on a card: its tooltip is written now if what it shows changed since (`CardItem`)."""
        for item in self.items(event.scenePos()):
            card = item if isinstance(item, CardItem) else item.parentItem()
            if isinstance(card, CardItem):
                card.bring_tooltip_up_to_date()
        super().helpEvent(event)

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
        right = rect.right() + GRID_STEP
        # Every row in one call: a trained graph repaints the view 30 times a second, and a call a row (46 of
        # them) cost more from Python than the dots they draw.
        lines = []
        y = math.floor(rect.top() / GRID_STEP) * GRID_STEP
        while y < rect.bottom() + GRID_STEP:
            lines.append(QLineF(left, y, right, y))
            y += GRID_STEP
        painter.drawLines(lines)


def _cells(rect: QRectF):
    """The cells of the spatial grid that ``rect`` meets."""
    for column in range(math.floor(rect.left() / CARD_CELL), math.floor(rect.right() / CARD_CELL) + 1):
        for row in range(math.floor(rect.top() / CARD_CELL), math.floor(rect.bottom() / CARD_CELL) + 1):
            yield column, row
