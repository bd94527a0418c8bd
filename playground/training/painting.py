"""Painting what the worker sent: a frame on the decision boundary and the diagram (as it arrives, while
the worker waits for it: `PaintedNotice`), a progress report on the toolbar, the figures and the
status-bar summary (all three from one report, at the pace `summary.ReadoutPace` sets), and the curve
plots in turns.

The boundary, the loss plot and the accuracy plot take turns: a tick that draws the boundary leaves
the curves for the next, unless they are overdue, and a tick draws one curve plot; while frames flow,
a curve plot is drawn in a frame's second pass (`PaintedNotice`). Qt paints every plot changed in one
pass, and all three together would hold the event loop three times as long.
"""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt

from .boundary_plot import BoundaryColumn
from .curves import CurvesColumn
from .graph_view import TrainedGraphView
from .model.summary import NOTHING, ReadoutPace, summary_text
from .network_view import NetworkView
from .picture import focus_caption, network_picture
from .toolbar import TrainingToolbar
from .worker import BoundaryFrame, Progress

CURVE_REDRAW_S = 1 / 20  # one curve plot at most 20 times a second, the two in turns: axes cost more than images


class PaintedNotice(QObject):
    """Tells the training worker, once the frame it sent has been painted, that it may go on.

    Qt paints changed widgets on an update request it posts at low priority, and a plot's scene asks for
    its update in a call queued at normal priority. So the notice goes round twice at low priority: the
    first time after the scene's call (which posts the plot's update request), the second after that
    request, that is after the painting.

    A frame is painted in passes of the event loop, with a moment between them for input and timers: the
    boundary and the diagram, then what ``next_pass`` puts on screen, as long as it puts something there
    (`Painter.paint_next_pass`: a trained graph's cards, then the gradient health lines and a curve plot in its
    turn), each pass shorter than all of them together. The worker waits for them all: what is painted beside
    training takes two to five times as long."""

    ROUNDS = 2
    RECENT_S = 0.05  # frames are flowing while the last one was painted at most this long ago

    def __init__(self, painted: threading.Event, next_pass, parent: QObject | None = None):
        super().__init__(parent)
        self._painted = painted
        self._next_pass = next_pass
        self._last = -float("inf")

    def recent(self) -> bool:
        """Was a frame painted within `RECENT_S`?"""
        return time.perf_counter() - self._last < self.RECENT_S

    def expect(self) -> None:
        """A run starts: its frames count as flowing from now, so that its first frame is painted in passes as
        the rest are (painted in one, with the curves beside the training, it held the event loop 20 ms)."""
        self._last = time.perf_counter()

    def post(self, rounds_left: int = ROUNDS) -> None:
        QCoreApplication.postEvent(self, _Round(rounds_left), Qt.EventPriority.LowEventPriority.value)

    def event(self, event) -> bool:
        if not isinstance(event, _Round):
            return super().event(event)
        if event.rounds_left > 1:
            self.post(event.rounds_left - 1)
        elif self._next_pass():
            self.post(self.ROUNDS)
        else:
            self._painted.set()
            self._last = time.perf_counter()
        return True


class _Round(QEvent):
    TYPE = QEvent.Type(QEvent.registerEventType())

    def __init__(self, rounds_left: int):
        super().__init__(self.TYPE)
        self.rounds_left = rounds_left


