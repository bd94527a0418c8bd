"""The current step's card kept in sight (issue 29, item 3): after every move in time, and after every fit, the
card of the node the step is about (its whole painted area: shadow, selection ring, numbers and state badge)
is wholly inside the animator's view with a margin, and clear of the minimap when it is shown.

The view is panned the least that does it, at once, as the animator's follow always did; never zoomed in, and
zoomed out only when the card is larger than the room it has (a tiny view). In a lesson on a projector the
graph is panned over (presentation mode at 150% beside the Learn dock cannot show lesson 2's graph whole at a
readable zoom), and the step's card often lay under the minimap or past the view's edge.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsItem

from ..canvas.view import GraphView

MARGIN = 8.0  # px on screen between the card and the view's edges or the minimap


def least_shift(card: QRectF, area: QRectF, minimap: QRectF | None = None) -> QPointF | None:
    """How far to move ``card`` (on screen) so that it lies inside ``area`` and, when ``minimap`` is given, off
    it; the shortest such move, past the minimap upwards or leftwards, whichever is shorter. None when the
    card cannot be placed so at this zoom (larger than the room it has)."""
    if card.width() > area.width() or card.height() > area.height():
        return None
    dx = _into(card.left(), card.right(), area.left(), area.right())
    dy = _into(card.top(), card.bottom(), area.top(), area.bottom())
    moved = card.translated(dx, dy)
    if minimap is None or not moved.intersects(minimap):
        return QPointF(dx, dy)
    # Past the minimap (in the bottom right-hand corner): above it or to its left, staying in the area.
    ways = []
    up = minimap.top() - moved.bottom()
    if moved.top() + up >= area.top():
        ways.append(QPointF(dx, dy + up))
    left = minimap.left() - moved.right()
    if moved.left() + left >= area.left():
        ways.append(QPointF(dx + left, dy))
    return min(ways, key=lambda shift: abs(shift.x()) + abs(shift.y()), default=None)


def _into(low: float, high: float, least: float, most: float) -> float:
    """The shortest move of [low, high] into [least, most] (it fits)."""
    if low < least:
        return least - low
    if high > most:
        return most - high
    return 0.0


def room_of(view: GraphView) -> tuple[QRectF, QRectF | None]:
    """Where a card may be in ``view``'s viewport (its rectangle less the margin) and what it must keep clear of
    (the minimap with the margin around it, while it is shown; else None)."""
    viewport = view.viewport()
    area = QRectF(viewport.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
    minimap = None
    if view.is_minimap_visible():  # the minimap is a child of the view, over the viewport's corner
        minimap = QRectF(view.minimap.geometry().translated(-viewport.geometry().topLeft()))
        minimap.adjust(-MARGIN, -MARGIN, MARGIN, MARGIN)
    return area, minimap


def keep_in_sight(view: GraphView, item: QGraphicsItem) -> None:
    """Pan ``view`` the least that shows ``item`` wholly, clear of the minimap (see the module docstring)."""
    area, minimap = room_of(view)
    for _attempt in range(2):  # once more after a zoom out, if the card was larger than its room
        card = view.viewportTransform().mapRect(item.sceneBoundingRect())
        shift = least_shift(card, area, minimap)
        if shift is not None:
            break
        # Too large for its room: zoomed out just enough to go into the view, above the minimap or beside it.
        rooms = [area] if minimap is None else [
            QRectF(area.left(), area.top(), area.width(), minimap.top() - area.top()),
            QRectF(area.left(), area.top(), minimap.left() - area.left(), area.height())]
        factor = max(min(room.width() / card.width(), room.height() / card.height()) for room in rooms)
        view.set_zoom(view.zoom() * min(factor, 1.0) * 0.98)
    else:
        return
    if shift.isNull():
        return
    # A card moved right on screen is the view moved left over the scene: the scroll bars go the other way.
    # Rounded away from zero, so a fraction of a pixel never leaves the card a hair past the margin.
    horizontal, vertical = view.horizontalScrollBar(), view.verticalScrollBar()
    horizontal.setValue(horizontal.value() - _away_from_zero(shift.x()))
    vertical.setValue(vertical.value() - _away_from_zero(shift.y()))


def _away_from_zero(value: float) -> int:
    whole = int(abs(value)) + (abs(value) % 1 > 1e-6)
    return whole if value > 0 else -whole
