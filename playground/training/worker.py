"""Training off the GUI thread: QObject workers that live in a QThread and talk only through signals.

A worker owns its `TrainingSession` (only its thread touches it), runs a chunk of steps on
each tick of a timer in its own thread (as many as the pace asks for since the last tick, or as
many as fit before the next picture is due at "Fastest"), checks a stop flag before every step, and emits
copies: progress after every chunk, the decision boundary at most `FRAME_RATE` times a second. It
never touches a widget. Requests arrive as queued calls (slots run in the worker's thread,
between chunks); `request_stop()` is the one thing called directly from the GUI thread, to
make a pause take effect at the next step rather than at the end of the chunk. While a run goes on, each
frame's pictures are drawn in a process of its own (`model.plane_process`) while the GUI paints the one before;
until that process is up, or if it fails, this thread draws them. The thread plumbing is `worker_threads`; the
optimizer race's worker is `race_worker`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace

import numpy as np
from PySide6.QtCore import Signal, Slot

from ..graph.network import GraphProblem
from ..graph.trained import TrainedNumbers
from .model.gradient_log import HealthFrame
from .model.grid import FocusMap, PlaneDrawing
from .model.network import parameter_name
from .model.neuron_images import NeuronImages
from .model.plane_process import (
    LayerColours,
    NodeColours,
    PlaneJob,
    PlanePictures,
    claim_painter,
    pictures,
    release_painter,
    warm_up_painter,
)
from .model.points import SplitData
from .model.run_history import StepLosses
from .model.session import Metrics, TrainingSession
from .model.settings import Change, TrainingSettings
from .model.setup_file import TrainingSetup, capture, restore
from .model.wire_schedule import WireSchedule
from .model.wires import WireLayout
from .worker_threads import TICK_MS, ThreadedWorker, guarded

CHUNK_BUDGET_S = 0.005  # a chunk of steps at a pace ends after this long: pictures go out between chunks
MIN_CHUNK_S = 0.001   # "Fastest": a chunk lasts until the next picture is due, and at least this long
MAX_OWED_TICKS = 2.0    # a pace the machine cannot keep is slowed, not caught up with in ever longer chunks
FRAME_RATE = 60.0     # boundary images at most this often: a display's refresh rate
FRAME_MARGIN_S = 0.004  # a chunk ends this long before the picture is due: the last step and the report
# A picture is due this long after the last one began: a tick late or early still makes one per tick.
FRAME_DUE_S = 0.8 / FRAME_RATE
GRADIENT_RATE = 5.0   # while running, the hover readout's gradients at most this often (paused: every frame)
PAINT_WAIT_S = 0.030   # the longest the training thread waits for a frame to be painted


@dataclass(frozen=True)
class Progress:
    """Where training stands after a chunk; `run` changes whenever the network is rebuilt."""

    run: int
    metrics: Metrics
    steps_per_second: float
    running: bool
    health: HealthFrame | None = None  # the gradient health plot's figures (copies)
    # Every step's own loss since the last report, in the order the steps were taken (the curves hold them all:
    # at "Fastest" a report comes every twenty steps or so, and a blow-up can begin and end between two).
    losses: tuple[StepLosses, ...] = ()


@dataclass(frozen=True)
class BoundaryFrame:
    """One picture of the network: the plane through its weights (boundary and every neuron's map, from
    one pass over the grid), the weights themselves and their gradients, all copies."""

    run: int
    step: int
    drawing: PlaneDrawing
    extent: tuple[float, float, float, float]  # the plane the pictures cover: the data's square and around it
    misclassified: np.ndarray        # (k, 2) points the network gets wrong
    state: dict[str, np.ndarray]     # the weights this image was drawn with (diagram, JSON export)
    gradients: dict[str, np.ndarray]  # d(loss)/d(weight) over the training set at those weights
    settings: TrainingSettings
    classes: tuple[str, ...]         # the name of each label
    wires: tuple[int, np.ndarray] | None = None  # the diagram's wires, drawn for layout serial: (serial, RGBA)
    images: NeuronImages | None = None  # the diagram's maps and biases in colour
    # A graph's: each per-point node's maps in colour, node id -> (columns, r, r) uint32 0xffRRGGBB, row 0 on top.
    node_images: dict[str, np.ndarray] | None = None
    # A graph's: every node's and wire's numbers at those weights (what the editor shows of the trained network).
    trained: TrainedNumbers | None = None

    @property
    def probability(self) -> np.ndarray:
        """(R, R) P(class 1), row i at the i-th y; for k classes (k, R, R)."""
        return self.drawing.probability

    @property
    def contour(self) -> tuple[np.ndarray, np.ndarray]:
        """The p = 0.5 line, or the lines between classes, as segments (x, y pairs)."""
        return self.drawing.contour

    @property
    def focus(self) -> FocusMap | None:
        return self.drawing.focus


@dataclass(frozen=True)
class _FrameToCome:
    """A frame whose pictures the plane's process is drawing: its job, and the figures taken with its weights."""

    serial: int
    run: int
    grid: object
    frame: BoundaryFrame


