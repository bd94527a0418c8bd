"""Graphics items that draw a graph: node cards, their ports, and wires.

A `CardItem` is the card every graph node is drawn as: a header in its group's colour with a
title and a small kind tag, named input ports down the left, an output port on the right and
a few body lines. What goes on it comes from a handful of hooks; `NodeItem` fills them from a
graph document's `Node` and the `NodeResult` it was last given (the editor), and the backward
animator has its own cards for tensor graphs. A `WireItem` follows the two cards it joins.

The items draw the model and hold no state of their own. They know nothing about editing;
`playground.editor.scene.GraphScene` does the interaction, so another scene (the backward
animator) can reuse them read-only and recolour them with `set_highlight` / `set_body_lines`.

Colours come from a palette dict looked up on the item's scene (``scene.colors``), so a
scene switches theme by swapping that dict; a plain `QGraphicsScene` gets `LIGHT_COLORS`.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsPathItem,
    QStyle,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ..numbers import format_number, full_number
from .catalog import ARITHMETIC_GROUP, FUNCTION_GROUP, LEAF_GROUP, kind
from .document import Edge, Node
from .evaluate import NodeResult

# -- geometry ------------------------------------------------------------------------------

NODE_WIDTH = 130.0
HEADER_HEIGHT = 24.0
ROW_HEIGHT = 18.0
BODY_PADDING = 5.0
CORNER_RADIUS = 7.0
PORT_RADIUS = 5.0
PORT_HIT_RADIUS = 10.0  # generous, so a person can hit a port without pixel hunting
DETAIL_THRESHOLD = 0.45  # below this scale a node is drawn as a plain coloured card
# Where a wire's gradient label may sit, as fractions of the wire's length, nearest the middle first:
# the first spot clear of every card wins, and a wire with no clear spot shows no label (its
# tooltip still has the number).
LABEL_SPOTS = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)
LABEL_CLEARANCE = 2.0

# -- colours -------------------------------------------------------------------------------

LIGHT_COLORS: dict[str, QColor] = {
    "background": QColor("#f3f4f7"),
    "grid": QColor("#d3d7df"),
    "card": QColor("#ffffff"),
    "card_border": QColor("#b6bcc7"),
    "shadow": QColor(0, 0, 0, 38),
    "text": QColor("#1f2328"),
    "muted": QColor("#6b7280"),
    "header_text": QColor("#ffffff"),
    LEAF_GROUP: QColor("#3b78e7"),
    ARITHMETIC_GROUP: QColor("#d9730d"),
    FUNCTION_GROUP: QColor("#8656d6"),
    "selected": QColor("#2563eb"),
    "output": QColor("#d4a017"),
    "problem": QColor("#dc2626"),
    "wire": QColor("#7c8594"),
    "wire_selected": QColor("#2563eb"),
    "wire_drop": QColor("#16a34a"),
    "wire_label_bg": QColor(255, 255, 255, 235),
    "wire_label_border": QColor("#c9ced6"),
    "wire_label_text": QColor("#374151"),
    "ok": QColor("#16a34a"),
    "refused": QColor("#dc2626"),
    "pending": QColor("#6b7280"),
    "port": QColor("#ffffff"),
    "port_border": QColor("#6b7280"),
    "port_connected": QColor("#6b7280"),
    "minimap_bg": QColor(233, 235, 240, 235),
    "minimap_border": QColor("#aab0bb"),
    "minimap_view": QColor("#2563eb"),
}

DARK_COLORS: dict[str, QColor] = {
    **LIGHT_COLORS,
    "background": QColor("#1d1f23"),
    "grid": QColor("#33363d"),
    "card": QColor("#2a2d33"),
    "card_border": QColor("#4a4f59"),
    "shadow": QColor(0, 0, 0, 90),
    "text": QColor("#e7e8eb"),
    "muted": QColor("#9aa1ab"),
    LEAF_GROUP: QColor("#2f65c8"),
    ARITHMETIC_GROUP: QColor("#b45f0c"),
    FUNCTION_GROUP: QColor("#7043bf"),
    "selected": QColor("#60a5fa"),
    "output": QColor("#e2b33b"),
    "problem": QColor("#f87171"),
    "wire": QColor("#8b93a1"),
    "wire_selected": QColor("#60a5fa"),
    "wire_label_bg": QColor(42, 45, 51, 235),
    "wire_label_border": QColor("#4a4f59"),
    "wire_label_text": QColor("#d7dae0"),
    "port": QColor("#2a2d33"),
    "port_border": QColor("#9aa1ab"),
    "port_connected": QColor("#9aa1ab"),
    "minimap_bg": QColor(36, 38, 43, 235),
    "minimap_border": QColor("#4a4f59"),
    "minimap_view": QColor("#60a5fa"),
}


def colors_of(item: QGraphicsItem) -> dict[str, QColor]:
    """The palette of the item's scene (``scene.colors``), or the light palette."""
    scene = item.scene()
    return getattr(scene, "colors", None) or LIGHT_COLORS


