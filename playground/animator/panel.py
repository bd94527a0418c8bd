"""The backward animator tab: play the forward and the backward pass of a graph one step at a time.

The panel animates either its own copy of the editor's graph document or a snapshot of the
training panel's network on one batch (a tensor graph). It draws the graph in a read-only
`AnimatorScene` and recolours the items as a `Timeline` (the Qt-free model) moves: each node's
colour says where it is in the pass, its card shows the value and gradient reached so far
(for tensors: shape and norms), and the wire the current backward step travels along is drawn
in the accent colour with the contribution it carries.

Stepping touches only the nodes whose display changed (``Timeline.seek`` says which) and the
wires of the frames passed over, so a 1000-node graph steps as fast as a small one.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QDir, QEvent, QObject, QPointF, QRectF, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QIcon,
    QImage,
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QPushButton,
    QScrollArea,
    QSlider,
    QSplitter,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..editor.document import Change, Edge, GraphDocument
from ..editor.items import LIGHT_COLORS
from ..editor.view import GraphView
from ..errors import guarded, report_handled
from ..numbers import format_number
from .export import qimage_to_pil, to_palette, write_gif, write_png_frames
from .scene import AnimatorScene
from .tensor_timeline import TensorAnimation, tensor_animation
from .timeline import DocumentAnimation, NodeState, Timeline

logger = logging.getLogger(__name__)

# What each state looks like (the same in light and dark themes: they read on both).
STATE_COLORS: dict[NodeState, str] = {
    NodeState.NOT_REACHED: "#9aa1ab",  # grey
    NodeState.COMPUTED: "#4f9be0",  # light blue
    NodeState.RECEIVING: "#f5a54a",  # light orange
    NodeState.READY: "#e5b800",  # yellow
    NodeState.PROCESSING: "#e8401c",  # bright orange-red: the accent
    NodeState.DONE: "#23a455",  # green
}
FORWARD_WIRE_COLOR = STATE_COLORS[NodeState.COMPUTED]  # the operands flowing into the node being computed
BACKWARD_WIRE_COLOR = STATE_COLORS[NodeState.PROCESSING]  # the wire the current contribution travels along
UNUSED_OPACITY = 0.35  # nodes and wires the output does not depend on

SPEEDS: tuple[float | None, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, None)  # steps per second; None: fastest
DEFAULT_SPEED_INDEX = 2  # 1 step per second
FASTEST_MIN_RATE = 60.0  # steps per second "fastest" keeps up even when a repaint takes longer than 1/60 s
MAX_CATCH_UP = 8  # steps at most in one turn of the event loop
FASTEST_GIF_FRAME_MS = 100  # a GIF of the "fastest" speed: ten steps a second
MINIMAP_FROM = 60  # graphs with at least this many nodes get the minimap

START_TEXT = ("Press Play or → to start: first the forward pass computes every value, then the backward "
              "pass applies the chain rule one wire at a time.")
FINISHED_TEXT = "\n\nFinished: every gradient is ready (green)."
EXPLANATION_LINES = 8  # the step box's height, in lines of its text
READABLE_ZOOM = 0.85  # fitting a graph never makes its text smaller than this; the view follows the step
EMPTY_TEXT = "Build a graph in the editor, then watch backpropagation here one step at a time."
SOURCES = {"graph": "The editor's graph", "network": "The training network (one batch)"}
PHASE_NAMES = {"forward": "Forward pass", "seed": "Backward pass: the seed", "backward": "Backward pass"}
PHASE_COLORS = {"forward": STATE_COLORS[NodeState.COMPUTED], "seed": STATE_COLORS[NodeState.READY],
                "backward": STATE_COLORS[NodeState.PROCESSING]}


def _note(text: str) -> str:
    return f"\n\n{text}" if text else ""


def speed_text(speed: float | None) -> str:
    if speed is None:
        return "fastest"
    number = format_number(speed)
    return f"{number} step/s" if speed == 1 else f"{number} steps/s"


def _dot_icon(color: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(color))
    painter.drawEllipse(QRectF(1.5, 1.5, size - 3, size - 3))
    painter.end()
    return QIcon(pixmap)


def _maths_of(document: GraphDocument) -> tuple:
    """Everything the frames depend on (not where the nodes sit): equal tuples give equal timelines."""
    nodes = tuple((n.id, n.kind, n.label, repr(n.value), n.port_count) for n in document.nodes)
    return nodes, tuple(document.edges), document.effective_output()


class AnimatorPanel(QWidget):
    """Steps through the forward and backward pass of a graph; see the module docstring."""

    status_message = Signal(str)
    step_reached = Signal(int)  # the new position (0 = before the first frame)
    network_requested = Signal()  # the person chose the training network: the main window sends a snapshot

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("animatorPanel")
        self.setAccessibleName("animatorPanel")
        self._document = GraphDocument()  # the panel's own copy of the graph it animates
        self._animation: DocumentAnimation | TensorAnimation | None = None
        self._source = "graph"  # what is shown: "graph" (the editor's) or "network" (the training panel's)
        self._edge_position: dict[Edge, int] = {}  # a wire is traversed once the position reaches this
        self._wire_highlights: dict[Edge, str | None] = {}  # what each wire was last given
        self._marked_node: str | None = None  # the node with the selection ring (the current frame's)
        self._wants_minimap = False  # big graphs get one
        self._node_count = 0
        self._maths: tuple | None = None
        self._followed: GraphDocument | None = None
        self._subscription = None
        self._stale = False
        self._auto_fit = True
        self._dark = False
        self._speed_index = DEFAULT_SPEED_INDEX
        self._last_tick: float | None = None  # when "fastest" last stepped (perf_counter)
        self._owed = 0.0  # steps "fastest" is behind 60 per second

        self.scene = AnimatorScene(parent=self)
        self.view = GraphView(self.scene)
        self.view.setObjectName("animatorView")
        self.view.setAccessibleName("animatorView")
        self.view.setDragMode(GraphView.DragMode.ScrollHandDrag)
        self.view.set_minimap_visible(False)
        self.view.setToolTip("")

        self.message = QLabel()
        self.message.setObjectName("animatorMessage")
        self.message.setAccessibleName("animatorMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("QLabel#animatorMessage { background: #fdecea; color: #8a1c1c; "
                                   "border: 1px solid #f0b4ae; border-radius: 5px; padding: 6px 10px; }")
        self.message.setVisible(False)

        self.source_combo = QComboBox()
        self.source_combo.setObjectName("animSourceCombo")
        self.source_combo.setAccessibleName("animSourceCombo")
        self.source_combo.setToolTip("Animate the editor's graph (scalars), or the training panel's network on "
                                     "one batch of its data (tensors, with their shapes and gradient norms)")
        for source, text in SOURCES.items():
            self.source_combo.addItem(text, source)

        self.legend = QLabel(self._legend_html())
        self.legend.setObjectName("animLegend")
        self.legend.setAccessibleName("animLegend")
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setToolTip("What the node colours mean")

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(max(mono.pointSizeF(), 10.5))
        self.heading = QLabel()
        self.heading.setObjectName("stepHeading")
        self.heading.setAccessibleName("stepHeading")
        heading_font = QFont(self.heading.font())
        heading_font.setBold(True)
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.15)
        self.heading.setFont(heading_font)
        self.heading.setWordWrap(True)
        self.explanation = QLabel()
        self.explanation.setObjectName("stepExplanation")
        self.explanation.setAccessibleName("stepExplanation")
        self.explanation.setFont(mono)
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.explanation.setWordWrap(True)
        self.explanation.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation.setContentsMargins(10, 8, 10, 8)
        self.explanation.setAutoFillBackground(True)  # the theme's base colour, following theme changes
        self.explanation.setBackgroundRole(QPalette.ColorRole.Base)
        # A box of fixed height (scrolling when a step says more): the step list below does not jump.
        self.explanation_box = QScrollArea()
        self.explanation_box.setObjectName("stepExplanationBox")
        self.explanation_box.setWidget(self.explanation)
        self.explanation_box.setWidgetResizable(True)
        self.explanation_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.explanation_box.setFixedHeight(round(QFontMetricsF(mono).lineSpacing() * EXPLANATION_LINES) + 20)
        self.step_list = QListWidget()
        self.step_list.setObjectName("stepList")
        self.step_list.setAccessibleName("stepList")
        self.step_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.step_list.setUniformItemSizes(True)
        self.step_list.setToolTip("Every step of the animation; click one to go there")
        self.step_list.setSpacing(1)
        # Clicks only: a list taking the focus would make its first row current, which is a step.
        self.step_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        style = self.style()
        self.first_button = self._button("animFirstButton", "First step (Home)",
                                         style.standardIcon(QStyle.StandardPixmap.SP_MediaSkipBackward))
        self.back_button = self._button("animStepBackButton", "Step back (←)",
                                        style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekBackward))
        self.play_button = self._button("animPlayButton", "Play or pause (Space)",
                                        style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay))
        self.play_button.setText("Play")
        self.play_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.play_button.setMinimumWidth(84)
        self.forward_button = self._button("animStepForwardButton", "Step forward (→)",
                                           style.standardIcon(QStyle.StandardPixmap.SP_MediaSeekForward))
        self.last_button = self._button("animLastButton", "Last step (End)",
                                        style.standardIcon(QStyle.StandardPixmap.SP_MediaSkipForward))
        self.export_button = QPushButton("Export")  # a push button draws its menu arrow beside the text
        self.export_button.setObjectName("animExportButton")
        self.export_button.setAccessibleName("animExportButton")
        self.export_button.setToolTip("Save the animation for slides: an animated GIF, or one PNG per step")
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Animated GIF…", self._on_export_gif_triggered).setObjectName("animExportGifAction")
        export_menu.addAction("PNG frames (one per step)…", self._on_export_frames_triggered).setObjectName(
            "animExportFramesAction")
        self.export_button.setMenu(export_menu)

        self.timeline_slider = QSlider(Qt.Orientation.Horizontal)
        self.timeline_slider.setObjectName("animTimeline")
        self.timeline_slider.setAccessibleName("animTimeline")
        self.timeline_slider.setToolTip("Drag to scrub through the steps")
        self.timeline_slider.setRange(0, 0)
        self.position_label = QLabel("0 / 0")
        self.position_label.setObjectName("animPositionLabel")
        self.position_label.setMinimumWidth(78)
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.speed_slider = QSlider(Qt.Orientation.Horizontal)
        self.speed_slider.setObjectName("animSpeedSlider")
        self.speed_slider.setAccessibleName("animSpeedSlider")
        self.speed_slider.setRange(0, len(SPEEDS) - 1)
        self.speed_slider.setPageStep(1)
        self.speed_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.speed_slider.setTickInterval(1)
        self.speed_slider.setValue(self._speed_index)
        self.speed_slider.setFixedWidth(120)
        self.speed_slider.setToolTip("Playing speed: 0.25 to 8 steps per second, or as fast as possible")
        self.speed_label = QLabel(speed_text(SPEEDS[self._speed_index]))
        self.speed_label.setObjectName("animSpeedLabel")
        self.speed_label.setAccessibleName("animSpeedLabel")
        self.speed_label.setMinimumWidth(QFontMetricsF(self.font()).horizontalAdvance("0.25 steps/s") + 8)

        self._play_timer = QTimer(self)
        self._play_timer.timeout.connect(self._on_play_timer_timeout)
        self._reload_timer = QTimer(self, singleShot=True, interval=0)
        self._reload_timer.timeout.connect(self._on_reload_timer_timeout)

        # layout: the graph and the legend on the left, the step text and list on the right, controls below
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(4)
        source_row = QHBoxLayout()
        source_row.addWidget(QLabel("Animate"))
        source_row.addWidget(self.source_combo)
        source_row.addStretch(1)
        left_layout.addLayout(source_row)
        left_layout.addWidget(self.message)
        left_layout.addWidget(self.view, 1)
        left_layout.addWidget(self.legend)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(6, 0, 0, 0)
        right_layout.setSpacing(6)
        right_layout.addWidget(self.heading)
        right_layout.addWidget(self.explanation_box)
        steps_title = QLabel("All steps")
        steps_title.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        steps_font = QFont(steps_title.font())
        steps_font.setBold(True)
        steps_title.setFont(steps_font)
        right_layout.addWidget(steps_title)
        right_layout.addWidget(self.step_list, 1)
        right.setMinimumWidth(330)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setObjectName("animatorSplitter")
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 1)
        splitter.setCollapsible(0, False)
        splitter.setSizes([900, 400])
        controls = QHBoxLayout()
        controls.setSpacing(4)
        for button in (self.first_button, self.back_button, self.play_button, self.forward_button,
                       self.last_button):
            controls.addWidget(button)
        controls.addSpacing(8)
        controls.addWidget(self.timeline_slider, 1)
        controls.addWidget(self.position_label)
        controls.addSpacing(12)
        speed_title = QLabel("Speed")
        controls.addWidget(speed_title)
        controls.addWidget(self.speed_slider)
        controls.addWidget(self.speed_label)
        controls.addSpacing(8)
        controls.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(controls)

        self.first_button.clicked.connect(self._on_first_clicked)
        self.back_button.clicked.connect(self._on_back_clicked)
        self.play_button.clicked.connect(self._on_play_clicked)
        self.forward_button.clicked.connect(self._on_forward_clicked)
        self.last_button.clicked.connect(self._on_last_clicked)
        self.source_combo.activated.connect(self._on_source_combo_activated)
        self.timeline_slider.valueChanged.connect(self._on_timeline_value_changed)
        self.speed_slider.valueChanged.connect(self._on_speed_value_changed)
        self.step_list.currentRowChanged.connect(self._on_step_list_row_changed)
        self.step_list.itemClicked.connect(self._on_step_list_item_clicked)
        for key, slot in ((Qt.Key.Key_Right, self._on_forward_clicked), (Qt.Key.Key_Left, self._on_back_clicked),
                          (Qt.Key.Key_Space, self._on_play_clicked), (Qt.Key.Key_Home, self._on_first_clicked),
                          (Qt.Key.Key_End, self._on_last_clicked)):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.setAutoRepeat(key != Qt.Key.Key_Space)
            shortcut.activated.connect(slot)
        self._key_slots = {Qt.Key.Key_Right: self.step_forward, Qt.Key.Key_Left: self.step_back,
                           Qt.Key.Key_Space: self.toggle_play, Qt.Key.Key_Home: self.first,
                           Qt.Key.Key_End: self.last}
        self.view.installEventFilter(self)
        self.view.viewport().installEventFilter(self)
        self.setFocusProxy(self.view)
        self._show_nothing(EMPTY_TEXT)

    def _button(self, name: str, tooltip: str, icon=None) -> QToolButton:
        button = QToolButton()
        button.setObjectName(name)
        button.setAccessibleName(name)
        button.setToolTip(tooltip)
        button.setAutoRaise(False)
        if icon is not None:
            button.setIcon(icon)
        button.setMinimumHeight(28)
        return button

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
        """What is animated: "graph" (the editor's graph) or "network" (the training network)."""
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
        return self._play_timer.isActive()

    @property
    def speed(self) -> float | None:
        """Steps per second; None: as fast as the event loop allows."""
        return SPEEDS[self._speed_index]

    @property
    def is_stale(self) -> bool:
        return self._stale

    # -- loading ---------------------------------------------------------------------------

    def load(self, document: GraphDocument) -> bool:
        """Animate a copy of ``document`` from the start; False (and a message in the panel) if it cannot be."""
        self.pause()
        try:
            copy = document.copy()
        except ValueError as error:  # DocumentFormatError: what is shown stays as it was
            self.status_message.emit(f"Backward animator: {error}")
            return False
        self._document = copy
        self._maths = _maths_of(copy)
        self._set_source("graph")
        self.scene.show_document(copy)
        return self._start(lambda: DocumentAnimation(copy), len(copy.nodes), "this graph")

    def load_network(self, model, loss_fn, X, y, description: str = "the network") -> bool:
        """Animate one batch through a network: ``model`` on the inputs ``X``, then ``loss_fn(logits, y)``,
        at tensor level (each layer a node showing shapes and gradient norms), replaying the engine's
        ``Tensor.backward_steps()``. ``model`` should be a copy: its ``.grad``s are filled. False (and a
        message) if it cannot be; what was shown then stays."""
        self.pause()
        try:
            animation = tensor_animation(model, loss_fn, X, y)
        except Exception as error:  # a bad snapshot must not take the panel down
            report_handled(error, "building the network's animation")
            self.status_message.emit(f"Backward animator: can't animate {description} "
                                     f"({type(error).__name__}: {error})")
            self._set_source(self._source)
            return False
        self._set_source("network")
        if self._followed is not None:  # from now on, only an edit of the editor's graph brings it back
            self._maths, self._stale = _maths_of(self._followed), False
        self.scene.show_tensor_graph(animation)
        loaded = self._start(lambda: animation, len(animation.nodes), description)
        if loaded:
            self.status_message.emit(f"Backward animator: {description}, {len(animation.timeline)} steps")
        return loaded

    def _start(self, build, node_count: int, what: str) -> bool:
        """Show the animation ``build()`` makes for the graph just drawn, at its start."""
        self._animation, self._edge_position, self._wire_highlights = None, {}, {}
        self._marked_node = None  # the scene was redrawn: nothing is selected
        self._node_count = node_count
        self._wants_minimap = node_count >= MINIMAP_FROM
        self._refresh_minimap()
        self._auto_fit = True
        try:
            animation = build()
        except ValueError as error:
            self._show_nothing(f"Can't animate {what}: {error}.", error=True)
            self.status_message.emit(f"Backward animator: {error}")
            self._fit()
            return False
        except Exception as error:  # a bug must not take the panel down: say so and show nothing
            report_handled(error, "building the timeline")
            self._show_nothing(f"Can't animate {what} ({type(error).__name__}: {error}).", error=True)
            self._fit()
            return False
        self._animation = animation
        timeline = animation.timeline
        self._edge_position = {frame.edge: i + 1 for i, frame in enumerate(timeline.frames) if frame.edge}
        self.message.setVisible(False)
        self._fill_step_list()
        self.timeline_slider.blockSignals(True)
        self.timeline_slider.setRange(0, len(timeline))
        self.timeline_slider.setValue(0)
        self.timeline_slider.blockSignals(False)
        self._set_controls_enabled(True)
        self._refresh_all()
        self._refresh_text()
        self._fit()
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
        """Animate ``document`` and start again from its first step whenever it changes.

        A change reloads at the next turn of the event loop while the panel is visible (one
        reload per edit, however many changes the edit makes), else when the panel is next shown.
        A change that leaves the maths alone (nodes moved) keeps the current step.
        """
        if self._followed is not None and self._subscription is not None:
            try:
                self._followed.unsubscribe(self._subscription)
            except ValueError:
                pass
        self._followed, self._subscription = document, None
        if document is None:
            self._stale = False
            return
        this = weakref.ref(self)

        def on_change(change: Change, _this=this, _document=document) -> None:
            panel = _this()
            if panel is None:
                _document.unsubscribe(on_change)
                return
            try:
                panel._on_followed_document_changed(change)
            except RuntimeError:  # the C++ side is gone
                _document.unsubscribe(on_change)

        self._subscription = on_change
        document.subscribe(on_change)
        self._stale = True
        self._maths = None  # a new document: start from the beginning
        if self.isVisible():
            self._reload_if_stale()

    @property
    def followed_document(self) -> GraphDocument | None:
        return self._followed

    def _on_followed_document_changed(self, change: Change) -> None:
        self._stale = True
        if self.isVisible():
            self._reload_timer.start()

    @guarded
    def _on_reload_timer_timeout(self) -> None:
        self._reload_if_stale()

    def _reload_if_stale(self) -> None:
        """Show the followed graph again after it changed, at the same step if only its layout changed.
        While the training network is shown, only a change to the graph's maths brings the graph back."""
        if not self._stale or self._followed is None:
            return
        self._stale = False
        same_maths = self._maths == _maths_of(self._followed)
        if self._source == "network" and same_maths:
            return
        position = self.position
        same_step = same_maths and self._timeline is not None
        if self.load(self._followed) and same_step:
            self.seek(position)

    # -- moving in time --------------------------------------------------------------------

    def seek(self, position: int) -> set[str]:
        """Go to ``position`` (clamped to 0..frame count); returns the ids of the nodes whose display changed."""
        if self._timeline is None:
            return set()
        old = self._timeline.position
        touched = self._timeline.seek(position)
        self._refresh_items(touched, old)
        self._refresh_text()
        if self._timeline.position != old:
            self.step_reached.emit(self._timeline.position)
        return touched

    def step_forward(self) -> bool:
        if self._timeline is None or self.position >= len(self._timeline):
            return False
        self.seek(self.position + 1)
        return True

    def step_back(self) -> bool:
        if self._timeline is None or self.position == 0:
            return False
        self.seek(self.position - 1)
        return True

    def first(self) -> None:
        self.seek(0)

    def last(self) -> None:
        self.seek(self.frame_count)

    def play(self) -> None:
        """Step at the chosen speed until the last step (from the start if already at the end)."""
        if self._timeline is None or not len(self._timeline):
            return
        if self.position >= len(self._timeline):
            self.seek(0)
        self._apply_speed()
        self._last_tick, self._owed = None, 0.0
        self._play_timer.start()
        self._refresh_play_button()
        self._refresh_minimap()

    def pause(self) -> None:
        self._play_timer.stop()
        self._refresh_play_button()
        self._refresh_minimap()

    def _refresh_minimap(self) -> None:
        """A big graph has the minimap, except while playing at "fastest": redrawing a thousand nodes
        in it after every step would halve the speed (the main view follows the current step anyway)."""
        wanted = self._wants_minimap and not (self.is_playing and self.speed is None)
        if self.view.is_minimap_visible() != wanted:
            self.view.set_minimap_visible(wanted)

    def toggle_play(self) -> None:
        if self.is_playing:
            self.pause()
        else:
            self.play()

    def set_speed_index(self, index: int) -> None:
        """Choose one of `SPEEDS` (0.25, 0.5, 1, 2, 4, 8 steps per second, then fastest)."""
        index = max(0, min(int(index), len(SPEEDS) - 1))
        self._speed_index = index
        if self.speed_slider.value() != index:
            self.speed_slider.blockSignals(True)
            self.speed_slider.setValue(index)
            self.speed_slider.blockSignals(False)
        self.speed_label.setText(speed_text(SPEEDS[index]))
        self._apply_speed()
        self._refresh_minimap()

    def _apply_speed(self) -> None:
        speed = SPEEDS[self._speed_index]
        self._play_timer.setInterval(0 if speed is None else round(1000 / speed))

    # -- slots -----------------------------------------------------------------------------

    @guarded
    def _on_play_timer_timeout(self) -> None:
        steps = 1
        if self.speed is None:
            # Fastest: one step per turn of the event loop; when a turn takes longer than 1/60 s
            # (repainting a big graph), catch up with a few steps at once so it still plays at 60/s.
            now = time.perf_counter()
            if self._last_tick is not None:
                owed = min(self._owed + (now - self._last_tick) * FASTEST_MIN_RATE, MAX_CATCH_UP)
                steps = max(1, int(owed))
                self._owed = max(0.0, owed - steps)
            self._last_tick = now
        if self._timeline is None or self.position >= self.frame_count:
            self.pause()
            return
        self.seek(self.position + steps)
        if self.position >= self.frame_count:
            self.pause()

    @guarded
    def _on_first_clicked(self, _checked: bool = False) -> None:
        self.first()

    @guarded
    def _on_back_clicked(self, _checked: bool = False) -> None:
        self.step_back()

    @guarded
    def _on_play_clicked(self, _checked: bool = False) -> None:
        self.toggle_play()

    @guarded
    def _on_forward_clicked(self, _checked: bool = False) -> None:
        self.step_forward()

    @guarded
    def _on_last_clicked(self, _checked: bool = False) -> None:
        self.last()

    @guarded
    def _on_timeline_value_changed(self, value: int) -> None:
        self.seek(value)

    @guarded
    def _on_speed_value_changed(self, value: int) -> None:
        self.set_speed_index(value)
        self.status_message.emit(f"Animation speed: {speed_text(self.speed)}")

    @guarded
    def _on_step_list_row_changed(self, row: int) -> None:
        """Only a click moves in time (`_on_step_list_item_clicked`): a row made current any other way,
        such as by the list taking the focus, goes back to the current step."""
        if row != self.position - 1:
            self._sync_step_list()

    @guarded
    def _on_step_list_item_clicked(self, item) -> None:
        self.seek(self.step_list.row(item) + 1)

    @guarded
    def _on_source_combo_activated(self, index: int) -> None:
        source = self.source_combo.itemData(index)
        if source == self._source and self._animation is not None:
            return
        if source == "network":
            self.network_requested.emit()  # the main window answers with load_network()
            if self._source != "network":  # nobody did: show what is shown
                self._set_source(self._source)
        elif self._followed is not None:
            self.load(self._followed)
        else:
            self._set_source("graph")
            self.load(self._document)

    @guarded
    def _on_export_gif_triggered(self, _checked: bool = False) -> None:
        if not self._can_export():
            return
        start = str(Path(QDir.homePath()) / "backward.gif")
        path, _filter = QFileDialog.getSaveFileName(self, "Export the animation as a GIF", start,
                                                    "Animated GIF (*.gif)")
        if path:
            self._export(self.export_gif, path if path.lower().endswith(".gif") else path + ".gif")

    @guarded
    def _on_export_frames_triggered(self, _checked: bool = False) -> None:
        if not self._can_export():
            return
        folder = QFileDialog.getExistingDirectory(self, "Export one PNG per step into a folder", QDir.homePath())
        if folder:
            self._export(self.export_png_frames, folder)

    def _can_export(self) -> bool:
        if self._timeline is None:
            self.status_message.emit("Nothing to export: the animator has no graph")
            return False
        self.pause()
        return True

    def _export(self, write, target: str) -> None:
        self.setCursor(Qt.CursorShape.WaitCursor)
        try:
            count = write(target)
        except OSError as error:
            self.status_message.emit(f"Could not write {Path(target).name}: {error}")
            return
        finally:
            self.unsetCursor()
        self.status_message.emit(f"Saved {count} frames to {target}")

    def _recover(self, error: Exception) -> None:
        self._play_timer.stop()
        self._refresh_play_button()
        self.status_message.emit(f"Animator: something went wrong ({type(error).__name__}: {error})")

    # -- events ----------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        try:
            return self._filter_event(watched, event)
        except Exception as error:
            report_handled(error, "the animator's event filter")
            self._recover(error)
            return False

    def _filter_event(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            if kind == QEvent.Type.KeyPress and event.key() in self._key_slots and not event.modifiers():
                # Reached only when no shortcut took the key (no active window): keep the keys working.
                if event.key() != Qt.Key.Key_Space or not event.isAutoRepeat():
                    self._key_slots[event.key()]()
                return True
            if kind == QEvent.Type.Resize and self._auto_fit:
                QTimer.singleShot(0, self._fit_if_auto)
        elif watched is self.view.viewport():
            if kind == QEvent.Type.Wheel:
                self._auto_fit = False
            elif kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                item = self.scene.node_at(self.view.mapToScene(event.position().toPoint()))
                if item is not None:
                    self._on_node_clicked(item.node_id)
                    return True
        return False

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

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in self._key_slots and not event.modifiers():
            try:
                if key != Qt.Key.Key_Space or not event.isAutoRepeat():
                    self._key_slots[key]()
            except Exception as error:
                report_handled(error, "the animator's keys")
                self._recover(error)
            event.accept()
            return
        super().keyPressEvent(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        try:
            self._reload_if_stale()
        except Exception as error:
            report_handled(error, "reloading the animation")
            self._recover(error)
        QTimer.singleShot(0, self._fit_if_auto)

    def hideEvent(self, event) -> None:
        self.pause()
        super().hideEvent(event)

    @guarded
    def _fit_if_auto(self) -> None:
        if self._auto_fit:
            self._fit()

    def _fit(self) -> None:
        """Fit the graph, at a zoom where its text stays readable; a graph too big for that gets the
        minimap, and the view follows the current step."""
        fits = self.view.fit(min_zoom=READABLE_ZOOM)
        wants = not fits or self._node_count >= MINIMAP_FROM
        if wants != self._wants_minimap:
            self._wants_minimap = wants
            self._refresh_minimap()

    def set_theme(self, dark: bool) -> None:
        self._dark = bool(dark)
        self.scene.set_theme(self._dark)

    # -- drawing ---------------------------------------------------------------------------

    def _show_nothing(self, text: str, error: bool = False) -> None:
        """No timeline: the graph (if any) drawn plainly, the controls off, ``text`` said."""
        self._animation = None
        self.pause()
        self.step_list.clear()
        self.timeline_slider.blockSignals(True)
        self.timeline_slider.setRange(0, 0)
        self.timeline_slider.blockSignals(False)
        self._set_controls_enabled(False)
        self.message.setText(text)
        self.message.setVisible(error)
        self.heading.setText("Nothing to animate" if error else "Backward animator")
        self.explanation.setText(text + ("\n\nFix the graph in the editor: the animator follows it." if error else ""))
        self.position_label.setText("0 / 0")
        for item in self.scene.node_items():
            item.set_highlight(None)
            item.set_body_lines(["value —", "grad —"])
            item.setOpacity(1.0)
        for wire in self.scene.wire_items():
            wire.set_highlight(None)
            wire.set_label_visible(False)
            wire.setOpacity(1.0)
        self._wire_highlights = {}

    def _set_controls_enabled(self, enabled: bool) -> None:
        for widget in (self.first_button, self.back_button, self.play_button, self.forward_button,
                       self.last_button, self.export_button, self.timeline_slider, self.step_list):
            widget.setEnabled(enabled)

    def _fill_step_list(self) -> None:
        self.step_list.blockSignals(True)
        self.step_list.clear()
        frames = self._timeline.frames
        self.step_list.addItems([f"{i}.  {frame.title}" for i, frame in enumerate(frames, start=1)])
        icons = {phase: _dot_icon(color) for phase, color in PHASE_COLORS.items()}
        for i, frame in enumerate(frames):
            item = self.step_list.item(i)
            item.setIcon(icons[frame.phase])
            item.setToolTip(frame.explanation)
        self.step_list.blockSignals(False)

    def _refresh_all(self) -> None:
        """Draw every node and wire for the current position (after a load)."""
        display = self._timeline.display
        for item in self.scene.node_items():
            used = item.node_id in display
            item.setOpacity(1.0 if used else UNUSED_OPACITY)
            if not used:
                item.set_highlight(STATE_COLORS[NodeState.NOT_REACHED])
                item.set_body_lines(["value —", "grad —"])
                item.setToolTip(f"{item.display_name()} does not affect the output")
        self._refresh_nodes(display)
        for wire in self.scene.wire_items():
            used = wire.edge.source in display and wire.edge.target in display
            wire.setOpacity(1.0 if used else UNUSED_OPACITY)
            self._refresh_wire(wire.edge)
        self._mark_current_node()

    def _refresh_items(self, touched: Iterable[str], old_position: int) -> None:
        """Redraw what moving from ``old_position`` to the current one changed, and nothing else."""
        self._refresh_nodes(touched)
        new_position = self._timeline.position
        low, high = sorted((old_position, new_position))
        edges: set[Edge] = set()
        frames = self._timeline.frames
        for index in range(low, high):
            edge = frames[index].edge
            if edge is not None:
                edges.add(edge)
        for position in (old_position, new_position):
            if position > 0:
                edges.update(frames[position - 1].wires)
        for edge in edges:
            self._refresh_wire(edge)
        self._mark_current_node()

    def _mark_current_node(self) -> None:
        """The node the current frame is about gets the selection ring, so the eye finds it, and the
        view centres on it when it is out of sight (a big graph)."""
        frame = self._timeline.current if self._timeline is not None else None
        wanted = frame.node_id if frame is not None else None
        if wanted != self._marked_node:
            self._marked_node = wanted
            self.scene.select_nodes([wanted] if wanted is not None else [])
            item = self.scene.node_item(wanted) if wanted is not None else None
            if item is not None and self.view.isVisible():
                visible = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
                if not visible.contains(item.sceneBoundingRect()):
                    self.view.centerOn(item)

    def _refresh_nodes(self, node_ids: Iterable[str]) -> None:
        animation = self._animation
        display = animation.timeline.display
        for node_id in node_ids:
            item = self.scene.node_item(node_id)
            state = display.get(node_id)
            if item is None or state is None:
                continue
            color = QColor(STATE_COLORS[state.state])
            if item.highlight != color:
                item.set_highlight(color)
            lines = animation.node_lines(node_id, state)
            if item.body_lines() != lines:
                item.set_body_lines(lines)
            item.setToolTip(animation.node_tooltip(node_id, state))

    def _refresh_wire(self, edge: Edge) -> None:
        wire = self.scene.wire_item(edge)
        if wire is None:
            return
        position = self._timeline.position
        current = self._timeline.current
        reached = self._edge_position.get(edge)
        traversed = reached is not None and reached <= position
        highlight = None
        if current is not None and edge in current.wires:
            highlight = BACKWARD_WIRE_COLOR if current.phase == "backward" else FORWARD_WIRE_COLOR
        if traversed:
            wire.set_grad(self._animation.wire_labels.get(edge))
        # A scalar wire keeps its gradient once passed; a tensor's card already shows the norm of its
        # gradient, so only the current step's wire says what it carries (the graph stays readable).
        labelled = traversed and (self._animation.labels_stay or current is not None and current.edge == edge)
        if wire.label_visible != labelled:
            wire.set_label_visible(labelled)
        if self._wire_highlights.get(edge) != highlight:
            self._wire_highlights[edge] = highlight
            wire.set_highlight(highlight)
            wire.setZValue(2.5 if highlight else -1)  # above the other wires and the cards (2 when selected)

    def _refresh_text(self) -> None:
        timeline = self._timeline
        if timeline is None:
            return
        position, count = timeline.position, len(timeline)
        frame = timeline.current
        if frame is None:
            self.heading.setText(f"Ready: {count} steps")
            self.explanation.setText(START_TEXT)
        else:
            self.heading.setText(f"Step {position} of {count} · {PHASE_NAMES[frame.phase]}")
            finished = FINISHED_TEXT + _note(self._animation.finished_note) if position == count else ""
            self.explanation.setText(frame.explanation + finished)
        self.position_label.setText(f"{position} / {count}")
        if self.timeline_slider.value() != position:
            with QSignalBlocker(self.timeline_slider):
                self.timeline_slider.setValue(position)
        self._sync_step_list()
        self.back_button.setEnabled(position > 0)
        self.first_button.setEnabled(position > 0)
        self.forward_button.setEnabled(position < count)
        self.last_button.setEnabled(position < count)

    def _sync_step_list(self) -> None:
        """The current step's row is the list's current row, scrolled into view; none before the first."""
        row = self.position - 1
        if self.step_list.currentRow() != row:
            with QSignalBlocker(self.step_list):
                if row < 0:
                    self.step_list.setCurrentRow(-1)
                    self.step_list.clearSelection()
                else:
                    self.step_list.setCurrentRow(row)
                    self.step_list.scrollToItem(self.step_list.item(row))

    def _refresh_play_button(self) -> None:
        playing = self._play_timer.isActive()
        self.play_button.setText("Pause" if playing else "Play")
        self.play_button.setIcon(self.style().standardIcon(
            QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay))

    @staticmethod
    def _legend_html() -> str:
        entries = "&nbsp;&nbsp;&nbsp;".join(
            f"<span style='color:{STATE_COLORS[state]}; font-size:15px'>●</span>&nbsp;{state.value}"
            for state in NodeState)
        wire = (f"&nbsp;&nbsp;&nbsp;<span style='color:{BACKWARD_WIRE_COLOR}; font-size:15px'>━</span>"
                "&nbsp;wire of the current step")
        return f"<span style='font-size:11px'>{entries}{wire}</span>"

    # -- export ----------------------------------------------------------------------------

    def render_image(self, max_size: int = 900) -> QImage:
        """The graph as it is now, on white, with the step's title above it and a legend below,
        scaled to fit ``max_size`` pixels (never enlarged beyond 1.5x)."""
        caption_height, legend_height, margin = 34, 24, 24.0
        rect = self.scene.items_bounding_rect()
        if rect.isNull() or rect.isEmpty():
            rect = QRectF(0, 0, 200, 100)
        rect = rect.adjusted(-margin, -margin, margin, margin)
        room = max(int(max_size), 64)
        scale = min(1.5, room / rect.width(), max(room - caption_height - legend_height, 32) / rect.height())
        graph_width = min(round(rect.width() * scale), room)
        graph_height = max(min(round(rect.height() * scale), room - caption_height - legend_height), 1)
        width = max(graph_width, min(560, room))
        height = graph_height + caption_height + legend_height
        image = QImage(width, height, QImage.Format.Format_RGB32)
        image.fill(QColor("white"))
        self.scene.colors = {**LIGHT_COLORS, "background": QColor("white"), "grid": QColor("white")}
        self.scene.setBackgroundBrush(QColor("white"))
        painter = QPainter(image)
        try:
            painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
            target = QRectF((width - graph_width) / 2, caption_height, graph_width, graph_height)
            self.scene.render(painter, target, rect, Qt.AspectRatioMode.KeepAspectRatio)
            self._paint_caption(painter, QRectF(10, 0, width - 20, caption_height))
            self._paint_legend(painter, QRectF(10, height - legend_height, width - 20, legend_height))
        finally:
            painter.end()
            self.scene.set_theme(self.scene.dark)  # back to the theme's palette and background
        return image

    def _paint_caption(self, painter: QPainter, rect: QRectF) -> None:
        frame = self._timeline.current if self._timeline is not None else None
        if frame is None:
            text = "Before the first step"
        else:
            text = f"Step {self.position}/{self.frame_count} · {frame.title}"
        font = QFont()
        font.setPixelSize(15)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#1f2328"))
        text = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)

    def _paint_legend(self, painter: QPainter, rect: QRectF) -> None:
        font = QFont()
        font.setPixelSize(11)
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        x, y = rect.left(), rect.center().y()
        entries = [(STATE_COLORS[state], state.value, False) for state in NodeState]
        entries.append((BACKWARD_WIRE_COLOR, "wire of the current step", True))
        for color, text, is_wire in entries:
            width = 14 + metrics.horizontalAdvance(text) + 12
            if x + width > rect.right():
                break
            if is_wire:
                painter.setPen(QPen(QColor(color), 3.0))
                painter.drawLine(QPointF(x, y), QPointF(x + 10, y))
            else:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(color))
                painter.drawEllipse(QPointF(x + 5, y), 5, 5)
            painter.setPen(QColor("#4b5563"))
            painter.drawText(QRectF(x + 14, rect.top(), width, rect.height()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
            x += width

    def _frame_images(self, max_size: int) -> Iterable[QImage]:
        """One image after each step (the initial, empty state is not included), then back where we were."""
        if self._timeline is None:
            raise ValueError("there is no animation to export")
        self.pause()
        saved = self.position
        try:
            for position in range(1, self.frame_count + 1):
                self.seek(position)
                yield self.render_image(max_size)
        finally:
            self.seek(saved)

    def export_gif(self, path: str | Path, frame_ms: int | None = None, max_size: int = 900) -> int:
        """Write an animated GIF with one frame per step (after step 1, 2, ..., n: the empty start
        is left out), each shown ``frame_ms`` (by default as long as at the chosen speed, 0.1 s for
        "fastest"); returns the number of frames. The position is restored afterwards.

        Raises ValueError when there is nothing to animate, OSError when the file cannot be written.
        Pillow holds every frame in memory until it writes the file (a few hundred kB each).
        """
        if frame_ms is None:
            frame_ms = round(1000 / self.speed) if self.speed else FASTEST_GIF_FRAME_MS
        frames = [to_palette(qimage_to_pil(image)) for image in self._frame_images(max_size)]
        return write_gif(frames, path, frame_ms)

    def export_png_frames(self, folder: str | Path, max_size: int = 900) -> int:
        """Write ``frame_0001.png`` ... (one per step, as `export_gif`) into ``folder``; returns the count."""
        return write_png_frames(self._frame_images(max_size), folder)
