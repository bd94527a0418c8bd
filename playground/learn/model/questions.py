"""A lesson's questions: a node's value or its gradient, the engine's answer, and a hint that names the rule.

Qt-free. A value question is answered by the op's forward rule; a gradient question by the
gradient that comes back from each use times its local derivative (upstream × local, in the
animator's order), and by accumulation when the node is used more than once. The hint is a
sentence or two naming the one rule that applies; its details (on demand) write it with the
graph's own names, never with the answer's numbers; once answered, the worked arithmetic is shown. A
wrong number that a common slip gives is told what it is instead (`slips`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...animator.model.forward_timeline import ForwardAnimation, dotted, pretty
from ...animator.model.predict import is_close, read_number
from ...animator.model.timeline import forward_formula, local_derivative_formula
from ...common.numbers import format_number
from .facts import GraphFacts
from .slips import Slip, diagnose, slips

VALUE_RULES = {
    "add": "a sum adds its inputs",
    "sub": "a difference subtracts its second input from its first",
    "mul": "a product multiplies its inputs",
    "div": "a quotient divides its first input by its second",
    "pow": "a power raises its first input to its second",
    "neg": "negation flips the sign",
    "exp": "exp(x) is e raised to x",
    "log": "log(x) is the natural logarithm of x",
    "tanh": "tanh(x) = (e^x − e^−x) / (e^x + e^−x), between −1 and 1",
    "sigmoid": "sigmoid(x) = 1 / (1 + e^−x), between 0 and 1",
    "relu": "relu(x) = max(0, x)",
    "sin": "sin of the input (in radians)",
    "cos": "cos of the input (in radians)",
    "abs": "the absolute value of the input",
    "sum": "a sum adds all its inputs",
}
GRADIENT_RULES = {
    "add": "for a sum, each input gets the upstream gradient unchanged (its local derivative is 1)",
    "sum": "for a sum, each input gets the upstream gradient unchanged (its local derivative is 1)",
    "sub": "for a difference a − b, a gets the upstream gradient and b gets minus it",
    "mul": "for a product, the gradient to one factor is the other factor times the upstream gradient",
    "div": "for a quotient a / b, a gets the upstream gradient divided by b, and b gets −a/b² times it",
    "pow": "for a power a^b, a gets b·a^(b−1) times the upstream gradient",
    "neg": "negation hands on minus the upstream gradient",
    "exp": "the derivative of exp(x) is exp(x) itself, times the upstream gradient",
    "log": "the derivative of log(x) is 1/x, times the upstream gradient",
    "tanh": "the derivative of tanh(x) is 1 − tanh(x)², times the upstream gradient",
    "sigmoid": "the derivative of sigmoid(x) is sigmoid(x)·(1 − sigmoid(x)), times the upstream gradient",
    "relu": "relu hands on the upstream gradient where its input is positive, and 0 where it is not",
    "sin": "the derivative of sin(x) is cos(x), times the upstream gradient",
    "cos": "the derivative of cos(x) is −sin(x), times the upstream gradient",
    "abs": "the derivative of |x| is the sign of x, times the upstream gradient",
}
SEED_RULE = "the output's gradient with respect to itself is 1: the backward pass starts there"


def _sentence(rule: str) -> str:
    return rule[0].upper() + rule[1:] + "."


@dataclass(frozen=True)
class Question:
    what: str  # "value" or "grad"
    node: str  # node id
    prompt: str  # "$t1 = a * b$ = ?": light markup, formulas between $ signs (see `markup`)
    expected: object  # the engine's number; on a tensor graph a shape or an array (`tensor_questions`); None: a build
    hint: str  # the one rule that applies, in a sentence or two
    worked: str  # the arithmetic, once answered: "t1 = 2 * 3 = 6"
    position: int  # the animator step that shows it
    partials: tuple[float, ...] = ()  # a gradient's contributions, one per use (for a sharper hint)
    details: str = ""  # more, on demand: the rule written with the graph's names, never with the answer
    slips: tuple[Slip, ...] = ()  # the wrong numbers common slips give, and what each is (`slips`)


@dataclass(frozen=True)
class Feedback:
    right: bool
    message: str
    details: str = ""  # the hint's details, for a "More" link


def build_question(facts: GraphFacts, what: str, node_id: str, along: str | None = None) -> Question:
    if what == "tangent":  # forward mode along ``along``: no slips worked out for it (yet)
        return tangent_question(facts, node_id, along)
    question = _value_question(facts, node_id) if what == "value" else _grad_question(facts, node_id)
    return replace(question, slips=slips(facts, what, node_id))


def _value_question(facts: GraphFacts, node_id: str) -> Question:
    document = facts.document
    node = document.node(node_id)
    name = facts.term(node_id)
    operands = [document.edge_at(node_id, port).source for port in range(node.port_count)]
    if node.is_leaf:
        formula = numbers = name
        hint = f"${name}$ is an input: its value is given."
    else:
        formula = forward_formula(document, node_id, [facts.term(o) for o in operands])
        numbers = forward_formula(document, node_id, [format_number(facts.value(o)) for o in operands])
        hint = f"{_sentence(VALUE_RULES.get(node.kind, node.kind))[:-1]}: ${name} = {formula}$."
    value = facts.value(node_id)
    return Question("value", node_id, f"${name} = {formula}$ = ?", value, hint,
                    f"${name} = {numbers} = {format_number(value)}$", facts.value_position(node_id) or 0)


def tangent_question(facts: GraphFacts, node_id: str, input_id: str) -> Question:
    """d(node)/d(input) in forward mode: each operand's tangent times its local derivative, summed; the engine's
    `forward_steps` (through `ForwardAnimation`) gives the number and the arithmetic."""
    animation = ForwardAnimation(facts.document, input_id)
    name, seed = facts.term(node_id), facts.term(input_id)
    position = next(i for i, frame in enumerate(animation.timeline.frames, 1) if frame.node_id == node_id)
    worked = animation.timeline.frames[position - 1].explanation.rsplit("\n", 1)[-1]
    dot, dot_seed = dotted(pretty(name)), dotted(pretty(seed))
    hint = (f"Forward mode carries tangents forwards: ${dot}$ is the sum over {name}'s operands of (its local "
            f"derivative) × (the operand's tangent); ${dot_seed} = 1$, and an input held still has tangent 0.")
    return Question("tangent", node_id, f"${dot} = ∂{name}/∂{seed}$ = ?", animation.tangents[node_id], hint,
                    f"${worked}$", position)


def _uses(facts: GraphFacts, node_id: str):
    """Each use of ``node_id``: (the node using it, the port), in the order of the graph's wires."""
    return [(edge.target, edge.port) for edge in facts.document.edges
            if edge.source == node_id and edge.target in facts.timeline.display]


