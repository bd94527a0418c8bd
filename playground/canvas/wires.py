"""Wires between cards: the wire a graph edge is drawn as, and the dashed one a person is dragging.

A `WireItem` follows the two cards it joins and shows the gradient it carries in a small label,
placed clear of every card. The items draw the model and hold no state of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QGraphicsPathItem, QStyle, QWidget

from ..common.numbers import DIGITS, format_number, full_number
from ..graph.arrays import format_array
from ..graph.concealment import HIDDEN
from ..graph.document import Edge
from ..graph.evaluate import same_number
from ..graph.outline import spoken_number
from ..graph.wire_route import Rect, Segment, course, padded, polyline_meets, sample
from .cards import CardItem
from .style import DETAIL_THRESHOLD, colors_of, level_of_detail, pixel_font, wire_width

# Where a wire's gradient label may sit, as fractions of the wire's length, nearest the middle first:
# the first spot clear of every card wins, and a wire with no clear spot shows no label (its
# tooltip still has the number).
LABEL_SPOTS = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)
LABEL_CLEARANCE = 2.0


ROUTE_REACH = QPointF(180.0, 60.0)  # how far beyond its two ends a wire looks for cards in its way, at first


def _rect(rect: QRectF) -> Rect:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def wire_path(start: QPointF, end: QPointF, obstacles: Sequence[QRectF] = (),
              ends: Sequence[QRectF] = ()) -> QPainterPath:
    """A cubic bezier leaving ``start`` to the right and entering ``end`` from the left; where it would cross a
    card of ``obstacles``, a way round them (`wire_route.curve`; ``ends``: the two cards it joins)."""
    return _painted(start, _segments(start, end, obstacles, ends))


def _segments(start: QPointF, end: QPointF, obstacles: Sequence[QRectF], ends: Sequence[QRectF]) -> list[Segment]:
    return _course(start, end, obstacles, ends)[0]


def _course(start: QPointF, end: QPointF, cards: Sequence[QRectF],
            ends: Sequence[QRectF]) -> tuple[list[Segment], list[int]]:
    return course((start.x(), start.y()), (end.x(), end.y()), [_rect(r) for r in cards], [_rect(r) for r in ends])


def _painted(start: QPointF, segments: Sequence[Segment]) -> QPainterPath:
    path = QPainterPath(start)
    for _, first, second, last in segments:
        path.cubicTo(QPointF(*first), QPointF(*second), QPointF(*last))
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
        self._detoured = False
        self._obstacles: list[CardItem] = []  # the cards its course goes round
        self._course = sample([], 8)  # points along its course, to tell the cards it crosses cheaply
        self._midpoint = QPointF()
        self._label_size: tuple[float, float] | None = None  # measured once per text: painting asks often
        self._label_center: QPointF | None = None  # where the label sits; None: no spot is clear of cards
        self._grad: float | None = None
        self._digits = DIGITS  # of the label's number: fewer for a trained network's (small, many digits)
        self._concealed = False  # "grad ?" while a quiz asks for it
        self._label_visible = True
        self._emphasized = False
        self._highlight: QColor | None = None
        self._shape_text: str | None = None  # in a tensor graph: the shape it carries, its label
        self._tensor_tooltip: str | None = None  # in a tensor graph: `tensor_text.wire_text`
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
        if self._shape_text is not None:
            return self._shape_text
        if self._grad is None:
            return ""
        if self._concealed:
            return f"grad {HIDDEN}"
        if np.ndim(self._grad) > 0:  # a trained network's, for each training point: their sum, marked so
            return f"Σ {format_number(float(np.sum(self._grad)), self._digits)}"
        return f"grad {format_number(self._grad, self._digits)}"

    def set_concealed(self, concealed: bool) -> None:
        """Label the wire "grad ?": a quiz asks for what it carries (`concealment`)."""
        if concealed != self._concealed:
            self._concealed = concealed
            self._label_size = None
            self.place_label()
            self._refresh_tooltip()

    def set_tensor_texts(self, shape_text: str | None, tooltip: str | None) -> None:
        """In a tensor graph: label the wire with the shape it carries, and say in its tooltip the gradient
        and how a broadcast operand's gradient was summed back; None, None: a scalar wire."""
        if shape_text != self._shape_text:
            old_size = self._label_size
            self._shape_text = shape_text
            self._label_size = None
            if self._measure_label() != old_size:
                self.place_label()
            self.update()
        if tooltip != self._tensor_tooltip:
            self._tensor_tooltip = tooltip
            self._refresh_tooltip()

    def set_grad(self, grad: float | None, digits: int = DIGITS) -> None:
        """The gradient the wire carries back, its label's number to ``digits`` significant figures (a trained
        network's gradients are small numbers that take many characters: fewer there, every digit in the tooltip)."""
        if same_number(grad, self._grad) and digits == self._digits:
            return  # the label keeps its size and text: no relayout, no repaint
        old_size = self._label_size
        self._grad, self._digits = grad, digits
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
        """Put the label at the spot nearest the wire's middle that is clear of every card and of the
        other wires' labels (else the nearest clear of cards only; else nowhere)."""
        self.prepareGeometryChange()
        self._label_center = self._clear_label_spot()
        scene = self.scene()
        if scene is not None:
            scene.note_label(self, self._label_rect() if self._label_center is not None else None)
        self.update()

    def _clear_label_spot(self) -> QPointF | None:
        width, height = self._measure_label()
        if not width or not self._label_visible:
            return None
        scene = self.scene()
        if scene is None:
            return QPointF(self._midpoint)
        margin = LABEL_CLEARANCE
        clear_of_cards = None
        # On the wire first, nearest its middle; then just below or above it (two wires side by side,
        # as from x to x * x, have no room along them for two labels).
        beside = height / 2 + 2 * margin
        for shift in (0.0, beside, -beside):
            for fraction in LABEL_SPOTS:
                centre = self._path.pointAtPercent(fraction) + QPointF(0.0, shift)
                rect = QRectF(centre.x() - width / 2 - margin, centre.y() - height / 2 - margin,
                              width + 2 * margin, height + 2 * margin)
                if scene.any_card_in(rect):
                    continue
                if not scene.any_label_in(rect, self):
                    return centre
                if shift == 0.0 and clear_of_cards is None:
                    clear_of_cards = centre
        return clear_of_cards

    def _measure_label(self) -> tuple[float, float]:
        if self._label_size is None:
            text = self.label_text()
            metrics = QFontMetricsF(pixel_font(10))
            self._label_size = (metrics.horizontalAdvance(text) + 10, metrics.height() + 3) if text else (0.0, 0.0)
        return self._label_size

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneChange and self.scene() is not None:
            self.scene().note_label(self, None)  # leaving: its label no longer takes room there
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.update_path()  # the cards it must keep clear of (its course and its label) are known only in a scene
        return super().itemChange(change, value)

    def set_emphasized(self, emphasized: bool) -> None:
        """Drawn thick and green: a node dropped now would be inserted on this wire."""
        if emphasized != self._emphasized:
            self._emphasized = emphasized
            self.update()

    @property
    def highlight(self) -> QColor | None:
        return self._highlight

    def set_highlight(self, color: QColor | str | None) -> None:
        self._highlight = QColor(color) if color is not None else None
        self.update()

    def path(self) -> QPainterPath:
        return QPainterPath(self._path)

    def path_rect(self) -> QRectF:
        """The rectangle round the wire's course, in scene coordinates (its label left out)."""
        return self._path.boundingRect()

    def midpoint(self) -> QPointF:
        return QPointF(self._midpoint)

    def update_path(self) -> None:
        """Follow the cards: run from the source's output to the target's input, round any card in the way."""
        self.prepareGeometryChange()
        start = self.source_item.output_port_scene_pos()
        end = self.target_item.input_port_scene_pos(self.edge.port)
        ends = [self.source_item.card_rect(), self.target_item.card_rect()]
        segments = _segments(start, end, (), ())
        scene = self.scene()  # none before the wire is in a scene, and no cards to go round
        cards_in = getattr(scene, "cards_in", None) if getattr(scene, "routing", False) else None
        # The cards about the wire; should its way round them reach further, the cards there too.
        area = QRectF(start, end).normalized().adjusted(-ROUTE_REACH.x(), -ROUTE_REACH.y(), ROUTE_REACH.x(),
                                                        ROUTE_REACH.y())
        near: list[CardItem] = []
        gone_round: list[CardItem] = []
        for _ in range(3 if cards_in is not None else 0):
            found = [card for card in cards_in(area) if card is not self.source_item and card is not self.target_item]
            if len(found) == len(near):
                break
            near = found
            segments, met = _course(start, end, [card.card_rect() for card in near], ends)
            gone_round = [near[i] for i in met]
            reach = _painted(start, segments).boundingRect()
            if area.contains(reach):
                break
            area = area.united(reach.adjusted(-1, -1, 1, 1))
        self._path = _painted(start, segments)
        self._course = sample(segments, 8)
        self._detoured = len(segments) > 1  # more than the plain curve's one cubic
        self._obstacles = gone_round if self._detoured else []
        self._midpoint = self._path.pointAtPercent(0.5)
        self.place_label()

    @property
    def is_detoured(self) -> bool:
        """The wire goes round a card in its way (its plain curve would cross one)."""
        return self._detoured

    def crosses(self, rect: QRectF) -> bool:
        """Whether the wire's course runs through ``rect`` (scene coordinates) or within a hair of it."""
        return polyline_meets(self._course, [padded(_rect(rect), 1.0)])

    def goes_round(self, card: CardItem) -> bool:
        """Whether the wire's course was found with ``card`` in the way (it may straighten when the card moves)."""
        return any(card is other for other in self._obstacles)

    def _refresh_tooltip(self) -> None:
        if self._tensor_tooltip is not None and not self._concealed:
            self.setToolTip(self._tensor_tooltip)
            return
        port = self.target_item.port_name(self.edge.port)
        text = f"{self.source_item.display_name()} → {self.target_item.display_name()} (input '{port}')"
        if self._grad is not None and np.ndim(self._grad) > 0 and not self._concealed and self._shape_text is None:
            # A trained network's wire from a node computed for each point: a gradient a point (`graph.trained`).
            grads = np.asarray(self._grad, dtype=np.float64)
            text += (f"\ngradient of the training loss carried, for each of the {grads.size} training points: "
                     f"{spoken_number(grads)}\nsummed over them (Σ, the label's number) = "
                     f"{full_number(float(np.sum(grads)))}")
        elif self._grad is not None:
            shown = HIDDEN if self._concealed else (format_array(self._grad) if np.ndim(self._grad) else
                                                    full_number(self._grad))
            text += f"\ngradient carried = {shown}"
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
        width = wire_width(colors)  # 2, or 3 in high contrast: a marked wire is one wider still
        if self._emphasized:
            pen = QPen(colors["wire_drop"], width + 2.0)
        elif selected:
            pen = QPen(colors["wire_selected"], width + 1.0)
        elif self._highlight is not None:
            pen = QPen(self._highlight, width + 1.0)
        else:
            pen = QPen(colors["wire"], width)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        label = self._label_rect()
        if label.isNull() or level_of_detail(painter) < DETAIL_THRESHOLD:
            return
        painter.setPen(QPen(pen.color() if (selected or self._highlight) else colors["wire_label_border"], 1.0))
        painter.setBrush(colors["wire_label_bg"])
        painter.drawRoundedRect(label, label.height() / 2, label.height() / 2)
        painter.setFont(pixel_font(10))
        bad = (self._shape_text is None and self._grad is not None and np.ndim(self._grad) == 0
               and format_number(self._grad) in ("nan", "inf", "-inf"))
        painter.setPen(colors["problem"] if bad else colors["wire_label_text"])
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, self.label_text())


