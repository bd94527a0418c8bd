"""Predict mode: before a backward step is shown, the student says what it carries, and is scored.

Qt-free. `PredictQuiz` asks at every backward frame of a scalar graph's timeline (a frame with a
`ChainStep`): the contribution that travels along the wire, or the parent's gradient after it
(either answer counts). `read_number` reads what was typed: a number, or a little arithmetic
such as ``7*3`` or ``21 + 10`` (read with Python's `ast`, never run).
"""

from __future__ import annotations

import ast
import math
import operator
from dataclasses import dataclass

from ...common.numbers import format_number
from .timeline import ChainStep, Timeline

RELATIVE_TOLERANCE = 5e-3  # an answer within 0.5% is right (people round what they compute)
MAX_ANSWER_LENGTH = 200

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: operator.pow}
_NAMED = {"nan": math.nan, "inf": math.inf}


class AnswerError(ValueError):
    """What was typed is not a number; the message says what to type."""


def read_number(text: str) -> float:
    """The number in ``text``: ``21``, ``-0.5``, ``1e-3``, ``7*3``, ``21 + 10``, ``1 - 0.76**2``, ``nan``, ``inf``."""
    text = text.strip().replace("×", "*").replace("−", "-").replace("·", "*").replace(",", ".")
    if not text:
        raise AnswerError("type a number first")
    if len(text) > MAX_ANSWER_LENGTH:
        raise AnswerError("that is too long for one number")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise AnswerError(f"'{text}' is not a number (type e.g. 21, -0.5 or 7*3)") from None
    try:
        return float(_evaluate(tree.body))
    except (ArithmeticError, ValueError) as error:
        raise AnswerError(f"'{text}' cannot be computed ({error})") from None


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id.lower() in _NAMED:
        return _NAMED[node.id.lower()]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 1000:
            raise AnswerError("that exponent is too big")
        return _BINARY[type(node.op)](left, right)
    raise AnswerError("only numbers and + - * / ** are understood")


def is_close(answer: float, expected: float) -> bool:
    """Right to within 0.5%, or the same when both are written with four significant figures."""
    if math.isnan(expected) or math.isnan(answer):
        return math.isnan(expected) and math.isnan(answer)
    if math.isinf(expected) or math.isinf(answer):
        return answer == expected
    return (math.isclose(answer, expected, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-12)
            or format_number(answer) == format_number(expected))


@dataclass(frozen=True)
class Verdict:
    right: bool
    message: str  # with the arithmetic: what the step computes


def step_arithmetic(step: ChainStep, node: str, parent: str) -> str:
    """``contribution = 7 × 3 = 21; a.grad = 21 + 10 = 31``."""
    text = (f"contribution = upstream × local = {format_number(step.upstream)} × {format_number(step.local)} = "
            f"{format_number(step.contribution)}; ")
    if step.before is None:
        return text + f"{parent}.grad = {format_number(step.total)}"
    return text + f"{parent}.grad = {format_number(step.before)} + {format_number(step.contribution)} = " \
                  f"{format_number(step.total)}"


def step_slip(step: ChainStep, names: dict[str, str], answer: float) -> str | None:
    """What ``answer`` is when it is a common slip on one chain-rule step (Predict asks what the step
    carries, or the parent's new gradient): the local derivative or the upstream gradient alone, or the
    sign flipped, as the Learn panel's questions tell them (`learn.model.slips`); None when it is none of them."""
    if is_close(answer, step.contribution) or is_close(answer, step.total):
        return None
    node, parent, shown = names[step.node], names[step.parent], format_number(answer)

    def slip(number: float) -> bool:
        return math.isfinite(number) and is_close(answer, number)

    if not is_close(step.upstream, 1.0) and slip(step.local):
        return f"{shown} is the local derivative alone: multiply it by {node}'s gradient, the upstream one"
    if not is_close(step.local, 1.0) and slip(step.upstream):
        return f"{shown} is {node}'s gradient alone: multiply it by the local derivative ∂{node}/∂{parent}"
    if slip(-step.contribution) or slip(-step.total):
        return f"{shown} has the sign flipped"
    return None


class PredictQuiz:
    """The questions of one timeline and the score so far; ``names`` maps node ids to what a person reads."""

    def __init__(self, timeline: Timeline, names: dict[str, str]):
        self.timeline, self.names = timeline, names
        self.answered: dict[int, bool] = {}  # position of the frame -> right or wrong
        self.last: Verdict | None = None

    @property
    def score(self) -> int:
        return sum(self.answered.values())

    @property
    def asked(self) -> int:
        return len(self.answered)

    @property
    def question_count(self) -> int:
        return sum(frame.step is not None for frame in self.timeline.frames)

    def score_text(self) -> str:
        if not self.asked:
            return f"Score: 0 of 0 ({self.question_count} steps to predict)"
        return f"Score: {self.score} of {self.asked}"

    def step_at(self, position: int) -> ChainStep | None:
        """The chain-rule step of the frame that brings the timeline to ``position``, if it is one."""
        if not 1 <= position <= len(self.timeline.frames):
            return None
        return self.timeline.frames[position - 1].step

    def wants_answer(self, position: int) -> bool:
        """True when the frame reaching ``position`` is a step not yet predicted."""
        return self.step_at(position) is not None and position not in self.answered

    def question(self, position: int) -> str:
        step = self.step_at(position)
        node, parent = self.names[step.node], self.names[step.parent]
        return (f"Step {position}: {node} hands its gradient to {parent}. What does it carry, "
                f"or what is {parent}.grad after it? ({node}.grad = {format_number(step.upstream)})")

    def answer(self, position: int, text: str) -> Verdict:
        """Check what was typed for the step at ``position``; raises `AnswerError` if it is not a number
        (then nothing is scored)."""
        step = self.step_at(position)
        if step is None:
            raise AnswerError("there is nothing to predict at this step")
        value = read_number(text)
        right = is_close(value, step.contribution) or is_close(value, step.total)
        arithmetic = step_arithmetic(step, self.names[step.node], self.names[step.parent])
        if right and step.before is not None and not is_close(value, step.total):
            # What the wire carries, not the new total: say that the total adds up (writing the
            # contribution over the old gradient is the classic bug the overwrite pitfall shows).
            parent = self.names[step.parent]
            verdict = Verdict(True, f"✓ Right, that is what it carries; {parent}.grad adds it up, it is not "
                                    f"replaced. {arithmetic}")
        elif right:
            verdict = Verdict(True, f"✓ Right. {arithmetic}")
        else:
            said = step_slip(step, self.names, value) or format_number(value)
            verdict = Verdict(False, f"✗ Not quite: {said}. {arithmetic}")
        self.answered.setdefault(position, right)  # the first answer counts
        self.last = verdict
        return verdict
