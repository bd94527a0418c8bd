"""A lesson's questions about its training network's gradient health (`health_facts`): which layer's
gradient is smallest, and how many times smaller the first layer's is than the output layer's.

Qt-free. They are `questions.Question`s of kind ``"health"`` (no animator step: the answer is on the
training tab's gradient health plot), checked here: the layer exactly, the ratio as it is read off a
log axis, to within half a power of ten. The likeliest slips (the ratio upside down, the number of
powers of ten for the ratio itself) are told what they are.
"""

from __future__ import annotations

import math
import re

from ...animator.model.predict import read_number
from ...common.numbers import format_number
from .health_facts import HealthFacts, decades
from .questions import Feedback, Question

HEALTH = "health"  # the kind of a question about gradient health (`Question.what`)
HALF_DECADE = 0.5  # a ratio read off a log axis is right within half a power of ten (a factor of about 3)
SLOPES = {"sigmoid": ", at most 1/4", "tanh": ", at most 1"}  # the largest slope of each squashing function
_THOUSANDS = re.compile(r"\d{1,3}(,\d{3})+")  # 10,000: a thousands separator, not a decimal comma


def health_question(facts: HealthFacts, name: str) -> Question:
    """The question ``ask: <name>`` puts (`health_facts.ASKABLE`)."""
    first, output = facts.layers[0].norm, facts.layers[-1].norm
    count = len(facts.layers)
    if name == "health.slowest":
        slowest = facts.slowest
        return Question(
            HEALTH, name,
            f"Which layer's weights get the smallest gradient? Its number, from 1 (the first hidden layer) to "
            f"{count} (the output layer)",
            float(slowest),
            "The gradient reaches a layer through every layer after it, on its way back from the loss, and "
            f"each {facts.settings.activation} unit on the way multiplies it by its slope"
            f"{SLOPES.get(facts.settings.activation, '')}.",
            f"layer {slowest}: its gradient norm is {format_number(facts.layers[slowest - 1].norm)}, the output "
            f"layer's {format_number(output)}", 0)
    if name == "health.ratio":
        return Question(
            HEALTH, name,
            "Read the plot at the first step: about how many times smaller is layer 1's gradient than the output "
            "layer's? (A power of ten will do, such as 100 or 1e2.)",
            facts.ratio,
            "On a log axis each labelled step up is ten times more: count the powers of ten between layer 1's "
            f"line and layer {count}'s at the first step.",
            f"${format_number(output)} / {format_number(first)} = {format_number(facts.ratio)}$, about 10 to the "
            f"power {format_number(round(decades(facts.ratio)))}", 0)
    raise KeyError(f"'ask:' asks about {', '.join(('health.ratio', 'health.slowest'))}, not '{name}'")


def check_health(question: Question, text: str) -> Feedback:
    """Right or not, with a hint; raises `predict.AnswerError` for text that is not a number."""
    text = text.strip()
    if _THOUSANDS.fullmatch(text):
        text = text.replace(",", "")
    answer = read_number(text)
    if question.node == "health.slowest":
        if answer == question.expected:
            return Feedback(True, f"✓ Right: {question.worked}")
        return Feedback(False, f"✗ Not layer {format_number(answer)}. Hint: {question.hint}")
    ratio = question.expected
    if answer > 0 and math.isfinite(answer) and abs(math.log10(answer) - decades(ratio)) <= HALF_DECADE:
        return Feedback(True, f"✓ Right: {question.worked}")
    if answer > 0 and math.isfinite(answer) and abs(math.log10(answer) + decades(ratio)) <= HALF_DECADE:
        return Feedback(False, "✗ That is layer 1's gradient over the output layer's: the question asks how many "
                               "times smaller, the output layer's over layer 1's.")
    if answer == round(decades(ratio)):
        return Feedback(False, f"✗ {format_number(answer)} is the number of powers of ten between the lines: how "
                               f"many times smaller is that? (10 to the power {format_number(answer)})")
    return Feedback(False, f"✗ Not {format_number(answer)}. Hint: {question.hint}")
