"""When training pauses by itself: once it has learned (the default, `learned.has_learned`), never, or once
the test accuracy (a regression: its test R²), the train loss or the number of epochs reaches a value (the
session checks it after every step, `TrainingSession.train_steps`). The box holds the problem's own conditions
only: a regression has no accuracy, a classification no R², so no key, wheel or screen reader can choose the
other's. A condition chosen for the other problem becomes this one's figure, at the value its own box holds
(a person's 97% comes back with the classification), and `condition_converted` says so once the box shows it."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from .model.settings import STOP_DEFAULTS, TrainingSettings, carried_stop, carried_stop_note, stop_conditions
from .number_boxes import FloatBox, IntBox, LogSpinBox
from .widgets import named


class StopControls(QWidget):
    """"Stop at [Test accuracy ≥] [97 %]": `edited` says the condition changed; `input_clamped` says
    what became of a value typed out of range, `condition_converted` what became of a condition the new
    problem does not have."""

    edited = Signal()
    input_clamped = Signal(str)
    condition_converted = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(QLabel("Stop at"))
        self.condition_combo = named(QComboBox(), "stopConditionCombo",
                                     "Pause training by itself: once it has learned, or once a figure reaches "
                                     "a value (Never: train on)", spoken="When training stops by itself")
        self._problem: str | None = None  # whose conditions the box holds (`_offer`)
        self._converting: tuple[str, str, str] | None = None  # (problem, was, became): read, not yet shown
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

    def values(self, problem: str) -> dict:
        """The condition chosen and its value, for ``problem``: the other problem's figure becomes this one's
        own, at the value its box holds (said when the box shows it: `condition_converted`)."""
        chosen = self.condition_combo.currentData()
        when = carried_stop(problem, chosen)
        self._converting = (problem, chosen, when) if when != chosen else None
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
        """Put ``s`` into the controls without signalling (but `condition_converted`, when they show a
        condition `values` converted)."""
        controls = (self.condition_combo, *self.inputs.values())
        for control in controls:
            control.blockSignals(True)
        try:
            self._offer(s.problem)
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
        self._say_conversion(s)

    def show_dependent(self, s: TrainingSettings) -> None:
        """Offer the problem's own conditions (another problem: its list, and a condition it converted said)."""
        if self._problem != s.problem:
            self.show_settings(s)

    def _offer(self, problem: str) -> None:
        """Hold ``problem``'s conditions (in the same order, the chosen one kept where it applies)."""
        if problem == self._problem:
            return
        combo = self.condition_combo
        chosen = combo.currentData()
        was_blocked = combo.blockSignals(True)  # a rebuilt list is no choice of the person's
        try:
            combo.clear()
            for key, title in stop_conditions(problem).items():
                combo.addItem(title, key)
            combo.setCurrentIndex(max(combo.findData(chosen), 0))
        finally:
            combo.blockSignals(was_blocked)
        self._problem = problem

    def _say_conversion(self, s: TrainingSettings) -> None:
        """The box now shows a condition `values` converted for ``s``'s problem: say what became of it."""
        if self._converting is None:
            return
        problem, was, became = self._converting
        self._converting = None
        if (s.problem, s.stop_when) == (problem, became):
            self.condition_converted.emit(carried_stop_note(problem, was, became, s.stop_at))

    def _show_chosen_input(self, when: str) -> None:
        for key, box in self.inputs.items():
            box.setVisible(key == when)

    # -- slots --

    @Slot(int)
    def _on_condition_combo_changed(self, _index: int) -> None:
        self._show_chosen_input(self.condition_combo.currentData())
        self.edited.emit()
