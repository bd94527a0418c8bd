"""The box of a step's questions in the Learn panel: the question, the answer box with Check and Show answer,
what the check said (a hint, its details on demand) and the answers given so far.

What it says is laid out under the answer row, never over it, and wraps whole: the hint and the answers so far
(a line per question, nine in lesson 2) take the room they need where there is room, and where there is not
(a projector at 150%, Check my graph's long list of what is missing) they scroll in a room of their own, the
hint at its top, rather than push the lesson's text out of sight."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton, QScrollArea, QVBoxLayout, QWidget

from ..widgets.meaning_colours import RIGHT, WRONG, set_text_colour
from ..widgets.spoken import VerdictLabel, named_for_reader

NOTES_LEAST_LINES = 3  # the hint's first lines stay in sight; the rest scrolls


named = named_for_reader


class NotesScroll(QScrollArea):
    """The hint and the answers so far: as tall as they are where there is room, a few lines where there is not."""

    def __init__(self, feedback: QLabel, answers: QLabel):
        super().__init__()
        named(self, "exerciseNotes", "What the check said and the answers so far")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        notes = QWidget()
        layout = QVBoxLayout(notes)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(feedback)
        layout.addWidget(answers)
        layout.addStretch(1)
        self.setWidget(notes)
        self.labels = (feedback, answers)

    def _content_height(self) -> int:
        width = self.viewport().width() or self.widget().sizeHint().width()
        shown = [label for label in self.labels if not label.isHidden() and label.text()]
        spacing = self.widget().layout().spacing()
        return sum(label.heightForWidth(width) for label in shown) + spacing * max(0, len(shown) - 1)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self.widget().sizeHint().width(), self._content_height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        lines = NOTES_LEAST_LINES * self.fontMetrics().lineSpacing()
        return QSize(0, min(lines, self._content_height()))

    def refit(self) -> None:
        """The labels' texts changed: ask the layout again, and show the hint (at the top) in sight."""
        self.widget().adjustSize()
        self.updateGeometry()
        self.verticalScrollBar().setValue(0)


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
        self.feedback = VerdictLabel("answerFeedback")  # "Not right: ...", announced, where ✗ shows
        self.right: bool | None = None  # the verdict the feedback shows (None: no verdict)
        self.feedback.setWordWrap(True)
        self.feedback.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list = named(QLabel(), "answeredList", "Answers so far")
        self.answered_list.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list.setWordWrap(True)
        self.answered_list.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.notes = NotesScroll(self.feedback, self.answered_list)
        # Show answer beside Check where the box is wide enough (a row saved is a line of the text kept), on a
        # row of its own where it is not: the box never asks the dock for more than the narrower arrangement.
        self.answer_row = QHBoxLayout()
        self.answer_row.addWidget(self.answer_input, 1)
        self.answer_row.addWidget(self.check_button)
        self.reveal_row = QHBoxLayout()
        self.reveal_row.addStretch(1)
        self.reveal_row.addWidget(self.reveal_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addLayout(self.answer_row)
        layout.addLayout(self.reveal_row)
        layout.addWidget(self.notes, 1)

    def _one_row_width(self) -> int:
        margins = self.layout().contentsMargins()
        shown = [w for w in (self.answer_input, self.check_button, self.reveal_button) if not w.isHidden()]
        return (sum(w.minimumSizeHint().width() for w in shown) + self.answer_row.spacing() * (len(shown) - 1)
                + margins.left() + margins.right())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """The least of the two arrangements: Show answer on its own row."""
        least = super().minimumSizeHint()
        margins = self.layout().contentsMargins()
        row = max(self.answer_input.minimumSizeHint().width() * (not self.answer_input.isHidden())
                  + self.check_button.minimumSizeHint().width() + self.answer_row.spacing(),
                  self.reveal_button.minimumSizeHint().width(), self.prompt.minimumSizeHint().width())
        return QSize(min(least.width(), row + margins.left() + margins.right()), least.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.arrange()

    def arrange(self) -> None:
        """Show answer beside Check if the box is as wide as the one row needs, else under it."""
        one_row = self.width() >= self._one_row_width()
        if one_row != (self.answer_row.indexOf(self.reveal_button) >= 0):
            (self.reveal_row if one_row else self.answer_row).removeWidget(self.reveal_button)
            (self.answer_row if one_row else self.reveal_row).addWidget(self.reveal_button)

    def say(self, html: str, right: bool | None) -> None:
        """What the check said: green when ``right``, red when not, the theme's text colour when None."""
        self.right = right
        set_text_colour(self.feedback, None if right is None else RIGHT if right else WRONG)
        self.feedback.say(html, right)
        self.notes.refit()

    def show_answered(self, html: str) -> None:
        """The answers so far (none: their room goes)."""
        self.answered_list.setText(html)
        self.answered_list.setVisible(bool(html))
        self.notes.refit()