class PendingWireItem(QGraphicsPathItem):
    """The dashed wire that follows the mouse while a person drags a connection.

    `set_state(None)` neutral grey, `True` green (the port under the mouse accepts it), `False`
    red (refused). Accepted or refused, a mark in a ring halfway along says so too ("✓" or "✗"):
    never by colour alone (WCAG 1.4.1); the status bar says why a wire is refused.
    """

    MARK_RADIUS = 9.0

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
        if state != self._state:
            self.prepareGeometryChange()  # the mark comes or goes
        self._state = state
        self._apply_pen()

    def mark(self) -> str | None:
        """What the mark halfway along says: "✓" accepted, "✗" refused, None while over no port."""
        return None if self._state is None else "✓" if self._state else "✗"

    def mark_centre(self) -> QPointF:
        return self.path().pointAtPercent(0.5)

    def boundingRect(self) -> QRectF:
        rect = super().boundingRect()
        if self.mark() is None:
            return rect
        reach = self.MARK_RADIUS + 2
        centre = self.mark_centre()
        return rect.united(QRectF(centre.x() - reach, centre.y() - reach, 2 * reach, 2 * reach))

    def paint(self, painter: QPainter, option, widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        mark = self.mark()
        if mark is None:
            return
        colors = colors_of(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        centre, radius = self.mark_centre(), self.MARK_RADIUS
        painter.setPen(QPen(self.pen().color(), 2.0))
        painter.setBrush(colors["card"])
        painter.drawEllipse(centre, radius, radius)
        painter.setPen(colors["text"])
        painter.setFont(pixel_font(12, bold=True))
        painter.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
                         Qt.AlignmentFlag.AlignCenter, mark)

    def _apply_pen(self) -> None:
        colors = colors_of(self)
        color = colors["pending"] if self._state is None else colors["ok"] if self._state else colors["refused"]
        pen = QPen(color, 2.5, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.setPen(pen)
        self.setBrush(QBrush(Qt.BrushStyle.NoBrush))