class Painter:
    def __init__(self, toolbar: TrainingToolbar, boundary_column: BoundaryColumn, network_view: NetworkView,
                 curves: CurvesColumn, graph_view: TrainedGraphView):
        self.toolbar, self.boundary_column, self.network_view, self.curves, self.graph_view = (
            toolbar, boundary_column, network_view, curves, graph_view)
        self.readouts = ReadoutPace()
        self.summary = ""  # the summary last handed to the status bar
        self._lines_due = NOTHING  # the report whose gradient health lines are still to be drawn
        self._graph_due: BoundaryFrame | None = None  # the frame whose graph cards are still to be drawn
        self._last_curve_draw = 0.0

    def paint_frame(self, frame: BoundaryFrame, hovered: tuple | None, graph_later: bool = False) -> None:
        """The frame's boundary and diagram; a trained graph's cards with ``graph_later`` in the frame's next pass
        (`paint_next_pass`): with the boundary, they made one event of 17-20 ms, the event loop's longest stall."""
        self.boundary_column.view.set_probability(frame.probability, frame.extent, frame.contour,
                                                  frame.misclassified)
        if hovered is not None:
            self.show_focus(frame, hovered)
        if frame.settings.trains_graph:
            self._graph_due = frame
            if not graph_later:
                self.paint_graph()
        else:
            self._graph_due = None
            self.network_view.show_picture(network_picture(frame))

    def paint_graph(self) -> bool:
        """The trained graph's cards of the last frame, if not shown yet; whether it drew them."""
        frame, self._graph_due = self._graph_due, None
        if frame is None:
            return False
        self.graph_view.show_frame(frame)
        return True

    def show_focus(self, frame: BoundaryFrame | None, hovered: tuple | None) -> None:
        """The hovered neuron's map (a graph's node's column) on the big plot, once the worker has drawn it; the
        output until then."""
        focus = frame.focus if frame is not None else None
        shown = None if focus is None else ((focus.node, focus.index) if focus.node else (focus.layer, focus.index))
        if hovered is None or shown != hovered:
            self.boundary_column.show_focus(None, "")
            return
        if focus.node:
            self.boundary_column.show_focus(focus, *self.graph_view.caption(focus))
            return
        title, levels = focus_caption(frame, *hovered)
        self.boundary_column.show_focus(focus, title, levels)

    def offer_progress(self, progress: Progress | None, lines_later: bool = False) -> None:
        """The latest report, for `paint_progress` to show when its time comes (at once when not running);
        the gradient health lines at once, a picture like the boundary (when they are shown), or with
        ``lines_later`` once the frame being painted is (`paint_lines`)."""
        self.readouts.offer(progress, urgent=progress is None or not progress.running)
        health_plot = self.curves.gradient_health
        if health_plot.isVisible() or progress is None or not progress.running:
            self._lines_due = progress
            if not lines_later:
                self.paint_lines()

    def paint_lines(self) -> bool:
        """The gradient health lines of the last report offered, if not shown yet; whether it drew them."""
        if self._lines_due is NOTHING:
            return False
        progress, self._lines_due = self._lines_due, NOTHING
        self.curves.gradient_health.show_lines(progress.health if progress is not None else None)
        return True

    def paint_progress(self, force: bool = False) -> str | None:
        """The report due, on the toolbar, the figures and the summary together; the summary if it changed."""
        progress = self.readouts.due(force)
        if progress is NOTHING:
            return None
        metrics = progress.metrics if progress else None
        self.toolbar.show_progress(metrics, progress.steps_per_second if progress else None)
        self.curves.show_figures(progress)
        summary = summary_text(metrics)
        if summary == self.summary:
            return None
        self.summary = summary
        return summary

    def paint_curves(self, drew_boundary: bool, force: bool = False) -> bool:
        """The curve plot that is behind, when its turn has come (all of them with ``force``); whether it
        drew one."""
        since = time.perf_counter() - self._last_curve_draw
        due = since >= CURVE_REDRAW_S and (not drew_boundary or since >= 3 * CURVE_REDRAW_S)
        if self.curves.behind and (force or due):
            self._last_curve_draw = time.perf_counter()
            self.curves.draw_behind(every=force)
            return True
        return False

    def paint_next_pass(self) -> bool:
        """A frame's next pass, once what the last one drew is on screen and while the worker still waits: a
        trained graph's cards, else the gradient health lines and a curve plot when its turn has come (drawn once
        the worker trained again, beside it, a curve plot took 4-6 ms instead of 1-2). Whether it drew anything."""
        if self.paint_graph():
            return True
        lines = self.paint_lines()
        curves = self.paint_curves(drew_boundary=False)
        return lines or curves
