"""The backward animator tab: play the forward and the backward pass of a graph one step at a time.

It animates its own copy of the editor's graph or a snapshot of the training network on one batch
(a tensor graph). It composes its rooms (laid out by `arrangement`, where the step panel gives way to
the graph when the window is narrow): the graph in a read-only `AnimatorScene` that a `SceneSync`
recolours as a `Timeline` (the Qt-free model) moves; the `StepPanel` with the step's arithmetic and
the list of steps; the `PlaybackControls`; a pitfall's replay (`PitfallView`); Predict mode
(`PredictBox`); the `QuizHiding` that keeps Predict's or a lesson's answers hidden until given; the
`Playback` that moves in time and plays; the `GraphFollowing` that reloads on each edit of the editor's
graph; the `StepText` that writes the step box. The panel itself loads what is animated and ties the
rooms together.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Signal
from PySide6.QtWidgets import QWidget

from ..canvas.view import GraphView
from ..graph.concealment import NOTHING_CONCEALED
from ..graph.document import GraphDocument, maths_of
from ..widgets.errors import guarded, report_handled
from .arrangement import STEPS_WIDTH, arrange, legend_label, message_label, source_combo
from .colors import PHASE_COLORS, legend_html
from .controls import PlaybackControls
from .exporting import AnimationExporter
from .following import GraphFollowing
from .forward_view import FORWARD_SOURCE
from .hiding import QuizHiding
from .model.editor_tensors import document_animation
from .model.predict import PredictQuiz
from .model.tensor_hiding import replay_ids
from .model.tensor_timeline import TensorAnimation, graph_animation, tensor_animation
from .model.timeline import DocumentAnimation, Timeline, terms
from .pitfall_view import PitfallView
from .playback import Playback
from .player import SPEEDS
from .predict_view import PredictBox
from .scene import AnimatorScene
from .scene_sync import SceneSync
from .step_panel import EXPLANATION_LINES, StepPanel
from .step_reading import StepReading
from .step_text import START_TEXT, StepText
from .view_fit import ViewFit

__all__ = ["SPEEDS", "START_TEXT", "AnimatorPanel"]  # SPEEDS: for bench/animator_speed.py

PAIRED_LINES = 15  # the step box then explains both replays
PAIRED_CLASS_ZOOM = 1.0  # a pitfall's two graphs in presentation mode: card text at least its 11 px at 100%
EMPTY_TEXT = "Build a graph in the editor, then watch backpropagation here one step at a time."
SOURCES = {"graph": "The editor's graph", "network": "The training network (one batch)"}
PYTHON_SOURCE = ("python", "A tensor result from Python")  # offered once playground.show() has sent one


class AnimatorPanel(QWidget):
    """Steps through the forward and backward pass of a graph; see the module docstring."""

    status_message = Signal(str)
    concealment_changed = Signal(object)  # an editor Concealment: what the editor's cards must hide as well
    step_reached = Signal(int)  # the new position (0 = before the first frame)
    network_requested = Signal()  # the person chose the training network: the main window sends a snapshot
    hiding_applied = Signal()  # what a quiz hides was worked out again (an answer may have revealed a step)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("animatorPanel")
        self._document = GraphDocument()  # the panel's own copy of the graph it animates
        self._animation: DocumentAnimation | TensorAnimation | None = None
        self._source = "graph"  # what is shown: "graph" (the editor's), "network" (the training panel's), "python"
        self._python_result = None  # the tensor playground.show() sent, if any
        self._concealment = NOTHING_CONCEALED  # what the editor was last told to hide
        self.maths: tuple | None = None  # the maths of the editor's graph last loaded (None: load it afresh)
        self._dark = False
        self._text_scale = 1.0  # presentation mode's zoom

        self.scene = AnimatorScene(parent=self)
        self.view = GraphView(self.scene)
        self.view.setObjectName("animatorView")
        self.view.setAccessibleName("The animated graph")
        self.view.setDragMode(GraphView.DragMode.ScrollHandDrag)
        self.view.set_minimap_visible(False)
        self.view.setToolTip("")
        self.sync = SceneSync(self.scene, self.view)
        self.fitting = ViewFit(self.view, self.scene, focus=self.sync.in_sight_order)
        self.steps = StepPanel(PHASE_COLORS)
        self.controls = PlaybackControls()
        self.pitfalls = PitfallView()
        self.predict = PredictBox()

        self.message = message_label()
        self.source_combo = source_combo(SOURCES)
        self.legend = legend_label()
        self.hiding = QuizHiding(self.steps, self.sync, self.predict)
        self.text = StepText(self)
        self.reading = StepReading(self.steps, self.view, self)  # each step's words, for a screen reader

        self.playback = Playback(self)  # moving in time: the transport, the keys, the clock
        self.player = self.playback.player
        self.following = GraphFollowing(self)  # the editor's graph, reloaded on each edit
        self.follower = self.following.follower
        self.exporter = AnimationExporter(self, self)
        self.exporter.status_message.connect(self.status_message)

        self._graphs = arrange(self)  # the graph on the left, the steps on the right, the controls below

        controls = self.controls
        controls.export_gif_chosen.connect(self.exporter.ask_and_export_gif)
        controls.export_frames_chosen.connect(self.exporter.ask_and_export_frames)
        self.steps.step_clicked.connect(self._on_step_clicked)
        self.pitfalls.combo.activated.connect(self._on_pitfall_combo_activated)
        self.pitfalls.part_requested.connect(self._on_step_clicked)
        self.view.zoom_changed.connect(self.pitfalls.follow_zoom)
        self.predict.reveal_requested.connect(self._on_step_clicked)
        self.predict.hiding_changed.connect(self._on_predict_hiding_changed)
        self.predict.status_message.connect(self.status_message)
        self.source_combo.activated.connect(self._on_source_combo_activated)
        self.fitting.node_clicked.connect(self._on_node_clicked)
        self.setFocusProxy(self.view)
        self._show_nothing(EMPTY_TEXT)

    # -- state -----------------------------------------------------------------------------

    @property
    def _timeline(self) -> Timeline | None:
        return self._animation.timeline if self._animation is not None else None

    @property
    def timeline(self) -> Timeline | None:
        return self._timeline

    @property
    def animation(self) -> DocumentAnimation | TensorAnimation | None:
        return self._animation

    @property
    def source(self) -> str:
        """What is animated: "graph" (the editor's graph), "network" (the training network) or "python"
        (a tensor result sent by ``playground.show``)."""
        return self._source

    @property
    def document(self) -> GraphDocument:
        """The panel's own copy of the graph it animates."""
        return self._document

    @property
    def position(self) -> int:
        return self._timeline.position if self._timeline is not None else 0

    @property
    def frame_count(self) -> int:
        return len(self._timeline) if self._timeline is not None else 0

    @property
    def is_playing(self) -> bool:
        return self.player.is_playing

    @property
    def speed(self) -> float | None:
        """Steps per second; None: as fast as the event loop allows."""
        return self.player.speed

    @property
    def is_stale(self) -> bool:
        return self.following.stale

    # -- loading ---------------------------------------------------------------------------

    def load(self, document: GraphDocument, build=None, source: str = "graph") -> bool:
        """Animate a copy of ``document`` from the start, as ``build(copy)`` makes it (default: the backward
        pass, `DocumentAnimation`; forward mode gives its own); False (and a message) if it cannot be."""
        self.pause()
        try:
            copy = document.copy()
        except ValueError as error:  # DocumentFormatError: what is shown stays as it was
            self.status_message.emit(f"Backward animator: {error}")
            return False
        self._document, self.maths = copy, maths_of(copy)
        if copy.is_tensor_graph:  # at tensor level, replaying the editor's graph as engine tensors
            build = build or document_animation
            return self.show_tensor_animation(lambda: build(copy), source, "this graph")
        self._set_source(source)
        self.scene.show_document(copy)
        build = build or (lambda copy: DocumentAnimation(copy, self.pitfalls.prepare(copy)))
        return self._start(lambda: build(copy), len(copy.nodes), "this graph")

    def load_network(self, model, loss_fn, X, y, description: str = "the network") -> bool:
        """Animate one batch through a network: ``model`` on the inputs ``X``, then ``loss_fn(logits, y)``,
        at tensor level (each layer a node showing shapes and gradient norms), replaying the engine's
        ``Tensor.backward_steps()``. ``model`` should be a copy: its ``.grad``s are filled. False (and a
        message) if it cannot be; what was shown then stays."""
        return self.show_tensor_animation(lambda: tensor_animation(model, loss_fn, X, y), "network", description)

    def load_tensor_result(self, result, description: str = "the tensor from Python") -> bool:
        """Animate whatever the scalar tensor ``result`` was computed from (``playground.show(loss)``), at
        tensor level; its leaves' ``.grad``s stay as they were. False (and a message) if it cannot be."""
        if self.source_combo.findData(PYTHON_SOURCE[0]) < 0:
            self.source_combo.addItem(PYTHON_SOURCE[1], PYTHON_SOURCE[0])
        self._python_result = result
        return self.show_tensor_animation(lambda: graph_animation(result), PYTHON_SOURCE[0], description)

    def show_tensor_animation(self, build, source: str, description: str) -> bool:
        self.pause()
        try:
            animation = build()
        except Exception as error:  # a bad snapshot or result must not take the panel down
            if not isinstance(error, (TypeError, ValueError)):
                report_handled(error, f"building the animation of {description}")
            self.status_message.emit(f"Backward animator: can't animate {description} "
                                     f"({type(error).__name__}: {error})")
            self._set_source(self._source)
            return False
        self._set_source(source)
        self.pitfalls.choose(None)  # the replays work on the editor's graphs: the combo says so
        self.pitfalls.clear()
        if self.followed_document is not None:  # from now on, only an edit of the editor's graph brings it back
            self.maths, self.following.stale = maths_of(self.followed_document), False
        self.scene.show_tensor_graph(animation)
        loaded = self._start(lambda: animation, len(animation.nodes), description)
        if loaded:
            self.status_message.emit(f"Backward animator: {description}, {len(animation.timeline)} steps")
        return loaded

    def _start(self, build, node_count: int, what: str) -> bool:
        """Show the animation ``build()`` makes for the graph just drawn, at its start."""
        self._animation = None
        self.sync.start(None)  # the scene was redrawn: nothing is selected
        self.fitting.new_graph(node_count)
        try:
            animation = build()
        except ValueError as error:
            self._show_nothing(f"Can't animate {what}: {error}.", error=True)
            self.status_message.emit(f"Backward animator: {error}")
            self.fitting.fit()
            return False
        except Exception as error:  # a bug must not take the panel down: say so and show nothing
            report_handled(error, "building the timeline")
            self._show_nothing(f"Can't animate {what} ({type(error).__name__}: {error}).", error=True)
            self.fitting.fit()
            return False
        self._animation = animation
        timeline = animation.timeline
        self.message.setVisible(False)
        self.steps.show_frames(timeline.frames)
        self.steps.mark_row(self.pitfalls.parting_position, "the replays part here")
        two = self.pitfalls.animation is not None  # the correct replay above, the mistaken one below, alike
        if two:
            self._graphs.setSizes([1, 1])
        self.steps.set_explanation_lines(PAIRED_LINES if two else EXPLANATION_LINES)
        self._frame(two)
        self.fitting.fit_soon()  # again once the two views have their sizes
        self.predict.set_quiz(PredictQuiz(timeline, terms(self._document))
                              if isinstance(animation, DocumentAnimation) else None)
        self.controls.set_frame_count(len(timeline))
        self._set_controls_enabled(True)
        self.sync.start(animation)
        self.hiding.forget()  # fresh rows: hide on them what Predict or a lesson's exercise hides
        self._apply_hiding()
        self.refresh_text()
        self.fitting.fit()
        self.status_message.emit(f"Backward animator: {len(timeline)} steps "
                                 f"({sum(f.phase == 'forward' for f in timeline.frames)} forward, "
                                 f"{sum(f.phase != 'forward' for f in timeline.frames)} backward)")
        self.step_reached.emit(0)
        return True

    def _set_source(self, source: str) -> None:
        self._source = source
        index = self.source_combo.findData(source)
        if self.source_combo.currentIndex() != index:
            with QSignalBlocker(self.source_combo):
                self.source_combo.setCurrentIndex(index)

    def follow(self, document: GraphDocument | None) -> None:
        """Animate ``document`` and start again from its first step whenever it changes (see `GraphFollowing`)."""
        self.following.follow(document)

    @property
    def followed_document(self) -> GraphDocument | None:
        return self.following.document

    def catch_up(self) -> None:
        """Show the followed graph's latest edit now, not at the next turn of the event loop."""
        self.following.catch_up()

    # -- moving in time --------------------------------------------------------------------

    def seek(self, position: int) -> set[str]:
        """Go to ``position`` (clamped to 0..frame count); returns the ids of the nodes whose display changed."""
        return self.playback.seek(position)

    def step_forward(self) -> bool:
        """One step on; False at the end, or when Predict mode asks for the step first (then it waits)."""
        return self.playback.step_forward()

    def step_back(self) -> bool:
        return self.playback.step_back()

    def first(self) -> None:
        self.playback.first()

    def last(self) -> None:
        self.playback.last()

    def play(self) -> None:
        """Step at the chosen speed until the last step (from the start if already at the end)."""
        self.playback.play()

    def pause(self) -> None:
        self.playback.pause()

    def toggle_play(self) -> None:
        self.playback.toggle_play()

    def set_speed_index(self, index: int) -> None:
        """Choose one of `SPEEDS` (0.25, 0.5, 1, 2, 4, 8 steps per second, then fastest)."""
        self.playback.set_speed_index(index)

    # -- quizzes and replays ---------------------------------------------------------------

    @guarded
    def _on_step_clicked(self, position: int) -> None:
        self.seek(position)

    @guarded
    def _on_pitfall_combo_activated(self, _index: int) -> None:
        if self._source != "graph":
            self.pitfalls.choose(None)
            self.status_message.emit("The pitfall replays work on the editor's graphs: choose it above first")
            return
        if self.load(self._document) and self.pitfalls.key is not None:
            self.status_message.emit(f"Pitfall replay: {self.pitfalls.replay.pitfall.title.lower()}, beside the "
                                     "correct pass")

    def set_pitfall(self, key: str | None) -> bool:
        """Replay the graph with the pitfall ``key`` (see `pitfalls.PITFALLS`; None: the engine's pass alone)."""
        if key is None and self.pitfalls.key is None:
            return self._animation is not None  # nothing to take away
        self.pitfalls.choose(key)
        self._on_pitfall_combo_activated(self.pitfalls.combo.currentIndex())
        return self.pitfalls.key == key and self._animation is not None

    def set_predict(self, on: bool) -> None:
        """Predict mode on or off (it works on scalar graphs: the editor's)."""
        self.predict.set_on(on)

    def hide_after(self, position: int | None, document: GraphDocument | None = None, asked=(), tangents=()) -> None:
        """A lesson's exercise on ``document`` (default: the graph shown now): while the animator shows that
        graph, the steps after ``position``, and those that hand a share of its gradient to a node in
        ``asked``, show "?" for their numbers (in the step list, the step box and on the cards; the
        inputs' values stay) until a later call reveals them; None: nothing is hidden for a lesson. ``tangents``:
        the (node, input) ids forward mode's questions still ask (their tangents show "?" in forward mode)."""
        self.hiding.hide_after(position, maths_of(document) if document is not None else self.maths, asked, tangents)
        self._apply_hiding()
        self.refresh_text()

    def ask_about(self, node_id: str | None, document: GraphDocument | None = None) -> None:
        """A lesson's question asks about the node ``node_id`` of ``document`` (default: the graph shown; None: no
        question waits): its card is panned the least into sight now, clear of the minimap, with the current
        step's card where both fit, and kept in sight beside the step's as the view is fitted or resized and the
        person moves in time, as long as the two fit together. Nothing is asked about while the animator shows
        another graph than ``document`` (as `hide_after` hides nothing there)."""
        on_it = document is None or maths_of(document) == self.maths
        self.sync.ask(self._card_id(node_id) if node_id is not None and on_it else None)

    def _card_id(self, node_id: str) -> str | None:
        """The scene's id for the node ``node_id`` of the editor's graph it shows (None: it shows another graph):
        the same id, but a tensor graph's replay has ids of its own, its cards titled as the graph names them."""
        if self._animation is None or self._source not in ("graph", FORWARD_SOURCE[0]):
            return None
        return replay_ids(self._animation, self._document).get(node_id) if self._document.is_tensor_graph else node_id

    @property
    def hidden_positions(self) -> frozenset[int]:
        """The steps whose numbers are hidden now (by Predict or a lesson's exercise)."""
        reveal = self.hiding.reveal
        return reveal.hidden if reveal is not None else frozenset()

    def _apply_hiding(self) -> None:
        if self._animation is not None:
            self.hiding.apply(self._animation, self._document, self.maths)
            self.pitfalls.conceal(self.hidden_positions, self._animation.timeline)  # the mistaken replay too
        concealment = self.hiding.concealment  # forward mode's, on the editor's graph
        if self._source == "graph":  # the editor's own graph: its cards hide the same numbers
            concealment = self.hiding.editor_concealment(self._animation, self._document)
        if concealment != self._concealment:  # the editor's cards hide what the animator hides
            self._concealment = concealment
            self.concealment_changed.emit(concealment)
        self.hiding_applied.emit()

    @guarded
    def _on_predict_hiding_changed(self) -> None:
        self._apply_hiding()
        self.refresh_text()

    @guarded
    def _on_source_combo_activated(self, index: int) -> None:
        source = self.source_combo.itemData(index)
        if source == self._source and self._animation is not None:
            return
        if source == "network":
            self.network_requested.emit()  # the main window answers with load_network()
            if self._source != "network":  # nobody did: show what is shown
                self._set_source(self._source)
        elif source == PYTHON_SOURCE[0]:
            self.load_tensor_result(self._python_result)
        elif self.followed_document is not None:
            self.load(self.followed_document)
        else:
            self._set_source("graph")
            self.load(self._document)

    def _recover(self, error: Exception) -> None:
        self.playback._recover(error)

    # -- events ----------------------------------------------------------------------------

    @guarded
    def _on_node_clicked(self, node_id: str) -> None:
        item = self.scene.node_item(node_id)
        name = item.display_name() if item is not None else node_id
        if self._timeline is None:
            return
        if node_id not in self._timeline.display:
            self.status_message.emit(f"{name} does not affect the output: it has no step")
            return
        self.seek(self._timeline.frame_of_node(node_id))
        self.status_message.emit(f"Went to the step of {name}")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        try:
            self.following.reload_if_stale()
        except Exception as error:
            report_handled(error, "reloading the animation")
            self._recover(error)
        self.fitting.fit_soon()

    def hideEvent(self, event) -> None:
        self.pause()
        super().hideEvent(event)

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: fit no smaller than ``factor`` times the readable zoom; a larger legend."""
        self._text_scale = float(factor)
        self.view.text_scale = self._text_scale  # the fit's upper limit grows too: cards really drawn larger
        self.legend.setText(legend_html(self._text_scale))
        self.give_way.set_width(self.steps, round(STEPS_WIDTH * self._text_scale))
        self.give_way.set_text_scale(self._text_scale)
        self._frame(self.pitfalls.animation is not None)
        self.fitting.auto = True
        self.fitting.fit_soon()

    def _frame(self, paired: bool) -> None:
        """Fit alone, or ``paired`` with a pitfall's replay below. Paired in presentation mode, the two graphs'
        card text is never fitted below its size at 100% (11 px: lesson 3 step 4 drew it at 7 beside the step
        panel, 9.9 without): they are panned over, following the step, and the step panel gives way to them."""
        self.fitting.frame(paired=paired, text_scale=self._text_scale)
        if paired and self._text_scale > 1.0:
            self.fitting.readable_zoom = max(self.fitting.readable_zoom, PAIRED_CLASS_ZOOM)
        self.give_way.set_least_zoom(self.fitting.readable_zoom if paired else 0.0)

    def set_theme(self, theme: str | bool) -> None:
        """One of the canvas's themes (`canvas.style.THEMES`), or True for dark and False for light."""
        self.scene.set_theme(theme)
        self._dark = self.scene.dark

    # -- drawing ---------------------------------------------------------------------------

    def _show_nothing(self, text: str, error: bool = False) -> None:
        """No timeline: the graph (if any) drawn plainly, the controls off, ``text`` said."""
        self._animation = None
        self.pause()
        self.pitfalls.clear()
        self.hiding.forget()
        self.sync.reveal = None
        self.predict.set_quiz(None)
        self.steps.clear_frames()
        self.controls.set_frame_count(0)
        self._set_controls_enabled(False)
        self.text.show_nothing(text, error)
        self.sync.show_plain()

    def _set_controls_enabled(self, enabled: bool) -> None:
        self.controls.set_controls_enabled(enabled)
        self.steps.step_list.setEnabled(enabled)

    def refresh_text(self) -> None:
        """Write the step box and the position for where the timeline is now."""
        self.text.refresh()