@dataclass(frozen=True)
class DataFrame:
    data: SplitData
    settings: TrainingSettings


@dataclass
class _SetupRequest:
    with_weights: bool
    done: threading.Event = field(default_factory=threading.Event)
    setup: TrainingSetup | None = None
    error: Exception | None = None
    anchor: bool = True
    answer: object | None = None  # `setup_later`'s: called in the GUI thread with the request once answered


class TrainingWorker(ThreadedWorker):
    """Drives one `TrainingSession` in its thread."""

    progressed = Signal(object)       # Progress, every tick and after every change
    boundary_updated = Signal(object)  # BoundaryFrame, at most FRAME_RATE a second
    data_changed = Signal(object)     # DataFrame: the points, after a rebuild or an added point
    model_reset = Signal(int, str)    # new run id, why
    settings_applied = Signal(object, object)  # TrainingSettings, Change
    diverged = Signal(str)            # message; training has paused
    stalled = Signal(str)             # message: the run goes nowhere (training goes on)
    stop_reached = Signal(str)        # message: the stop condition is met; training has paused
    paused = Signal()                 # a run has stopped (pause, divergence, failure)
    graph_refused = Signal(str)       # why the graph cannot be trained (nothing changed)
    _setup_asked = Signal(object)     # a _SetupRequest, from `setup_now` in another thread
    setup_answered = Signal(object)   # a _SetupRequest of `setup_later`, answered (its `answer` is called)

    def __init__(self, settings: TrainingSettings | None = None, resolution: int = 150):
        super().__init__()
        self.session = TrainingSession(settings, resolution=resolution)
        self._run = 0
        self._last_frame = 0.0
        self._rate_window: deque[tuple[float, int]] = deque()
        self._owed = 0.0              # steps the pace asks for and not yet taken
        self._last_tick = 0.0
        self._focus: tuple | None = None  # drawn at full resolution: (layer, neuron), or a graph's (node, column)
        self._dark = False            # the theme the diagram's maps are coloured for
        self.wires = WireSchedule()   # when the layer form's diagram gets new wires
        self._sent_state: dict[str, np.ndarray] | None = None  # the weights of the last frame sent
        # Set by the GUI thread once it has painted the last frame sent while running (`_let_it_be_painted`);
        # a worker with no one painting its frames (a test, a script) does not wait.
        self.painted = threading.Event()
        self.paint_handshake = False
        self._gradients: tuple[float, dict] = (0.0, {})  # when they were last computed, and what they were
        self._trained: TrainedNumbers | None = None  # a graph's numbers, computed with those gradients
        self._losses: list[StepLosses] = []  # the steps' own losses not yet reported
        # While running, the next frame's pictures are drawn in a process of their own (`plane_process`) as
        # the last one is painted: the painter while this worker has it, and the frame it is drawing.
        self._painter = None
        self._drawing: _FrameToCome | None = None
        self._setup_asked.connect(self._on_setup_asked)

    def setup_now(self, with_weights: bool = True, timeout: float = 10.0) -> TrainingSetup:
        """The run as it stands, for a file: called from the GUI thread, answered by the worker's thread
        between two of its steps (so the weights, the step and the optimizer's state belong together)."""
        request = _SetupRequest(with_weights)
        self._setup_asked.emit(request)
        if not request.done.wait(timeout):
            raise TimeoutError("the training thread did not answer")
        if request.error is not None:
            raise request.error
        return request.setup

    def setup_later(self, answer, with_weights: bool = True) -> None:
        """The run as it stands, without waiting for it: ``answer(setup)`` is called in the asking (GUI) thread
        once the worker's thread has taken it between two of its steps (the autosave: never a stall). The
        minibatch order is left as it is (`setup_file.capture`'s ``anchor``). Nothing is called if the worker
        has stopped."""
        request = _SetupRequest(with_weights, anchor=False, answer=answer)
        self._setup_asked.emit(request)

    @Slot(object)
    def _on_setup_asked(self, request: _SetupRequest) -> None:
        try:
            request.setup = capture(self.session, request.with_weights, request.anchor)
        except Exception as error:  # handed to the asking thread, which reports it
            request.error = error
        finally:
            request.done.set()
        if request.answer is not None:
            self.setup_answered.emit(request)

    @Slot(object)
    @guarded
    def load_setup(self, setup: TrainingSetup) -> None:
        """Go on from a saved setup: its data, network, step and optimizer state (a new run), drawn for the
        plot's shape as before (the panel sends the aspect only when the plot changes shape)."""
        self.session = restore(setup, self.session.resolution, self.session.aspect)
        self._after_rebuild("setup")
        self.settings_applied.emit(self.session.settings, Change.DATA)

    @Slot()
    def finish(self) -> None:
        self._let_go_of_painter()
        super().finish()

    # -- requests (queued slots: they run in the worker's thread) --

    @Slot()
    @guarded
    def publish(self) -> None:
        """Send everything: the points, a boundary image and the figures (at start-up)."""
        self._emit_data()
        self._emit_progress()
        self._emit_frame()
        warm_up_painter()

    @Slot()
    @guarded
    def start(self) -> None:
        self._running = True
        self._rate_window.clear()
        self.session.arm_stop()
        self._owed, self._last_tick = 1.0, time.perf_counter()  # the first tick takes a step at once
        self._painter = claim_painter(self)  # (until its process is up, this thread draws)
        self._timer.start()

    @Slot()
    @guarded
    def pause(self) -> None:
        was_running = self._timer.isActive()
        self._running = False
        self._timer.stop()
        self._emit_progress()
        self._emit_frame()
        if was_running:
            self.paused.emit()

    @Slot()
    @guarded
    def step_once(self) -> None:
        if self._timer.isActive():
            return
        self._train(1)
        self._emit_progress()
        self._emit_frame()

    @Slot()
    @guarded
    def reset(self) -> None:
        self.session.reset()
        self._after_rebuild("reset")

    @Slot(object)
    @guarded
    def apply_settings(self, settings: TrainingSettings) -> None:
        try:
            change = self.session.apply(settings)
        except GraphProblem as problem:  # the graph cannot be trained with these: nothing changed
            self.graph_refused.emit(str(problem))
            self.settings_applied.emit(self.session.settings, Change.NONE)
            return
        if change.resets_weights:
            self._after_rebuild("data" if change == Change.DATA else "model")
        elif change != Change.NONE:
            self._emit_progress()
        self.settings_applied.emit(self.session.settings, change)

    @Slot(object, object, str, object)
    @guarded
    def set_points(self, X: np.ndarray, y: np.ndarray, name: str, classes=None) -> None:
        change = self.session.set_points(X, y, name, classes)
        self._after_rebuild("data")
        self.settings_applied.emit(self.session.settings, change)

    @Slot(object, object, str)
    @guarded
    def set_values(self, X: np.ndarray, y: np.ndarray, name: str) -> None:
        """A regression on a person's CSV of real values."""
        change = self.session.set_values(X, y, name)
        self._after_rebuild("data")
        self.settings_applied.emit(self.session.settings, change)

    @Slot(float, float, int)
    @guarded
    def add_point(self, x1: float, x2: float, label: int) -> None:
        self.session.add_point(x1, x2, label)
        self._emit_data()
        self._emit_progress()
        self._emit_frame()

    @Slot(int, int)
    @guarded
    def set_focus(self, layer: int, index: int) -> None:
        """Draw neuron ``index`` of ``layer`` at full resolution in every frame (layer < 0: none)."""
        self._focus = (layer, index) if layer >= 0 else None
        if not self._timer.isActive():
            self._emit_frame()

    @Slot(str, int)
    @guarded
    def set_graph_focus(self, node_id: str, column: int) -> None:
        """Draw column ``column`` of the graph's node ``node_id`` at full resolution in every frame ("": none)."""
        self._focus = (node_id, column) if node_id else None
        if not self._timer.isActive():
            self._emit_frame()

    @Slot(object)
    @guarded
    def set_graph(self, document) -> None:
        """The editor's graph (a copy only this thread touches), trained from its drawn values when the settings
        say so; refused with `graph_refused`, changing nothing, if it cannot be trained."""
        try:
            change = self.session.set_graph(document)
        except GraphProblem as problem:
            self.graph_refused.emit(str(problem))
            return
        self._focus = None
        if change.resets_weights:
            self._after_rebuild("graph")
        self.settings_applied.emit(self.session.settings, change)

    @Slot(bool)
    @guarded
    def set_dark(self, dark: bool) -> None:
        """Colour the diagram's maps for the dark (or light) theme from now on."""
        self._dark = bool(dark)
        if not self._timer.isActive():
            self._emit_frame()

    @Slot(float)
    @guarded
    def set_aspect(self, aspect: float) -> None:
        """The boundary plot's shape (width / height): the plane is drawn to fill it."""
        if self.session.set_aspect(aspect) and not self._timer.isActive():
            self._emit_frame()

    @Slot(object)
    @guarded
    def set_wire_layout(self, layout: WireLayout) -> None:
        """Where the diagram's wires run now; the next frame brings them drawn."""
        self.wires.layout = layout
        if not self._timer.isActive():
            self._emit_frame()

    @Slot(int, str, object, float)
    @guarded
    def set_parameter(self, run: int, name: str, index: tuple, value: float) -> None:
        """One weight typed by a person, for the network of run ``run`` (a later network ignores it)."""
        if run != self._run:
            return
        self.session.set_parameter(name, index, value)
        self._emit_progress()
        self._emit_frame()

    # -- the run --

    @guarded
    def _on_timer_timeout(self) -> None:
        if not self._running:
            self._timer.stop()
            return
        pace = self.session.settings.steps_per_second
        now = time.perf_counter()
        if pace is None:  # train until the next picture is due: one a display frame (at least `MIN_CHUNK_S`)
            deadline = max(now + MIN_CHUNK_S, self._last_frame + 1.0 / FRAME_RATE - FRAME_MARGIN_S)
        else:  # the steps the pace asks for, within the chunk's budget: a picture after each chunk
            deadline = now + CHUNK_BUDGET_S
        if pace is None:
            count = 1_000_000
        else:
            limit = max(2.0, pace * MAX_OWED_TICKS * TICK_MS / 1000)  # never below one step and its fraction
            self._owed = min(self._owed + pace * (now - self._last_tick), limit)
            count = int(self._owed)
        taken = self._train(count, lambda: not self._running or time.perf_counter() >= deadline) if count else 0
        if pace is not None:
            self._owed -= taken
        self._last_tick = now
        # A frame whose pictures the process is drawing goes out at the next tick, steps or not (at a slow pace
        # the next step may be a second away).
        if self._running and (taken or self._drawing is not None):
            if taken:
                self._emit_progress()
            if time.perf_counter() - self._last_frame >= FRAME_DUE_S and not self._frame_from_process():
                self.painted.clear()
                self._emit_frame()
                self._let_it_be_painted()
                self._draw_wires_if_due()
        elif not self._running:
            self._let_go_of_painter()
        # Fastest: the next chunk as soon as the requests queued meanwhile have run; a pace: every tick.
        interval = 0 if pace is None else TICK_MS
        if self._timer.interval() != interval:
            self._timer.setInterval(interval)

    def _frame_from_process(self) -> bool:
        """While the plane's process is there: send the frame it has drawn, and at once the weights of the next,
        drawn there while this one is painted; True when that was done (or the process is still drawing and
        training goes on meanwhile), False when this thread should draw the frame itself."""
        painter = self._painter
        if painter is None or not painter.ready:
            return False
        coming = self._drawing
        if coming is None:
            self._send_to_process()
            return self._drawing is not None
        done = painter.take(coming.serial)
        if done is None:
            if painter.broken:
                self._drawing = None
                return False
            return True
        self._drawing = None
        if done.drawing is None or coming.run != self._run or coming.grid is not self.session.grid:
            return False  # it failed there (drawn here, a failure reported), or the network changed meanwhile
        if self.session.step != coming.frame.step:  # the next, drawn while this one is painted (sent first:
            self._send_to_process()                 # the painting would hold this thread up)
        self.wires.drawn_there(done.wires, done.wire_seconds)  # drawn there too (11 ms here, a frame's worth)
        self.painted.clear()
        self._send_frame(coming.frame, done)
        self._let_it_be_painted()
        return True

    def _send_to_process(self) -> None:
        session = self.session
        job, figures = self._job(), self._frame_figures()
        self._last_frame = time.perf_counter()
        wires = self.wires.job(session.settings, figures.state)
        serial = self._painter.submit(session.grid, job.weights, job.focus, job.colours, wires)
        if serial is not None:
            self._drawing = _FrameToCome(serial, self._run, session.grid, figures)

    def _let_go_of_painter(self) -> None:
        """A run has ended: the frame drawn for it is no longer wanted, and another run may have the process."""
        self._drawing = None
        if self._painter is not None:
            release_painter(self)
            self._painter = None

    def _draw_wires_if_due(self) -> None:
        """Once the frame just sent is painted, the wires for its weights when they are due; they go out
        with the next frame. They take the training's share of the frame: drawn within the frame they
        made every sixth frame of the default network a third late, and drawn while the GUI thread
        painted, its picture twice as long."""
        self.wires.draw_if_due(self.session.settings, self._sent_state)

    def _let_it_be_painted(self) -> None:
        """Wait (at most `PAINT_WAIT_S`) while the GUI thread paints the frame just sent.

        Both threads run Python, and only one at a time: the GUI thread takes the interpreter some twenty
        times a frame (a handler, each plot item's paint), and a training thread that never stops made each
        of those a wait (a picture of 5-7 ms took 25-40 ms). Waiting here, without the interpreter, lets the
        picture be painted in one go; the training thread then has the rest of the display frame."""
        if self.paint_handshake:
            self.painted.wait(PAINT_WAIT_S)

    def _train(self, count: int, should_stop=None) -> int:
        """Take up to ``count`` steps (the stop condition applies while running); the steps taken."""
        running = self._timer.isActive()
        result = self.session.train_steps(count, should_stop if running else None, stop_condition=running)
        if result.losses is not None and len(result.losses.losses):
            self._losses.append(result.losses)
        now = time.perf_counter()
        self._rate_window.append((now, self.session.step))
        while len(self._rate_window) > 2 and now - self._rate_window[0][0] > 1.0:
            self._rate_window.popleft()
        if result.divergence is not None:
            was_running = self._timer.isActive()
            self._running = False
            self._timer.stop()
            self._emit_progress()
            self._emit_frame()
            self.diverged.emit(result.divergence.message())
            if was_running:
                self.paused.emit()
        elif result.stopped is not None:
            self._running = False
            self._timer.stop()
            self._emit_progress()
            self._emit_frame()
            self.stop_reached.emit(result.stopped.message())
            self.paused.emit()
        if result.stall is not None:
            self.stalled.emit(result.stall.message())
        return result.steps

    def _steps_per_second(self) -> float:
        if not self._running or len(self._rate_window) < 2:
            return 0.0
        (t0, s0), (t1, s1) = self._rate_window[0], self._rate_window[-1]
        return (s1 - s0) / (t1 - t0) if t1 > t0 else 0.0

    def _after_rebuild(self, why: str) -> None:
        self._run += 1
        self._gradients = (0.0, {})  # of the network that is gone
        self._trained = None
        self._losses.clear()
        self._sent_state = None
        self.wires.forget()
        self._rate_window.clear()
        self.model_reset.emit(self._run, why)
        self._emit_data()
        self._emit_progress()
        self._emit_frame()

    # -- what goes out: copies only --

    def _emit_data(self) -> None:
        self.data_changed.emit(DataFrame(self.session.data.copy(), self.session.settings))

    def _emit_progress(self) -> None:
        losses, self._losses = tuple(self._losses), []
        self.progressed.emit(Progress(self._run, self.session.evaluate(), self._steps_per_second(), self._running,
                                      self.session.health(), losses))

    def _emit_frame(self) -> None:
        """A frame of the weights as they are now, drawn in this thread (a frame the process was drawing is
        no longer wanted)."""
        self._drawing = None
        self._last_frame = time.perf_counter()
        self._send_frame(self._frame_figures(), pictures(self.session.grid, self._job()))
        if not self._timer.isActive():  # a run has ended (paused, stopped, diverged) or none is on
            self._let_go_of_painter()

    def _job(self) -> PlaneJob:
        """What the plane's pictures are drawn from: the current weights, the focus, how to colour the maps."""
        session = self.session
        graph = session.settings.trains_graph
        focus = self._focus if self._focus is None or isinstance(self._focus[0], str) == graph else None
        if graph:
            plan, document = session.model.plan, session.model.document
            kinds = {node_id: document.node(node_id).kind for node_id in plan.per_point}
            colours = NodeColours(kinds, plan.output, not session.settings.regression, self._dark)
        else:
            named = dict(session.model.named_parameters())
            colours = LayerColours(tuple(named[parameter_name(layer, "bias")].data
                                         for layer in range(1, len(session.settings.layer_sizes))), self._dark)
        return PlaneJob(0, None, tuple(parameter.data for parameter in session.model.parameters()), focus, colours)

    def _frame_figures(self) -> BoundaryFrame:
        """Everything a frame says but its pictures, at the current weights (copies)."""
        session = self.session
        gradients = self._current_gradients()
        return BoundaryFrame(self._run, session.step, None, session.grid.view_extent, session.misclassified(),
                             session.state_dict(), gradients, session.settings, session.data.classes,
                             trained=self._trained if session.settings.trains_graph else None)

    def _send_frame(self, figures: BoundaryFrame, drawn: PlanePictures) -> None:
        self._sent_state = figures.state
        wires = self.wires.for_frame(figures.settings, figures.state, self._timer.isActive())
        self.boundary_updated.emit(replace(figures, drawing=drawn.drawing, wires=wires, images=drawn.images,
                                           node_images=drawn.node_images))

    def _current_gradients(self) -> dict[str, np.ndarray]:
        """The gradients at the current weights: fresh when paused, at most `GRADIENT_RATE` a second while
        running (a readout a person hovers changes faster than anyone reads it)."""
        computed_at, gradients = self._gradients
        now = time.perf_counter()
        if not self._timer.isActive() or now - computed_at >= 1.0 / GRADIENT_RATE or not gradients:
            session = self.session
            if session.settings.trains_graph:  # one backward pass gives the editor every node's and wire's numbers
                self._trained = session.trained_numbers()
                names = session.model.plan.parameter_names
                gradients = {names[node_id]: self._trained.grads[node_id] for node_id in names}
            else:
                gradients = session.gradients()
            self._gradients = (now, gradients)
        return gradients