def _font(pixel_size: int, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(pixel_size)
    font.setBold(bold)
    font.setItalic(italic)
    return font


def _level_of_detail(painter: QPainter) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


# -- nodes ---------------------------------------------------------------------------------


class PortItem(QGraphicsItem):
    """A node's input (``index`` 0, 1, ...) or output port: a small circle, a larger hit area."""

    def __init__(self, parent: CardItem, index: int, is_output: bool, name: str = ""):
        super().__init__(parent)
        self.index = index
        self.is_output = is_output
        self.name = name
        self._connected = False
        self._hovered = False
        self.setAcceptHoverEvents(True)
        self.setToolTip("output: drag to an input to connect" if is_output else f"input '{name}'")

    @property
    def node_item(self) -> CardItem:
        return self.parentItem()

    @property
    def node_id(self) -> str:
        return self.node_item.node_id

    def set_connected(self, connected: bool) -> None:
        if connected != self._connected:
            self._connected = connected
            self.update()

    @property
    def is_connected(self) -> bool:
        return self._connected

    def boundingRect(self) -> QRectF:
        r = PORT_HIT_RADIUS
        return QRectF(-r, -r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(self.boundingRect())
        return path

    def hoverEnterEvent(self, event) -> None:
        self._hovered = True
        self.update()

    def hoverLeaveEvent(self, event) -> None:
        self._hovered = False
        self.update()

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        if _level_of_detail(painter) < DETAIL_THRESHOLD:
            return
        colors = colors_of(self)
        group_color = colors[self.node_item.group()]
        radius = PORT_RADIUS + (1.5 if self._hovered else 0.0)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        filled = self._connected or self.is_output
        painter.setPen(QPen(group_color if filled else colors["port_border"], 1.6))
        painter.setBrush(group_color if filled else colors["port"])
        painter.drawEllipse(QPointF(0, 0), radius, radius)


class CardItem(QGraphicsObject):
    """A rounded card for one graph node: coloured header, named input ports, output port, body lines.

    Subclasses say what is on it: `group` (the header's colour), `title`, `kind_title` (the small
    tag at the header's right), `port_names`, `default_body_lines` and `tooltip_text`.
    ``geometry_changed`` is emitted when the card moves or its ports move, so wires can follow.
    """

    geometry_changed = Signal()
    WIDTH = NODE_WIDTH

    def __init__(self, node_id: str, x: float = 0.0, y: float = 0.0, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self._node_id = node_id
        self._is_output = False
        self._highlight: QColor | None = None
        self._body_lines: list[str] | None = None
        self._input_ports: list[PortItem] = []
        self._output_port = PortItem(self, 0, True)
        self._height = 0.0
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setZValue(1)
        self.setPos(x, y)

    # -- what is on the card (the hooks) -----------------------------------------------------

    def group(self) -> str:
        """The key of the header's colour in the scene's palette (a catalog group)."""
        raise NotImplementedError

    def title(self) -> str:
        raise NotImplementedError

    def kind_title(self) -> str:
        """The small tag at the right of the header ("mul", "linear"), or "" for none."""
        return ""

    def port_names(self) -> list[str]:
        """One name per input port, top to bottom."""
        return []

    def port_name(self, index: int) -> str:
        names = self.port_names()
        return names[index] if 0 <= index < len(names) else f"x{index + 1}"

    def default_body_lines(self) -> list[str]:
        return []

    def display_name(self) -> str:
        """How text elsewhere (tooltips, status messages) names this node."""
        return self.title()

    def problem_text(self) -> str | None:
        """Why the card is outlined in red, or None."""
        return None

    def tooltip_text(self) -> str:
        return self.display_name()

    # -- state -------------------------------------------------------------------------------

    @property
    def node_id(self) -> str:
        return self._node_id

    @property
    def is_output(self) -> bool:
        return self._is_output

    @property
    def highlight(self) -> QColor | None:
        return self._highlight

    @property
    def width(self) -> float:
        return self.WIDTH

    @property
    def height(self) -> float:
        return self._height

    def set_is_output(self, is_output: bool) -> None:
        if is_output != self._is_output:
            self._is_output = is_output
            self.update()

    def set_highlight(self, color: QColor | str | None) -> None:
        """Recolour the card (outline and a light tint), or None to go back to normal."""
        self._highlight = QColor(color) if color is not None else None
        self.update()

    def set_body_lines(self, lines: list[str] | None) -> None:
        """Show these lines instead of the default ones; None goes back to the default."""
        self._body_lines = list(lines) if lines is not None else None
        self._layout()
        self.update()

    def body_lines(self) -> list[str]:
        return list(self._body_lines) if self._body_lines is not None else self.default_body_lines()

    def set_editable(self, editable: bool) -> None:
        """Movable by mouse, with a crosshair over the ports; a read-only scene leaves this off."""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, editable)
        for port in self.ports():
            if editable:
                port.setCursor(Qt.CursorShape.CrossCursor)
            else:
                port.unsetCursor()

    def _refresh_tooltip(self) -> None:
        self.setToolTip(self.tooltip_text())

    # -- ports -----------------------------------------------------------------------------

    def ports(self) -> list[PortItem]:
        return [*self._input_ports, self._output_port]

    def input_port(self, index: int) -> PortItem:
        return self._input_ports[index]

    @property
    def input_ports(self) -> list[PortItem]:
        return list(self._input_ports)

    @property
    def output_port(self) -> PortItem:
        return self._output_port

    def input_port_scene_pos(self, index: int) -> QPointF:
        if 0 <= index < len(self._input_ports):
            return self._input_ports[index].scenePos()
        return self.mapToScene(QPointF(0, HEADER_HEIGHT + BODY_PADDING + ROW_HEIGHT * (index + 0.5)))

    def output_port_scene_pos(self) -> QPointF:
        return self._output_port.scenePos()

    def _shows_port_names(self) -> bool:
        return len(self._input_ports) >= 2

    def _text_left(self) -> float:
        return 30.0 if self._shows_port_names() else 12.0

    def _row_rect(self, row: int) -> QRectF:
        left = self._text_left()
        return QRectF(left, HEADER_HEIGHT + BODY_PADDING + row * ROW_HEIGHT, self.WIDTH - left - 10, ROW_HEIGHT)

    def _layout(self) -> None:
        names = self.port_names()
        count = len(names)
        editable = self.flags() & QGraphicsItem.GraphicsItemFlag.ItemIsMovable
        while len(self._input_ports) > count:
            port = self._input_ports.pop()
            port.setParentItem(None)
            if port.scene() is not None:
                port.scene().removeItem(port)
        while len(self._input_ports) < count:
            index = len(self._input_ports)
            port = PortItem(self, index, False, names[index])
            if editable:
                port.setCursor(Qt.CursorShape.CrossCursor)
            self._input_ports.append(port)
        rows = max(2, len(self.body_lines()), count)
        height = HEADER_HEIGHT + 2 * BODY_PADDING + rows * ROW_HEIGHT
        if height != self._height:
            self.prepareGeometryChange()
            self._height = height
        for index, port in enumerate(self._input_ports):
            port.setPos(0, HEADER_HEIGHT + BODY_PADDING + ROW_HEIGHT * (index + 0.5))
        body_top = HEADER_HEIGHT + BODY_PADDING
        self._output_port.setPos(self.WIDTH, body_top + (self._height - body_top - BODY_PADDING) / 2)
        self.geometry_changed.emit()

    # -- drawing ---------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.WIDTH, self._height).adjusted(-6, -6, 8, 9)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(QRectF(0, 0, self.WIDTH, self._height), CORNER_RADIUS, CORNER_RADIUS)
        return path

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged:
            self.geometry_changed.emit()
        elif change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            self.setZValue(2 if value else 1)
        return super().itemChange(change, value)

    def _border(self, colors: dict[str, QColor]) -> QPen:
        if self._highlight is not None:
            return QPen(self._highlight, 3.0)
        if self.problem_text():
            return QPen(colors["problem"], 2.5)
        if self._is_output:
            return QPen(colors["output"], 3.0)
        return QPen(colors["card_border"], 1.0)

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        colors = colors_of(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.WIDTH, self._height)
        header_color = colors[self.group()]
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        border = self._border(colors)

        lod = _level_of_detail(painter)
        if lod < DETAIL_THRESHOLD:
            painter.setBrush(self._highlight or header_color)
            special = selected or self._is_output or self.problem_text() or self._highlight is not None
            if selected:
                border = QPen(colors["selected"], 4.0)
            width = max(border.widthF(), 2.5 / max(lod, 0.01))  # about 2.5 px on screen at any zoom
            painter.setPen(QPen(border.color(), width) if special else Qt.PenStyle.NoPen)
            painter.drawRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
            return

        # shadow, card, header
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors["shadow"])
        painter.drawRoundedRect(rect.translated(1.5, 2.5), CORNER_RADIUS, CORNER_RADIUS)
        card = QPainterPath()
        card.addRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
        painter.fillPath(card, colors["card"])
        if self._highlight is not None:
            tint = QColor(self._highlight)
            tint.setAlpha(40)
            painter.fillPath(card, tint)
        header = QPainterPath()
        header.addRect(QRectF(0, 0, self.WIDTH, HEADER_HEIGHT))
        painter.fillPath(card.intersected(header), header_color)

        # title (and the kind, when a label replaces it)
        painter.setPen(colors["header_text"])
        title_rect = QRectF(10, 0, self.WIDTH - 20, HEADER_HEIGHT)
        kind_title = self.kind_title()
        if kind_title:
            painter.setFont(_font(10))
            kind_width = QFontMetricsF(painter.font()).horizontalAdvance(kind_title) + 4
            painter.drawText(title_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, kind_title)
            title_rect.setRight(title_rect.right() - kind_width)
        title_font = _font(12, bold=True)
        painter.setFont(title_font)
        title = QFontMetricsF(title_font).elidedText(self.title(), Qt.TextElideMode.ElideRight, title_rect.width())
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, title)

        # port names (binary ops and Sum)
        if self._shows_port_names():
            painter.setFont(_font(9, italic=True))
            painter.setPen(colors["muted"])
            for port in self._input_ports:
                y = port.pos().y()
                painter.drawText(QRectF(9, y - ROW_HEIGHT / 2, 18, ROW_HEIGHT),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, port.name)
            painter.setPen(QPen(colors["card_border"], 0.8))
            top = HEADER_HEIGHT + BODY_PADDING
            painter.drawLine(QPointF(25, top + 2), QPointF(25, self._height - BODY_PADDING - 2))

        # body lines: "value 0.7071" (the key muted, the number in the text colour)
        body_font = _font(11)
        number_font = _font(11, bold=True)
        key_metrics = QFontMetricsF(body_font)
        for row, line in enumerate(self.body_lines()):
            line_rect = self._row_rect(row)
            key, _, rest = line.partition(" ") if " " in line else ("", "", line)
            x = line_rect.left()
            if key:
                painter.setFont(body_font)
                painter.setPen(colors["muted"])
                painter.drawText(QRectF(x, line_rect.top(), line_rect.width(), ROW_HEIGHT),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, key)
                x += key_metrics.horizontalAdvance(key + " ")
            painter.setFont(number_font)
            bad = rest in ("nan", "inf", "-inf")
            painter.setPen(colors["problem"] if bad else colors["text"])
            width = line_rect.right() - x
            shown = QFontMetricsF(number_font).elidedText(rest, Qt.TextElideMode.ElideRight, width)
            painter.drawText(QRectF(x, line_rect.top(), width, ROW_HEIGHT),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, shown)

        # outline, then the selection ring outside it
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(border)
        painter.drawRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
        if selected:
            painter.setPen(QPen(colors["selected"], 2.0))
            painter.drawRoundedRect(rect.adjusted(-4, -4, 4, 4), CORNER_RADIUS + 3, CORNER_RADIUS + 3)


