"""The training panel's top row: Play / Step / Reset, the step count and speed, how many steps a
frame, and the buttons that open other views (animate backward, compare optimizers, export)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QMenu, QPushButton, QWidget

from ..numbers import format_number
from .widgets import fix_size, named

SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200)
PLOTS = ("boundary", "loss", "accuracy")


class TrainingToolbar(QWidget):
    """Buttons say what a person asked for; the panel decides what it means."""

    play_toggled = Signal(bool)
    step_clicked = Signal()
    reset_clicked = Signal()
    speed_changed = Signal()
    animate_clicked = Signal()
    compare_clicked = Signal()
    export_chosen = Signal(str, str)  # what (a plot's name, "weights" or "dataset"), the file to write

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(6)
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
        for widget in (self.play_button, self.step_button, self.reset_button):
            bar.addWidget(widget)
        bar.addSpacing(12)
        self.step_label = named(QLabel("Step 0"), "stepLabel", "Training steps since the weights were reset")
        self.step_label.setFont(bold)
        fix_size(self.step_label, "Step 000,000,000")
        bar.addWidget(self.step_label)
        self.speed_label = named(QLabel("0 steps/s"), "speedLabel", "Training steps per second")
        fix_size(self.speed_label, "00,000 steps/s")
        bar.addWidget(self.speed_label)
        bar.addSpacing(12)
        bar.addWidget(QLabel("Speed"))
        self.speed_combo = named(QComboBox(), "speedCombo", "Training steps between two redraws")
        for steps in SPEEDS:
            self.speed_combo.addItem(f"{steps} step{'s' if steps > 1 else ''} / frame", steps)
        self.speed_combo.currentIndexChanged.connect(self.speed_changed)
        bar.addWidget(self.speed_combo)
        bar.addStretch(1)
        self.animate_button = named(QPushButton("Animate backward…"), "animateNetworkButton",
                                    "Step through the backward pass of this network on one batch, layer by layer")
        self.animate_button.clicked.connect(self.animate_clicked)
        bar.addWidget(self.animate_button)
        self.compare_button = named(QPushButton("Compare optimizers…"), "compareOptimizersButton",
                                    "Race SGD, momentum and Adam from the same initial weights on this data")
        self.compare_button.clicked.connect(self.compare_clicked)
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

    # -- the pace --

    @property
    def steps_per_frame(self) -> int:
        return self.speed_combo.currentData()

    def show_steps_per_frame(self, steps: int) -> None:
        """Select ``steps`` (adding it when it is not one of the usual speeds) without signalling."""
        self.speed_combo.blockSignals(True)
        index = self.speed_combo.findData(steps)
        if index < 0:
            self.speed_combo.addItem(f"{steps} steps / frame", steps)
            index = self.speed_combo.count() - 1
        self.speed_combo.setCurrentIndex(index)
        self.speed_combo.blockSignals(False)

    # -- what it shows --

    def show_playing(self, playing: bool) -> None:
        self.play_button.blockSignals(True)
        self.play_button.setChecked(playing)
        self.play_button.setText("❚❚  Pause" if playing else "▶  Play")
        self.play_button.blockSignals(False)

    def show_step(self, step: int | None, steps_per_second: float | None = None) -> None:
        self.step_label.setText(f"Step {format_number(step or 0)}")
        if steps_per_second is not None:
            self.speed_label.setText(f"{format_number(round(steps_per_second))} steps/s")

    # -- where to export --

    def _on_export_plot_triggered(self, which: str, suffix: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export the {which} plot", f"{which}.{suffix}",
                                              f"{suffix.upper()} (*.{suffix})")
        if path:
            self.export_chosen.emit(which, path)

    def _on_export_weights_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the weights", "weights.json", "JSON (*.json)")
        if path:
            self.export_chosen.emit("weights", path)

    def _on_export_dataset_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export the dataset", "dataset.csv", "CSV (*.csv)")
        if path:
            self.export_chosen.emit("dataset", path)
