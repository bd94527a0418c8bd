"""Predict mode's model: what was typed is read safely, checked against the engine's step, and scored."""

from __future__ import annotations

import math

import pytest

from playground.animator.model.predict import AnswerError, PredictQuiz, is_close, read_number
from playground.animator.model.timeline import Timeline
from playground.graph.expression import parse_expression

LESSON_2 = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"


@pytest.mark.parametrize("text, value", [
    ("21", 21.0), (" -0.5 ", -0.5), ("1e-3", 0.001), ("7*3", 21.0), ("7 × 3", 21.0), ("21 + 10", 31.0),
    ("1 - 0.76**2", 1 - 0.76 ** 2), ("(2+3)*(4-1)", 15.0), ("0,5", 0.5), ("−2", -2.0), ("1/4", 0.25),
])
def test_read_number_understands_numbers_and_a_little_arithmetic(text, value):
    assert read_number(text) == pytest.approx(value)


def test_read_number_names_nan_and_inf():
    assert math.isnan(read_number("nan")) and read_number("-inf") == -math.inf


@pytest.mark.parametrize("text, words", [
    ("", "type a number"), ("abc", "only numbers"), ("__import__('os')", "only numbers"), ("2 +", "not a number"),
    ("1/0", "cannot be computed"), ("9**9999", "too big"), ("1" * 300, "too long"), ("True", "only numbers"),
])
def test_anything_else_is_refused_with_a_reason(text, words):
    with pytest.raises(AnswerError, match=words):
        read_number(text)


def test_close_enough_means_half_a_percent_or_the_same_four_figures():
    assert is_close(0.42, 0.4199743) and is_close(31.1, 31.0) and not is_close(31.5, 31.0)
    assert not is_close(0.4, 0.4199743) and is_close(math.nan, math.nan) and not is_close(0.0, math.nan)
    assert is_close(math.inf, math.inf) and not is_close(1e308, math.inf)


def names(document):
    return document.names()


def test_a_quiz_asks_at_each_backward_step_and_scores_the_first_answer():
    document = parse_expression(LESSON_2)
    timeline = Timeline.of_document(document)
    quiz = PredictQuiz(timeline, names(document))
    asked = [p for p in range(1, len(timeline) + 1) if quiz.wants_answer(p)]
    assert len(asked) == quiz.question_count == len(document.edges) == 8
    assert all(timeline.frames[p - 1].phase == "backward" for p in asked)
    into_a = [p for p in asked if names(document)[timeline.frames[p - 1].step.parent] == "a"]
    first, second = into_a
    assert "a.grad" in quiz.question(first)

    verdict = quiz.answer(first, "7*3")  # the contribution
    assert verdict.right and "7 × 3 = 21" in verdict.message and quiz.score_text() == "Score: 1 of 1"
    verdict = quiz.answer(second, "10")  # the contribution is 10, the new gradient 31: 10 is right too
    assert verdict.right and "21 + 10 = 31" in verdict.message
    # ... but 10 is also what overwriting would leave in a.grad: the verdict says the total adds up
    assert verdict.message.startswith("✓ Right, that is what it carries; a.grad adds it up, it is not replaced.")
    assert quiz.answer(first, "21").message.startswith("✓ Right. ")  # a's first share: carried = total
    wrong = asked[0]
    verdict = quiz.answer(wrong, "99")
    assert not verdict.right and verdict.message.startswith("✗ Not quite: 99.")
    assert quiz.answer(wrong, "7").right and quiz.score == 2 and quiz.asked == 3  # the first answer counts
    assert not quiz.wants_answer(first)
    with pytest.raises(AnswerError):
        quiz.answer(second + 0, "seven")
    assert quiz.asked == 3
