"""The training panel: TF Playground on the desktop, on our engine, with the training off the GUI thread.

Layout, left to right as in the TF Playground: the data and input features, the network and
its training settings, the decision boundary, and the output (accuracy, loss and accuracy
curves). The controls describe a `TrainingSettings`; each edit sends the new settings to the
`TrainingWorker`, which resets only what the change needs. Whatever the worker sends is kept,
and a ~60 Hz timer paints the latest of it.
"""

from __future__ import annotations

import atexit
import json
import math
import time
import weakref
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QSignalBlocker, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.data import save_csv

from ..files import write_atomic
from .session import (
    ACTIVATIONS,
    DATASETS,
    FEATURES,
    LOSSES,
    MAX_LAYERS,
    MAX_NEURONS,
    OPTIMIZERS,
    Metrics,
    NetworkSnapshot,
    TrainingSettings,
    load_points,
    network_snapshot,
    weights_document,
)
from .widgets import (
    CLASS_COLOURS,
    CURVE_COLOURS,
    BoundaryView,
    LogSpinBox,
    SquareHolder,
    export_plot,
    named,
    style_plot,
)
from .worker import BoundaryFrame, DataFrame, Progress, TrainingWorker, start_thread, stop_thread

REDRAW_MS = 16          # the paint timer: ~60 Hz, paints only what changed since the last tick
CURVE_REDRAW_S = 1 / 20  # one curve plot at most 20 times a second, the two in turns: axes cost more than images
CURVE_PLOTS = ("loss", "accuracy")
SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200)
FEATURE_OBJECT_NAMES = {
    "x1": "featureX1Check", "x2": "featureX2Check", "x1^2": "featureX1SquaredCheck",
    "x2^2": "featureX2SquaredCheck", "x1*x2": "featureX1X2Check", "sin x1": "featureSinX1Check",
    "sin x2": "featureSinX2Check",
}
PLOTS = ("boundary", "loss", "accuracy")
HINT = "Press Play to train. Click the plot to add a point (Shift-click: the other class); hover the curves for values."
AXIS_WIDTH = 52  # both curve plots' left axes: their step axes line up


def _shut_down_at_exit(panel: TrainingPanel) -> None:
    """End the worker thread when the event loop ends or Python exits, even if the window never
    closed: a QThread destroyed while running aborts the process."""
    ref = weakref.ref(panel)

    def shut_down() -> None:
        alive = ref()
        if alive is not None:
            try:
                alive.shutdown()
            except RuntimeError:  # the C++ side is already gone, and its thread with it
                pass

    QCoreApplication.instance().aboutToQuit.connect(shut_down)
    atexit.register(shut_down)


def _fix_size(label: QLabel, widest: str) -> None:
    """A label whose text changes many times a second gets a fixed size: otherwise every new text
    asks the whole panel to lay itself out and repaint."""
    metrics = label.fontMetrics()
    label.setFixedSize(metrics.horizontalAdvance(widest) + 8, metrics.height() + 4)


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 5 x 10^k at or above ``value``."""
    exponent = math.floor(math.log10(value))
    for mantissa in (1, 2, 5, 10):
        if mantissa * 10.0**exponent >= value:
            return mantissa * 10.0**exponent
    return 10.0 ** (exponent + 1)


class _History:
    """Step, train loss, test loss, train accuracy, test accuracy: grown by doubling, one row per report."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self._rows = np.empty((5, 256))
        self.size = 0

    def add(self, m: Metrics) -> None:
        if self.size and m.step <= self._rows[0, self.size - 1]:
            self.size = int(np.searchsorted(self._rows[0, :self.size], m.step))  # same step again, or rewound
        if self.size == self._rows.shape[1]:
            self._rows = np.concatenate([self._rows, np.empty_like(self._rows)], axis=1)
        self._rows[:, self.size] = (m.step, m.train_loss, m.test_loss, m.train_accuracy, m.test_accuracy)
        self.size += 1

    def column(self, index: int) -> np.ndarray:
        return self._rows[index, :self.size]

    @property
    def steps(self) -> np.ndarray:
        return self.column(0)


class _Readout:
    """Hover values on a curve plot: a vertical line at the nearest report and its figures beside it."""

    def __init__(self, plot: pg.PlotWidget, text_for_index):
        self.plot = plot
        self.text_for_index = text_for_index
        self.steps = np.empty(0)
        self.line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#9aa0a6", style=Qt.PenStyle.DashLine))
        self.label = pg.TextItem(anchor=(0, 0), color="#202124", fill=pg.mkBrush(255, 255, 255, 225),
                                 border=pg.mkPen("#9aa0a6"))
        for item in (self.line, self.label):
            item.setVisible(False)
            item.setZValue(100)
            plot.addItem(item, ignoreBounds=True)
        plot.scene().sigMouseMoved.connect(self.show_at)

    @property
    def text(self) -> str:
        return self.label.toPlainText() if self.label.isVisible() else ""

    def show_at(self, scene_pos: QPointF) -> None:
        vb = self.plot.getPlotItem().vb
        if not len(self.steps) or not vb.sceneBoundingRect().contains(scene_pos):
            self.hide()
            return
        point = vb.mapSceneToView(scene_pos)
        index = int(np.clip(np.searchsorted(self.steps, point.x()), 0, len(self.steps) - 1))
        if index > 0 and abs(self.steps[index - 1] - point.x()) < abs(self.steps[index] - point.x()):
            index -= 1
        x = self.steps[index]
        self.line.setPos(x)
        self.label.setText(self.text_for_index(index))
        (x0, x1), (y0, y1) = vb.viewRange()
        right = point.x() > (x0 + x1) / 2
        top = point.y() > (y0 + y1) / 2
        self.label.setAnchor((1.0 if right else 0.0, 0.0 if top else 1.0))
        self.label.setPos(x, point.y())
        self.line.setVisible(True)
        self.label.setVisible(True)

    def hide(self) -> None:
        self.line.setVisible(False)
        self.label.setVisible(False)