class NodeItem(CardItem):
    """The card of a graph document's node: its op or leaf value, and the value and gradient last shown."""

    def __init__(self, node: Node, name: str = "", parent: QGraphicsItem | None = None):
        super().__init__(node.id, node.x, node.y, parent)
        self._node = replace(node)
        self._name = name or node.label or kind(node.kind).title  # the document's readable name (t1, x1, ...)
        self._result: NodeResult | None = None
        self._layout()
        self._refresh_tooltip()

    @property
    def node(self) -> Node:
        return self._node

    @property
    def result(self) -> NodeResult | None:
        return self._result

    def set_node(self, node: Node) -> None:
        """Show ``node`` (label, value or port count changed); the position is the scene's business."""
        self._node = replace(node)
        self._layout()
        self._refresh_tooltip()
        self.update()

    def set_name(self, name: str) -> None:
        """Show the document's readable name for this node (its label, or t1, t2, ... when it has none)."""
        if name != self._name:
            self._name = name
            self._layout()
            self._refresh_tooltip()
            self.update()

    def set_result(self, result: NodeResult | None) -> None:
        if result == self._result and result is not None and _same_numbers(result, self._result):
            return  # unchanged: one value edit repaints only what it changed
        self._result = result
        self._refresh_tooltip()
        self.update()

    def group(self) -> str:
        return kind(self._node.kind).group

    def title(self) -> str:
        node_kind = kind(self._node.kind)
        if node_kind.is_leaf:
            return f"{self._name} = {format_number(self.shown_value())}"
        return self._name

    def kind_title(self) -> str:
        """The op's name beside the node's name ("mul" beside "ab" or "t1"); leaves show their value instead."""
        node_kind = kind(self._node.kind)
        return node_kind.title if self._name != node_kind.title and not node_kind.is_leaf else ""

    def port_names(self) -> list[str]:
        node_kind = kind(self._node.kind)
        return [node_kind.port_name(index) for index in range(self._node.port_count)]

    def display_name(self) -> str:
        return self._name

    def shown_value(self) -> float | None:
        if self._result is not None:
            return self._result.value
        return self._node.value if self._node.is_leaf else None

    def shown_grad(self) -> float | None:
        return self._result.grad if self._result is not None else None

    def default_body_lines(self) -> list[str]:
        return [f"value {format_number(self.shown_value())}", f"grad {format_number(self.shown_grad())}"]

    def problem_text(self) -> str | None:
        """Why this node is drawn in red: a nan/inf result or unconnected inputs; None if fine."""
        result = self._result
        if result is None:
            return None
        if result.problem:
            return result.problem
        ports = result.missing_ports
        if len(ports) == 1:
            return f"input '{ports[0]}' is not connected"
        if ports:
            return "inputs " + ", ".join(f"'{p}'" for p in ports) + " are not connected"
        return None

    def tooltip_text(self) -> str:
        text = (f"{self._name} ({self._node.kind}) = {full_number(self.shown_value())}, "
                f"grad = {full_number(self.shown_grad())}")
        problem = self.problem_text()
        return f"{text}\n{problem}" if problem else text

    def value_rect(self) -> QRectF:
        """Where the value line is, in item coordinates (an inline editor goes there)."""
        return self._row_rect(0)


