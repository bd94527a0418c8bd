"""A lesson's questions about a tensor graph: the shape of a gradient, and a gradient typed in full. Qt-free.

``ask: shape b.grad`` wants a shape (``(3,)``); ``ask: grad b`` on a tensor graph wants the numbers
(``[1.65, 0.23, 0.14]``), checked against the engine's ``b.grad`` element by element as Predict checks
one number. A wrong answer that a usual slip gives is told what it is: the shape of the tensor the
node flowed into (a broadcast bias's batch), a transposed shape or matrix, one row's gradient where
the rows' gradients add up, their mean, the value for the gradient. The hint names the rule of the
node's use (broadcast: sum back over the batch; matmul: multiply by the other operand transposed),
never the answer's numbers.
"""

from __future__ import annotations

import numpy as np

from ...animator.model.predict import is_close
from ...graph.arrays import format_array, shape_text
from ...graph.tensor_evaluate import broadcast_axes, broadcast_text
from .questions import GRADIENT_RULES, Feedback, Question
from .tensor_answers import read_array, read_shape
from .tensor_facts import TensorGraphFacts

Shape = tuple[int, ...]


def _uses(facts: TensorGraphFacts, node_id: str) -> list[tuple[str, int]]:
    """(the node using ``node_id``, the port): the wires out of it into what the output depends on."""
    return [(edge.target, edge.port) for edge in facts.document.edges
            if edge.source == node_id and facts.grad(edge.target) is not None]


def _broadcast_axes(facts: TensorGraphFacts, node_id: str, consumer: str) -> list[int]:
    if facts.document.node(consumer).kind not in ("add", "sub", "mul", "div", "pow"):
        return []
    return broadcast_axes(facts.shape(node_id), facts.shape(consumer))


def _use_rule(facts: TensorGraphFacts, node_id: str, consumer: str, port: int) -> tuple[str, str]:
    """What ``consumer`` hands ``node_id``, in words (the hint) and as a formula (the worked answer)."""
    out, name, user = facts.term(facts.output), facts.term(node_id), facts.term(consumer)
    upstream = f"∂{out}/∂{user}"
    kind = facts.document.node(consumer).kind
    axes = _broadcast_axes(facts, node_id, consumer)
    if axes:
        said = broadcast_text(name, facts.shape(node_id), facts.shape(consumer))
        over = ", ".join(str(axis) for axis in axes)
        return f"{said}.", f"${upstream}$ summed over axis {over}"
    if kind == "matmul":
        operands = [facts.document.edge_at(consumer, p).source for p in (0, 1)]
        a, b = (facts.term(o) for o in operands)
        if port == 0:
            return (f"For ${user} = {a} @ {b}$, the gradient to ${a}$ is the upstream gradient times ${b}$ "
                    f"transposed: $∂{out}/∂{a} = {upstream} @ {b}ᵀ$.", f"${upstream} @ {b}ᵀ$")
        return (f"For ${user} = {a} @ {b}$, the gradient to ${b}$ is ${a}$ transposed times the upstream "
                f"gradient: $∂{out}/∂{b} = {a}ᵀ @ {upstream}$.", f"${a}ᵀ @ {upstream}$")
    rule = GRADIENT_RULES.get(kind, f"the local derivative of {kind}, times the upstream gradient")
    return f"{rule[0].upper()}{rule[1:]}, element by element.", f"${upstream} ⊙ ∂{user}/∂{name}$"


def is_tensor_question(question: Question) -> bool:
    """A question this module checks: a shape, or a gradient that is an array."""
    return question.what == "shape" or isinstance(question.expected, np.ndarray)


def tensor_question(facts: TensorGraphFacts, what: str, node_id: str) -> Question:
    """``what`` is "shape" (of the gradient) or "grad" (its numbers) of ``node_id`` in a tensor graph."""
    return shape_question(facts, node_id) if what == "shape" else array_question(facts, node_id)


def shape_question(facts: TensorGraphFacts, node_id: str) -> Question:
    out, name = facts.term(facts.output), facts.term(node_id)
    shape = facts.shape(node_id)
    hint = (f"A gradient has the shape of what it is the gradient of: $∂{out}/∂{name}$ holds one number for "
            f"each number in ${name}$, however big the tensors ${name}$ flows into are.")
    worked = f"$∂{out}/∂{name}$ has the shape of ${name}$: `{shape_text(shape)}`"
    return Question("shape", node_id, f"The shape of $∂{out}/∂{name}$ = ?", shape, hint, worked,
                    facts.grad_position(node_id) or 0, slips=tuple(_shape_slips(facts, node_id)))


def _shape_slips(facts: TensorGraphFacts, node_id: str) -> list[tuple[Shape, str]]:
    name, out, shape = facts.term(node_id), facts.term(facts.output), facts.shape(node_id)
    asked = f"$∂{out}/∂{name}$ has one number per number in ${name}$."
    found: list[tuple[Shape, str]] = []
    for consumer, _port in _uses(facts, node_id):
        user, axes = facts.term(consumer), _broadcast_axes(facts, node_id, consumer)
        if axes:
            found.append((facts.shape(consumer), f"is the shape of ${user}$, where ${name}$ was broadcast over "
                                                 f"axis {', '.join(map(str, axes))}: its gradient sums back over "
                                                 f"it. {asked}"))
        else:
            found.append((facts.shape(consumer), f"is the shape of ${user}$, which ${name}$ flows into. {asked}"))
    if len(shape) == 2 and shape[0] != shape[1]:
        found.append((shape[::-1], f"is ${name}$'s shape transposed: the gradient is laid out like ${name}$ "
                                   "itself, its rows as rows."))
    found.append(((), f"is the shape of a single number, like ${out}$. {asked}"))
    for other in facts.document.nodes:
        if other.id != node_id:
            found.append((facts.shape(other.id), f"is the shape of ${facts.term(other.id)}$. {asked}"))
    return [(slip, text) for slip, text in found if slip != shape]