def _grad_question(facts: GraphFacts, node_id: str) -> Question:
    """∂out/∂node: upstream × local for each use (the animator's order), summed over the uses."""
    name, out = facts.term(node_id), facts.term(facts.output)
    grad = facts.grad(node_id)
    prompt = f"$∂{out}/∂{name}$ = ?"
    if node_id == facts.output:
        return Question("grad", node_id, prompt, grad, _sentence(SEED_RULE), f"$∂{out}/∂{out} = 1$",
                        facts.grad_position(node_id) or 0)
    uses = _uses(facts, node_id)
    terms, numbers, partials, rules = [], [], [], []
    for consumer, port in uses:
        local = local_derivative_formula(facts.document, consumer, port)
        upstream = f"∂{out}/∂{facts.term(consumer)}"
        terms.append(upstream if local == "1" else f"{upstream} × {local}")
        step = next(frame.step for frame in facts.timeline.frames
                    if frame.step is not None and frame.step.node == consumer and frame.step.port == port)
        numbers.append(f"{format_number(step.upstream)} × {format_number(step.local)}")
        partials.append(step.contribution)
        kind = facts.document.node(consumer).kind
        rule = _sentence(GRADIENT_RULES.get(kind, f"the local derivative of {kind}, times the upstream gradient"))
        if rule not in rules:
            rules.append(rule)
    formula = f"$∂{out}/∂{name} = {' + '.join(terms)}$"
    if len(uses) > 1:  # the one rule that matters here: accumulate; each use's own rule is a detail
        hint = f"${name}$ is used {len(uses)} times: its gradient is the sum of what comes back from each use."
        details = f"Here: {formula}. {' '.join(rules)}"
    else:
        hint, details = rules[0], f"Here: {formula}."
        if uses[0][0] == facts.output and "upstream gradient" in hint:  # say which: lesson 1 asks before it is taught
            hint = f"{hint[:-1]} (here the one {out} hands on: $∂{out}/∂{out} = 1$)."
    worked = f"$∂{out}/∂{name} = {' + '.join(numbers)} = {format_number(grad)}$"
    return Question("grad", node_id, prompt, grad, hint, worked, facts.grad_position(node_id) or 0,
                    tuple(partials), details)


def check(question: Question, text: str) -> Feedback:
    """Right (with the worked arithmetic) or not: what the wrong number is when it is a common slip, else
    the rule as a hint; raises `predict.AnswerError` for text that is not a number."""
    answer = read_number(text)
    if is_close(answer, question.expected):
        return Feedback(True, f"✓ Right: {question.worked}")
    said = diagnose(question.slips, answer)
    if said is not None:
        return Feedback(False, f"✗ {said}", question.hint)  # the rule, on demand
    return Feedback(False, f"✗ Not {format_number(answer)}. Hint: {question.hint}", question.details)
