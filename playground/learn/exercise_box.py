"""The box of a step's questions in the Learn panel: the question, the answer box with Check and Show answer,
what the check said (a hint, its details on demand) and the answers given so far.

What it says is always whole: the hint is a word-wrapped label laid out under the answer row, never over it,
and the answers so far, which grow to a line per question (nine in lesson 2), scroll in a room of their own
rather than push the lesson's text out of sight on a projector."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

ANSWERS_LEAST_LINES = 2  # the answers so far keep this many lines in sight; more scroll


def named(widget, name: str, accessible: str | None = None):
    widget.setObjectName(name)
    widget.setAccessibleName(accessible or name)
    return widget


class AnswersScroll(QScrollArea):
    """The answers so far: as tall as they are where there is room, down to a few lines where there is not."""

    def __init__(self, answers: QLabel):
        super().__init__()
        named(self, "answeredScroll", "Answers so far, scrolled")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(answers)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        answers = self.widget()
        width = self.viewport().width() or answers.sizeHint().width()
        return QSize(answers.sizeHint().width(), answers.heightForWidth(width) if answers.text() else 0)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        lines = ANSWERS_LEAST_LINES * self.fontMetrics().lineSpacing()
        return QSize(0, min(lines, self.sizeHint().height()))


class ExerciseBox(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "lessonExercise")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.prompt = named(QLabel(), "questionPrompt")
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(Qt.TextFormat.RichText)
        self.answer_input = named(QLineEdit(), "answerInput", "Your answer")
        self.check_button = named(QPushButton("Check"), "answerCheckButton", "Check the answer")
        self.reveal_button = named(QPushButton("Show answer"), "answerRevealButton", "Show the answer")
        self.feedback = named(QLabel(), "answerFeedback")
        self.feedback.setWordWrap(True)
        self.feedback.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list = named(QLabel(), "answeredList", "Answers so far")
        self.answered_list.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list.setWordWrap(True)
        self.answered_list.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.answered_scroll = AnswersScroll(self.answered_list)
        answer_row = QHBoxLayout()  # two short rows rather than one wide one: the dock may be narrow
        answer_row.addWidget(self.answer_input, 1)
        answer_row.addWidget(self.check_button)
        reveal_row = QHBoxLayout()
        reveal_row.addStretch(1)
        reveal_row.addWidget(self.reveal_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addLayout(answer_row)
        layout.addLayout(reveal_row)
        layout.addWidget(self.feedback)
        layout.addWidget(self.answered_scroll, 1)

    def show_answered(self, html: str) -> None:
        """The answers so far (none: the room goes), the last one in sight."""
        self.answered_list.setText(html)
        self.answered_scroll.setVisible(bool(html))
        self.answered_scroll.updateGeometry()
        bar = self.answered_scroll.verticalScrollBar()
        bar.setValue(bar.maximum())