# -- wires ---------------------------------------------------------------------------------


def wire_path(start: QPointF, end: QPointF) -> QPainterPath:
    """A cubic bezier leaving ``start`` to the right and entering ``end`` from the left."""
    dx = end.x() - start.x()
    reach = max(abs(dx) * 0.5, 40.0) if dx >= 0 else min(max(abs(dx) * 0.5, 60.0), 160.0)
    path = QPainterPath(start)
    path.cubicTo(start + QPointF(reach, 0), end - QPointF(reach, 0), end)
    return path


class WireItem(QGraphicsObject):
    """A wire from ``source_item``'s output to input ``edge.port`` of ``target_item``.

    Follows both items as they move; shows the gradient it carries (`set_grad`) in a small label
    while `set_label_visible(True)`, at its midpoint or, where a card is in the way, at the
    nearest clear spot along it (`place_label`), or not at all if no spot is clear.
    """

    def __init__(self, edge: Edge, source_item: CardItem, target_item: CardItem,
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.edge = edge
        self.source_item = source_item
        self.target_item = target_item
        self._path = QPainterPath()
        self._midpoint = QPointF()
        self._label_size: tuple[float, float] | None = None  # measured once per text: painting asks often
        self._label_center: QPointF | None = None  # where the label sits; None: no spot is clear of cards
        self._grad: float | None = None
        self._label_visible = True
        self._emphasized = False
        self._highlight: QColor | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(-1)
        source_item.geometry_changed.connect(self.update_path)
        target_item.geometry_changed.connect(self.update_path)
        self.update_path()
        self._refresh_tooltip()

    def detach(self) -> None:
        """Stop following the node items (call before removing the wire)."""
        for item in (self.source_item, self.target_item):
            try:
                item.geometry_changed.disconnect(self.update_path)
            except (RuntimeError, TypeError):
                pass

    @property
    def grad(self) -> float | None:
        return self._grad

    def label_text(self) -> str:
        return "" if self._grad is None else f"grad {format_number(self._grad)}"

    def set_grad(self, grad: float | None) -> None:
        if _same_number(grad, self._grad):
            return  # the label keeps its size and text: no relayout, no repaint
        old_size = self._label_size
        self._grad = grad
        self._label_size = None
        if self._measure_label() != old_size:  # a wider text may now touch a card
            self.place_label()
        self._refresh_tooltip()
        self.update()

    def set_label_visible(self, visible: bool) -> None:
        self.prepareGeometryChange()
        self._label_visible = visible
        self.place_label()

    @property
    def label_visible(self) -> bool:
        return self._label_visible

    def label_rect(self) -> QRectF:
        """Where the label is drawn, in scene coordinates; empty when it is hidden or has no clear spot."""
        return self._label_rect()

    def place_label(self) -> None:
        """Put the label at the spot nearest the wire's middle that is clear of every card."""
        self.prepareGeometryChange()
        self._label_center = self._clear_label_spot()
        self.update()

    def _clear_label_spot(self) -> QPointF | None:
        width, height = self._measure_label()
        if not width or not self._label_visible:
            return None
        scene = self.scene()
        if scene is None:
            return QPointF(self._midpoint)
        margin = LABEL_CLEARANCE
        for fraction in LABEL_SPOTS:
            centre = self._path.pointAtPercent(fraction)
            rect = QRectF(centre.x() - width / 2 - margin, centre.y() - height / 2 - margin,
                          width + 2 * margin, height + 2 * margin)
            if not any(isinstance(item, CardItem) for item in scene.items(rect)):
                return centre
        return None

    def _measure_label(self) -> tuple[float, float]:
        if self._label_size is None:
            text = self.label_text()
            metrics = QFontMetricsF(_font(10))
            self._label_size = (metrics.horizontalAdvance(text) + 10, metrics.height() + 3) if text else (0.0, 0.0)
        return self._label_size

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.place_label()  # the cards it must keep clear of are known only in a scene
        return super().itemChange(change, value)

    def set_emphasized(self, emphasized: bool) -> None:
        """Drawn thick and green: a node dropped now would be inserted on this wire."""
        if emphasized != self._emphasized:
            self._emphasized = emphasized
            self.update()

    def set_highlight(self, color: QColor | str | None) -> None:
        self._highlight = QColor(color) if color is not None else None
        self.update()

    def path(self) -> QPainterPath:
        return QPainterPath(self._path)

    def midpoint(self) -> QPointF:
        return QPointF(self._midpoint)

    def update_path(self) -> None:
        self.prepareGeometryChange()
        start = self.source_item.output_port_scene_pos()
        end = self.target_item.input_port_scene_pos(self.edge.port)
        self._path = wire_path(start, end)
        self._midpoint = self._path.pointAtPercent(0.5)
        self.place_label()

    def _refresh_tooltip(self) -> None:
        port = self.target_item.port_name(self.edge.port)
        text = f"{self.source_item.display_name()} → {self.target_item.display_name()} (input '{port}')"
        if self._grad is not None:
            text += f"\ngradient carried = {full_number(self._grad)}"
        self.setToolTip(text)

    def _label_rect(self) -> QRectF:
        centre = self._label_center
        if not self._label_visible or centre is None:
            return QRectF()
        width, height = self._measure_label()
        if not width:
            return QRectF()
        return QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height)

    def boundingRect(self) -> QRectF:
        rect = self._path.boundingRect().adjusted(-5, -5, 5, 5)
        label = self._label_rect()
        return rect.united(label.adjusted(-1, -1, 1, 1)) if not label.isNull() else rect

    def shape(self) -> QPainterPath:
        stroker = QPainterPathStroker()
        stroker.setWidth(10)
        shape = stroker.createStroke(self._path)
        label = self._label_rect()
        if not label.isNull():
            shape.addRect(label)
        return shape

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        colors = colors_of(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if self._emphasized:
            pen = QPen(colors["wire_drop"], 4.0)
        elif selected:
            pen = QPen(colors["wire_selected"], 3.0)
        elif self._highlight is not None:
            pen = QPen(self._highlight, 3.0)
        else:
            pen = QPen(colors["wire"], 2.0)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        label = self._label_rect()
        if label.isNull() or _level_of_detail(painter) < DETAIL_THRESHOLD:
            return
        painter.setPen(QPen(pen.color() if (selected or self._highlight) else colors["wire_label_border"], 1.0))
        painter.setBrush(colors["wire_label_bg"])
        painter.drawRoundedRect(label, label.height() / 2, label.height() / 2)
        painter.setFont(_font(10))
        bad = self._grad is not None and format_number(self._grad) in ("nan", "inf", "-inf")
        painter.setPen(colors["problem"] if bad else colors["wire_label_text"])
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, self.label_text())


