"""The graph view: zoom and pan around a `GraphScene`, its `minimap`, and Tab quick search.

The keyboard is never trapped here: Tab opens quick search when the mouse brought the person to the canvas,
and moves on to the next control when Tab brought them (then "/" opens quick search). A frame round the
canvas shows that it has the keyboard.

Drops from the node palette reach the scene through QGraphicsView's own drag handling; the
scene decides what they do.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QCursor, QKeyEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QFrame,
    QGraphicsScene,
    QGraphicsView,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from .cards import NODE_WIDTH
from .minimap import SCENE_EXTENT, MiniMap, scene_bounds, scene_colors
from .quick_search import QuickSearch
from .view_hint import AFTER_FIT, TooBigHint
from .view_hint import TEXT as TOO_BIG_TEXT

logger = logging.getLogger(__name__)

MIN_ZOOM = 0.02  # a graph of hundreds of layers still fits
MAX_ZOOM = 4.0
FIT_MAX_ZOOM = 1.25  # fitting a small graph does not blow it up beyond this
READABLE_ZOOM = 0.8  # fitting never shrinks card text (11 px) below this: a bigger graph is panned over instead
READABLE_NUMBER_PX = 11.0  # the editor's fits never show an array card's numbers smaller than this on the screen
ZOOM_STEP = 1.25
SNUG = 0.88  # a fitted graph is shown whole down to this share of the readable zoom (the animator's state badges
# took the neuron example at 1280x720, 150% from 1.16 to 1.14 for 1.275)
FOCUS_FRAME = 3.0  # the frame round a canvas that has the keyboard, in pixels
SHOW_MARGIN = 16.0  # a card brought into view by the keyboard keeps this far from the view's edges
ADDED_ROOM = QRectF(0, 0, NODE_WIDTH + 20, 110)  # the room a node added by keyboard needs (a leaf's card, a gap)
ADDED_STEP = 20.0  # scene units between the spots tried for it
FIT_MARGIN = 12.0  # around a fitted graph (its cards' shadows and ports are inside its bounds already)


def _output_card(scene: QGraphicsScene | None) -> QRectF | None:
    """Where the graph ends: the output's card (None for a scene without one)."""
    return next((item.sceneBoundingRect() for item in getattr(scene, "node_items", list)()
                 if getattr(item, "is_output", False)), None)


def numbers_floor(scene: QGraphicsScene | None) -> float:
    """The least zoom at which every number the cards write is `READABLE_NUMBER_PX` high on the screen (the
    smallest font a card writes its numbers in, an array card's; 0 for cards with no such numbers)."""
    sizes = [size for item in getattr(scene, "node_items", list)()
             if (size := getattr(item, "number_pixel_size", lambda: None)()) is not None]
    return READABLE_NUMBER_PX / min(sizes) if sizes else 0.0


def _first_card(scene: QGraphicsScene | None) -> QRectF | None:
    """Where the graph starts: the top card of its leftmost column (None for a scene without cards)."""
    cards = [item.sceneBoundingRect() for item in getattr(scene, "node_items", list)()]
    if not cards:
        return None
    leftmost = min(cards, key=lambda card: card.center().x())
    column = [card for card in cards if card.center().x() < leftmost.center().x() + leftmost.width() / 2]
    return min(column, key=lambda card: card.top())


def _shift_into(low: float, high: float, start: float, end: float) -> float:
    """How far to move the view along one axis so that ``low``..``high`` lies within ``start``..``end`` (its
    start first, where it is longer)."""
    if low < start or high - low > end - start:
        return low - start
    if high > end:
        return high - end
    return 0.0