def array_question(facts: TensorGraphFacts, node_id: str) -> Question:
    out, name = facts.term(facts.output), facts.term(node_id)
    grad, shape = facts.grad(node_id), facts.shape(node_id)
    uses = _uses(facts, node_id)
    rules = [_use_rule(facts, node_id, consumer, port) for consumer, port in uses]
    formula = " + ".join(f"({rule})" if len(rules) > 1 else rule for _hint, rule in rules)
    hint = " ".join(dict.fromkeys(hint for hint, _rule in rules))
    if len(uses) > 1:
        hint = f"${name}$ is used {len(uses)} times: its gradient is the sum of what comes back from each. {hint}"
    count = f"{grad.size} numbers" if grad.ndim == 1 else f"{shape[0]} rows of {shape[1]}" if grad.ndim == 2 else ""
    example = "[1.2, -0.3, 0.5]" if grad.ndim == 1 else "[[1, 2], [3, 4]]"
    prompt = f"$∂{out}/∂{name}$ = ? ({count}, such as {example})"
    worked = f"$∂{out}/∂{name}$ = {formula} = ${format_array(grad)}$"
    return Question("grad", node_id, prompt, grad, hint, worked, facts.grad_position(node_id) or 0,
                    details=f"Here: $∂{out}/∂{name}$ = {formula}.", slips=tuple(_array_slips(facts, node_id)))


def _array_slips(facts: TensorGraphFacts, node_id: str) -> list[tuple[np.ndarray, str]]:
    name, out = facts.term(node_id), facts.term(facts.output)
    grad = facts.grad(node_id)
    found: list[tuple[np.ndarray, str]] = []
    for consumer, _port in _uses(facts, node_id):
        user, axes = facts.term(consumer), _broadcast_axes(facts, node_id, consumer)
        upstream = facts.grad(consumer)
        if axes == [0] and upstream.ndim == 2:
            rows = upstream.shape[0]
            for row in range(rows):
                found.append((upstream[row], f"is one row's gradient (row {row + 1} of $∂{out}/∂{user}$): ${name}$ "
                                             f"was broadcast over the {rows} rows, so its gradient sums over axis 0, "
                                             "adding every row's share."))
            found.append((upstream, f"is $∂{out}/∂{user}$ itself, of shape `{shape_text(upstream.shape)}`: ${name}$ "
                                     "was broadcast over its rows, so its gradient sums it over axis 0."))
            found.append((upstream.sum(axis=1), f"sums each row of $∂{out}/∂{user}$ (axis 1): ${name}$ was broadcast "
                                                "over the rows, so its gradient sums down each column (axis 0), one "
                                                f"number per number in ${name}$."))
            found.append((upstream.mean(axis=0), f"is the mean over the rows of $∂{out}/∂{user}$: a broadcast "
                                                 "adds every row's share, sum them rather than average."))
    if grad.ndim == 2 and grad.shape[0] != grad.shape[1]:
        found.append((grad.T, f"is the gradient transposed: $∂{out}/∂{name}$ is laid out like ${name}$."))
    found.append((-grad, "has the sign flipped."))
    found.append((facts.value(node_id), f"is ${name}$'s value, not its gradient."))
    return [(slip, text) for slip, text in found if np.all(np.isfinite(slip)) and not _same(slip, grad)]


def _same(answer: np.ndarray, expected: np.ndarray) -> bool:
    return answer.shape == expected.shape and all(
        is_close(float(a), float(e)) for a, e in zip(answer.reshape(-1), expected.reshape(-1)))


def check_tensor(question: Question, text: str) -> Feedback:
    """Right or not, for a shape or an array question; raises `predict.AnswerError` for what cannot be read."""
    if question.what == "shape":
        answer = read_shape(text)
        said = next((said for slip, said in question.slips if slip == answer), None)
        return _feedback(question, answer == question.expected, said, f"`{shape_text(answer)}`")
    answer, expected = read_array(text), np.asarray(question.expected)
    if answer.size == expected.size and (answer.ndim == 1 or expected.ndim == 1):
        answer = answer.reshape(expected.shape)  # the numbers of a matrix in one list, or a vector as one row
    said = next((said for slip, said in question.slips if _same(answer, np.asarray(slip))), None)
    if said is None and answer.shape != expected.shape:
        subject = question.prompt.split(" = ?")[0]
        return Feedback(False, f"✗ You typed {_count(answer)}; {subject} has the shape "
                               f"`{shape_text(expected.shape)}`: {_count(expected)}.", question.hint)
    return _feedback(question, _same(answer, expected), said, f"${format_array(answer)}$")


def _feedback(question: Question, right: bool, said: str | None, written: str) -> Feedback:
    if right:
        return Feedback(True, f"✓ Right: {question.worked}")
    if said is not None:
        return Feedback(False, f"✗ {written} {said}", question.hint)  # the rule, on demand
    return Feedback(False, f"✗ Not {written}. Hint: {question.hint}", question.details)


def _count(array: np.ndarray) -> str:
    if array.ndim == 2:
        return f"{array.shape[0]} rows of {array.shape[1]} numbers"
    return f"{array.size} number{'s' if array.size != 1 else ''}"