class TrainingPanel(QWidget):
    """The "Training" tab. Call `shutdown()` before the window goes away (closeEvent does it too)."""

    # Requests to the worker: queued, they run in its thread between chunks of steps.
    publish_requested = Signal()
    start_requested = Signal()
    pause_requested = Signal()
    step_requested = Signal()
    reset_requested = Signal()
    settings_requested = Signal(object)
    points_requested = Signal(object, object, str)
    point_requested = Signal(float, float, int)
    # What happened, for the main window (status bar) and tests.
    message_shown = Signal(str)
    playing_changed = Signal(bool)
    animate_backward_requested = Signal()  # the main window opens the animator on `network_snapshot()`

    def __init__(self, parent: QWidget | None = None, settings: TrainingSettings | None = None):
        super().__init__(parent)
        named(self, "trainingPanel")
        self.settings = settings or TrainingSettings()
        self._playing = False
        self._shut_down = False
        self._run = 0
        self._data: DataFrame | None = None
        self._frame: BoundaryFrame | None = None
        self._frame_dirty = False
        self._progress: Progress | None = None
        self._progress_dirty = False
        self._curves_dirty = False
        self._last_curve_draw = 0.0
        self._history = _History()
        self._csv_name = ""
        self._compare_dialog = None
        self._step_axis_end = dict.fromkeys(CURVE_PLOTS, 0.0)
        self._loss_axis_range = None
        self._plots_behind: list[str] = []  # curve plots not yet showing the latest history
        self._curves_loss = self.settings.loss  # the loss the curves show
        self.last_change = None

        self._build_ui()
        self._show_settings(self.settings)

        self.worker = TrainingWorker(self.settings)
        self.worker.progressed.connect(self._on_worker_progressed)
        self.worker.boundary_updated.connect(self._on_worker_boundary_updated)
        self.worker.data_changed.connect(self._on_worker_data_changed)
        self.worker.model_reset.connect(self._on_worker_model_reset)
        self.worker.settings_applied.connect(self._on_worker_settings_applied)
        self.worker.diverged.connect(self._on_worker_diverged)
        self.worker.failed.connect(self._on_worker_failed)
        self.worker_thread = start_thread(self.worker, "trainingWorkerThread")
        _shut_down_at_exit(self)
        self.publish_requested.connect(self.worker.publish)
        self.start_requested.connect(self.worker.start)
        self.pause_requested.connect(self.worker.pause)
        self.step_requested.connect(self.worker.step_once)
        self.reset_requested.connect(self.worker.reset)
        self.settings_requested.connect(self.worker.apply_settings)
        self.points_requested.connect(self.worker.set_points)
        self.point_requested.connect(self.worker.add_point)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._redraw_timer.setInterval(REDRAW_MS)
        self._redraw_timer.timeout.connect(self._on_redraw_timer_timeout)
        self._redraw_timer.start()
        self.publish_requested.emit()

    # -- building the widgets ------------------------------------------------------------------------

    def _build_ui(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(8, 8, 8, 8)
        root.setSpacing(6)
        root.addLayout(self._build_toolbar())
        # A status line that is always there (a hint, or a warning to act on), so that a warning
        # coming or going never moves the controls under the mouse.
        status = QHBoxLayout()
        status.setSpacing(4)
        self.hint_label = named(QLabel(HINT), "hintLabel")
        self.hint_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.message_label = named(QLabel(), "messageLabel")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(
            "QLabel { background: #fef7e0; color: #3c2f00; border: 1px solid #f9ab00; border-radius: 4px; "
            "padding: 3px 8px; }")
        self.message_label.setVisible(False)
        self.dismiss_button = named(QToolButton(), "dismissMessageButton", "Dismiss this message")
        self.dismiss_button.setText("✕")
        self.dismiss_button.setAutoRaise(True)
        self.dismiss_button.clicked.connect(self.clear_message)
        self.dismiss_button.setVisible(False)
        status.addWidget(self.hint_label, 1)
        status.addWidget(self.message_label, 1)
        status.addWidget(self.dismiss_button)
        holder = QWidget()
        holder.setLayout(status)
        status.setContentsMargins(0, 0, 0, 0)
        holder.setMinimumHeight(self.message_label.fontMetrics().height() + 12)
        root.addWidget(holder)

        body = QHBoxLayout()
        body.setSpacing(8)
        body.addWidget(self._scrolling(self._build_data_column(), 215))
        body.addWidget(self._scrolling(self._build_network_column(), 265))
        body.addWidget(self._build_boundary_column(), 6)
        body.addWidget(self._build_output_column(), 4)
        root.addLayout(body, 1)

    @staticmethod
    def _scrolling(widget: QWidget, width: int) -> QScrollArea:
        """A column that scrolls up and down on a short screen; never narrower than its widest control
        plus a scroll bar, so nothing is cut off on the right."""
        area = QScrollArea()
        area.setWidget(widget)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll_bar = area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        area.setFixedWidth(max(width, widget.minimumSizeHint().width() + scroll_bar))
        return area

    def _build_toolbar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        bar.setSpacing(6)
        self.play_button = named(QPushButton("▶  Play"), "playButton", "Train continuously; press again to pause")
        self.play_button.setCheckable(True)
        self.play_button.setMinimumWidth(96)
        bold = QFont(self.play_button.font())
        bold.setBold(True)
        self.play_button.setFont(bold)
        self.play_button.toggled.connect(self._on_play_button_toggled)
        self.step_button = named(QPushButton("Step"), "stepButton", "Train one step")
        self.step_button.clicked.connect(self._on_step_button_clicked)
        self.reset_button = named(QPushButton("Reset"), "resetButton",
                                  "Stop and go back to the initial weights (the data stays)")
        self.reset_button.clicked.connect(self._on_reset_button_clicked)
        for widget in (self.play_button, self.step_button, self.reset_button):
            bar.addWidget(widget)
        bar.addSpacing(12)
        self.step_label = named(QLabel("Step 0"), "stepLabel", "Training steps since the weights were reset")
        self.step_label.setFont(bold)
        _fix_size(self.step_label, "Step 000,000,000")
        bar.addWidget(self.step_label)
        self.speed_label = named(QLabel("0 steps/s"), "speedLabel", "Training steps per second")
        _fix_size(self.speed_label, "00,000 steps/s")
        bar.addWidget(self.speed_label)
        bar.addSpacing(12)
        bar.addWidget(QLabel("Speed"))
        self.speed_combo = named(QComboBox(), "speedCombo", "Training steps between two redraws")
        for steps in SPEEDS:
            self.speed_combo.addItem(f"{steps} step{'s' if steps > 1 else ''} / frame", steps)
        self.speed_combo.currentIndexChanged.connect(self._on_control_edited)
        bar.addWidget(self.speed_combo)
        bar.addStretch(1)
        self.animate_button = named(QPushButton("Animate backward…"), "animateNetworkButton",
                                    "Step through the backward pass of this network on one batch, layer by layer")
        self.animate_button.clicked.connect(self.animate_backward_requested)
        bar.addWidget(self.animate_button)
        self.compare_button = named(QPushButton("Compare optimizers…"), "compareOptimizersButton",
                                    "Race SGD, momentum and Adam from the same initial weights on this data")
        self.compare_button.clicked.connect(self._on_compare_button_clicked)
        bar.addWidget(self.compare_button)
        # A push button draws its menu arrow beside the text (a tool button's overlaps it).
        self.export_button = named(QPushButton("Export"), "exportButton", "Save the plots, the weights or the data")
        menu = QMenu(self.export_button)
        for plot in PLOTS:
            for suffix in ("png", "svg"):
                action = QAction(f"{plot.capitalize()} plot as {suffix.upper()}…", menu)
                action.triggered.connect(lambda _=False, p=plot, s=suffix: self._on_export_plot_triggered(p, s))
                menu.addAction(action)
        menu.addSeparator()
        menu.addAction("Weights as JSON…", self._on_export_weights_triggered)
        menu.addAction("Dataset as CSV…", self._on_export_dataset_triggered)
        self.export_button.setMenu(menu)
        bar.addWidget(self.export_button)
        return bar

    def _build_data_column(self) -> QWidget:
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 4, 0)

        data = QGroupBox("DATA")
        form = QFormLayout(data)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.dataset_combo = named(QComboBox(), "datasetCombo", "Which dataset to learn")
        for key, title in DATASETS.items():
            if key != "csv":
                self.dataset_combo.addItem(title, key)
        self.dataset_combo.currentIndexChanged.connect(self._on_control_edited)
        form.addRow(self.dataset_combo)
        self.load_csv_button = named(QPushButton("Load CSV…"), "loadCsvButton",
                                     "Train on your own points: rows of x1,x2,label with two labels")
        self.load_csv_button.clicked.connect(self._on_load_csv_button_clicked)
        form.addRow(self.load_csv_button)
        self.points_spin = named(QSpinBox(), "pointsSpin", "Number of points (train and test)")
        self.points_spin.setRange(10, 2000)
        self.points_spin.setSingleStep(10)
        self.points_spin.setKeyboardTracking(False)
        self.points_spin.valueChanged.connect(self._on_control_edited)
        form.addRow("Points", self.points_spin)
        self.noise_slider, self.noise_value = self._slider("noiseSlider", "Noise added to the points", 0, 50)
        form.addRow("Noise", self._with_value(self.noise_slider, self.noise_value))
        self.test_slider, self.test_value = self._slider("testFractionSlider",
                                                          "Share of the points kept for testing", 10, 90)
        form.addRow("Test", self._with_value(self.test_slider, self.test_value))
        self.seed_spin = named(QSpinBox(), "seedSpin", "Seed for the data, the split and the initial weights")
        self.seed_spin.setRange(0, 999_999)
        self.seed_spin.setKeyboardTracking(False)
        self.seed_spin.valueChanged.connect(self._on_control_edited)
        form.addRow("Seed", self.seed_spin)
        self.regenerate_button = named(QPushButton("Regenerate"), "regenerateButton",
                                       "New random data (the next seed) and new initial weights")
        self.regenerate_button.clicked.connect(self._on_regenerate_button_clicked)
        form.addRow(self.regenerate_button)
        layout.addWidget(data)

        features = QGroupBox("FEATURES")
        grid = QGridLayout(features)
        self.feature_checks: dict[str, QCheckBox] = {}
        for index, (key, title) in enumerate(FEATURES.items()):
            check = named(QCheckBox(title), FEATURE_OBJECT_NAMES[key], f"Feed {title} to the network")
            check.toggled.connect(self._on_feature_check_toggled)
            self.feature_checks[key] = check
            grid.addWidget(check, index // 2, index % 2)
        layout.addWidget(features)

        clicks = QGroupBox("CLICK ON THE PLOT")
        box = QVBoxLayout(clicks)
        hint = QLabel("adds a training point of this class (Shift-click: the other one)")
        hint.setWordWrap(True)
        box.addWidget(hint)
        self.click_class_group = QButtonGroup(self)
        for label, (name, title) in enumerate((("clickClass0Radio", "orange"), ("clickClass1Radio", "blue"))):
            radio = named(QRadioButton(f"● {title}"), name, f"Clicks add {title} points (label {label})")
            palette = radio.palette()  # the text in the class's colour; the rest follows the theme
            palette.setColor(QPalette.ColorRole.WindowText, QColor(CLASS_COLOURS[label]))
            radio.setPalette(palette)
            bold = QFont(radio.font())
            bold.setBold(True)
            radio.setFont(bold)
            self.click_class_group.addButton(radio, label)
            box.addWidget(radio)
        self.click_class_group.button(1).setChecked(True)
        layout.addWidget(clicks)
        layout.addStretch(1)
        return column

    def _slider(self, name: str, tip: str, low: int, high: int) -> tuple[QSlider, QLabel]:
        slider = named(QSlider(Qt.Orientation.Horizontal), name, tip)
        slider.setRange(low, high)
        slider.valueChanged.connect(self._on_control_edited)
        value = QLabel()
        value.setMinimumWidth(34)
        value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return slider, value

    @staticmethod
    def _with_value(slider: QSlider, value: QLabel) -> QWidget:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(slider, 1)
        row.addWidget(value)
        return holder

    def _build_network_column(self) -> QWidget:
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 4, 0)

        network = QGroupBox("NETWORK")
        box = QVBoxLayout(network)
        self.architecture_label = named(QLabel(), "architectureLabel", "Inputs → hidden neurons → output")
        font = QFont(self.architecture_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.architecture_label.setFont(font)
        self.architecture_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.architecture_label.setWordWrap(True)  # six hidden layers do not fit on one line
        box.addWidget(self.architecture_label)
        buttons = QHBoxLayout()
        self.add_layer_button = named(QPushButton("+ layer"), "addLayerButton", "Add a hidden layer")
        self.add_layer_button.clicked.connect(self._on_add_layer_button_clicked)
        self.remove_layer_button = named(QPushButton("− layer"), "removeLayerButton", "Remove the last hidden layer")
        self.remove_layer_button.clicked.connect(self._on_remove_layer_button_clicked)
        buttons.addWidget(self.add_layer_button)
        buttons.addWidget(self.remove_layer_button)
        box.addLayout(buttons)
        self.layers_form = QFormLayout()
        box.addLayout(self.layers_form)
        self.layer_spins: list[QSpinBox] = []
        form = QFormLayout()
        self.activation_combo = named(QComboBox(), "activationCombo", "The hidden layers' activation")
        for key, title in ACTIVATIONS.items():
            self.activation_combo.addItem(title, key)
        self.activation_combo.currentIndexChanged.connect(self._on_control_edited)
        form.addRow("Activation", self.activation_combo)
        box.addLayout(form)
        layout.addWidget(network)

        training = QGroupBox("TRAINING")
        form = QFormLayout(training)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.loss_combo = named(QComboBox(), "lossCombo", "What the training minimises")
        for key, title in LOSSES.items():
            self.loss_combo.addItem(title, key)
        self.loss_combo.currentIndexChanged.connect(self._on_control_edited)
        form.addRow("Loss", self.loss_combo)
        self.optimizer_combo = named(QComboBox(), "optimizerCombo", "How the weights follow the gradient")
        for key, title in OPTIMIZERS.items():
            self.optimizer_combo.addItem(title, key)
        self.optimizer_combo.currentIndexChanged.connect(self._on_control_edited)
        form.addRow("Optimizer", self.optimizer_combo)
        self.learning_rate_input = named(LogSpinBox(), "learningRateInput",
                                         "Learning rate; the arrows step on a log scale (0.001, 0.003, 0.01, …)")
        self.learning_rate_input.valueChanged.connect(self._on_learning_rate_input_changed)
        form.addRow("Learning rate", self.learning_rate_input)
        self.learning_rate_slider = named(QSlider(Qt.Orientation.Horizontal), "learningRateSlider",
                                          "Learning rate on a log scale, 0.00001 to 10")
        self.learning_rate_slider.setRange(-100, 20)  # 20 ticks per decade: 10^(value / 20)
        self.learning_rate_slider.valueChanged.connect(self._on_learning_rate_slider_changed)
        form.addRow("", self.learning_rate_slider)
        self.momentum_input = named(QDoubleSpinBox(), "momentumInput", "Momentum of SGD + momentum")
        self.momentum_input.setRange(0.0, 0.99)
        self.momentum_input.setSingleStep(0.05)
        self.momentum_input.setKeyboardTracking(False)
        self.momentum_input.valueChanged.connect(self._on_control_edited)
        form.addRow("Momentum", self.momentum_input)
        self.weight_decay_input = named(QDoubleSpinBox(), "weightDecayInput", "L2 weight decay (0: none)")
        self.weight_decay_input.setRange(0.0, 1.0)
        self.weight_decay_input.setDecimals(4)
        self.weight_decay_input.setSingleStep(0.001)
        self.weight_decay_input.setKeyboardTracking(False)
        self.weight_decay_input.valueChanged.connect(self._on_control_edited)
        form.addRow("L2 decay", self.weight_decay_input)
        self.batch_size_spin = named(QSpinBox(), "batchSizeSpin", "Points per step (Full batch: all of them)")
        self.batch_size_spin.setRange(0, 2000)
        self.batch_size_spin.setSpecialValueText("Full batch")
        self.batch_size_spin.setKeyboardTracking(False)
        self.batch_size_spin.valueChanged.connect(self._on_control_edited)
        form.addRow("Batch size", self.batch_size_spin)
        layout.addWidget(training)
        layout.addStretch(1)
        return column

    def _build_boundary_column(self) -> QWidget:
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("DECISION BOUNDARY")
        title.setFont(self._heading_font())
        layout.addWidget(title)
        self.boundary_plot = named(pg.PlotWidget(), "boundaryPlot",
                                   "P(blue) over the plane; the line is p = 0.5. Click: add a point")
        style_plot(self.boundary_plot, self.palette())
        self.boundary = BoundaryView(self.boundary_plot)
        self.boundary_plot.scene().sigMouseClicked.connect(self._on_boundary_plot_clicked)
        layout.addWidget(SquareHolder(self.boundary_plot), 1)
        legend = QLabel(
            f"<span style='color:{CLASS_COLOURS[0]}'>●</span><span style='color:{CLASS_COLOURS[1]}'>●</span> "
            f"train &nbsp; <span style='color:{CLASS_COLOURS[0]}'>▲</span><span style='color:{CLASS_COLOURS[1]}'>▲"
            "</span> test &nbsp; <span style='color:#d93025'>◯</span> misclassified &nbsp; "
            "<b>—</b> p = 0.5")
        legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(legend)
        return column

    def _build_output_column(self) -> QWidget:
        column = QWidget()
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("OUTPUT")
        title.setFont(self._heading_font())
        layout.addWidget(title)
        self.accuracy_label = named(QLabel("Test accuracy –"), "accuracyLabel", "Accuracy on the test points")
        big = QFont(self.accuracy_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.6)
        big.setBold(True)
        self.accuracy_label.setFont(big)
        _fix_size(self.accuracy_label, "Test accuracy 100.0%")
        layout.addWidget(self.accuracy_label)
        figures = QGridLayout()
        figures.setHorizontalSpacing(10)
        self.figure_labels: dict[str, QLabel] = {}
        for row, (key, title) in enumerate((("train_accuracy", "train accuracy"), ("train_loss", "train loss"),
                                            ("test_loss", "test loss"))):
            figures.addWidget(QLabel(title), row, 0)
            value = named(QLabel("–"), f"{key.replace('_a', 'A').replace('_l', 'L')}Label", title)
            _fix_size(value, "0.000000000")
            self.figure_labels[key] = value
            figures.addWidget(value, row, 1)
        figures.setColumnStretch(2, 1)
        layout.addLayout(figures)

        self.loss_plot = named(pg.PlotWidget(), "lossPlot", "Loss per step; hover for the values")
        style_plot(self.loss_plot, self.palette())
        item = self.loss_plot.getPlotItem()
        item.setMouseEnabled(False, False)
        item.setLabel("left", "loss")
        item.getAxis("left").setWidth(AXIS_WIDTH)
        item.setLabel("bottom", "step")
        item.enableAutoRange(axis="xy", enable=False)  # ranges move in nice jumps: see _draw_curves
        item.showGrid(True, True, alpha=0.25)
        item.addLegend(offset=(-8, 8), labelTextColor=self.palette().color(self.palette().ColorRole.Text))
        self.train_loss_curve = item.plot(pen=pg.mkPen(CURVE_COLOURS["train"], width=2), name="train")
        self.test_loss_curve = item.plot(pen=pg.mkPen(CURVE_COLOURS["test"], width=2), name="test")
        for curve in (self.train_loss_curve, self.test_loss_curve):
            curve.setClipToView(True)
            curve.setDownsampling(auto=True, method="peak")
        self.loss_readout = _Readout(self.loss_plot, self._loss_text)
        layout.addWidget(self.loss_plot, 3)
        self.log_scale_check = named(QCheckBox("Log scale"), "lossLogCheck", "Show the loss on a log scale")
        self.log_scale_check.toggled.connect(self._on_log_scale_check_toggled)
        self.log_scale_check.setChecked(True)  # a loss falling from 0.7 to 0.0001 reads best in decades
        layout.addWidget(self.log_scale_check)

        self.accuracy_plot = named(pg.PlotWidget(), "accuracyPlot", "Accuracy per step; hover for the values")
        style_plot(self.accuracy_plot, self.palette())
        item = self.accuracy_plot.getPlotItem()
        item.setMouseEnabled(False, False)
        item.setLabel("left", "accuracy %")
        item.getAxis("left").setWidth(AXIS_WIDTH)
        item.setLabel("bottom", "step")
        item.showGrid(True, True, alpha=0.25)
        item.setYRange(0, 100, padding=0.02)
        item.enableAutoRange(axis="xy", enable=False)
        item.addLegend(offset=(-8, -8), labelTextColor=self.palette().color(self.palette().ColorRole.Text))
        self.train_accuracy_curve = item.plot(pen=pg.mkPen(CURVE_COLOURS["train"], width=2), name="train")
        self.test_accuracy_curve = item.plot(pen=pg.mkPen(CURVE_COLOURS["test"], width=2), name="test")
        self.accuracy_readout = _Readout(self.accuracy_plot, self._accuracy_text)
        layout.addWidget(self.accuracy_plot, 2)
        return column

    def _heading_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 108)
        return font

    # -- settings <-> controls -----------------------------------------------------------------------

    def _show_settings(self, s: TrainingSettings) -> None:
        """Put ``s`` into the controls without sending anything."""
        controls = (self.dataset_combo, self.points_spin, self.noise_slider, self.test_slider, self.seed_spin,
                    self.activation_combo, self.loss_combo, self.optimizer_combo, self.learning_rate_input,
                    self.learning_rate_slider, self.momentum_input, self.weight_decay_input, self.batch_size_spin,
                    self.speed_combo, *self.feature_checks.values())
        for control in controls:
            control.blockSignals(True)
        try:
            if s.dataset == "csv" and self.dataset_combo.findData("csv") < 0:
                self.dataset_combo.addItem(f"Your CSV: {self._csv_name}", "csv")
            self.dataset_combo.setCurrentIndex(self.dataset_combo.findData(s.dataset))
            self.points_spin.setValue(s.points)
            self.noise_slider.setValue(round(s.noise * 100))
            self.test_slider.setValue(round(s.test_fraction * 100))
            self.seed_spin.setValue(s.seed)
            for key, check in self.feature_checks.items():
                check.setChecked(key in s.features)
            self.activation_combo.setCurrentIndex(self.activation_combo.findData(s.activation))
            self.loss_combo.setCurrentIndex(self.loss_combo.findData(s.loss))
            self.optimizer_combo.setCurrentIndex(self.optimizer_combo.findData(s.optimizer))
            self.learning_rate_input.setValue(s.learning_rate)
            self.learning_rate_slider.setValue(round(20 * math.log10(s.learning_rate)))
            self.momentum_input.setValue(s.momentum)
            self.weight_decay_input.setValue(s.weight_decay)
            self.batch_size_spin.setValue(s.batch_size or 0)
            speed = self.speed_combo.findData(s.steps_per_frame)
            if speed < 0:
                self.speed_combo.addItem(f"{s.steps_per_frame} steps / frame", s.steps_per_frame)
                speed = self.speed_combo.count() - 1
            self.speed_combo.setCurrentIndex(speed)
            self._show_layers(s.hidden)
        finally:
            for control in controls:
                control.blockSignals(False)
        self._show_dependent(s)

    def _show_layers(self, hidden: tuple[int, ...]) -> None:
        while len(self.layer_spins) > len(hidden):
            self.layers_form.removeRow(self.layers_form.rowCount() - 1)
            self.layer_spins.pop()
        while len(self.layer_spins) < len(hidden):
            index = len(self.layer_spins)
            spin = named(QSpinBox(), f"layer{index + 1}Spin", f"Neurons in hidden layer {index + 1}")
            spin.setRange(1, MAX_NEURONS)
            spin.setKeyboardTracking(False)
            spin.setSuffix(" neurons")
            spin.setMinimumWidth(110)
            spin.valueChanged.connect(self._on_control_edited)
            self.layer_spins.append(spin)
            self.layers_form.addRow(f"Layer {index + 1}", spin)
        for spin, size in zip(self.layer_spins, hidden):
            spin.blockSignals(True)
            spin.setValue(size)
            spin.blockSignals(False)

    def _show_dependent(self, s: TrainingSettings) -> None:
        csv = s.dataset == "csv"
        self.points_spin.setEnabled(not csv)
        self.noise_slider.setEnabled(not csv)
        self.noise_value.setText(f"{s.noise:.2f}")
        self.test_value.setText(f"{round(s.test_fraction * 100)}%")
        self.momentum_input.setEnabled(s.optimizer == "momentum")
        self.add_layer_button.setEnabled(len(s.hidden) < MAX_LAYERS)
        self.remove_layer_button.setEnabled(len(s.hidden) > 0)
        self.activation_combo.setEnabled(len(s.hidden) > 0)  # no hidden layer, no activation
        self.architecture_label.setText(s.architecture())

    def _settings_from_controls(self) -> TrainingSettings:
        return TrainingSettings(
            dataset=self.dataset_combo.currentData(),
            points=self.points_spin.value(),
            noise=self.noise_slider.value() / 100,
            test_fraction=self.test_slider.value() / 100,
            seed=self.seed_spin.value(),
            features=tuple(key for key, check in self.feature_checks.items() if check.isChecked()),
            hidden=tuple(spin.value() for spin in self.layer_spins),
            activation=self.activation_combo.currentData(),
            loss=self.loss_combo.currentData(),
            optimizer=self.optimizer_combo.currentData(),
            learning_rate=self.learning_rate_input.value(),
            momentum=self.momentum_input.value(),
            weight_decay=self.weight_decay_input.value(),
            batch_size=self.batch_size_spin.value() or None,
            steps_per_frame=self.speed_combo.currentData(),
        )

    def set_settings(self, settings: TrainingSettings) -> None:
        """Show ``settings`` in the controls and send them to the worker."""
        if settings.dataset == "csv" and self.dataset_combo.findData("csv") < 0:
            raise ValueError("load a CSV before choosing the 'csv' dataset")
        self._show_settings(settings)
        self._request_settings(settings)

    def _request_settings(self, settings: TrainingSettings) -> None:
        self._show_dependent(settings)
        if settings == self.settings:
            return
        self.settings = settings
        self.settings_requested.emit(settings)

    # -- control slots -------------------------------------------------------------------------------

    @Slot()
    def _on_control_edited(self, *_) -> None:
        self._request_settings(self._settings_from_controls())

    @Slot(bool)
    def _on_feature_check_toggled(self, checked: bool) -> None:
        if not any(check.isChecked() for check in self.feature_checks.values()):
            sender = self.sender()
            sender.blockSignals(True)
            sender.setChecked(True)
            sender.blockSignals(False)
            self.show_message("The network needs at least one input feature.")
            return
        self._on_control_edited()

    @Slot(float)
    def _on_learning_rate_input_changed(self, value: float) -> None:
        self.learning_rate_slider.blockSignals(True)
        self.learning_rate_slider.setValue(round(20 * math.log10(value)))
        self.learning_rate_slider.blockSignals(False)
        self._on_control_edited()

    @Slot(int)
    def _on_learning_rate_slider_changed(self, value: int) -> None:
        rate = float(f"{10 ** (value / 20):.3g}")
        self.learning_rate_input.blockSignals(True)
        self.learning_rate_input.setValue(rate)
        self.learning_rate_input.blockSignals(False)
        self._on_control_edited()

    @Slot()
    def _on_add_layer_button_clicked(self) -> None:
        hidden = self.settings.hidden
        if len(hidden) < MAX_LAYERS:
            self._show_layers((*hidden, hidden[-1] if hidden else 4))
            self._on_control_edited()

    @Slot()
    def _on_remove_layer_button_clicked(self) -> None:
        if self.settings.hidden:
            self._show_layers(self.settings.hidden[:-1])
            self._on_control_edited()

    @Slot()
    def _on_regenerate_button_clicked(self) -> None:
        self.seed_spin.setValue((self.seed_spin.value() + 1) % (self.seed_spin.maximum() + 1))

    @Slot(bool)
    def _on_play_button_toggled(self, checked: bool) -> None:
        if checked:
            self.play()
        else:
            self.pause()

    @Slot()
    def _on_step_button_clicked(self) -> None:
        self.pause()
        self.clear_message()
        self.step_requested.emit()

    @Slot()
    def _on_reset_button_clicked(self) -> None:
        self.pause()
        self.clear_message()
        self.reset_requested.emit()

    @Slot(bool)
    def _on_log_scale_check_toggled(self, checked: bool) -> None:
        self.loss_plot.getPlotItem().setLogMode(y=checked)
        self._loss_axis_range = None
        self._curves_dirty = True

    @Slot(object)
    def _on_boundary_plot_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._data is None:
            return
        vb = self.boundary_plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        x0, x1, y0, y1 = self._data.data.extent
        if not (x0 <= point.x() <= x1 and y0 <= point.y() <= y1):
            return
        self.add_point(point.x(), point.y(), shift=bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))

    def add_point(self, x1: float, x2: float, shift: bool = False) -> None:
        """Add a training point of the selected class (the other one with ``shift``) at (x1, x2)."""
        label = self.click_class_group.checkedId()
        if shift:
            label = 1 - label
        self.point_requested.emit(float(x1), float(x2), int(label))

    @Slot()
    def _on_load_csv_button_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Load points", "", "CSV files (*.csv *.txt);;All files (*)")
        if path:
            self.load_csv(path)

    @Slot()
    def _on_compare_button_clicked(self) -> None:
        from .compare import CompareDialog

        if self._data is None:
            return
        self.pause()
        if self._compare_dialog is not None:
            self._compare_dialog.shutdown()
            self._compare_dialog.deleteLater()
        self._compare_dialog = CompareDialog(self.settings, self._data.data, self)
        self._compare_dialog.show()
        self._compare_dialog.start()

    # -- public actions ------------------------------------------------------------------------------

    @property
    def is_playing(self) -> bool:
        return self._playing

    def play(self) -> None:
        if self._shut_down or self._playing:
            self._sync_play_button()
            return
        self._playing = True
        self.clear_message()
        self._sync_play_button()
        self.start_requested.emit()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        if not self._playing:
            self._sync_play_button()
            return
        self._playing = False
        self.worker.request_stop()  # takes effect before the worker's next step
        self._sync_play_button()
        self.pause_requested.emit()
        self.playing_changed.emit(False)

    def _sync_play_button(self) -> None:
        self.play_button.blockSignals(True)
        self.play_button.setChecked(self._playing)
        self.play_button.setText("❚❚  Pause" if self._playing else "▶  Play")
        self.play_button.blockSignals(False)

    def load_csv(self, path: str | Path) -> bool:
        """Train on the points in a CSV file; a file that cannot be used is refused with a message
        and the current data stays."""
        try:
            X, y = load_points(path)
        except (OSError, ValueError) as error:
            name = Path(path).name
            message = (error.strerror or str(error)) if isinstance(error, OSError) else str(error)
            if not message.startswith(name):
                message = f"{name}: {message}"
            self.show_message(f"Could not use {message}. The current data is unchanged.")
            return False
        self._csv_name = Path(path).name
        index = self.dataset_combo.findData("csv")
        if index >= 0:
            self.dataset_combo.setItemText(index, f"Your CSV: {self._csv_name}")
        self.settings = replace(self.settings, dataset="csv")
        self._show_settings(self.settings)
        self.clear_message()
        self.points_requested.emit(X, y, self._csv_name)
        return True

    def show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self._show_message_row(True)
        self.message_shown.emit(text)

    def clear_message(self) -> None:
        self.message_label.clear()
        self._show_message_row(False)

    def _show_message_row(self, warning: bool) -> None:
        self.hint_label.setVisible(not warning)
        self.message_label.setVisible(warning)
        self.dismiss_button.setVisible(warning)

    @property
    def message(self) -> str:
        return self.message_label.text() if self.message_label.isVisible() else ""

    @property
    def step(self) -> int:
        return self._progress.metrics.step if self._progress else 0

    @property
    def test_accuracy(self) -> float | None:
        return self._progress.metrics.test_accuracy if self._progress else None

    @property
    def data(self):
        """The points the worker last reported (`SplitData`), or None before the first report."""
        return self._data.data if self._data else None

    @property
    def boundary_redraws(self) -> int:
        return self.boundary.redraws

    def weights(self) -> dict[str, np.ndarray] | None:
        """The weights of the boundary last received (a copy made in the worker)."""
        return self._frame.state if self._frame else None

    @property
    def weights_step(self) -> int | None:
        """The step of those weights (the boundary follows the step count by up to one frame)."""
        return self._frame.step if self._frame else None

    def network_snapshot(self) -> NetworkSnapshot | None:
        """A copy of the network with the weights last drawn, and the batch it trains on; None before
        the first drawing."""
        if self._frame is None or self._data is None:
            return None
        return network_snapshot(self._frame.settings, self._frame.state, self._frame.step, self._data.data)

    def export_plot(self, which: str, path: str | Path) -> None:
        """``which`` is 'boundary', 'loss' or 'accuracy'; PNG or SVG by the extension."""
        plots = {"boundary": self.boundary_plot, "loss": self.loss_plot, "accuracy": self.accuracy_plot}
        self._redraw(force=True)
        export_plot(plots[which], path)

    def export_weights(self, path: str | Path) -> None:
        if self._frame is None:
            raise RuntimeError("no weights yet")
        document = weights_document(self._frame.settings, self._frame.state, self._frame.step)
        write_atomic(path, json.dumps(document, indent=1) + "\n")

    def export_dataset(self, path: str | Path) -> None:
        if self._data is None:
            raise RuntimeError("no data yet")
        X, y = self._data.data.all_points()
        save_csv(path, X, y)

    def _on_export_plot_triggered(self, which: str, suffix: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export the {which} plot", f"{which}.{suffix}",
                                              f"{suffix.upper()} (*.{suffix})")
        if path:
            self._export(lambda: self.export_plot(which, path), path)

    def _on_export_weights_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the weights", "weights.json", "JSON (*.json)")
        if path:
            self._export(lambda: self.export_weights(path), path)

    def _on_export_dataset_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the dataset", "dataset.csv", "CSV (*.csv)")
        if path:
            self._export(lambda: self.export_dataset(path), path)

    def _export(self, action, path: str) -> None:
        try:
            action()
        except (OSError, ValueError, RuntimeError) as error:
            self.show_message(f"Could not export to {Path(path).name}: {error}")

    # -- what the worker reports ---------------------------------------------------------------------

    @Slot(object)
    def _on_worker_progressed(self, progress: Progress) -> None:
        if progress.run < self._run:
            return
        self._progress = progress
        self._history.add(progress.metrics)
        self._progress_dirty = self._curves_dirty = True

    @Slot(object)
    def _on_worker_boundary_updated(self, frame: BoundaryFrame) -> None:
        if frame.run < self._run:
            return
        self._frame = frame
        self._frame_dirty = True

    @Slot(object)
    def _on_worker_data_changed(self, frame: DataFrame) -> None:
        self._data = frame
        d = frame.data
        if frame.settings.dataset == "csv":  # the box says how many points the file has
            with QSignalBlocker(self.points_spin):
                self.points_spin.setValue(len(d.X_train) + len(d.X_test))
        self.boundary.set_extent(d.extent)
        self.boundary.set_points(d.X_train, d.y_train, d.X_test, d.y_test)

    @Slot(int, str)
    def _on_worker_model_reset(self, run: int, why: str) -> None:
        self._run = run
        self._step_axis_end = dict.fromkeys(CURVE_PLOTS, 0.0)
        self._clear_curves()
        self._progress = None
        self._frame = None
        self._curves_dirty = self._progress_dirty = True

    @Slot(object, object)
    def _on_worker_settings_applied(self, settings: TrainingSettings, change) -> None:
        if settings.loss != self._curves_loss:  # another loss is another unit: its curves start afresh
            self._curves_loss = settings.loss
            self._clear_curves()
            self._curves_dirty = True
        self.last_change = change

    def _clear_curves(self) -> None:
        self._loss_axis_range = None
        self._history.clear()
        for readout in (self.loss_readout, self.accuracy_readout):
            readout.hide()

    @Slot(str)
    def _on_worker_diverged(self, message: str) -> None:
        if self._playing:
            self._playing = False
            self._sync_play_button()
            self.playing_changed.emit(False)
        self.show_message(message)

    @Slot(str, str)
    def _on_worker_failed(self, summary: str, details: str) -> None:
        if self._playing:
            self._playing = False
            self._sync_play_button()
            self.playing_changed.emit(False)
        self.show_message(f"Training stopped: {summary}")

    # -- painting ------------------------------------------------------------------------------------

    @Slot()
    def _on_redraw_timer_timeout(self) -> None:
        self._redraw()

    def _redraw(self, force: bool = False) -> None:
        """Paint what changed. The boundary, the loss plot and the accuracy plot take turns (a tick that
        draws the boundary leaves the curves for the next, unless they are overdue, and a tick draws one
        curve plot): Qt paints every plot changed in one pass, and all three together would hold the
        event loop three times as long."""
        drew_boundary = False
        if self._frame_dirty and self._frame is not None:
            self._frame_dirty = False
            frame = self._frame
            self.boundary.set_probability(frame.probability, frame.extent, frame.contour, frame.misclassified)
            drew_boundary = True
        if self._progress_dirty:
            self._progress_dirty = False
            self._show_figures()
        since = time.perf_counter() - self._last_curve_draw
        due = since >= CURVE_REDRAW_S and (not drew_boundary or since >= 3 * CURVE_REDRAW_S)
        if self._curves_dirty:
            self._curves_dirty = False
            self._plots_behind += [p for p in CURVE_PLOTS if p not in self._plots_behind]
        if self._plots_behind and (force or due):
            self._last_curve_draw = time.perf_counter()
            for plot in self._plots_behind if force else self._plots_behind[:1]:
                self._draw_curves(plot)
            self._plots_behind = [] if force else self._plots_behind[1:]

    def _show_figures(self) -> None:
        progress = self._progress
        if progress is None:
            self.step_label.setText("Step 0")
            self.accuracy_label.setText("Test accuracy –")
            for label in self.figure_labels.values():
                label.setText("–")
            return
        m = progress.metrics
        self.step_label.setText(f"Step {m.step:,}")
        self.speed_label.setText(f"{progress.steps_per_second:,.0f} steps/s")
        self.accuracy_label.setText(f"Test accuracy {100 * m.test_accuracy:.1f}%")
        self.figure_labels["train_accuracy"].setText(f"{100 * m.train_accuracy:.1f}%")
        self.figure_labels["train_loss"].setText(f"{m.train_loss:.4g}")
        self.figure_labels["test_loss"].setText(f"{m.test_loss:.4g}")

    def _draw_curves(self, which: str) -> None:
        """Put the whole history on the loss or the accuracy plot."""
        h = self._history
        steps = h.steps
        plot = self.loss_plot if which == "loss" else self.accuracy_plot
        # The step axis grows in nice jumps (100, 200, 500, 1000, ...), not on every redraw: a new
        # range means new tick labels to lay out, the costliest part of painting a plot.
        right = _nice_ceiling(max(float(steps[-1]) if len(steps) else 0.0, 100.0))
        if right != self._step_axis_end[which]:
            self._step_axis_end[which] = right
            plot.getPlotItem().setXRange(0, right, padding=0.02)
        if which == "loss":
            self._draw_loss_axis()
            self.loss_readout.steps = steps.copy()
            floor = 1e-12 if self.log_scale_check.isChecked() else -np.inf  # log of 0 has no place on the plot
            curves = ((self.train_loss_curve, np.maximum(h.column(1), floor)),
                      (self.test_loss_curve, np.maximum(h.column(2), floor)))
        else:
            self.accuracy_readout.steps = steps.copy()
            curves = ((self.train_accuracy_curve, 100 * h.column(3)), (self.test_accuracy_curve, 100 * h.column(4)))
        symbol = "o" if len(steps) == 1 else None  # one report is a dot, not yet a line
        for (curve, values), colour in zip(curves, (CURVE_COLOURS["train"], CURVE_COLOURS["test"])):
            curve.setData(steps, values)
            if curve.opts["symbol"] != symbol:
                curve.setSymbol(symbol)
                curve.setSymbolBrush(colour)
                curve.setSymbolPen(colour)
                curve.setSymbolSize(6)

    def _draw_loss_axis(self) -> None:
        """The loss axis in whole decades (log scale) or up to a nice number, changed only when it must."""
        h = self._history
        losses = np.concatenate([h.column(1), h.column(2)])
        losses = losses[np.isfinite(losses)]
        if self.log_scale_check.isChecked():
            positive = losses[losses > 0]
            low, high = ((math.floor(math.log10(max(positive.min(), 1e-12))), math.ceil(math.log10(positive.max())))
                         if len(positive) else (-3, 0))
            y_range = (low, max(high, low + 1))
        else:
            y_range = (0.0, _nice_ceiling(max(float(losses.max()) if len(losses) else 1.0, 1e-6)))
        if y_range != self._loss_axis_range:
            self._loss_axis_range = y_range
            self.loss_plot.getPlotItem().setYRange(*y_range, padding=0.03)

    def _loss_text(self, index: int) -> str:
        h = self._history
        return f"step {h.steps[index]:,.0f}\ntrain loss {h.column(1)[index]:.4g}\ntest loss  {h.column(2)[index]:.4g}"

    def _accuracy_text(self, index: int) -> str:
        h = self._history
        return (f"step {h.steps[index]:,.0f}\ntrain {100 * h.column(3)[index]:.1f}%\n"
                f"test  {100 * h.column(4)[index]:.1f}%")

    # -- the end -------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop training and end the worker thread (waits for it). Safe to call more than once."""
        if self._shut_down:
            return
        self._shut_down = True
        self._playing = False
        self._redraw_timer.stop()
        if self._compare_dialog is not None:
            self._compare_dialog.shutdown()
        for signal in (self.publish_requested, self.start_requested, self.pause_requested, self.step_requested,
                       self.reset_requested, self.settings_requested, self.points_requested, self.point_requested):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):
                pass
        stop_thread(self.worker, self.worker_thread)

    @property
    def is_shut_down(self) -> bool:
        return self._shut_down

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app switched between light and dark
            self._restyle_plots()

    def _restyle_plots(self) -> None:
        palette = self.palette()
        text = palette.color(palette.ColorRole.Text)
        for plot in (self.boundary_plot, self.loss_plot, self.accuracy_plot):
            style_plot(plot, palette)
            legend = plot.getPlotItem().legend
            if legend is not None:
                legend.setLabelTextColor(text)
                for _sample, label in legend.items:  # setLabelTextColor alone leaves drawn labels as they were
                    label.setText(label.text, color=text)
        self.boundary_plot.setBackground(palette.color(palette.ColorRole.Window))  # the margin blends in

    def closeEvent(self, event) -> None:
        self.shutdown()
        super().closeEvent(event)
