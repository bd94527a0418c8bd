"""What a lesson step does to the app, done through each panel's public methods.

One rule for every step (`LessonDriver.perform`): first the app is put in the state the lesson
has built up to that step: the graph (or network) the step's numbers are about, loaded again if
the screen shows another one or the student changed it (saying so when it was the student's
change), and the training setup of this and the earlier steps. So a lesson resumed at its saved
step, or gone Back to, shows what its text talks about. Then the step's own actions run in
order: load a graph into the editor (as an example is opened), select a node there, show a tab,
move the animator to a step, choose a pitfall replay or Predict mode, animate a small network,
set up and start or pause training, tick a tick box (the gradient health plot's), point at a
control. A step that loads a graph or a network turns the pitfall replay and Predict off unless
it sets them. A step that asks questions about its graph ends in the animator on it, with the
answers not yet given hidden there (`AnimatorPanel.hide_after`) and the card the waiting question asks
about panned into sight (`AnimatorPanel.ask_about`); questions about gradient health are read off the
training tab.
It never reaches into a panel's widgets: a tick box is clicked by its object name, as a person clicks it
(`TrainingPanel` has no method to show the gradient health plot).
"""

from __future__ import annotations

from dataclasses import fields, replace

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QWidget

from ..graph.document import maths_of
from ..training.model.session import TrainingSettings
from .highlight import Highlight
from .model.facts import GraphFacts, NetworkFacts
from .model.goals import GOAL
from .model.health_questions import HEALTH
from .model.lesson import Lesson, LessonFormatError, Step
from .model.questions import Question
from .model.runner import LessonRun
from .model.trained_questions import TRAINED

LOADS = ("graph", "example", "network", "build")
# Questions answered elsewhere than in the animator: gradient health and a trained graph's accuracy are read off
# the training tab, a graph to build is built in the editor (no card of it is asked about: it is not there yet), a
# goal is reached by a run on the training tab.
OFF_THE_ANIMATOR = (HEALTH, TRAINED, "build", GOAL)
GRAPH_BACK = "You had changed the lesson's graph: it is back as the lesson has it, so the numbers here are about it."


def lesson_settings(current: TrainingSettings, lesson: dict) -> TrainingSettings:
    """The panel's settings with the lesson's over them. Where the person's own choices clash with the
    lesson's (the panel on a regression, a lesson of two moons that never names the problem type), the
    lesson's go over the defaults instead, at the person's pace: the lesson checked them so at load. A lesson that
    names the activation or the layers without each layer's own has every layer take its activation, none drop
    (a person's per-layer choices would otherwise change the lesson's network); one that names the problem, the
    data or the setting without the TF Playground setting trains without it, as it was written before there was one."""
    lesson = dict(lesson)
    if ("activation" in lesson or "hidden" in lesson) and "activations" not in lesson:
        lesson["activations"] = ()
    if ("activation" in lesson or "hidden" in lesson) and "dropout" not in lesson:
        lesson["dropout"] = ()
    if ("dataset" in lesson or "loss" in lesson) and "tf_playground" not in lesson:
        lesson["tf_playground"] = False
    try:
        return replace(current, **lesson)
    except ValueError:
        return replace(TrainingSettings(steps_per_second=current.steps_per_second), **lesson)


