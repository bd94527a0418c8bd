"""How the animator's view frames its graph: fitted at a readable zoom until the person zooms by
hand, a minimap for big graphs (not while playing at "fastest"), and clicks on cards reported.

An event filter on the view and its viewport: a resize refits (while fitting is automatic), the
wheel hands the zoom to the person, a left click on a card says which node (`node_clicked`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal

from ..canvas.view import MIN_ZOOM, GraphView
from ..widgets.errors import report_handled
from .in_sight import keep_in_sight
from .scene import AnimatorScene

MINIMAP_FROM = 60  # graphs with at least this many nodes get the minimap
READABLE_ZOOM = 0.85  # fitting a graph never makes its text smaller than this; the view follows the step
PAIRED_ZOOM = 0.6  # two graphs one above the other (a pitfall replay): each may be drawn smaller than alone


class ViewFit(QObject):
    node_clicked = Signal(str)

    def __init__(self, view: GraphView, scene: AnimatorScene, focus=list):
        super().__init__(view)
        self.view, self.scene = view, scene
        self.focus = focus  # the cards kept in sight after each fit, the first always: the current step's (or
        # the one a lesson's question has just asked about), then the other where both fit
        self._viewport = view.viewport()
        self.auto = True  # fit on every resize, until the person zooms
        self.whole = False  # View > Fit: the whole graph, however small (until the next graph)
        self.readable_zoom = READABLE_ZOOM
        self._paired = False
        self._node_count = 0
        self._wants_minimap = False
        self._playing_fastest = False
        view.installEventFilter(self)
        self._viewport.installEventFilter(self)

    def frame(self, paired: bool, text_scale: float) -> None:
        """How to fit from now on: alone or ``paired`` with a pitfall replay below (smaller, and no minimap
        over a teaching graph that is only half a view tall), at presentation mode's ``text_scale``."""
        self._paired = bool(paired)
        self.readable_zoom = (PAIRED_ZOOM if paired else READABLE_ZOOM) * text_scale

    def new_graph(self, node_count: int) -> None:
        """A graph of ``node_count`` nodes was drawn: fit automatically again; big graphs get the minimap."""
        self._node_count = node_count
        self._wants_minimap = node_count >= MINIMAP_FROM
        self.auto, self.whole = True, False
        self.refresh_minimap()

    def set_playing_fastest(self, playing_fastest: bool) -> None:
        self._playing_fastest = playing_fastest
        self.refresh_minimap()

    def refresh_minimap(self) -> None:
        """A big graph has the minimap, except while playing at "fastest": redrawing a thousand nodes
        in it after every step would halve the speed (the main view follows the current step anyway)."""
        wanted = self._wants_minimap and not self._playing_fastest
        if self.view.is_minimap_visible() != wanted:
            self.view.set_minimap_visible(wanted)

    def fit(self) -> None:
        """Fit the graph, at a zoom where its text stays readable; a graph too big for that gets the
        minimap, and the view follows the current step."""
        big = not self._paired and self._node_count >= MINIMAP_FROM
        # Tried first without a minimap that only a failed fit brought (its band at the bottom kept the graph
        # from fitting ever after, once the window had been smaller).
        if self._wants_minimap != big:
            self._wants_minimap = big
            self.refresh_minimap()
        min_zoom = MIN_ZOOM if self.whole else self.readable_zoom
        fits = self.view.fit(min_zoom=min_zoom)
        if not fits and not self._paired and not self._wants_minimap:
            self._wants_minimap = True  # too big to read whole: the minimap, and a band kept for it
            self.refresh_minimap()
            fits = self.view.fit(min_zoom=min_zoom)
        if not fits:  # a graph panned over shows where the step is, not only its start (a whole one shows it)
            self.keep_step_in_sight()

    def keep_step_in_sight(self) -> None:
        """Pan the least that shows the current step's card whole, clear of the minimap (`keep_in_sight`), and the
        card a waiting question asks about where both fit (`SceneSync.in_sight_order`)."""
        cards = self.focus()
        if cards:
            keep_in_sight(self.view, *cards)

    def fit_by_person(self) -> None:
        """View > Fit (F): the whole graph in view, as in the editor, and kept so on resize until the person
        zooms or another graph comes."""
        self.auto, self.whole = True, True
        self.fit()

    def zoom_by_person(self, factor: float) -> None:
        """View > Zoom in or out: the person's zoom from now on, as the wheel's."""
        self.auto = False
        self.view.zoom_by(factor)

    def fit_if_auto(self) -> None:
        """Fit, while fitting is automatic; else (the person's zoom) at least keep the step's card in sight."""
        try:
            if self.auto:
                self.fit()
            else:
                self.keep_step_in_sight()
        except Exception as error:  # a slot: the app goes on
            report_handled(error, "fitting the animator's view")

    def fit_soon(self) -> None:
        """Fit at the next turn of the event loop (once the view knows its size), if still automatic; else keep
        the step's card in sight."""
        QTimer.singleShot(0, self.fit_if_auto)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        try:
            kind = event.type()
            if watched is self.view and kind == QEvent.Type.Resize:  # refitted, or at least the step kept in sight
                self.fit_soon()
            elif watched is self._viewport:
                if kind == QEvent.Type.Wheel:
                    self.auto = False
                elif kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                    item = self.scene.node_at(self.view.mapToScene(event.position().toPoint()))
                    if item is not None:
                        self.node_clicked.emit(item.node_id)
                        return True
        except Exception as error:
            report_handled(error, "the animator view's events")
        return False
