"""The training panel's top row: Play / Step / Reset, the step and epoch counts and the speed, the pace
(steps a second, with "Fastest" one click away), when to stop by itself, and the buttons that open
other views (animate backward, compare optimizers, export). Its groups wrap onto a second row
when the tab is narrow (`FlowLayout`)."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMenu, QPushButton, QToolButton, QWidget

from ..common.numbers import format_number
from ..widgets.file_dialogs import FILE_FOLDER
from ..widgets.spoken import ReadOutLabel, own_words
from .flow_layout import FlowLayout
from .model.session import Metrics, epoch_text
from .stop_controls import StopControls
from .widgets import fix_size, named

# Steps a second; None: as fast as the machine goes. 20 a second solves the moons in about five
# seconds, a pace a teacher can talk over; the slow ones show single steps.
PACES = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, None)
PLOTS = ("boundary", "loss", "accuracy")


def pace_text(pace: int | None) -> str:
    return "Fastest" if pace is None else f"{format_number(pace)} step{'s' if pace != 1 else ''}/s"


def group(*widgets: QWidget, spacing: int = 6) -> QWidget:
    """Widgets that stay together on one row of the toolbar."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(spacing)
    for widget in widgets:
        row.addWidget(widget)
    return holder


class TrainingToolbar(QWidget):
    """Buttons say what a person asked for; the panel decides what it means."""

    play_toggled = Signal(bool)
    step_clicked = Signal()
    reset_clicked = Signal()
    speed_changed = Signal()       # the pace or the stop condition: settings the panel sends on
    animate_clicked = Signal()
    compare_clicked = Signal()
    repeat_clicked = Signal()
    export_chosen = Signal(str, str)  # what (a plot's name, "weights" or "dataset"), the file to write

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tf_playground = False  # the TF Playground setting: its epochs first (`set_tf_playground`)
        self._slower_pace = 20  # where "Fastest" goes back to when unpressed
        bar = FlowLayout(self, spacing=12)
        self.play_button = named(QPushButton("▶  Play"), "playButton", "Train continuously; press again to pause")
        self.play_button.setCheckable(True)
        self.play_button.setMinimumWidth(96)
        bold = QFont(self.play_button.font())
        bold.setBold(True)
        self.play_button.setFont(bold)
        self.play_button.toggled.connect(self.play_toggled)
        self.step_button = named(QPushButton("Step"), "stepButton", "Train one step")
        self.step_button.clicked.connect(self.step_clicked)
        self.reset_button = named(QPushButton("Reset"), "resetButton",
                                  "Stop and go back to the initial weights (the data stays)")
        self.reset_button.clicked.connect(self.reset_clicked)
        bar.addWidget(group(self.play_button, self.step_button, self.reset_button))

        # Read-outs: a screen reader reads each as its value ("Step 12"), not as its identifier.
        self.step_label = ReadOutLabel("Step 0", "Step", "stepLabel", "Training steps since the weights were reset")
        self.step_label.setFont(bold)
        fix_size(self.step_label, "Step 000000000")
        self.epoch_label = ReadOutLabel("epoch 0", "epoch", "epochLabel",
                                        "Epochs: training points seen / training points; the batch: points per step")
        fix_size(self.epoch_label, "epoch 00000.0 · batch 0000")
        self.speed_label = ReadOutLabel("0 steps/s", "speed", "speedLabel", "Training steps per second")
        fix_size(self.speed_label, "00000 steps/s")
        bar.addWidget(group(self.step_label, self.epoch_label, self.speed_label, spacing=4))

        self.speed_combo = named(QComboBox(), "speedCombo", "Training steps a second (Fastest: as many as it can)",
                                 spoken="Training speed")
        for pace in PACES:
            self.speed_combo.addItem(pace_text(pace), pace)
        self.speed_combo.currentIndexChanged.connect(self._on_speed_combo_changed)
        self.fastest_button = named(QToolButton(), "fastestButton",
                                    "Train as fast as the machine goes; press again for the pace before",
                                    spoken="Fastest")
        self.fastest_button.setText("▶▶ Fastest")
        self.fastest_button.setCheckable(True)
        self.fastest_button.toggled.connect(self._on_fastest_button_toggled)
        bar.addWidget(group(QLabel("Speed"), self.speed_combo, self.fastest_button, spacing=4))

        self.stop_controls = StopControls()
        self.stop_controls.edited.connect(self.speed_changed)
        bar.addWidget(self.stop_controls)

        self.animate_button = named(QPushButton("Animate backward…"), "animateNetworkButton",
                                    "Step through the backward pass of this network on one batch, layer by layer")
        self.animate_button.clicked.connect(self.animate_clicked)
        self.compare_button = named(QPushButton("Compare optimizers…"), "compareOptimizersButton",
                                    "Race SGD, momentum and Adam from the same initial weights on this data")
        self.compare_button.clicked.connect(self.compare_clicked)
        # The race needs the points, which the worker makes after the tab starts: until they come, the button
        # says so instead of doing nothing when clicked.
        self.compare_button.setEnabled(False)
        self.compare_button.setToolTip("Waiting for the points…")
        self.repeat_button = named(QPushButton("Repeat…"), "repeatRunsButton",
                                   "Train this setup several times, each run from initial weights of its own, and "
                                   "compare the runs (optionally beside a second setup)")
        self.repeat_button.clicked.connect(self.repeat_clicked)
        self.repeat_button.setEnabled(False)
        self.repeat_button.setToolTip("Waiting for the points…")
        # A push button draws its menu arrow beside the text (a tool button's overlaps it).
        self.export_button = named(QPushButton("Export"), "exportButton", "Save the plots, the weights or the data",
                                   spoken="Export plots, weights or data")
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
        bar.addWidget(group(self.animate_button, self.compare_button, self.repeat_button, self.export_button))

    def enable_compare(self) -> None:
        """The points are here: the race can start."""
        for button in (self.compare_button, self.repeat_button):
            button.setEnabled(True)
            button.setToolTip(button.accessibleDescription())

    # -- the pace --

    @property
    def steps_per_second(self) -> int | None:
        return self.speed_combo.currentData()

    def show_steps_per_second(self, pace: int | None) -> None:
        """Select ``pace`` (adding it when it is not one of the usual ones) without signalling."""
        self.speed_combo.blockSignals(True)
        index = self.speed_combo.findData(pace)
        if index < 0:
            self.speed_combo.insertItem(self.speed_combo.count() - 1, pace_text(pace), pace)
            index = self.speed_combo.findData(pace)
        self.speed_combo.setCurrentIndex(index)
        self.speed_combo.blockSignals(False)
        self._show_fastest(pace is None)

    def _show_fastest(self, fastest: bool) -> None:
        self.fastest_button.blockSignals(True)
        self.fastest_button.setChecked(fastest)
        self.fastest_button.blockSignals(False)
        if not fastest:
            self._slower_pace = self.steps_per_second

    @Slot(int)
    def _on_speed_combo_changed(self, _index: int) -> None:
        self._show_fastest(self.steps_per_second is None)
        self.speed_changed.emit()

    @Slot(bool)
    def _on_fastest_button_toggled(self, fastest: bool) -> None:
        self.speed_combo.setCurrentIndex(self.speed_combo.findData(None if fastest else self._slower_pace))

    # -- what it shows --

    def set_tf_playground(self, on: bool) -> None:
        """Count in the TF Playground's epochs first (its "Epoch" is a pass over the training points)."""
        self.tf_playground = on

    def show_playing(self, playing: bool) -> None:
        self.play_button.blockSignals(True)
        self.play_button.setChecked(playing)
        self.play_button.setText("❚❚  Pause" if playing else "▶  Play")
        self.play_button.setAccessibleName(own_words(self.play_button))  # "Pause", not the glyphs
        self.play_button.blockSignals(False)

    def show_progress(self, metrics: Metrics | None, steps_per_second: float | None = None) -> None:
        """The step and epoch counts of ``metrics`` (None: a new network), and the speed. With the TF Playground
        setting the epochs come first, as its Epoch counter (a pass over the training points) counts its steps."""
        step, epoch = (metrics.step, metrics.epoch) if metrics is not None else (0, 0.0)
        full = metrics is not None and metrics.batch == metrics.train_points  # every step sees every point
        batch = "full batch" if full or metrics is None else f"batch {format_number(metrics.batch)}"
        if self.tf_playground:
            self.step_label.setText(f"Epoch {epoch_text(epoch)}")
            self.epoch_label.setText(f"step {format_number(step)} · {batch}")
        else:
            self.step_label.setText(f"Step {format_number(step)}")
            self.epoch_label.setText("epoch 0" if metrics is None else f"epoch {epoch_text(epoch)} · {batch}")
        if steps_per_second is not None:
            self.speed_label.setText(f"{format_number(round(steps_per_second))} steps/s")

    # -- where to export --

    def _on_export_plot_triggered(self, which: str, suffix: str) -> None:
        path = FILE_FOLDER.ask_save_path(self, f"Export the {which} plot", f"{which}.{suffix}",
                                         f"{suffix.upper()} (*.{suffix})")
        if path:
            self.export_chosen.emit(which, path)

    def _on_export_weights_triggered(self) -> None:
        path = FILE_FOLDER.ask_save_path(self, "Export the weights", "weights.json", "JSON (*.json)")
        if path:
            self.export_chosen.emit("weights", path)

    def _on_export_dataset_triggered(self) -> None:
        path = FILE_FOLDER.ask_save_path(self, "Export the dataset", "dataset.csv", "CSV (*.csv)")
        if path:
            self.export_chosen.emit("dataset", path)
