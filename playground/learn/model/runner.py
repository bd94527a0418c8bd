"""Running a lesson: which step is shown, its text with the engine's numbers, its questions and answers.

Qt-free: the Learn panel shows a `LessonRun` and tests drive one without a window. A step with
questions lets the student go on only once every question is answered (right, or shown with
"Show answer"); a wrong answer gets a hint and no progress. `state` and `LessonRun.restore`
keep a place in the lesson between runs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .build_check import build_question as build_task
from .build_check import check_built
from .facts import GraphFacts
from .goals import GOAL, RunState, check_goal, goal_question, parse_goal
from .health_facts import health_facts
from .health_questions import HEALTH, check_health, health_question
from .lesson import Lesson, Step, with_numbers
from .markup import to_html
from .network_check import check_network, network_build_question
from .network_graph_facts import NetworkGraphFacts
from .questions import Feedback, Question, build_question, check
from .tensor_facts import TensorGraphFacts
from .tensor_questions import check_tensor, is_tensor_question, tensor_question
from .trained_questions import TRAINED, check_trained, trained_question

# Questions with nothing in the animator to hide: a graph to build, and a number read off the training tab's
# gradient health plot; a later step's tangents are forward mode's. The trained graph's test accuracy is read
# off the training tab too, and its count of numbers is in no card. A gradient's shape is hidden with the
# gradient: its numbers, written out on a card or in the replay, show how many rows and columns it has.
UNHIDDEN = ("build", HEALTH, TRAINED, GOAL)
LATER_UNHIDDEN = (*UNHIDDEN, "tangent")
HIDES_THE_GRADIENT = ("grad", "shape")


@dataclass(frozen=True)
class Answered:
    question: Question
    revealed: bool  # shown with "Show answer" rather than answered


def _question(facts: GraphFacts, ask, training: dict) -> Question:
    if ask.what == TRAINED:
        return trained_question(facts.document, training, ask.node)
    if ask.what == "build":
        return network_build_question(facts) if isinstance(facts, NetworkGraphFacts) else build_task(facts)
    if isinstance(facts, TensorGraphFacts):
        return tensor_question(facts, ask.what, ask.node)
    return build_question(facts, ask.what, ask.node, ask.along)


class LessonRun:
    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self.index = 0
        self.questions: list[Question] = []
        self.answered: list[Answered] = []
        self.completed = False  # the last step was reached with its questions done
        self._build()

    # -- where we are ----------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    @property
    def step_count(self) -> int:
        return len(self.lesson.steps)

    @property
    def question(self) -> Question | None:
        """The question waiting for an answer, if any."""
        return self.questions[len(self.answered)] if len(self.answered) < len(self.questions) else None

    @property
    def questions_done(self) -> bool:
        return self.question is None

    @property
    def revealed_up_to(self) -> int | None:
        """While questions about this step's graph wait (this step's, or a later step's on the same graph):
        the last animator position whose numbers may show, just before the step of the first of them (the
        animator hides the rest); None when nothing waits."""
        positions = [position for _what, _node, position in self._waiting()]
        return min(positions) - 1 if positions else None

    @property
    def asked_gradients(self) -> set[str]:
        """The nodes whose gradients questions about this step's graph still ask for (see `revealed_up_to`)."""
        return {node for what, node, _position in self._waiting() if what in HIDES_THE_GRADIENT}

    @property
    def asked_tangents(self) -> set[tuple[str, str]]:
        """(node, input) of the tangents this step's questions still ask for in forward mode."""
        return {(ask.node, ask.along) for ask in self.step.asks[len(self.answered):] if ask.what == "tangent"} \
            if self.questions else set()

    def _waiting(self) -> list[tuple[str, str, int]]:
        """(what, node, animator position) of every question still waiting about this step's graph."""
        waiting = [(q.what, q.node, q.position) for q in self.questions[len(self.answered):] if q.what not in UNHIDDEN]
        facts = self.step.facts
        if isinstance(facts, GraphFacts):
            for later in self.lesson.steps[self.index + 1:]:
                if later.facts is facts:
                    waiting += [(ask.what, ask.node, (facts.grad_position(ask.node) if ask.what in HIDES_THE_GRADIENT
                                                      else facts.value_position(ask.node)) or 0)
                                for ask in later.asks if ask.what not in LATER_UNHIDDEN]
        return waiting

    @property
    def can_back(self) -> bool:
        return self.index > 0

    @property
    def can_next(self) -> bool:
        return self.index < self.step_count - 1 and self.questions_done

    @property
    def is_last(self) -> bool:
        return self.index == self.step_count - 1

    def html(self) -> str:
        """The step's text as rich text, with the engine's numbers in it."""
        return to_html(with_numbers(self.step.text, self.step.facts, self.step.training))

    # -- moving ----------------------------------------------------------------------------------

    def go(self, index: int) -> None:
        """Show step ``index`` (clamped) from the start of its questions."""
        self.index = max(0, min(int(index), self.step_count - 1))
        self._build()

    def next(self) -> bool:
        if not self.can_next:
            return False
        self.go(self.index + 1)
        return True

    def back(self) -> bool:
        if not self.can_back:
            return False
        self.go(self.index - 1)
        return True

    def _build(self) -> None:
        step = self.step
        facts = step.facts
        self.questions = [health_question(health_facts(step.training), ask.node) if ask.what == HEALTH
                          else goal_question(ask.node) if ask.what == GOAL
                          else _question(facts, ask, step.training)
                          for ask in step.asks if ask.what in (HEALTH, GOAL) or isinstance(facts, GraphFacts)]
        self.answered = []
        self._check_completed()

    def _check_completed(self) -> None:
        if self.is_last and self.questions_done:
            self.completed = True

    # -- answering -------------------------------------------------------------------------------

    def answer(self, text: str) -> Feedback:
        """Check ``text`` against the waiting question: right moves on to the next question, wrong
        leaves it waiting. Raises `predict.AnswerError` for text that is not a number."""
        question = self.question
        if question is None:
            return Feedback(True, "Every question of this step is answered: go on with Next.")
        if question.what == "build":
            return Feedback(False, "Build the graph in the editor, then press Check my graph.")
        if question.what == HEALTH:
            feedback = check_health(question, text)
        elif question.what == TRAINED:
            feedback = check_trained(question, text)
        else:
            feedback = check_tensor(question, text) if is_tensor_question(question) else check(question, text)
        if feedback.right:
            self.answered.append(Answered(question, revealed=False))
            self._check_completed()
        return feedback

    def check_goal(self, state: RunState) -> Feedback:
        """Check my run: whether the training tab's run (``state``) meets the waiting goal; when it does, the goal is
        reached (what the run reached joins the answers so far)."""
        question = self.question
        if question is None or question.what != GOAL:
            return Feedback(False, "No run to check here: answer the question above.")
        result = check_goal(parse_goal(question.node), state, self.step.training)
        if not result.met:
            return Feedback(False, result.message, question.hint)
        self.answered.append(Answered(replace(question, worked=result.reached), revealed=False))
        self._check_completed()
        return Feedback(True, result.message)

    def check_build(self, document) -> Feedback:
        """Check the graph the student built (``document``, the editor's) for the waiting build question: when it
        has every part, the question is answered (the lesson then shows its own copy, `driver.show_answer`)."""
        question = self.question
        if question is None or question.what != "build":
            return Feedback(False, "No graph to build here: answer the question above.")
        target = self.step.facts
        result = (check_network if isinstance(target, NetworkGraphFacts) else check_built)(target.document, document)
        if not result.passed:
            return Feedback(False, f"✗ {result.message}", question.hint)
        self.answered.append(Answered(question, revealed=False))
        self._check_completed()
        return Feedback(True, f"✓ {result.message}")

    def reveal(self) -> Feedback:
        """Show the waiting question's answer and move on (for a student who is stuck)."""
        question = self.question
        if question is None:
            return Feedback(True, "Every question of this step is answered: go on with Next.")
        self.answered.append(Answered(question, revealed=True))
        self._check_completed()
        return Feedback(False, f"The answer: {question.worked}")

    # -- keeping the place -----------------------------------------------------------------------

    def state(self) -> dict:
        return {"step": self.index, "answered": len(self.answered),
                "revealed": [a.revealed for a in self.answered], "completed": self.completed}

    @classmethod
    def restore(cls, lesson: Lesson, state: dict | None) -> LessonRun:
        """A run at the place ``state`` kept (anything unreadable in it is ignored: start over)."""
        run = cls(lesson)
        if not isinstance(state, dict):
            return run
        step = state.get("step")
        if isinstance(step, int) and not isinstance(step, bool):
            run.go(step)
        revealed = state.get("revealed")
        if isinstance(revealed, list):
            for flag in revealed[:len(run.questions)]:
                run.answered.append(Answered(run.questions[len(run.answered)], bool(flag)))
        run.completed = bool(state.get("completed")) or run.completed
        run._check_completed()
        return run
