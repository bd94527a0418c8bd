"""Every shipped lesson, read step by step as a student reads it: no step's text states the answer of a
question the lesson asks then or later (issue 29, item 10). Generic: whatever questions a lesson added
later asks, their answers come from the lesson model (`LessonRun`), and every earlier step's text, with
the engine's numbers in it, is searched for them written the way the app writes them.

What counts as stating an answer:
- a number written after "=" (``∂L/∂a = 7``), as the app writes it (short or in full);
- the quantity asked set equal to anything (``∂L/∂a = 2 * a + 1``, ``ṫ1 = ∂t1/∂a · ȧ + ...``: a formula to
  read it off);
- a tensor gradient's numbers, as the cards write them;
- a gradient's shape: in the step that asks it, anywhere (an example "such as (4, 2)" is an answer);
  in the steps before, unless it is the shape of an input the lesson gives (X's batch, W's layer).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from playground.animator.model.forward_timeline import dotted, pretty
from playground.common.numbers import format_number, full_number
from playground.graph.arrays import format_array, shape_text
from playground.graph.document import maths_of
from playground.learn.model.facts import GraphFacts
from playground.learn.model.lesson import load_lesson, with_numbers
from playground.learn.model.runner import LessonRun
from playground.learn.model.trained_questions import TRAINED
from playground.training.model.learned import percent

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"
SHIPPED = sorted(LESSONS.glob("*.lesson"))
# Formulas sit between $ signs and bold between **: read as the student reads them, without the marks
MARKS = re.compile(r"\$|\*\*|`")
DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")  # a lesson types t1 where the screen writes t₁


def plain(text: str) -> str:
    return MARKS.sub("", text)


def equals_number(number: float) -> re.Pattern:
    """``= 7`` (or ``=7``) with the number whole and alone: not the start of ``= 70``, ``= 7.5`` or of a
    formula such as ``= 1 - o^2``."""
    written = "|".join(re.escape(text) for text in {format_number(number), full_number(number)})
    return re.compile(rf"(\S+)\s*=\s*(?:{written})(?![\d]|\.\d)(?!\s*[-+*/×·^]\s*[\w(])")


def given_names(facts) -> set[str]:
    """How a lesson writes the inputs it gives (``a``, and its seeded tangent ``ȧ``): ``a = 2`` gives a number,
    it answers nothing."""
    if not isinstance(facts, GraphFacts):
        return set()
    leaves = [facts.name(node.id) for node in facts.document.nodes if node.is_leaf]
    return set(leaves) | {dotted(pretty(name)) for name in leaves}


def stated(question, facts, text: str, asking: bool) -> str | None:
    """How ``text`` gives away ``question``'s answer, or None. ``asking``: the text is the asking step's own."""
    expected = question.expected
    if question.what == "shape":
        written = shape_text(expected)
        given = isinstance(facts, GraphFacts) and any(
            facts.document.node(node_id).is_leaf and facts.shape(node_id) == tuple(expected)
            for node_id in (facts.node_id(name) for name in facts.names()))
        if written in text and (asking or not given):
            return f"the shape {written}"
        return None
    if isinstance(expected, np.ndarray):
        return f"the numbers {format_array(expected)}" if format_array(expected) in text else None
    if question.what == TRAINED:  # an accuracy, written as the training tab writes it
        return f"the accuracy {percent(expected)}" if percent(expected) in text else None
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        given = given_names(facts)
        for found in equals_number(float(expected)).finditer(text):
            if found.group(1) not in given:
                return f"'{text[max(0, found.start() - 30):found.end()]}'"
    if question.what in ("grad", "tangent") and isinstance(facts, GraphFacts):
        output, name = facts.name(facts.document.effective_output()), facts.name(question.node)
        quantities = ((f"∂{output}/∂{name}", f"{name}.grad") if question.what == "grad"
                      else (dotted(pretty(name)), dotted(pretty(name)).translate(DIGITS)))  # ṫ₁ shown, ṫ1 typed
        for quantity in quantities:
            found = re.search(rf"{re.escape(quantity)}\s*=(?!=)", text)
            if found:
                return f"'{text[found.start():found.start() + 60]}'"
    return None


def about_the_same_graph(shown, asked) -> bool:
    """Whether a step whose graph is ``shown`` can state answers about the graph ``asked`` (a step without a
    graph, on the training tab, can state anything)."""
    if not (isinstance(shown, GraphFacts) and isinstance(asked, GraphFacts)):
        return True
    return maths_of(shown.document) == maths_of(asked.document)


def questions_by_step(lesson) -> list[list]:
    """Each step's questions, as the lesson model asks them (answers from the engine)."""
    run = LessonRun(lesson)
    asked = []
    for index in range(len(lesson.steps)):
        run.go(index)
        asked.append(list(run.questions))
    return asked


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_no_step_states_the_answer_of_a_question_asked_then_or_later(path):
    lesson = load_lesson(path)
    asked = questions_by_step(lesson)
    found = []
    for index, step in enumerate(lesson.steps):
        text = plain(with_numbers(step.text, step.facts, step.training))
        for later in range(index, len(lesson.steps)):
            facts = lesson.steps[later].facts
            if not about_the_same_graph(step.facts, facts):  # a number of another graph answers nothing here
                continue
            for question in asked[later]:
                if question.what in ("build",):  # a graph to build: nothing to read off
                    continue
                how = stated(question, facts, text, asking=later == index)
                if how:
                    found.append(f"step {index + 1} ({step.title}) states {how}, the answer to step "
                                 f"{later + 1}'s {plain(question.prompt)!r}")
    assert not found, "\n".join(found)


def test_the_check_catches_an_answer_written_out():
    """The detector itself: lesson 3's text as it stood (issue 29) is caught, each way it gave answers."""
    lesson = load_lesson(LESSONS / "03-used-twice.lesson")
    run = LessonRun(lesson)
    run.go(2)  # a times a, plus a: ∂L/∂a = 7
    question, facts = run.questions[0], run.step.facts
    assert stated(question, facts, "The shares add up: ∂L/∂a = a + a + 1 = 2 * a + 1.", asking=True)
    assert stated(question, facts, "so the gradient is 1 + 6 = 7.", asking=True)
    assert not stated(question, facts, "so the gradient is 1 + 6 = 70.", asking=True)
    assert not stated(question, facts, "What is ∂L/∂a at a = 3?", asking=True)