class LessonDriver(QObject):
    status_message = Signal(str)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.highlight: Highlight | None = None
        self.lesson_title = ""
        self._network = None  # the animation of the lesson network last loaded, to know it is still shown
        self._loaded_maths = None  # the maths of the lesson graph last loaded: changed since, if they differ

    # -- checking ----------------------------------------------------------------------------------

    def check(self, lesson: Lesson) -> None:
        """What only the app can check: every control a step points at exists. Raises `LessonFormatError`."""
        for step in lesson.steps:
            for action in step.actions:
                source = lesson.path.name if lesson.path else lesson.id
                if action.kind == "highlight" and self._control(action.value) is None:
                    raise LessonFormatError(f"the app has no control named '{action.value}' to point at",
                                            action.line, source)
                if action.kind == "tick" and not isinstance(self._control(action.value[0]), QAbstractButton):
                    raise LessonFormatError(f"the app has no tick box named '{action.value[0]}'", action.line, source)

    def _control(self, name: str) -> QWidget | None:
        return self.window.findChild(QWidget, name)

    # -- doing -------------------------------------------------------------------------------------

    def perform(self, run: LessonRun) -> str:
        """Show the step ``run`` is at (see the module docstring); returns a notice for the Learn panel
        ("" for none): what the lesson put back that the student had changed."""
        step = run.step
        own = {action.kind for action in step.actions}
        loaded, notice = self._restore(step, own)
        for action in step.actions:
            getattr(self, f"_do_{action.kind}")(action.value, step)
        if loaded or own & set(LOADS):  # a new graph or network starts plain, unless the step says otherwise
            animator = self.window.animator
            if "pitfall" not in own:
                animator.set_pitfall(None)
            if "predict" not in own:
                animator.set_predict(False)
        if any(q.what not in OFF_THE_ANIMATOR for q in run.questions):  # a quiz on a graph is taken in the
            # animator, where the answers stay hidden until given
            animator = self._animator_on_graph(step)
            if "animator" not in own:
                animator.seek(run.revealed_up_to or 0)
        self.hide_answers(run)  # and the card the waiting question asks about panned into sight
        return notice

    def hide_answers(self, run: LessonRun | None) -> None:
        """The animator hides the numbers of the steps whose questions still wait (this step's or a later
        step's about the same graph), on the lesson's graph (nothing if none wait), and pans the card the waiting
        question asks about into sight: the question is (again) before the student, as when the Learn dock
        comes back."""
        animator = self.window.animator
        facts = run.step.facts if run is not None else None
        if run is None or run.revealed_up_to is None or not isinstance(facts, GraphFacts):
            animator.hide_after(None)
            animator.ask_about(None)  # nothing waits, so no card is asked about
            return
        # The animator decides what the editor's cards hide too, so it must be on the lesson's graph even
        # while another tab is shown: on a step that only shows the graph in the editor, it still held the
        # graph before, the hiding matched nothing, and the cards printed every answer the next step asks.
        if maths_of(self.window.document) == maths_of(facts.document):
            self._animator_on_graph(run.step, show=False)
        animator.hide_after(run.revealed_up_to, facts.document, run.asked_gradients, run.asked_tangents)
        self._show_asked_card(run)

    def show_answer(self, run: LessonRun, question: Question) -> None:
        """The animator goes to the step of the question just answered, the next ones still hidden; a graph
        built with numbers of the student's own (or shown with Show me) is replaced by the lesson's own copy,
        whose numbers the lesson states."""
        if question.what in (HEALTH, TRAINED, GOAL):  # answered off the training tab: nothing for the animator
            return
        if question.what == "build":  # the student's graph stays when it is the lesson's, numbers and all
            if maths_of(self.window.document) != maths_of(run.step.facts.document):
                self._load_graph(run.step.facts.document, run.step)
            self._show(self.window.editor)
            self.hide_answers(run)
            return
        animator = self._animator_on_graph(run.step, show=False)
        self.hide_answers(run)
        animator.seek(question.position)
        self._show_asked_card(run)  # the next question's, once more: the move in time put the step's card first

    def restore_graph(self, run: LessonRun) -> None:
        """Show the graph of the step ``run`` is at again, as the lesson has it (the student changed it), and
        its questions in the animator again, their answers hidden."""
        step = run.step
        if not isinstance(step.facts, GraphFacts) or not self._load_graph(step.facts.document, step):
            return
        if run.questions:
            animator = self._animator_on_graph(step)
            self.hide_answers(run)
            animator.seek(run.revealed_up_to or 0)
            self._show_asked_card(run)

    def _show_asked_card(self, run: LessonRun) -> None:
        """The animator pans the card the waiting question asks about into sight, the least, as it follows its
        step's card (after the animator has gone to its step: a move in time puts the step's card first)."""
        question, facts = run.question, run.step.facts
        asked = question is not None and question.what not in OFF_THE_ANIMATOR and isinstance(facts, GraphFacts)
        self.window.animator.ask_about(question.node if asked else None, facts.document if asked else None)

    def _restore(self, step: Step, own: set[str]) -> tuple[bool, str]:
        """Put back what the step's numbers are about when an earlier step set it up; returns whether a graph
        or network was loaded, and a notice when the student's change was undone."""
        loaded, notice = False, ""
        source = step.source
        if source is not None and source.kind not in own:
            facts = step.facts
            if isinstance(facts, GraphFacts) and maths_of(self.window.document) != maths_of(facts.document):
                changed = self._lesson_graph_was_changed()
                loaded = self._load_graph(facts.document, step)
                notice = GRAPH_BACK if loaded and changed else ""
            elif isinstance(facts, NetworkFacts) and self.window.animator.animation is not self._network:
                self._do_network(source.value, step)
                loaded = True
        if step.training:  # the setup as the lesson has built it so far (the step's own settings come next)
            training = self.window.training
            wanted = lesson_settings(training.settings, step.training)
            if any(getattr(wanted, f.name) != getattr(training.settings, f.name) for f in fields(TrainingSettings)):
                training.set_settings(wanted)
        return loaded, notice

    def _lesson_graph_was_changed(self) -> bool:
        """True when the editor shows a graph a lesson loaded and the student has changed it since (another
        lesson's graph, as it loaded it, is no change of the student's)."""
        return (self.window.document_name.endswith(" (lesson)")
                and maths_of(self.window.document) != self._loaded_maths)

    def _load_graph(self, document, step: Step) -> bool:
        if not self.window.open_lesson_graph(document.copy(), self.lesson_title or step.title):
            return False
        self._loaded_maths = maths_of(document)
        QTimer.singleShot(0, self.window.editor.view.fit)  # again once the Learn dock has taken its room
        return True

    def _show(self, panel: QWidget) -> None:
        self.window.tabs.setCurrentWidget(panel)

    def _do_graph(self, document, step: Step) -> None:
        self._load_graph(document, step)

    _do_example = _do_graph

    def _do_build(self, document, step: Step) -> None:
        """The student builds the step's graph: the editor, its expression box ready."""
        self._show(self.window.editor)
        self.window.editor.expression_input.setFocus()

    def _do_tab(self, name: str, step: Step) -> None:
        window = self.window
        self._show({"editor": window.editor, "animator": window.animator, "training": window.training}[name])

    def _do_select(self, node_id: str, step: Step) -> None:
        self.window.editor.select_node(node_id)

    def _animator_on_graph(self, step: Step, show: bool = True):
        animator = self.window.animator
        animator.catch_up()
        forward = next((action.value for action in step.actions if action.kind == "forward"), None)
        if forward is not None:  # forward mode's questions are taken on its pass along the step's input
            if animator.source != "forward" or animator.forward.input_combo.currentText() != forward[0]:
                animator.forward.load(forward[0])
        elif isinstance(step.facts, GraphFacts) and animator.source != "graph":
            animator.load(self.window.document)
        if show:
            self._show(animator)
        return animator

    def _do_animator(self, position: int, step: Step) -> None:
        self._animator_on_graph(step).seek(position)

    def _do_forward(self, value: tuple[str, bool], step: Step) -> None:
        """Forward mode along an input of the step's graph, at its start or (``end``) its last step."""
        input_name, at_end = value
        animator = self._animator_on_graph(step)
        if animator.forward.load(input_name) and at_end:
            animator.last()

    def _do_pitfall(self, key: str | None, step: Step) -> None:
        self._animator_on_graph(step).set_pitfall(key)

    def _do_predict(self, on: bool, step: Step) -> None:
        self._animator_on_graph(step).set_predict(on)

    def _do_network(self, spec, step: Step) -> None:
        animator = self.window.animator
        self._show(animator)
        if animator.load_network(*spec.build()):
            self._network = animator.animation

    def _do_training(self, settings: dict, step: Step) -> None:
        training = self.window.training
        self._show(training)
        training.set_settings(lesson_settings(training.settings, settings))

    def _do_train(self, what: str, step: Step) -> None:
        training = self.window.training
        self._show(training)
        if what == "graph":  # as Train this graph: unless the tab trains the editor's graph already (its run kept)
            if not self.window.graph_link.trains_the_editors_graph:
                self.window.graph_link.train()
        elif what == "reset":  # a fresh network, without Reset's question: the lesson asks for it
            training.pause()
            training.reset_requested.emit()
        else:
            training.play() if what == "play" else training.pause()

    def _do_tick(self, value: tuple[str, bool], step: Step) -> None:
        """Tick a tick box (or untick it) as a person clicks it: what it shows follows its own signal."""
        name, on = value
        control = self._control(name)
        if isinstance(control, QAbstractButton) and control.isCheckable():
            control.setChecked(on)
        else:
            self.status_message.emit(f"The lesson ticks '{name}', which this app does not have")

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
        self.window.reveal(control)  # in a panel that gave the graph its room: open again
        if self.highlight is not None:
            try:
                self.highlight.hide()  # the window paints over its ring now, not when it is deleted
                self.highlight.deleteLater()
            except RuntimeError:  # already gone
                pass
        self.highlight = Highlight(control)

    def _tab_pages(self) -> list[QWidget]:
        tabs = self.window.tabs
        return [tabs.widget(i) for i in range(tabs.count())]

