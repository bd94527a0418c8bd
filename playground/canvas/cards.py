"""The card every graph node is drawn as, and its ports.

A `CardItem` is a rounded card: a header in its group's colour with a title and a small kind
tag, named input ports (`PortItem`) down the left, an output port on the right and a few body
lines. What goes on it comes from a handful of hooks: `node_card.NodeItem` fills them from a
graph document's node (the editor), and the backward animator has its own cards for tensor
graphs. A card draws what it is given and knows nothing about editing; the scene around it
does the interaction, so a read-only scene can recolour it with `set_highlight` / `set_body_lines`.

A card is drawn in two layers. Its chrome (shadow, fill, header, title, port names, outline, badge) is kept
by Qt as a picture in the screen's pixels (`DeviceCoordinateCache`) and painted again only when it changes;
its content (the body's lines and what `paint_extra` draws: arrays, maps over the plane) is a child item,
`CardContent`, painted whenever the numbers change. A trained graph's cards change thirty times a second,
their chrome almost never: drawing it every time was half the cost of the view's picture.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QStyle, QWidget

from .style import DETAIL_THRESHOLD, colors_of, composited, level_of_detail, pixel_font

NODE_WIDTH = 130.0
HEADER_HEIGHT = 24.0
ROW_HEIGHT = 18.0
BODY_PADDING = 5.0
CORNER_RADIUS = 7.0
PORT_RADIUS = 5.0
PORT_HIT_RADIUS = 10.0  # generous, so a person can hit a port without pixel hunting
BADGE_RADIUS = 9.0  # a state's badge on the corner of a card (the animator's ✔, ▶, ...)
SELECTION_RING = 2.5  # the selected card's ring, in pixels on screen (WCAG 2.4.11: at least 2, 3:1 against the canvas)
PROBLEM_MARK = "⚠"  # the badge of a card with a problem (a nan or inf, an unconnected input)


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
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # painted again only when it changes

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
        if level_of_detail(painter) < DETAIL_THRESHOLD:
            return
        colors = colors_of(self)
        group_color = colors[self.node_item.group()]
        radius = PORT_RADIUS + (1.5 if self._hovered else 0.0)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        filled = self._connected or self.is_output
        # A connected port is its group's colour ringed in a grey that stands 3:1 off the card and the canvas
        # (a dark theme's group colours alone do not).
        painter.setPen(QPen(colors["port_connected"] if filled else colors["port_border"], 1.6))
        painter.setBrush(group_color if filled else colors["port"])
        painter.drawEllipse(QPointF(0, 0), radius, radius)


class CardContent(QGraphicsItem):
    """What a card says (see the module docstring): its body's lines and its own drawing, over the card's
    chrome. Not hit by the mouse (an empty shape): clicks, hovers and tooltips are the card's."""

    def __init__(self, card: CardItem):
        super().__init__(card)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        card = self.parentItem()
        return QRectF(0, 0, card.width, card.height)

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def follow_card(self) -> None:
        """The card's size is about to change: so is this item's."""
        self.prepareGeometryChange()

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        self.parentItem().paint_content(painter)


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
        self._badge: str | None = None  # a mark on the corner saying what the highlight's colour says
        self._tooltip_stale = False
        self._body_lines: list[str] | None = None
        self._input_ports: list[PortItem] = []
        self._output_port = PortItem(self, 0, True)
        self._height = 0.0
        self._width = self.WIDTH
        self._content = CardContent(self)
        self._painted_chrome: tuple | None = None  # what the chrome showed when last painted (`_chrome_key`)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setZValue(1)
        self.setPos(x, y)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

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

    def card_width(self) -> float:
        """How wide the card is (wider than `WIDTH` when it draws an array)."""
        return self.WIDTH

    def extra_height(self) -> float:
        """Room below the header for a drawing of the card's own (`paint_extra`), beside the ports; 0: none."""
        return 0.0

    def paint_from_afar(self, painter: QPainter, rect: QRectF) -> None:
        """What a card shows over its plain colour when zoomed out too far for text (nothing, unless it has maps)."""

    def paint_extra(self, painter: QPainter, colors: dict[str, QColor], top: float) -> None:
        """Draw what `extra_height` made room for, from ``top`` down (item coordinates)."""

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
        return self._width

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

    @property
    def badge(self) -> str | None:
        return self._badge

    def set_badge(self, mark: str | None) -> None:
        """A symbol in a ring on the card's top-right corner ("✔", "▶"), or None for none: what the
        highlight's colour means, told a second way (WCAG 1.4.1: never by colour alone)."""
        if mark != self._badge:
            self._badge = mark
            self.update()

    def shown_badge(self) -> str | None:
        """The badge drawn: the one set, or else "⚠" on a card with a problem (a nan, an unconnected
        input), which its red outline alone would tell only to those who see red; the tooltip says what."""
        return self._badge or (PROBLEM_MARK if self.problem_text() else None)

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
        """The tooltip says what the card shows now: written at once under the mouse, else when it is next read
        (`toolTip`, or the scene's help event as the mouse rests on the card). A trained graph's cards change
        thirty times a second, and writing each one's tooltip every time took 4% of the event loop's time."""
        self._tooltip_stale = True
        if self.isUnderMouse():
            self.bring_tooltip_up_to_date()

    def bring_tooltip_up_to_date(self) -> None:
        if self._tooltip_stale:
            self.setToolTip(self.tooltip_text())

    def setToolTip(self, text: str) -> None:  # noqa: N802 - Qt's name
        """Written by hand (an animator's step, a hovered element): that is the tooltip until the next change."""
        self._tooltip_stale = False
        super().setToolTip(text)

    def toolTip(self) -> str:  # noqa: N802 - Qt's name
        self.bring_tooltip_up_to_date()
        return super().toolTip()

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
        return QRectF(left, HEADER_HEIGHT + BODY_PADDING + row * ROW_HEIGHT, self.width - left - 10, ROW_HEIGHT)

    def _layout(self) -> None:
        names = self.port_names()
        count = len(names)
        before = (self._height, len(self._input_ports))
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
        extra = self.extra_height()
        rows = max(0 if extra else 2, len(self.body_lines()), count)
        height = HEADER_HEIGHT + 2 * BODY_PADDING + max(rows * ROW_HEIGHT, extra)
        width = self.card_width()
        before += (self._width,)
        if height != self._height or width != self._width:
            self.prepareGeometryChange()
            self._content.follow_card()
            self._height = height
            self._width = width
        for index, port in enumerate(self._input_ports):
            port.setPos(0, HEADER_HEIGHT + BODY_PADDING + ROW_HEIGHT * (index + 0.5))
        body_top = HEADER_HEIGHT + BODY_PADDING
        self._output_port.setPos(self.width, body_top + (self._height - body_top - BODY_PADDING) / 2)
        if (self._height, len(self._input_ports), self._width) != before:  # new text in the same shape moves no wire
            self.geometry_changed.emit()

    # -- drawing ---------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:
        reach = BADGE_RADIUS + 2  # a badge's ring (`shown_badge`) stands out over the corner
        return QRectF(0, 0, self.width, self._height).adjusted(-6, -reach, reach, 9)

    def card_rect(self) -> QRectF:
        """The card's body in scene coordinates (no ports, no shadow): what a wire label keeps clear of."""
        return QRectF(self.x(), self.y(), self.width, self._height)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(QRectF(0, 0, self.width, self._height), CORNER_RADIUS, CORNER_RADIUS)
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

    def _chrome_key(self) -> tuple:
        """What the chrome shows that a change of the card's numbers may change (its state set by hand, the
        selection and the theme repaint it anyway)."""
        return self.title(), self.kind_title(), bool(self.problem_text()), self.shown_badge(), self.width, self._height

    def update_content(self) -> None:
        """Paint again what the card says; its chrome too if that changed with it (a title, a problem)."""
        if self._chrome_key() != self._painted_chrome:
            self.update()
        self._content.update()

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        """The chrome, into Qt's cached picture of the card; the content is `CardContent`'s (`paint_content`)."""
        self._painted_chrome = self._chrome_key()
        colors = colors_of(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self.width, self._height)
        header_color = colors[self.group()]
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        border = self._border(colors)

        lod = level_of_detail(painter)
        if lod < DETAIL_THRESHOLD:
            painter.setBrush(self._highlight or header_color)
            special = selected or self._is_output or self.problem_text() or self._highlight is not None
            if selected:
                border = QPen(colors["selected"], 4.0)
            width = max(border.widthF(), 2.5 / max(lod, 0.01))  # about 2.5 px on screen at any zoom
            painter.setPen(QPen(border.color(), width) if special else Qt.PenStyle.NoPen)
            painter.drawRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
            return

        # shadow, card, header. The shadow is the translucent shadow's colour over the canvas, painted opaque:
        # blending a whole card's area cost three times filling it, and it lies on the bare canvas.
        card = QPainterPath()
        card.addRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
        painter.fillPath(card.translated(1.5, 2.5), composited(colors["shadow"], colors["background"]))
        painter.fillPath(card, colors["card"])
        if self._highlight is not None:
            tint = QColor(self._highlight)
            tint.setAlpha(40)
            painter.fillPath(card, tint)
        header = QPainterPath()
        header.addRect(QRectF(0, 0, self.width, HEADER_HEIGHT))
        painter.fillPath(card.intersected(header), header_color)

        # title (and the kind, when a label replaces it)
        painter.setPen(colors["header_text"])
        title_rect = QRectF(10, 0, self.width - 20, HEADER_HEIGHT)
        kind_title = self.kind_title()
        if kind_title:
            painter.setFont(pixel_font(10))
            kind_width = QFontMetricsF(painter.font()).horizontalAdvance(kind_title) + 4
            painter.drawText(title_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, kind_title)
            title_rect.setRight(title_rect.right() - kind_width)
        title_font = pixel_font(12, bold=True)
        painter.setFont(title_font)
        title = QFontMetricsF(title_font).elidedText(self.title(), Qt.TextElideMode.ElideRight, title_rect.width())
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, title)

        # port names (binary ops and Sum)
        if self._shows_port_names():
            painter.setFont(pixel_font(9, italic=True))
            painter.setPen(colors["muted"])
            for port in self._input_ports:
                y = port.pos().y()
                painter.drawText(QRectF(9, y - ROW_HEIGHT / 2, 18, ROW_HEIGHT),
                                 Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, port.name)
            painter.setPen(QPen(colors["card_border"], 0.8))
            top = HEADER_HEIGHT + BODY_PADDING
            painter.drawLine(QPointF(25, top + 2), QPointF(25, self._height - BODY_PADDING - 2))

        # outline, then the selection ring outside it
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(border)
        painter.drawRoundedRect(rect, CORNER_RADIUS, CORNER_RADIUS)
        if selected:  # the ring the keyboard follows too: at least 2.5 px on screen at any zoom
            painter.setPen(QPen(colors["selected"], max(SELECTION_RING, SELECTION_RING / lod)))
            painter.drawRoundedRect(rect.adjusted(-4, -4, 4, 4), CORNER_RADIUS + 3, CORNER_RADIUS + 3)
        self.paint_still_extra(painter, colors)
        badge = self.shown_badge()
        if badge:
            self._paint_badge(painter, colors, badge)

    def paint_still_extra(self, painter: QPainter, colors: dict[str, QColor]) -> None:
        """What a card draws with its chrome, into Qt's picture of it: what stands still while the content changes
        (`_chrome_key` says when it moves)."""

    def paint_content(self, painter: QPainter) -> None:
        """What the card says, over its chrome: the body's lines and `paint_extra`'s drawing (zoomed out too far
        for text, `paint_from_afar`'s)."""
        lod = level_of_detail(painter)
        if lod < DETAIL_THRESHOLD:
            self.paint_from_afar(painter, QRectF(0, 0, self.width, self._height))
            return
        colors = colors_of(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # body lines: "value 0.7071" (the key muted, the number in the text colour)
        body_font = pixel_font(11)
        number_font = pixel_font(11, bold=True)
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

        if self.extra_height():
            self.paint_extra(painter, colors, HEADER_HEIGHT + BODY_PADDING + len(self.body_lines()) * ROW_HEIGHT)

    def _paint_badge(self, painter: QPainter, colors: dict[str, QColor], badge: str) -> None:
        """The badge: its symbol in the text colour on the card's colour, ringed in the outline's colour."""
        centre = QPointF(self.width - 2, 0)
        painter.setPen(QPen(self._border(colors).color(), 2.0))
        painter.setBrush(colors["card"])
        painter.drawEllipse(centre, BADGE_RADIUS, BADGE_RADIUS)
        painter.setPen(colors["text"])
        painter.setFont(pixel_font(11, bold=True))
        ring = QRectF(centre.x() - BADGE_RADIUS, centre.y() - BADGE_RADIUS, 2 * BADGE_RADIUS, 2 * BADGE_RADIUS)
        painter.drawText(ring, Qt.AlignmentFlag.AlignCenter, badge)
