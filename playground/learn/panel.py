"""The Learn panel: the list of lessons, the current step's text, its questions, Back and Next.

It shows a `runner.LessonRun` (the Qt-free model) and keeps the place in every lesson in
QSettings. When a step is shown it asks for the step's actions (`actions_requested`: load a
graph, go to an animator step, ...) and when a question is answered it asks for the animator to
show that step (`step_answered`); the main window's `driver.LessonDriver` does both through each
panel's public methods.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..animator.predict import AnswerError
from ..editor.document import GraphDocument
from ..errors import guarded
from ..paths import RESOURCES
from .lesson import Lesson, LessonFormatError, load_lesson
from .markup import inline
from .nudge_view import NudgeView
from .questions import Question
from .runner import LessonRun

LESSONS = RESOURCES / "lessons"
LESSON_FILTER = "Lessons (*.lesson *.txt);;All files (*)"
RIGHT_STYLE = "color: #1b7a3a;"
WRONG_STYLE = "color: #b3261e;"


def shipped_lessons(folder: Path = LESSONS) -> list[Lesson]:
    """Every lesson that comes with the app, in file-name order (01-..., 02-...)."""
    return [load_lesson(path) for path in sorted(folder.glob("*.lesson"))]


def _named(widget, name: str, accessible: str | None = None):
    widget.setObjectName(name)
    widget.setAccessibleName(accessible or name)
    return widget


class LearnPanel(QWidget):
    actions_requested = Signal(object, object)  # the step's actions (a list of lesson.Action), the Step
    step_answered = Signal(object)  # a `Question` just answered: the animator shows its step
    lesson_refused = Signal(str)  # a lesson file that cannot be used, and why (the main window shows it)
    status_message = Signal(str)

    def __init__(self, settings: QSettings, folder: Path = LESSONS, parent: QWidget | None = None):
        super().__init__(parent)
        _named(self, "learnPanel")
        self.settings = settings
        self.lessons: list[Lesson] = shipped_lessons(folder)
        self.run: LessonRun | None = None
        self.check_lesson = lambda lesson: None  # what only the app can check (the main window sets it)

        self.lesson_list = _named(QListWidget(), "lessonList", "Lessons")
        self.lesson_list.setMaximumHeight(150)
        self.open_button = _named(QPushButton("Open lesson…"), "openLessonButton", "Open a lesson file")
        self.step_title = _named(QLabel(), "lessonStepTitle")
        self.step_title.setWordWrap(True)
        font = self.step_title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.step_title.setFont(font)
        self.text = _named(QTextBrowser(), "lessonText", "Lesson text")
        self.text.setOpenExternalLinks(False)
        self.nudge = NudgeView()

        self.exercise = _named(QFrame(), "lessonExercise")
        self.exercise.setFrameShape(QFrame.Shape.StyledPanel)
        self.prompt = _named(QLabel(), "questionPrompt")
        self.prompt.setWordWrap(True)
        self.answer_input = _named(QLineEdit(), "answerInput", "Your answer")
        self.answer_input.setPlaceholderText("a number, or e.g. 3*7, then Enter")
        self.check_button = _named(QPushButton("Check"), "answerCheckButton", "Check the answer")
        self.reveal_button = _named(QPushButton("Show answer"), "answerRevealButton", "Show the answer")
        self.feedback = _named(QLabel(), "answerFeedback")
        self.feedback.setWordWrap(True)
        self.feedback.setTextFormat(Qt.TextFormat.RichText)
        self.prompt.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list = _named(QLabel(), "answeredList", "Answers so far")
        self.answered_list.setTextFormat(Qt.TextFormat.RichText)
        self.answered_list.setWordWrap(True)
        answer_row = QHBoxLayout()
        answer_row.addWidget(self.answer_input, 1)
        answer_row.addWidget(self.check_button)
        answer_row.addWidget(self.reveal_button)
        exercise_layout = QVBoxLayout(self.exercise)
        exercise_layout.addWidget(self.prompt)
        exercise_layout.addLayout(answer_row)
        exercise_layout.addWidget(self.feedback)
        exercise_layout.addWidget(self.answered_list)

        self.back_button = _named(QPushButton("◀ Back"), "lessonBackButton", "Previous step")
        self.next_button = _named(QPushButton("Next ▶"), "lessonNextButton", "Next step")
        self.position_label = _named(QLabel(), "lessonPosition")
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.position_label, 1)
        buttons.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.lesson_list)
        layout.addWidget(self.open_button)
        layout.addWidget(self.step_title)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.nudge)
        layout.addWidget(self.exercise)
        layout.addLayout(buttons)
        self.setMinimumWidth(320)

        self.lesson_list.itemClicked.connect(self._on_lesson_list_item_clicked)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.answer_input.returnPressed.connect(self._on_answer_entered)
        self.check_button.clicked.connect(self._on_answer_entered)
        self.reveal_button.clicked.connect(self._on_reveal_button_clicked)
        self.back_button.clicked.connect(self._on_back_button_clicked)
        self.next_button.clicked.connect(self._on_next_button_clicked)
        self._fill_lesson_list()
        self._show()

    # -- lessons -----------------------------------------------------------------------------

    @property
    def lesson(self) -> Lesson | None:
        return self.run.lesson if self.run is not None else None

    def start(self, lesson: Lesson | str) -> None:
        """Show ``lesson`` (or the shipped lesson with this id) where the student left it."""
        if isinstance(lesson, str):
            lesson = next(item for item in self.lessons if item.id == lesson)
        self.run = LessonRun.restore(lesson, self._saved_state(lesson))
        self.settings.setValue("learn/current", lesson.id)
        self._fill_lesson_list()
        self._show(perform=True)

    def resume(self) -> None:
        """Show the lesson the student was at last time (nothing if none)."""
        current = self.settings.value("learn/current", "")
        if any(lesson.id == current for lesson in self.lessons):
            self.start(current)

    def open_file(self, path: str | Path) -> Lesson:
        """Open a teacher's lesson file. A file that cannot be used raises `LessonFormatError` naming
        the file, the line and the reason, and nothing else changes (the lesson shown, the progress)."""
        try:
            lesson = load_lesson(path)
        except OSError as error:
            raise LessonFormatError(error.strerror or str(error), source=Path(path).name) from None
        return self.open_lesson(lesson)

    def open_lesson(self, lesson: Lesson) -> Lesson:
        """Show a lesson already read from a file, once the app has checked it can run every step
        (raises `LessonFormatError` otherwise, and nothing changes)."""
        self.check_lesson(lesson)
        self.lessons = [item for item in self.lessons if item.id != lesson.id] + [lesson]
        self.start(lesson)
        self.status_message.emit(f"Opened the lesson {lesson.title}")
        return lesson

    def set_document(self, document: GraphDocument | None) -> None:
        """The editor's document (for the nudge readout, which watches it)."""
        self.nudge.follow(document)

    # -- moving ------------------------------------------------------------------------------

    def next(self) -> bool:
        if self.run is None or not self.run.next():
            return False
        self._save()
        self._show(perform=True)
        return True

    def back(self) -> bool:
        if self.run is None or not self.run.back():
            return False
        self._save()
        self._show(perform=True)
        return True

    def answer(self, text: str) -> bool:
        """Check ``text`` for the waiting question; True when right (then the next question waits)."""
        if self.run is None or self.run.question is None:
            return False
        question = self.run.question
        try:
            feedback = self.run.answer(text)
        except AnswerError as error:
            self._say(f"Can't read that: {error}.", right=False)
            return False
        self._say(feedback.message, feedback.right)
        if feedback.right:
            self._answered(question)
        return feedback.right

    def reveal(self) -> None:
        if self.run is None or self.run.question is None:
            return
        question = self.run.question
        feedback = self.run.reveal()
        self._say(feedback.message, right=None)
        self._answered(question)

    def _answered(self, question: Question) -> None:
        self.answer_input.clear()
        self._save()
        self._show_exercise()
        self._refresh_buttons()
        self.step_answered.emit(question)

    # -- showing -------------------------------------------------------------------------------

    def _show(self, perform: bool = False) -> None:
        run = self.run
        if run is None:
            self.step_title.setText("Lessons")
            self.text.setHtml("<p>Choose a lesson above. Each one guides you through backpropagation in this "
                              "app, step by step, with exercises the engine checks.</p>")
            self.exercise.setVisible(False)
            self.nudge.show_nudge(None, None)
            self._refresh_buttons()
            return
        step = run.step
        self.step_title.setText(f"{run.lesson.title} · {step.title}")
        self.text.setHtml(run.html())
        self.feedback.clear()
        self.nudge.show_nudge(step.facts if step.nudge else None, step.nudge)
        self._show_exercise()
        self._refresh_buttons()
        if perform:
            self.actions_requested.emit(step.actions, step)
            self.nudge.refresh()

    def _show_exercise(self) -> None:
        run = self.run
        self.exercise.setVisible(bool(run.questions))
        self.answered_list.setText("<br>".join(("shown: " if done.revealed else "✓ ") + inline(done.question.worked)
                                               for done in run.answered))
        self.answered_list.setVisible(bool(run.answered))
        question = run.question
        waiting = question is not None
        self.answer_input.setEnabled(waiting)
        self.check_button.setEnabled(waiting)
        self.reveal_button.setEnabled(waiting)
        if waiting:
            number = len(run.answered) + 1
            self.prompt.setText(f"Question {number} of {len(run.questions)}: <b>{inline(question.prompt)}</b>")
            self.answer_input.setFocus()
        elif run.questions:
            self.prompt.setText("Every question of this step is answered." + ("" if run.is_last else " Go on: Next."))

    def _refresh_buttons(self) -> None:
        run = self.run
        self.back_button.setEnabled(run is not None and run.can_back)
        self.next_button.setEnabled(run is not None and run.can_next)
        if run is None:
            self.position_label.clear()
            return
        self.position_label.setText(f"Step {run.index + 1} of {run.step_count}"
                                    + (" · finished ✓" if run.completed else ""))
        self.next_button.setToolTip("Answer the questions first (or Show answer)" if not run.questions_done
                                    else "Next step")

    def _say(self, text: str, right: bool | None) -> None:
        """``text`` in light markup (formulas between $ signs), green when right, red when not."""
        self.feedback.setStyleSheet("" if right is None else RIGHT_STYLE if right else WRONG_STYLE)
        self.feedback.setText(inline(text))

    def _fill_lesson_list(self) -> None:
        self.lesson_list.clear()
        for number, lesson in enumerate(self.lessons, start=1):
            state = self._saved_state(lesson) or {}
            done = state.get("completed") is True
            step = state.get("step") if isinstance(state.get("step"), int) else None
            mark = " ✓" if done else f"  ({step + 1}/{len(lesson.steps)})" if step else ""
            item = QListWidgetItem(f"{number}. {lesson.title}{mark}")
            item.setToolTip(lesson.summary)
            item.setData(Qt.ItemDataRole.UserRole, lesson.id)
            self.lesson_list.addItem(item)
            if self.lesson is not None and lesson.id == self.lesson.id:
                self.lesson_list.setCurrentItem(item)

    # -- progress ------------------------------------------------------------------------------

    def _key(self, lesson: Lesson) -> str:
        return f"learn/progress/{lesson.id}"

    def _saved_state(self, lesson: Lesson) -> dict | None:
        text = self.settings.value(self._key(lesson), "")
        try:
            state = json.loads(text) if isinstance(text, str) and text else None
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    def _save(self) -> None:
        if self.run is not None:
            self.settings.setValue(self._key(self.run.lesson), json.dumps(self.run.state()))
            if self.run.completed:
                self._fill_lesson_list()

    def progress(self, lesson_id: str) -> dict | None:
        """What is kept of a lesson between runs: its step, answers, and whether it was finished."""
        lesson = next((item for item in self.lessons if item.id == lesson_id), None)
        return self._saved_state(lesson) if lesson is not None else None

    # -- slots ---------------------------------------------------------------------------------

    @guarded
    def _on_lesson_list_item_clicked(self, item: QListWidgetItem) -> None:
        self.start(item.data(Qt.ItemDataRole.UserRole))

    @guarded
    def _on_open_button_clicked(self, _checked: bool = False) -> None:
        self.ask_and_open()

    def ask_and_open(self) -> None:
        """File > Open lesson…: choose a file; one that cannot be used is refused with its line and reason."""
        path, _filter = QFileDialog.getOpenFileName(self, "Open a lesson", str(Path.home()), LESSON_FILTER)
        if not path:
            return
        try:
            self.open_file(path)
        except LessonFormatError as error:
            self.status_message.emit(f"Lesson not opened: {error}")
            self.lesson_refused.emit(str(error))

    @guarded
    def _on_answer_entered(self, _checked: bool = False) -> None:
        self.answer(self.answer_input.text())

    @guarded
    def _on_reveal_button_clicked(self, _checked: bool = False) -> None:
        self.reveal()

    @guarded
    def _on_back_button_clicked(self, _checked: bool = False) -> None:
        self.back()

    @guarded
    def _on_next_button_clicked(self, _checked: bool = False) -> None:
        self.next()

    def _recover(self, error: Exception) -> None:
        self.status_message.emit(f"Learn: something went wrong ({type(error).__name__}: {error})")
