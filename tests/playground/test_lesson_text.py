"""What the lessons' text claims holds, with the engine's numbers: lesson 1's nudge by a whole 1 falls
short upward and overshoots downward, lesson 6 introduces b1's three numbers and the loss before the
backward pass starts from it, lesson 7's forgotten zero_grad() doubles only the leaves' gradients, and
no lesson uses a term before it is taught."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from engine import Value
from engine.nn.functional import binary_cross_entropy_with_logits
from engine.tensor import Tensor
from playground.animator.model.pitfalls import pitfall_replay
from playground.common.numbers import format_number
from playground.learn.model.facts import NetworkSpec
from playground.learn.model.lesson import LessonFormatError, load_lesson, parse_lesson, with_numbers

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"


def step(lesson: str, title: str):
    return next(s for s in load_lesson(LESSONS / f"{lesson}.lesson").steps if s.title == title)


def text(lesson: str, title: str) -> str:
    s = step(lesson, title)
    return with_numbers(s.text, s.facts)


def test_lesson_1_says_a_whole_nudge_falls_short_upward_and_overshoots_downward():
    x = 0.5
    slope = 1 - math.tanh(x) ** 2
    up, down = Value(x + 1).tanh().data - Value(x).tanh().data, Value(x - 1).tanh().data - Value(x).tanh().data
    assert abs(up) < slope and abs(down) > slope  # the claim itself, on the engine's tanh
    said = text("01-value-and-gradient", "When the line bends")
    assert f"up by 1, y moves by {format_number(up)} where the gradient predicts {format_number(slope)}" in said
    assert f"down by 1, y moves by {format_number(down)} against {format_number(-slope)}" in said
    assert format_number(down) == "-0.9242" and format_number(-slope) == "-0.7864"
    assert "exactly as much as L" not in text("01-value-and-gradient", "One number out")
    assert "0.5**2" not in text("01-value-and-gradient", "Check yourself")  # no 1 − x² to copy


def test_a_nudge_number_the_engine_cannot_give_is_refused_at_its_line():
    lesson = "autograd-playground-lesson 1\ntitle: t\n\n## s\ngraph: x=1; y=tanh(x)\n\n{{y}} moves by {{{}}}.\n"
    for name, reason in (("y.change(z=1)", "no node named 'z'"), ("x.predicted(x=1)", "the output"),
                         ("x.change(y=1)", "only an input")):
        with pytest.raises(LessonFormatError) as error:
            parse_lesson(lesson.format(name))
        assert error.value.line == 7 and reason in error.value.reason


def test_lesson_6_gives_b1_as_three_numbers_and_the_loss_before_the_backward_pass():
    said = text("06-tensors", "A network on a batch")
    assert "b1 holds 3 numbers, one per unit: its shape is (3,)" in said and "b1 is 3" not in said
    model, _loss_fn, X, y, _ = NetworkSpec(hidden=3, points=4, seed=0).build()
    loss = binary_cross_entropy_with_logits(model(Tensor(X)), Tensor(y))
    manual = float(np.mean(np.log1p(np.exp(-np.where(y == 1, 1, -1) * model(Tensor(X)).data))))
    assert math.isclose(float(loss.data), manual)  # the mean binary cross-entropy over the 4 points
    assert f"averages over the 4 points into one number, here {format_number(float(loss.data))}" in said
    assert "**logit**" in said and "cross-entropy of the output" not in said  # the loss takes the logit


def test_lesson_7_says_only_the_leaves_double_without_zero_grad():
    s = step("07-training", "Forget to zero the gradients")
    document = s.facts.document
    replay = pitfall_replay(document, "zero")
    right, doubled = replay.correct.final_grads(replay.output), replay.mistaken.final_grads(replay.output)
    for node in document.nodes:
        if node.id not in right or right[node.id] in (None, 0.0):
            continue
        factor = doubled[node.id] / right[node.id]
        assert math.isclose(factor, 2.0 if node.is_leaf else 1.0), document.name(node.id)
    said = text("07-training", "Forget to zero the gradients")
    assert "the gradients of the leaves (the input x, the weight w and the bias b)" in said
    assert "every gradient" not in said and "second step" not in said


@pytest.mark.parametrize("term, lesson, where", [
    ("upstream gradient", "02-chain-rule", "The chain rule"),
    ("depth-first walk", "05-order", "A wrong order"),
    ("SGD", "07-training", "Gradient descent"),
])
def test_a_term_is_taught_where_it_is_first_used(term, lesson, where):
    """The first step of all the lessons, in order, that uses ``term`` is the one that explains it (in bold or
    spelled out)."""
    first = None
    for path in sorted(LESSONS.glob("*.lesson")):
        for s in load_lesson(path).steps:
            if term in s.text and first is None:
                first = (path.stem, s.title, s.text)
    assert first is not None and first[:2] == (lesson, where)
    assert f"**{term}**" in first[2]
