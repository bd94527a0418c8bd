"""What a lesson step does to the app, done through each panel's public methods.

`LessonDriver.perform` runs a step's actions in order: it loads the step's graph into the editor
(as an example is opened), selects a node there, shows a tab, moves the animator to a step,
chooses a pitfall replay or Predict mode, animates a small network, sets up and starts or pauses
training, and points at a control. It never reaches into a panel's widgets.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from .facts import GraphFacts
from .highlight import Highlight
from .lesson import Action, Lesson, LessonFormatError, Step
from .questions import Question


class LessonDriver(QObject):
    status_message = Signal(str)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.highlight: Highlight | None = None
        self.lesson_title = ""

    # -- checking ----------------------------------------------------------------------------------

    def check(self, lesson: Lesson) -> None:
        """What only the app can check: every control a step points at exists. Raises `LessonFormatError`."""
        for step in lesson.steps:
            for action in step.actions:
                if action.kind == "highlight" and self._control(action.value) is None:
                    raise LessonFormatError(f"the app has no control named '{action.value}' to point at",
                                            action.line, lesson.path.name if lesson.path else lesson.id)

    def _control(self, name: str) -> QWidget | None:
        return self.window.findChild(QWidget, name)

    # -- doing -------------------------------------------------------------------------------------

    def perform(self, actions: list[Action], step: Step) -> None:
        kinds = {action.kind for action in actions}
        for action in actions:
            getattr(self, f"_do_{action.kind}")(action.value, step)
            if action.kind in ("graph", "example") and "pitfall" not in kinds:
                self.window.animator.set_pitfall(None)  # a new graph starts without a mistake beside it

    def show_answer(self, question: Question) -> None:
        """The animator goes to the step of the question just answered."""
        animator = self.window.animator
        animator.catch_up()
        if animator.source != "graph":
            animator.load(self.window.document)
        animator.seek(question.position)

    def _show(self, panel: QWidget) -> None:
        self.window.tabs.setCurrentWidget(panel)

    def _do_graph(self, document, step: Step) -> None:
        if self.window.open_lesson_graph(document.copy(), self.lesson_title or step.title):
            QTimer.singleShot(0, self.window.editor.view.fit)  # again once the Learn dock has taken its room

    _do_example = _do_graph

    def _do_tab(self, name: str, step: Step) -> None:
        window = self.window
        self._show({"editor": window.editor, "animator": window.animator, "training": window.training}[name])

    def _do_select(self, node_id: str, step: Step) -> None:
        self.window.editor.select_node(node_id)

    def _animator_on_graph(self, step: Step):
        animator = self.window.animator
        animator.catch_up()
        if isinstance(step.facts, GraphFacts) and animator.source != "graph":
            animator.load(self.window.document)
        self._show(animator)
        return animator

    def _do_animator(self, position: int, step: Step) -> None:
        self._animator_on_graph(step).seek(position)

    def _do_pitfall(self, key: str | None, step: Step) -> None:
        self._animator_on_graph(step).set_pitfall(key)

    def _do_predict(self, on: bool, step: Step) -> None:
        self._animator_on_graph(step).set_predict(on)

    def _do_network(self, spec, step: Step) -> None:
        animator = self.window.animator
        self._show(animator)
        animator.load_network(*spec.build())

    def _do_training(self, settings: dict, step: Step) -> None:
        training = self.window.training
        self._show(training)
        training.set_settings(replace(training.settings, **settings))

    def _do_train(self, what: str, step: Step) -> None:
        training = self.window.training
        self._show(training)
        training.play() if what == "play" else training.pause()

    def _do_highlight(self, name: str, step: Step) -> None:
        control = self._control(name)
        if control is None:
            self.status_message.emit(f"The lesson points at '{name}', which this app does not have")
            return
        pages, page = self._tab_pages(), control
        while page is not None and page not in pages:  # the tab it is on, if it is on one
            page = page.parentWidget()
        if page is not None:
            self._show(page)
        if self.highlight is not None:
            try:
                self.highlight.deleteLater()
            except RuntimeError:  # already gone
                pass
        self.highlight = Highlight(control)

    def _tab_pages(self) -> list[QWidget]:
        tabs = self.window.tabs
        return [tabs.widget(i) for i in range(tabs.count())]