class PendingWireItem(QGraphicsPathItem):
    """The dashed wire that follows the mouse while a person drags a connection.

    `set_state(None)` neutral grey, `True` green (the port under the mouse accepts it), `False`
    red (refused).
    """

    def __init__(self, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self._state: bool | None = None
        self.setZValue(5)
        self._apply_pen()

    @property
    def state(self) -> bool | None:
        return self._state

    def set_points(self, output_end: QPointF, input_end: QPointF) -> None:
        self.setPath(wire_path(output_end, input_end))

    def set_state(self, state: bool | None) -> None:
        self._state = state
        self._apply_pen()

    def _apply_pen(self) -> None:
        colors = colors_of(self)
        color = colors["pending"] if self._state is None else colors["ok"] if self._state else colors["refused"]
        pen = QPen(color, 2.5, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.setPen(pen)
        self.setBrush(QBrush(Qt.BrushStyle.NoBrush))


def _same_number(a: float | None, b: float | None) -> bool:
    """Equal, with nan equal to nan (a nan gradient that stays nan needs no repaint)."""
    return a == b or (a is not None and b is not None and a != a and b != b)


def _same_numbers(a: NodeResult, b: NodeResult) -> bool:
    return _same_number(a.value, b.value) and _same_number(a.grad, b.grad)
