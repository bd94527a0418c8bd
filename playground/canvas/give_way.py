"""Panels beside a graph give way to it: on a small screen, beside the Learn dock, or in presentation mode,
the editor's palette and side panel and the animator's step panel close by themselves when the graph
would otherwise be drawn smaller than it should be, and come back when there is room again.

Each panel sits in a QSplitter beside the graph's view and has a checkable action (in the View menu and
as a button beside the graph) that shows whether it is open and opens or closes it by hand. A person's
choice holds until presentation mode changes; until then, the panels follow the room.

The rule: the graph wants to be drawn at ``WANTED_ZOOM`` times presentation mode's zoom, or as large as
the view's height allows if that is less, and in the editor never so small that an array card's numbers are
under 11 px (a tensor graph at 1920x1080 is then shown whole at a readable size, the side panel closed).
While the canvas beside the open panels is narrower than that, panels close in their order (the widest, least
needed first). A graph more than twice too wide to be read on the whole width keeps its panels: it is panned
over anyway, and the person building it needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRectF, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QSplitter, QWidget

from ..widgets.errors import report_handled
from .view import FIT_MARGIN, numbers_floor

WANTED_ZOOM = 0.9  # the graph beside its panels at nearly its natural size; less, and panels give way
READABLE_ZOOM = 0.8  # the editor's smallest automatic zoom: text stays readable
HOPELESS = 2.0  # a graph wider than this many canvases at READABLE_ZOOM is panned over anyway: panels stay


@dataclass
class Room:
    panel: QWidget
    action: QAction
    width: int  # its width when open
    choice: bool | None = None  # the person's: open or closed; None: it follows the room


class GiveWay(QObject):
    """Opens and closes the panels beside ``view`` in ``splitter``; see the module docstring."""

    def __init__(self, splitter: QSplitter, view, parent: QObject | None = None):
        super().__init__(parent or splitter)
        self.splitter, self.view = splitter, view
        self.rooms: list[Room] = []  # in the order they give way
        self.text_scale = 1.0
        self.least_zoom = 0.0  # the zoom the view never fits below (a pitfall's two graphs: their text's least)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._on_timer_timeout)
        splitter.installEventFilter(self)
        splitter.splitterMoved.connect(self._on_splitter_moved)

    def add(self, panel: QWidget, text: str, width: int, name: str, tip: str) -> QAction:
        """``panel`` (already in the splitter) gives way after those added before it; returns its action."""
        action = QAction(text, self)
        action.setObjectName(name)
        action.setCheckable(True)
        action.setChecked(True)
        action.setToolTip(tip)
        room = Room(panel, action, width)
        action.triggered.connect(lambda checked, r=room: self._on_action_triggered(r, checked))
        self.rooms.append(room)
        return action

    def set_width(self, panel: QWidget, width: int) -> None:
        for room in self.rooms:
            if room.panel is panel:
                room.width = width
        self.update_soon()

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode changed: the graph wants more room, and the panels follow the room again."""
        self.text_scale = float(factor)
        for room in self.rooms:
            room.choice = None
        self.update_soon()

    def set_least_zoom(self, zoom: float) -> None:
        """The view will not draw the graph smaller than ``zoom`` (it pans over it instead): the panels give way
        to that width. A new least is a new situation: the panels follow the room again, as for presentation
        mode (the step panel a person opened closes when a pitfall's replay comes under the graph)."""
        if zoom != self.least_zoom:
            self.least_zoom = float(zoom)
            for room in self.rooms:
                room.choice = None
            self.update_soon()

    def reveal(self, control: QWidget) -> bool:
        """Open the panel ``control`` is in (a lesson points at its slider), as if the person opened it;
        True if it was closed."""
        for room in self.rooms:
            if room.panel.isHidden() and (room.panel is control or room.panel.isAncestorOf(control)):
                room.choice = True
                self.update()
                return True
        return False

    def hold_open(self, control: QWidget) -> None:
        """Open the panel ``control`` is in, if closed, and keep it open as the person's choice does (a screen
        reader's outline is in it): it no longer gives way by itself until presentation mode changes."""
        for room in self.rooms:
            if room.panel is control or room.panel.isAncestorOf(control):
                room.choice = True
                self.update()
                return

    def update_soon(self) -> None:
        self._timer.start()  # once per turn of the event loop, however many resizes come

    def eventFilter(self, watched, event) -> bool:
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            self.update_soon()
        return False

    def _on_timer_timeout(self) -> None:
        try:
            self.update()
        except Exception as error:  # a slot: the app goes on
            report_handled(error, "making room for the graph")

    def _on_action_triggered(self, room: Room, checked: bool) -> None:
        room.choice = bool(checked)
        try:
            self.update()
        except Exception as error:
            report_handled(error, "opening or closing a panel")

    def _on_splitter_moved(self, _pos: int, _index: int) -> None:
        """The person dragged a handle: a panel keeps the width they gave it, and one dragged shut is closed
        as its button would close it."""
        try:
            sizes = self.splitter.sizes()
            for room in self.rooms:
                if room.panel.isHidden():
                    continue
                size = sizes[self.splitter.indexOf(room.panel)]
                if size == 0:
                    room.choice = False
                    room.panel.hide()
                    room.action.setChecked(False)
                else:
                    room.width = size
        except Exception as error:
            report_handled(error, "following a splitter's handle")

    def wanted_width(self) -> float:
        """How wide the canvas must be for the graph at the zoom it wants (0 for no graph)."""
        rect: QRectF = self.view.graph_rect()
        if rect.isEmpty():
            return 0.0
        width, height = rect.width() + 2 * FIT_MARGIN, rect.height() + 2 * FIT_MARGIN
        zoom = min(WANTED_ZOOM * self.text_scale, self.view.viewport().height() / height)
        if getattr(self.view, "fit_readably", False):  # the editor: an array card's numbers 11 px high at least
            zoom = max(zoom, numbers_floor(self.view.scene()))
        return width * max(zoom, self.least_zoom)

    @staticmethod
    def _ancestors(widget: QWidget) -> list[QWidget]:
        parents = []
        while widget.parentWidget() is not None:
            widget = widget.parentWidget()
            parents.append(widget)
        return parents

    def update(self) -> None:
        """Open or close the panels for the room the splitter has now."""
        handle = self.splitter.handleWidth()
        total = self.splitter.width() - handle * len(self.rooms)
        wanted = self.wanted_width()
        rect = self.view.graph_rect()
        too_big = not rect.isEmpty() and (rect.width() + 2 * FIT_MARGIN) * READABLE_ZOOM > HOPELESS * total
        open_rooms = [room for room in self.rooms if room.choice is not False]
        for room in self.rooms:  # in giving-way order
            canvas = total - sum(r.width for r in open_rooms)
            if canvas >= wanted or too_big:
                break
            if room.choice is None and room in open_rooms:
                open_rooms.remove(room)
        changed = False
        for room in self.rooms:
            is_open = room in open_rooms
            if room.panel.isHidden() == is_open:
                room.panel.setVisible(is_open)
                changed = True
            room.action.setChecked(is_open)
        if changed:
            sizes = [0] * self.splitter.count()
            for index in range(self.splitter.count()):
                widget = self.splitter.widget(index)
                room = next((r for r in self.rooms if r.panel is widget), None)
                sizes[index] = room.width if room is not None and room in open_rooms else 0
            view_index = next(i for i in range(self.splitter.count())
                              if self.splitter.widget(i) in (self.view, *self._ancestors(self.view)))
            sizes[view_index] = max(total - sum(sizes), 100)
            self.splitter.setSizes(sizes)