class GraphView(QGraphicsView):
    """The canvas: wheel zooms around the cursor, middle-drag or Space+drag pans, left-drag on the
    background selects with a rubber band, Tab (after the mouse came) or "/" opens quick search, palette
    items can be dropped."""

    zoom_changed = Signal(float)
    fitted = Signal(bool)  # after each fit: whether the whole graph is in view
    keyboard_arrived = Signal()  # Tab or Shift+Tab brought the keyboard to the canvas

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None):
        super().__init__(scene, parent)
        self.setObjectName("graphView")
        self.setAccessibleName("graphView")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # The dotted grid drawn once for the view's zoom and scroll, not under every card that changes (a trained
        # graph's cards change thirty times a second).
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSceneRect(-SCENE_EXTENT, -SCENE_EXTENT, 2 * SCENE_EXTENT, 2 * SCENE_EXTENT)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setToolTip("")
        self._pan_last: QPointF | None = None
        self._space_held = False
        # With keep_fitted on (the editor), the graph is fitted again whenever the view is resized or
        # shown, until the person zooms or pans; `fit` (View > Fit) starts keeping it fitted again.
        self.keep_fitted = False
        self._fitted = False
        self._fit_whole = False  # the last fit was View > Fit's (the whole graph, however small)
        self._fit_shows_output = False  # a graph too big to fit whole is shown at its output, not its start
        self._output_kept_shown = False  # the person's zoom, scaled by presentation mode: its output kept in view
        # The editor: its fits never shrink an array card's numbers below 11 px on the screen, and in
        # presentation mode View > Fit never below the readable zoom (a graph too big is shown at its output).
        self.fit_readably = False
        self.text_scale = 1.0  # presentation mode: cards drawn this much larger, fits included
        self._fit_timer = QTimer(self, singleShot=True, interval=0)
        self._fit_timer.timeout.connect(self._on_fit_timer_timeout)
        self._quick_search_scene_pos = QPointF()
        # Whether the keyboard brought the person here (Tab, Shift+Tab): then Tab moves on, as everywhere else,
        # instead of opening quick search. The mouse coming over the canvas, or a click, clears it.
        self._came_by_keyboard = False

        self.minimap = MiniMap(self)
        self.too_big_hint = TooBigHint(self)  # while a fitted graph is too big to see whole
        self.quick_search = QuickSearch(self)
        self.quick_search.kind_chosen.connect(self._on_quick_search_kind_chosen)
        self.quick_search.closed.connect(self._on_quick_search_closed)
        self.horizontalScrollBar().valueChanged.connect(self._on_view_moved)
        self.verticalScrollBar().valueChanged.connect(self._on_view_moved)
        self.centerOn(0, 0)

    # -- zoom ------------------------------------------------------------------------------

    def zoom(self) -> float:
        return self.transform().m11()

    def graph_rect(self) -> QRectF:
        """What fitting frames: the cards and wires, in scene coordinates (empty for no graph)."""
        return scene_bounds(self.scene())

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom`` (clamped to 0.02–4), keeping the scene point under ``anchor`` (view coordinates) still.

        A zoom is the person's choice of view: the graph is no longer refitted on resize.
        """
        self.stop_keeping_fitted()
        self._zoom_to(zoom, anchor)

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: draw the cards ``factor`` times larger than usual; fitting then keeps
        them that large too (a fitted graph is fitted again, a zoom the person chose is scaled)."""
        old, self.text_scale = self.text_scale, float(factor)
        if self.is_kept_fitted:
            self.fit(whole=self._fit_whole, show_output=True)
        elif old != self.text_scale:
            self._zoom_to(self.zoom() * self.text_scale / old)
            # The panels around the view grow with the text after this: keep the output in view through
            # the resizes that follow, until the person pans or zooms.
            self._output_kept_shown = True
            self.show_output()

    def show_output(self) -> None:
        """Pan as little as it takes to bring the output's card wholly into view (a class looks for the result)."""
        output = _output_card(self.scene())
        if output is not None:
            self.ensureVisible(output, 12, 12)

    def _zoom_to(self, zoom: float, anchor: QPointF | None = None) -> None:
        zoom = min(max(zoom, MIN_ZOOM), MAX_ZOOM)
        current = self.zoom()
        if abs(zoom - current) < 1e-9:
            return
        anchor = QPointF(self.viewport().rect().center()) if anchor is None else QPointF(anchor)
        scene_point = self.mapToScene(anchor.toPoint())
        factor = zoom / current
        self.scale(factor, factor)
        shift = self.mapFromScene(scene_point) - anchor.toPoint()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + shift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + shift.y())
        self.zoom_changed.emit(self.zoom())
        self.minimap.viewport().update()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.zoom() * factor, anchor)

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / ZOOM_STEP)

    def reset_zoom(self) -> None:
        self.set_zoom(1.0)

    def stop_keeping_fitted(self) -> None:
        """The person zoomed or panned: leave their view alone until they ask for Fit again."""
        self._fitted = self._output_kept_shown = False
        self._fit_timer.stop()
        self.too_big_hint.hide()

    @property
    def last_fit_was_whole(self) -> bool:
        """The last fit was View > Fit's (F): a graph still too big was kept readable on purpose."""
        return self._fit_whole

    @property
    def is_kept_fitted(self) -> bool:
        return self.keep_fitted and self._fitted

    def _refit_soon(self) -> None:
        if self.is_kept_fitted:
            self._fit_timer.start()  # once per turn of the event loop, however many resizes come

    def _on_fit_timer_timeout(self) -> None:
        if self.is_kept_fitted:
            self.fit(whole=self._fit_whole, show_output=self._fit_shows_output)

    def fit_whole(self) -> bool:
        """View > Fit: the whole graph in view, however small that makes it (the person asked to see it all),
        except where `fit_readably` keeps it readable; resizing keeps it so until they zoom or pan."""
        return self.fit(whole=True, show_output=True)

    def _least_zoom(self, whole: bool) -> tuple[float, float]:
        """How small a fit may show the graph: (the zoom it is shown whole down to, the zoom it is shown at
        when it is not whole)."""
        readable = READABLE_ZOOM * self.text_scale
        if whole:  # the person asked to see it all: however small, except in presentation mode, which is for
            # reading: there never smaller than normal mode's largest fit (the neuron beside the Learn dock at
            # 1280x720, 150%, was whole at 0.80, smaller than without presentation mode, 0.92)
            presenting = self.fit_readably and self.text_scale > 1
            readable = min(readable, FIT_MAX_ZOOM) if presenting else MIN_ZOOM
        strict = numbers_floor(self.scene()) if self.fit_readably else 0.0
        # A graph that misses the readable zoom by a sliver (the neuron example on a 1280 x 720 projector at
        # 150%: 1.16 for 1.2) is better shown whole than with its output cut off; numbers never go below 11 px.
        return max(readable * SNUG, strict), max(readable, strict)

    def fit(self, margin: float = FIT_MARGIN, min_zoom: float | None = None, whole: bool = False,
            show_output: bool = False) -> bool:
        """Show every node with a margin, never zoomed in beyond 1.25x nor out beyond ``min_zoom``
        (by default, as far as text stays readable); False if the graph is then too big to fit, in
        which case the view shows its start (the first card of its leftmost column, the inputs, at the
        top left), or with ``show_output`` its end (the output's card at the right), and the rest is panned to.

        Afterwards the view keeps the graph fitted on resize (if `keep_fitted`) until the person zooms or pans.
        Presentation mode's `text_scale` scales both limits.
        """
        self._fit_whole, self._fit_shows_output = whole, show_output
        if min_zoom is None:
            whole_down_to, min_zoom = self._least_zoom(whole)
        else:
            whole_down_to = min_zoom * SNUG
        rect = scene_bounds(self.scene())
        fits = True
        if not rect.isEmpty() and not self.sceneRect().contains(rect):  # a graph reaching further: pan over it all
            self.setSceneRect(self.sceneRect().united(rect.adjusted(-2 * margin, -2 * margin, 2 * margin, 2 * margin)))
        if rect.isNull() or rect.isEmpty():
            self.resetTransform()
            self.centerOn(0, 0)
        else:
            # Leave a band at the bottom for the minimap, so it does not cover the graph it summarises.
            area = QRectF(self.viewport().rect())
            if self.is_minimap_visible():
                area.setBottom(area.bottom() - self.minimap.height() - 10)
            width, height = rect.width() + 2 * margin, rect.height() + 2 * margin
            zoom = min(area.width() / width, max(area.height(), 50.0) / height)
            fits = zoom >= whole_down_to
            zoom = min(zoom, FIT_MAX_ZOOM * self.text_scale) if fits else min_zoom
            self.resetTransform()
            self.scale(zoom, zoom)
            band = (self.viewport().height() - area.height()) / 2 / zoom
            centre = rect.center() + QPointF(0, band)
            # Too big to show whole: start where the graph starts, with its first card (the top of the first
            # layer: the inputs) at the top left. Not the bounding box's corner: layers are centred on one
            # another, so in a graph with one tall layer that corner is empty canvas.
            shown_width, shown_height = area.width() / zoom, area.height() / zoom
            start = _first_card(self.scene()) or rect
            end = _output_card(self.scene()) if show_output else None
            if rect.width() + 2 * margin > shown_width:
                left = rect.left() - margin if end is None else end.right() + margin - shown_width
                centre.setX(left + shown_width / 2)
            if rect.height() + 2 * margin > shown_height:
                wanted = start.top() - margin if end is None else end.center().y() - shown_height / 2
                top = min(wanted, rect.bottom() + margin - shown_height)
                centre.setY(max(top, rect.top() - margin) + shown_height / 2)
            self.centerOn(centre)
        self.zoom_changed.emit(self.zoom())
        self.minimap.viewport().update()
        self._fitted, self._output_kept_shown = True, False
        self.too_big_hint.setText(AFTER_FIT if whole and self.fit_readably else TOO_BIG_TEXT)
        self.too_big_hint.setVisible(self.keep_fitted and not fits)
        if not fits:
            self._place_overlays()
        self.fitted.emit(fits)
        return fits

    def wheelEvent(self, event) -> None:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if not delta:
            event.ignore()
            return
        self.zoom_by(1.0015 ** delta, event.position())  # one notch (120) ≈ 1.2x
        event.accept()

    # -- panning ---------------------------------------------------------------------------

    def _scroll_by(self, delta: QPointF) -> None:
        self.stop_keeping_fitted()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))

    def mousePressEvent(self, event) -> None:
        self._came_by_keyboard = False
        pan = event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_held)
        if pan:
            self._pan_last = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_last is not None:
            self._scroll_by(event.position() - self._pan_last)
            self._pan_last = event.position()
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_last is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_last = None
            if self._space_held:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _scene_is_typing(self) -> bool:
        scene = self.scene()
        return scene is not None and scene.focusItem() is not None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Slash and not self._scene_is_typing():
            self.open_quick_search(self.free_spot())  # by keyboard: not at the mouse, wherever it was left
            event.accept()
            return
        if event.key() == Qt.Key.Key_Space and not self._scene_is_typing():
            if not event.isAutoRepeat():
                self._space_held = True
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and self._space_held:
            if not event.isAutoRepeat():
                self._space_held = False
                if self._pan_last is None:
                    self.viewport().unsetCursor()
            event.accept()
            return
        super().keyReleaseEvent(event)

    def focusInEvent(self, event) -> None:
        if event.reason() in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason):
            self._came_by_keyboard = True
            self.keyboard_arrived.emit()
        elif event.reason() == Qt.FocusReason.MouseFocusReason:
            self._came_by_keyboard = False
        super().focusInEvent(event)
        self.viewport().update()  # the focus frame

    def focusOutEvent(self, event) -> None:
        self._space_held = False
        if self._pan_last is None:
            self.viewport().unsetCursor()
        super().focusOutEvent(event)
        self.viewport().update()

    @property
    def came_by_keyboard(self) -> bool:
        """Tab brought the keyboard here: Tab moves on (quick search opens on "/")."""
        return self._came_by_keyboard

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.hasFocus():  # the canvas has the keyboard: a frame in the focus colour says so
            painter = QPainter(self.viewport())
            half = FOCUS_FRAME / 2
            painter.setPen(QPen(scene_colors(self.scene())["focus"], FOCUS_FRAME))
            painter.drawRect(QRectF(self.viewport().rect()).adjusted(half, half, -half, -half))
            painter.end()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        if self.hasFocus():  # Qt scrolls the painted pixels, the frame's with them: paint it afresh at the edges
            self.viewport().update()

    def show_scene_rect(self, rect: QRectF) -> None:
        """Scroll the least that shows ``rect`` (a card the keyboard went to) whole, clear of the view's edges and
        never under the minimap; a card already in sight leaves the view where it is."""
        # The part of the viewport in sight: in a tab that scrolls sideways (1280x720 at 150% beside the Learn
        # dock) the canvas runs on under the tab's edge, and a card brought "into view" there was cut off.
        sight = self.viewport().visibleRegion().boundingRect()
        sight = sight if not sight.isEmpty() else self.viewport().rect()
        area = QRectF(sight).adjusted(SHOW_MARGIN, SHOW_MARGIN, -SHOW_MARGIN, -SHOW_MARGIN)
        card = QRectF(self.mapFromScene(rect).boundingRect())
        dx = _shift_into(card.left(), card.right(), area.left(), area.right())
        dy = _shift_into(card.top(), card.bottom(), area.top(), area.bottom())
        card.translate(-dx, -dy)
        if self.is_minimap_visible():
            minimap = QRectF(self.minimap.geometry()).adjusted(-SHOW_MARGIN, -SHOW_MARGIN, 0, 0)
            if card.intersects(minimap):  # up above it if the card fits there, else to its left
                if card.height() <= minimap.top() - area.top():
                    dy += card.bottom() - minimap.top()
                else:
                    dx += card.right() - minimap.left()
        if dx or dy:
            self.stop_keeping_fitted()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + round(dx))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + round(dy))

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """The menu key (or Shift+F10) opens the selected node's menu at its card, not at the mouse's spot."""
        scene = self.scene()
        if event.reason() == QContextMenuEvent.Reason.Keyboard and hasattr(scene, "selected_node_ids"):
            selected = [scene.node_item(node_id) for node_id in scene.selected_node_ids()]
            if selected:
                centre = self.mapFromScene(selected[-1].sceneBoundingRect().center())
                event = QContextMenuEvent(event.reason(), centre, self.viewport().mapToGlobal(centre),
                                          event.modifiers())
        super().contextMenuEvent(event)

    # -- quick search ----------------------------------------------------------------------

    def enterEvent(self, event) -> None:
        """The mouse over the canvas gives it the keyboard, so Tab opens quick search without a click
        first; never while the person is typing in a text field or a number box."""
        super().enterEvent(event)
        focused = QApplication.focusWidget()
        typing = isinstance(focused, (QLineEdit, QAbstractSpinBox, QTextEdit, QPlainTextEdit))
        if not typing and self.isActiveWindow():
            self._came_by_keyboard = False  # the mouse is here now: Tab opens quick search at it
            self.setFocus(Qt.FocusReason.MouseFocusReason)

    def event(self, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Tab
                and not event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
                and not self._scene_is_typing() and not self._came_by_keyboard):
            self.open_quick_search()
            event.accept()
            return True
        return super().event(event)

    def open_quick_search(self, view_pos: QPoint | None = None) -> None:
        """Open quick search at ``view_pos`` (viewport coordinates; default: the mouse, else the centre)."""
        if not callable(getattr(self.scene(), "add_node_at", None)):
            return  # a scene nodes cannot be added to (the animator's)
        if view_pos is None:
            view_pos = self.viewport().mapFromGlobal(QCursor.pos())
            if not self.viewport().rect().contains(view_pos):
                view_pos = self.viewport().rect().center()
        self._quick_search_scene_pos = self.mapToScene(view_pos)
        self.quick_search.popup(self.viewport().mapTo(self, view_pos))

    def free_spot(self) -> QPoint:
        """Where (viewport coordinates) a node added by keyboard goes: the spot nearest the view's centre with
        room for a card in sight, clear of every card and of the minimap. Nodes added one after another would
        otherwise pile up on one spot, where the arrow keys cannot tell them apart. The centre if none is free."""
        centre = self.viewport().rect().center()
        node_items = getattr(self.scene(), "node_items", None)
        if node_items is None:
            return centre
        cards = [item.sceneBoundingRect() for item in node_items()]
        origin = self.mapToScene(centre)
        sight = self.mapToScene(self.viewport().rect()).boundingRect()
        minimap = self.mapToScene(self.minimap.geometry()).boundingRect() if self.is_minimap_visible() else QRectF()
        reach = int(max(sight.width(), sight.height()) / 2 / ADDED_STEP) + 1
        offsets = sorted(((dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)),
                         key=lambda d: (d[0] * d[0] + d[1] * d[1], d[1], d[0]))
        room = QRectF(ADDED_ROOM)
        for dx, dy in offsets:
            room.moveCenter(origin + QPointF(dx * ADDED_STEP, dy * ADDED_STEP))
            if (sight.contains(room) and not room.intersects(minimap)
                    and not any(room.intersects(card) for card in cards)):
                return self.mapFromScene(room.center())
        return centre

    def _on_quick_search_kind_chosen(self, kind_name: str) -> None:
        try:
            add = getattr(self.scene(), "add_node_at", None)
            if add is not None:
                add(kind_name, self._quick_search_scene_pos)
        except Exception:
            logger.exception("quick search could not add %s", kind_name)

    def _on_quick_search_closed(self) -> None:
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- minimap ---------------------------------------------------------------------------

    def set_minimap_visible(self, visible: bool) -> None:
        self.minimap.setVisible(visible)
        if visible:
            self._place_overlays()
            self.minimap.raise_()

    def is_minimap_visible(self) -> bool:
        return not self.minimap.isHidden()

    def _on_view_moved(self, _value=None) -> None:
        self.minimap.viewport().update()

    def _place_overlays(self) -> None:
        area = self.viewport().geometry()
        self.minimap.move(area.right() - self.minimap.width() - 10, area.bottom() - self.minimap.height() - 10)
        self.minimap.raise_()
        self.too_big_hint.place(area)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_overlays()
        self._refit_soon()
        if self._output_kept_shown:
            self.show_output()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._refit_soon()  # e.g. the editor's tab shown again after the window changed size
