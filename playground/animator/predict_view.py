"""Predict mode's widgets: the "Predict" toggle, and under the step's arithmetic the question, the
answer field, the verdict and the score. The questions and the scoring are `predict.PredictQuiz`'s.

The panel asks `holds(position)` before it steps forward: while Predict is on and the next step is
one to predict, the box asks instead, and once answered says `reveal_requested(position)`. While
Predict is on, the steps not predicted yet keep their numbers hidden (`predicted` says which are
known); `hiding_changed` says when that changes.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton, QToolButton, QVBoxLayout

from ..widgets.errors import guarded
from ..widgets.meaning_colours import RIGHT, WRONG, set_text_colour
from ..widgets.spoken import VerdictLabel, named_for_reader
from .model.predict import AnswerError, PredictQuiz

_named = named_for_reader


class PredictBox(QFrame):
    reveal_requested = Signal(int)  # the position to go to: the step just predicted
    hiding_changed = Signal()  # Predict went on or off, or a step was predicted: what is hidden changed
    status_message = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        _named(self, "predictBox")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.quiz: PredictQuiz | None = None
        self._pending: int | None = None  # the position whose step waits for an answer

        self.toggle = _named(QToolButton(), "predictToggle", "Predict mode")
        self.toggle.setText("Predict")
        self.toggle.setCheckable(True)
        self.toggle.setToolTip("Predict mode: before each backward step is shown, type what it carries "
                               "(or the new gradient) and see if you were right; the score is kept per graph")
        self.question = _named(QLabel(), "predictQuestion")
        self.question.setWordWrap(True)
        self.input = _named(QLineEdit(), "predictInput", "Your prediction")
        self.input.setPlaceholderText("e.g. 21, or 7*3, then Enter")
        self.check_button = _named(QPushButton("Check"), "predictCheckButton", "Check the prediction")
        self.feedback = VerdictLabel("predictFeedback")  # "Not right: ...", announced, where ✗ shows
        self.feedback.setWordWrap(True)
        self.score = _named(QLabel(), "predictScore")

        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.check_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.question)
        layout.addLayout(row)
        layout.addWidget(self.feedback)
        layout.addWidget(self.score)
        self.setVisible(False)

        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.input.returnPressed.connect(self._on_answer_entered)
        self.check_button.clicked.connect(self._on_answer_entered)
        self._refresh()

    @property
    def is_on(self) -> bool:
        return self.toggle.isChecked() and self.quiz is not None

    @property
    def pending(self) -> int | None:
        return self._pending

    def set_on(self, on: bool) -> None:
        self.toggle.setChecked(bool(on))

    def predicted(self) -> set[int] | None:
        """While Predict is on, the positions of the steps already predicted (the others stay hidden);
        None while it is off."""
        return set(self.quiz.answered) if self.is_on else None

    def set_quiz(self, quiz: PredictQuiz | None) -> None:
        """A new graph (None: one without scalar steps, such as a network): a new score."""
        self.quiz, self._pending = quiz, None
        self.toggle.setEnabled(quiz is not None)
        self.toggle.setToolTip(self.toggle.toolTip() if quiz is not None
                               else "Predict mode works on the editor's graphs (scalar steps)")
        self.feedback.clear()
        self._refresh()

    def holds(self, position: int) -> bool:
        """True (and the question asked) when the step reaching ``position`` must be predicted first."""
        if not self.is_on or not self.quiz.wants_answer(position):
            return False
        if self._pending != position:
            self.feedback.clear()  # the verdict on the last step does not belong under a new question
        self._pending = position
        self._refresh()
        self.input.setFocus()
        return True

    def on_position(self, position: int) -> None:
        """The animator moved: a question about another step is dropped (moving on skips it unscored)."""
        if self._pending is not None and position != self._pending - 1:
            self._pending = None
            self._refresh()

    def answer(self, text: str) -> bool:
        """Check ``text`` for the pending step; True if it was read (right or wrong), then the step is shown."""
        if self._pending is None or self.quiz is None:
            return False
        position = self._pending
        try:
            verdict = self.quiz.answer(position, text)
        except AnswerError as error:
            set_text_colour(self.feedback, WRONG)
            self.feedback.say(f"Can't read that: {error}.", right=False)
            return False
        self._pending = None
        set_text_colour(self.feedback, RIGHT if verdict.right else WRONG)
        self.feedback.say(verdict.message, verdict.right)
        self.input.clear()
        self._refresh()
        self.status_message.emit(f"Predict: {'right' if verdict.right else 'not quite'} · {self.quiz.score_text()}")
        self.hiding_changed.emit()
        self.reveal_requested.emit(position)
        return True

    def _refresh(self) -> None:
        self.setVisible(self.toggle.isChecked() and self.quiz is not None)
        waiting = self._pending is not None
        self.input.setEnabled(waiting)
        self.check_button.setEnabled(waiting)
        if self.quiz is None:
            return
        self.score.setText(self.quiz.score_text())
        self.question.setText(self.quiz.question(self._pending) if waiting
                              else "Step forward (→): before each backward step, predict what it carries.")

    @guarded
    def _on_toggle_toggled(self, checked: bool) -> None:
        if not checked:
            self._pending = None
        self.feedback.clear()
        self._refresh()
        self.hiding_changed.emit()

    @guarded
    def _on_answer_entered(self, _checked: bool = False) -> None:
        self.answer(self.input.text())

    def _recover(self, error: Exception) -> None:
        self._pending = None
        self.status_message.emit(f"Predict: something went wrong ({type(error).__name__}: {error})")
