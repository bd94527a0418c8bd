"""When training pauses by itself: once it has learned (the default, `learned.has_learned`), never, or once
the test accuracy (a regression: its test R²), the train loss or the number of epochs reaches a value (the
session checks it after every step, `TrainingSession.train_steps`). The box offers the problem's own figure
only: a regression has no accuracy, a classification no R²."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from .model.settings import STOP_CONDITIONS, STOP_DEFAULTS, STOP_FOR_PROBLEM, TrainingSettings
from .number_boxes import FloatBox, IntBox, LogSpinBox
from .widgets import named


class StopControls(QWidget):
    """"Stop at [Test accuracy ≥] [97 %]": `edited` says the condition changed; `input_clamped` says
    what became of a value typed out of range."""

    edited = Signal()
    input_clamped = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(QLabel("Stop at"))
        self.condition_combo = named(QComboBox(), "stopConditionCombo",
                                     "Pause training by itself: once it has learned, or once a figure reaches "
                                     "a value (Never: train on)", spoken="When training stops by itself")
        for key, title in STOP_CONDITIONS.items():
            self.condition_combo.addItem(title, key)
        self.condition_combo.currentIndexChanged.connect(self._on_condition_combo_changed)
        row.addWidget(self.condition_combo)
        # One box per kind of figure, the chosen one shown: each keeps its own range and value.
        self.accuracy_input = named(FloatBox("Stop accuracy", 1.0, 100.0), "stopAccuracyInput",
                                    "Pause once the test accuracy is at least this")
        self.accuracy_input.setDecimals(1)
        self.accuracy_input.setSuffix(" %")
        self.r2_input = named(FloatBox("Stop R²", 0.01, 1.0), "stopR2Input",
                              "Pause once the R² on the test points is at least this (1: a perfect fit)")
        self.r2_input.setDecimals(2)
        self.r2_input.setSingleStep(0.01)
        self.loss_input = named(LogSpinBox(1e-6, 10.0, 0.01, what="Stop loss"), "stopLossInput",
                                "Pause once the loss on the training points is at most this")
        self.epochs_input = named(IntBox("Stop epochs", 1, 1_000_000), "stopEpochsInput",
                                  "Pause once the network has seen the training points this many times")
        self.epochs_input.setSingleStep(10)
        self.inputs = {"test_accuracy": self.accuracy_input, "test_r2": self.r2_input, "train_loss": self.loss_input,
                       "epochs": self.epochs_input}
        self.accuracy_input.setValue(100 * STOP_DEFAULTS["test_accuracy"])  # a first choice starts somewhere sensible
        self.r2_input.setValue(STOP_DEFAULTS["test_r2"])
        self.epochs_input.setValue(round(STOP_DEFAULTS["epochs"]))
        for box in self.inputs.values():
            box.setMinimumWidth(box.fontMetrics().horizontalAdvance("100.0 %") + 36)
            box.valueChanged.connect(self.edited)
            box.clamped.connect(self.input_clamped)
            row.addWidget(box)
        self.show_settings(TrainingSettings())

    # -- settings <-> controls --

    def values(self) -> dict:
        when = self.condition_combo.currentData()
        if when == "test_accuracy":
            at = round(self.accuracy_input.value() / 100, 6)
        elif when == "test_r2":
            at = round(self.r2_input.value(), 6)
        elif when == "train_loss":
            at = self.loss_input.value()
        elif when == "epochs":
            at = float(self.epochs_input.value())
        else:
            at = 0.0
        return {"stop_when": when, "stop_at": at}

    def show_settings(self, s: TrainingSettings) -> None:
        """Put ``s`` into the controls without signalling."""
        controls = (self.condition_combo, *self.inputs.values())
        for control in controls:
            control.blockSignals(True)
        try:
            self.condition_combo.setCurrentIndex(self.condition_combo.findData(s.stop_when))
            if s.stop_when == "test_accuracy":
                self.accuracy_input.setValue(100 * s.stop_at)
            elif s.stop_when == "test_r2":
                self.r2_input.setValue(s.stop_at)
            elif s.stop_when == "train_loss":
                self.loss_input.setValue(s.stop_at)
            elif s.stop_when == "epochs":
                self.epochs_input.setValue(round(s.stop_at))
        finally:
            for control in controls:
                control.blockSignals(False)
        self._show_chosen_input(s.stop_when)

    def show_dependent(self, s: TrainingSettings) -> None:
        """Offer the problem's own figure to stop at: a test accuracy, or a regression's test R²."""
        view = self.condition_combo.view()
        for problem, key in STOP_FOR_PROBLEM.items():
            view.setRowHidden(self.condition_combo.findData(key), problem != s.problem)

    def _show_chosen_input(self, when: str) -> None:
        for key, box in self.inputs.items():
            box.setVisible(key == when)

    # -- slots --

    @Slot(int)
    def _on_condition_combo_changed(self, _index: int) -> None:
        self._show_chosen_input(self.condition_combo.currentData())
        self.edited.emit()
