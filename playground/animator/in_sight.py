"""The current step's card kept in sight (issue 29, item 3): after every move in time, and after every fit, the
card of the node the step is about (its whole painted area: shadow, selection ring, numbers and state badge)
is wholly inside the animator's view with a margin, and clear of the minimap when it is shown.

The view is panned the least that does it, at once, as the animator's follow always did; never zoomed in, and
zoomed out only when the card is larger than the room it has (a tiny view). In a lesson on a projector the
graph is panned over (presentation mode at 150% beside the Learn dock cannot show lesson 2's graph whole at a
readable zoom), and the step's card often lay under the minimap or past the view's edge.

A lesson's question asks about a card of its own (issue 39: lesson 2's fourth value asks for L while the step
shown is t3's, and L lay past the view's edge at 150%): `keep_in_sight` takes more than one card, the first one
always shown and the others with it where they all fit (the least pan that shows them together, each card clear
of the minimap by itself: `least_shift_of`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QGraphicsItem

from ..canvas.view import GraphView

MARGIN = 8.0  # px on screen between the card and the view's edges or the minimap


def least_shift(card: QRectF, area: QRectF, minimap: QRectF | None = None) -> QPointF | None:
    """How far to move ``card`` (on screen) so that it lies inside ``area`` and, when ``minimap`` is given, off
    it; the shortest such move, past the minimap upwards or leftwards, whichever is shorter. None when the
    card cannot be placed so at this zoom (larger than the room it has)."""
    return least_shift_of([card], area, minimap)


def least_shift_of(cards: Sequence[QRectF], area: QRectF, minimap: QRectF | None = None) -> QPointF | None:
    """The shortest move (on screen, the fewest pixels across and down together) that puts every one of
    ``cards`` inside ``area`` and, when ``minimap`` is given, off it, or None when no move does (the cards
    together are larger than their room). Each card keeps clear of the minimap by itself: two cards one
    above the other and beside it may have the minimap in the corner their bounding box makes.

    The best move is found among few: a move along one axis is either the least that keeps the cards in the
    area (often none at all), or one that puts a card's edge against the minimap's; every pairing of these is
    tried and the shortest that works kept (the smaller sideways move when two are as short)."""
    together = QRectF(cards[0])
    for card in cards[1:]:
        together = together.united(card)
    if together.width() > area.width() or together.height() > area.height():
        return None
    across = (area.left() - together.left(), area.right() - together.right())  # the moves that stay in the area
    down = (area.top() - together.top(), area.bottom() - together.bottom())
    dx, dy = min(max(0.0, across[0]), across[1]), min(max(0.0, down[0]), down[1])
    if minimap is None or not any(_overlap(card.translated(dx, dy), minimap) for card in cards):
        return QPointF(dx, dy)
    xs = {dx, *(minimap.left() - card.right() for card in cards), *(minimap.right() - card.left() for card in cards)}
    ys = {dy, *(minimap.top() - card.bottom() for card in cards), *(minimap.bottom() - card.top() for card in cards)}
    ways = [QPointF(x, y) for x in xs for y in ys
            if across[0] <= x <= across[1] and down[0] <= y <= down[1]
            and not any(_overlap(card.translated(x, y), minimap) for card in cards)]
    return min(ways, key=lambda shift: (abs(shift.x()) + abs(shift.y()), abs(shift.x())), default=None)


def _overlap(one: QRectF, other: QRectF) -> bool:
    """The two rectangles share some area (edges that touch, to a hair's breadth, do not)."""
    shared = one.intersected(other)
    return shared.width() > 1e-6 and shared.height() > 1e-6


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


def keep_in_sight(view: GraphView, item: QGraphicsItem, *also: QGraphicsItem) -> None:
    """Pan ``view`` the least that shows ``item`` wholly, clear of the minimap (see the module docstring), and with
    it the cards ``also`` where they all fit so together; else ``item`` alone."""
    area, minimap = room_of(view)
    if also:
        shift = least_shift_of([view.viewportTransform().mapRect(card.sceneBoundingRect()) for card in (item, *also)],
                               area, minimap)
        if shift is not None:
            _pan(view, shift)
            return
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
    _pan(view, shift)


def _pan(view: GraphView, shift: QPointF) -> None:
    """Move what ``view`` shows by ``shift`` on screen."""
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
