"""The Learn panel: the list of lessons, the current step's text, its questions, Back and Next.

It shows a `runner.LessonRun` (the Qt-free model) of a lesson from the `library.LessonLibrary`,
which keeps the place in every lesson in QSettings. When a step is shown it says so
(`step_shown`: the main window's `driver.LessonDriver` then puts the app in the state the lesson
has built up to that step and does the step's actions), and when a question is answered it asks
for the animator to show that step (`step_answered`). Before checking an answer about the
lesson's graph it makes sure the editor still shows that graph (`graph_restore_requested`).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import numpy as np
from PySide6.QtCore import QSettings, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..animator.model.predict import AnswerError
from ..graph.document import GraphDocument, maths_of
from ..widgets.errors import guarded
from ..widgets.file_dialogs import FILE_FOLDER
from .exercise_box import ExerciseBox, named
from .lesson_list import LEAST_ROWS, LessonList, LessonText
from .library import LESSONS, LessonLibrary, shipped_lessons
from .list_keys import EnterActivates
from .model.facts import GraphFacts
from .model.goals import GOAL
from .model.lesson import Lesson, LessonFormatError, load_lesson
from .model.markup import inline
from .model.questions import Question
from .model.runner import LessonRun
from .nudge_view import NudgeView

__all__ = ["LESSONS", "LearnPanel", "shipped_lessons"]

LESSON_FILTER = "Lessons (*.lesson *.txt);;All files (*)"
NOTICE_STYLE = ("QLabel#lessonNotice { background: #fff4d6; color: #5c4400; border: 1px solid #f0d58a; "
                "border-radius: 4px; padding: 4px 6px; }")
GRAPH_BACK = "You had changed the lesson's graph: it is back as the lesson has it, and the questions are about it."


PLACEHOLDERS = {"value": "a number, or e.g. 3*7, then Enter", "shape": "a shape, e.g. (4, 2)",
                "array": "e.g. [1.5, -2, 0.25]"}


def _placeholder(question: Question) -> str:
    if question.what == "shape":
        return PLACEHOLDERS["shape"]
    return PLACEHOLDERS["array"] if np.ndim(question.expected) else PLACEHOLDERS["value"]


_named = named


class LearnPanel(QWidget):
    step_shown = Signal(object)  # the `LessonRun`, at the step just shown: the driver performs it
    step_answered = Signal(object, object)  # the `LessonRun` and the `Question` just answered
    graph_restore_requested = Signal(object)  # the `LessonRun` whose step's graph the editor must show again
    lesson_closed = Signal()  # no lesson runs any more: nothing is asked, nothing needs hiding
    lesson_refused = Signal(str)  # a lesson file that cannot be used, and why (the main window shows it)
    status_message = Signal(str)

    def __init__(self, settings: QSettings, folder: Path = LESSONS, parent: QWidget | None = None):
        super().__init__(parent)
        _named(self, "learnPanel", "The lesson")
        self.settings = settings
        self.library = LessonLibrary(settings, folder)
        self.run: LessonRun | None = None
        self.check_lesson = lambda lesson: None  # what only the app can check (the main window sets it)
        self.run_state = lambda: None  # the training tab as a goal reads it (`goals.RunState`; the main window sets it)
        self._details = ""  # the last hint's details, shown on "More"
        self._document: GraphDocument | None = None  # the editor's document

        self.lesson_list = _named(LessonList(), "lessonList", "Lessons")
        self.lesson_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.open_button = _named(QPushButton("Open lesson…"), "openLessonButton", "Open a lesson file")
        self.step_title = _named(QLabel(), "lessonStepTitle")
        self.step_title.setWordWrap(True)
        font = self.step_title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.step_title.setFont(font)
        self.notice = _named(QLabel(), "lessonNotice", "Lesson notice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.notice.setVisible(False)
        self.text = _named(LessonText(), "lessonText", "Lesson text")
        self.text.setOpenExternalLinks(False)
        self.nudge = NudgeView()

        self.exercise = ExerciseBox()
        exercise = self.exercise  # its parts, by the names the panel and its tests use
        self.prompt, self.answer_input = exercise.prompt, exercise.answer_input
        self.check_button, self.reveal_button = exercise.check_button, exercise.reveal_button
        self.feedback, self.answered_list = exercise.feedback, exercise.answered_list
        self.answer_input.setPlaceholderText(PLACEHOLDERS["value"])

        self.back_button = _named(QPushButton("◀ Back"), "lessonBackButton", "Previous step")
        self.next_button = _named(QPushButton("Next ▶"), "lessonNextButton", "Next step")
        self.position_label = _named(QLabel(), "lessonPosition")  # a line of its own: never cut short
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.position_label.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.lesson_list)
        layout.addWidget(self.open_button)
        layout.addWidget(self.step_title)
        layout.addWidget(self.notice)
        layout.addWidget(self.text, 1)  # more than its least once the questions have what they ask for
        layout.addWidget(self.nudge)
        layout.addWidget(self.exercise)
        layout.addWidget(self.position_label)
        layout.addLayout(buttons)  # no fixed minimum width: the widest row decides, in any presentation zoom

        self.lesson_list.itemClicked.connect(self._on_lesson_list_item_clicked)
        self.lesson_keys = EnterActivates(self.lesson_list, self._on_lesson_list_item_clicked)  # Enter starts one
        self.lesson_list.customContextMenuRequested.connect(self._on_lesson_list_context_menu_requested)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.answer_input.returnPressed.connect(self._on_answer_entered)
        self.check_button.clicked.connect(self._on_answer_entered)
        self.reveal_button.clicked.connect(self._on_reveal_button_clicked)
        self.feedback.linkActivated.connect(self._on_feedback_link_activated)
        self.back_button.clicked.connect(self._on_back_button_clicked)
        self.next_button.clicked.connect(self._on_next_button_clicked)
        self._fill_lesson_list()
        self._show()

    # -- lessons -----------------------------------------------------------------------------

    @property
    def lessons(self) -> list[Lesson]:
        return self.library.lessons

    @property
    def lesson(self) -> Lesson | None:
        return self.run.lesson if self.run is not None else None

    def start(self, lesson: Lesson | str) -> None:
        """Show ``lesson`` (or the lesson with this id) where the student left it."""
        if isinstance(lesson, str):
            found = self.library.find(lesson)
            if found is None:
                raise KeyError(f"no lesson {lesson!r}")
            lesson = found
        self.run = LessonRun.restore(lesson, self.library.progress(lesson))
        self.settings.setValue("learn/current", lesson.id)
        self._fill_lesson_list()
        self._show(perform=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As wide for every step (its text wraps), so that the editor beside the dock does not shift from
        step to step; about 42 characters, so it grows with presentation mode's font."""
        width = max(self.minimumSizeHint().width(), round(self.fontMetrics().averageCharWidth() * 42))
        return QSize(width, super().sizeHint().height())

    def fit_rows(self, room: int, width: int) -> None:
        """Give the lesson list the whole rows that the rest of the panel, at its least, leaves of ``room``
        pixels of height at ``width`` (the step's text keeps its lines first; a row at the least)."""
        listing = self.lesson_list
        layout = self.layout()
        least = layout.minimumHeightForWidth(width) if layout.hasHeightForWidth() else layout.minimumSize().height()
        rest = least - listing.height()
        if self.exercise.isVisible():  # the hint whole before more rows of lessons
            rest += max(0, self.exercise.sizeHint().height() - self.exercise.minimumSizeHint().height())
        listing.set_rows(max(LEAST_ROWS, (room - rest) // max(1, listing.row_height())))

    def resume(self) -> None:
        """Show the lesson the student was at last time (nothing if none)."""
        current = self.settings.value("learn/current", "")
        if self.library.find(current) is not None:
            self.start(current)

    def invite(self) -> None:
        """Select the lesson to take next (the one the student was at, else the first) without starting
        it: the panel says what it is, and Start (or Continue) begins it."""
        self._close()
        self._fill_lesson_list()
        self._show()

    def _close(self) -> None:
        if self.run is not None:
            self.run = None
            self.lesson_closed.emit()

    def _chosen(self) -> Lesson | None:
        """With no lesson running: the lesson the list has selected, else the one to take next."""
        item = self.lesson_list.currentItem()
        if item is not None and self.library.find(item.data(Qt.ItemDataRole.UserRole)) is not None:
            return self.library.find(item.data(Qt.ItemDataRole.UserRole))
        return self.library.find(self.settings.value("learn/current", "")) or next(iter(self.lessons), None)

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
        (raises `LessonFormatError` otherwise, and nothing changes). It is listed beside the others
        (a lesson of its own even with a shipped lesson's file name) and listed again at the next start."""
        self.check_lesson(lesson)
        lesson = self.library.add(lesson) if lesson.path is not None else lesson
        if self.library.find(lesson.id) is None:
            self.library.lessons.append(lesson)  # read from text, not a file: listed for this run only
        self.start(lesson)
        self.status_message.emit(f"Opened the lesson {lesson.title}")
        return lesson

    def set_document(self, document: GraphDocument | None) -> None:
        """The editor's document (for the nudge readout, which watches it, and to check it is the lesson's)."""
        self._document = document
        self.nudge.follow(document)

    def progress(self, lesson_id: str) -> dict | None:
        """What is kept of a lesson between runs: its step, answers, and whether it was finished."""
        lesson = self.library.find(lesson_id)
        return self.library.progress(lesson) if lesson is not None else None

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

    def next_lesson(self) -> bool:
        """At the end of a lesson: start the one after it in the list."""
        following = self.library.following(self.lesson) if self.run is not None and self.run.is_last else None
        if following is None:
            return False
        self.start(following)
        return True

    def show_notice(self, text: str) -> None:
        """A line above the step's text, such as what the lesson put back ("" hides it)."""
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def answer(self, text: str) -> bool:
        """Check ``text`` for the waiting question; True when right (then the next question waits)."""
        if self.run is None or self.run.question is None:
            return False
        if self.run.question.what == "build":  # the answer is the graph in the editor
            return self.check_build()
        if self.run.question.what == GOAL:  # the answer is the run on the training tab
            return self.check_run()
        if self._graph_was_changed():  # the numbers asked about are the lesson graph's: put it back first
            self.graph_restore_requested.emit(self.run)
            self._say(GRAPH_BACK + " Answer again.", right=False)
            return False
        question = self.run.question
        try:
            feedback = self.run.answer(text)
        except AnswerError as error:
            self._say(f"Can't read that: {error}.", right=False)
            return False
        if feedback.right:
            self._say("✓ Right.", right=True)  # the worked arithmetic joins the list of answers below
            self._answered(question)
        else:
            self._say(feedback.message, right=False, details=feedback.details)
        return feedback.right

    def check_build(self) -> bool:
        """Check my graph: whether the editor's graph has every part the step asks for; True when it has."""
        question = self.run.question
        feedback = self.run.check_build(self._document if self._document is not None else GraphDocument())
        self._say(feedback.message, right=feedback.right, details=feedback.details)
        if feedback.right:
            self._answered(question)
        return feedback.right

    def check_run(self) -> bool:
        """Check my run: whether the training tab's run meets the step's goal; True when it does."""
        question = self.run.question
        state = self.run_state()
        if state is None:
            self._say("✗ The training tab has no run yet: press Play there first.", right=False)
            return False
        feedback = self.run.check_goal(state)
        self._say(feedback.message, right=feedback.right, details=feedback.details)
        if feedback.right:
            self._answered(question)
        return feedback.right

    def graph_edited(self) -> None:
        """The editor's graph changed: what Check my graph said of it before is no longer about it."""
        question = self.run.question if self.run is not None else None
        if question is not None and question.what == "build" and self.feedback.text():
            self._say("", right=None)

    def reveal(self) -> None:
        if self.run is None or self.run.question is None:
            return
        question = self.run.question
        self.run.reveal()
        self._say("", right=None)  # the answer joins the list below, marked "shown"
        self._answered(question)

    def _answered(self, question: Question) -> None:
        focused = QApplication.focusWidget()
        typing = focused is not None and self.exercise.isAncestorOf(focused)  # the answer box, Check, Show answer
        self.answer_input.clear()
        self._save()
        self._show_exercise()
        self._refresh_buttons()
        if typing and self.run.question is None and self.next_button.isEnabled():
            # The last question answered greys the box the keyboard was in (Qt then put it on ◀ Back): on to Next.
            self.next_button.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.step_answered.emit(self.run, question)

    def _graph_was_changed(self) -> bool:
        facts = self.run.step.facts if self.run is not None else None
        document = self._document
        return isinstance(facts, GraphFacts) and document is not None and maths_of(document) != maths_of(facts.document)

    # -- showing -------------------------------------------------------------------------------

    def _show(self, perform: bool = False) -> None:
        run = self.run
        self.exercise.say("", "")
        self.show_notice("")
        if run is None:
            self._show_invitation()
            return
        step = run.step
        self.step_title.setText(f"{run.lesson.title} · {step.title}")
        self.text.setHtml(run.html())
        self.nudge.show_nudge(step.facts if step.nudge else None, step.nudge)
        self._show_exercise()
        self._refresh_buttons()
        if perform:
            self.step_shown.emit(run)
            self.nudge.refresh()

    def _show_invitation(self) -> None:
        lesson = self._chosen()
        self.exercise.setVisible(False)
        self.nudge.show_nudge(None, None)
        if lesson is None:
            self.step_title.setText("Lessons")
            self.text.setHtml("<p>Choose a lesson above.</p>")
        else:
            state = self.library.progress(lesson) or {}
            step = state.get("step") if isinstance(state.get("step"), int) else 0
            button = self._start_label(lesson)  # the text names the button as it reads
            where = (f" You finished it: {button} goes through it again from where you left it."
                     if state.get("completed") else f" You were at step {step + 1} of {len(lesson.steps)}." if step
                     else "")
            self.step_title.setText(lesson.title)
            self.text.setHtml(f"<p>{escape(lesson.summary)}</p><p>Each lesson guides you through backpropagation "
                              f"in this app, step by step, with exercises the engine checks.{where}</p>"
                              f"<p>Press <b>{button}</b> below, or choose another lesson above.</p>")
        self._refresh_buttons()

    def _show_exercise(self) -> None:
        run = self.run
        self.exercise.setVisible(bool(run.questions))
        self.exercise.show_answered("<br>".join(("shown: " if done.revealed else "✓ ") + inline(done.question.worked)
                                                for done in run.answered))
        question = run.question
        waiting = question is not None
        self.answer_input.setEnabled(waiting)
        self.check_button.setEnabled(waiting)
        self.reveal_button.setEnabled(waiting)
        shown = question or (run.questions[-1] if run.questions else None)
        building = shown is not None and shown.what == "build"  # Check reads the editor's graph; Show me builds it
        goal = shown is not None and shown.what == GOAL  # Check reads the training tab's run
        # Nothing waits: no answer row (its lines go to the text and the answers so far).
        self.answer_input.setVisible(waiting and not building and not goal)
        self.check_button.setVisible(waiting)
        self.reveal_button.setVisible(waiting)
        self.check_button.setText("Check my graph" if building else "Check my run" if goal else "Check")
        self.reveal_button.setText("Show me" if building else "Skip the goal" if goal else "Show answer")
        self.exercise.arrange()  # the row's buttons changed: beside Check or under it
        if waiting and not building and not goal:
            self.answer_input.setPlaceholderText(_placeholder(question))
        if waiting:
            number = len(run.answered) + 1
            self.prompt.setText(f"Question {number} of {len(run.questions)}: <b>{inline(question.prompt)}</b>")
            (self.check_button if building or goal else self.answer_input).setFocus()
        elif run.questions:
            self.prompt.setText("Every question of this step is answered." + ("" if run.is_last else " Go on: Next."))

    def _refresh_buttons(self) -> None:
        run = self.run
        self.back_button.setEnabled(run is not None and run.can_back)
        if run is None:
            chosen = self._chosen()
            self.position_label.clear()
            button = self._start_label(chosen)
            self._set_next(f"{button} ▶", f"{button} the lesson selected above", chosen is not None)
            return
        self.position_label.setText(f"Step {run.index + 1} of {run.step_count}"
                                    + (" · finished ✓" if run.completed else ""))
        following = self.library.following(run.lesson) if run.is_last and run.questions_done else None
        if following is not None:
            self._set_next("Next lesson ▶", f"Go on with the next lesson: {following.title}", True)
        else:
            self._set_next("Next ▶", "Answer the questions first (or Show answer)" if not run.questions_done
                           else "Next step", run.can_next)

    def _start_label(self, lesson: Lesson | None) -> str:
        """What the button that begins ``lesson`` reads: Continue once it has a place kept, else Start."""
        return "Continue" if lesson is not None and self.library.progress(lesson) else "Start"

    def _set_next(self, text: str, tooltip: str, enabled: bool) -> None:
        self.next_button.setText(text)
        self.next_button.setAccessibleName(text.rstrip(" ▶"))
        self.next_button.setToolTip(tooltip)
        self.next_button.setEnabled(enabled)

    def _say(self, text: str, right: bool | None, details: str = "") -> None:
        """``text`` in light markup (formulas between $ signs), green when right, red when not; a hint's
        ``details`` wait behind a "More" link."""
        self._details = details
        more = " <a href='more'>More…</a>" if details else ""
        self.exercise.say("<br>".join(inline(line) for line in text.split("\n")) + more, right)

    def _fill_lesson_list(self) -> None:
        chosen = self.lesson or self._chosen()
        self.lesson_list.clear()
        for number, lesson in enumerate(self.lessons, start=1):
            state = self.library.progress(lesson) or {}
            done = state.get("completed") is True
            step = state.get("step") if isinstance(state.get("step"), int) else None
            mark = " ✓" if done else f"  ({step + 1}/{len(lesson.steps)})" if step else ""
            item = QListWidgetItem(f"{number}. {lesson.title}{mark}")
            where = f"\n{lesson.path}" if self.library.is_opened(lesson) and lesson.path else ""
            item.setToolTip(f"{number}. {lesson.title}\n{lesson.summary}{where}")  # the title whole, where elided
            item.setData(Qt.ItemDataRole.UserRole, lesson.id)
            self.lesson_list.addItem(item)
            if chosen is not None and lesson.id == chosen.id:
                self.lesson_list.setCurrentItem(item)

    def _save(self) -> None:
        if self.run is not None:
            self.library.save_progress(self.run.lesson, self.run.state())
            self._fill_lesson_list()

    # -- slots ---------------------------------------------------------------------------------

    @guarded
    def _on_lesson_list_item_clicked(self, item: QListWidgetItem) -> None:
        self.start(item.data(Qt.ItemDataRole.UserRole))

    @guarded
    def _on_lesson_list_context_menu_requested(self, point) -> None:
        item = self.lesson_list.itemAt(point)
        lesson = self.library.find(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        if lesson is None or not self.library.is_opened(lesson):
            return
        menu = QMenu(self)
        remove = menu.addAction("Remove from the list")
        remove.setObjectName("removeLessonAction")
        if menu.exec(self.lesson_list.viewport().mapToGlobal(point)) is remove:
            self.remove_lesson(lesson)

    def remove_lesson(self, lesson: Lesson) -> None:
        """Take a lesson a teacher opened off the list (its file stays where it is)."""
        self.library.remove(lesson)
        if self.lesson is not None and self.lesson.id == lesson.id:
            self._close()
        self._fill_lesson_list()
        self._show()

    @guarded
    def _on_open_button_clicked(self, _checked: bool = False) -> None:
        self.ask_and_open()

    def ask_and_open(self) -> None:
        """File > Open lesson…: choose a file; one that cannot be used is refused with its line and reason."""
        path = FILE_FOLDER.ask_open_path(self, "Open a lesson", LESSON_FILTER)
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
    def _on_feedback_link_activated(self, _link: str) -> None:
        if self._details:
            self.exercise.say(self.feedback.text().replace(" <a href='more'>More…</a>", "")
                              + "<br>" + inline(self._details), self.exercise.right)
            self._details = ""

    @guarded
    def _on_back_button_clicked(self, _checked: bool = False) -> None:
        self.back()

    @guarded
    def _on_next_button_clicked(self, _checked: bool = False) -> None:
        if self.run is None:
            chosen = self._chosen()
            if chosen is not None:
                self.start(chosen)
        elif not self.next():
            self.next_lesson()

    def _recover(self, error: Exception) -> None:
        self.status_message.emit(f"Learn: something went wrong ({type(error).__name__}: {error})")
