"""What a wrong number is, when it is a common slip: Qt-free.

A hint that repeats the rule ("a product multiplies its inputs") does not tell a student what they
did. Most wrong answers are one of a few slips, and each can be recomputed from the graph and the
engine's own backward steps: the other operation (a + b for a · b), one use's share instead of the
sum over every use, the local derivative without the upstream gradient (or the other way round), the
sign flipped, the value given for the gradient. `diagnose` names the slip a wrong answer matches, in
light markup ("$5$ is $a + b$; $t1$ is $a * b$ = ?"), and never states the answer itself: `slips`
lists each slip's number with what it is when the question is built, `diagnose` picks the one typed.
The animator's Predict mode tells the same slips on one chain-rule step (`predict.step_slip`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ...animator.model.predict import is_close
from ...animator.model.timeline import ChainStep, forward_formula, local_derivative_formula
from ...common.numbers import format_number
from .facts import GraphFacts

# Each binary operation a slip may turn into: its formula's symbol and how it computes.
_BINARY: dict[str, tuple[str, Callable[[float, float], float]]] = {
    "add": ("+", lambda a, b: a + b),
    "sub": ("-", lambda a, b: a - b),
    "mul": ("*", lambda a, b: a * b),
    "div": ("/", lambda a, b: a / b if b else math.nan),
}


Slip = tuple[float, str]  # a wrong number a slip gives, and what it is (light markup, ends with the question)


def slips(facts: GraphFacts, what: str, node_id: str) -> tuple[Slip, ...]:
    """Every slip for the question "``what`` (value or grad) of ``node_id``", most telling first; none whose
    number is the right answer or is not a finite number."""
    expected = facts.value(node_id) if what == "value" else facts.grad(node_id)
    found = _value_slips(facts, node_id) if what == "value" else _grad_slips(facts, node_id)
    return tuple((number, text) for number, text in found
                 if math.isfinite(number) and not is_close(number, expected))


def diagnose(found: tuple[Slip, ...], answer: float) -> str | None:
    """What ``answer`` is, written for the student ("$5$ is $a + b$; ..."), or None if it is no known slip."""
    return next((f"{_number(answer)} {text}" for number, text in found if is_close(answer, number)), None)


def _number(x: float) -> str:
    return f"${format_number(x)}$"


def _value_slips(facts: GraphFacts, node_id: str) -> list[Slip]:
    document = facts.document
    node = document.node(node_id)
    if node.is_leaf:
        return []
    operands = [document.edge_at(node_id, port).source for port in range(node.port_count)]
    names = [facts.term(o) for o in operands]
    asked = f"${facts.term(node_id)}$ is ${forward_formula(document, node_id, names)}$ = ?"
    found: list[Slip] = []
    if len(operands) == 2 and node.kind in _BINARY:
        (a, b), (x, y) = names, [facts.value(o) for o in operands]
        for other, (symbol, compute) in _BINARY.items():
            if other != node.kind:
                found.append((compute(x, y), f"is ${a} {symbol} {b}$; {asked}"))
        if node.kind in ("sub", "div"):
            symbol, compute = _BINARY[node.kind]
            found.append((compute(y, x), f"is ${b} {symbol} {a}$, the other way round; {asked}"))
    for operand, name in zip(operands, names):
        found.append((facts.value(operand), f"is ${name}$ itself, before the operation; {asked}"))
    found.append((-facts.value(node_id), f"has the sign flipped; {asked}"))
    return found


def _uses(facts: GraphFacts, node_id: str) -> list[ChainStep]:
    """The chain-rule steps that hand ``node_id`` a share of its gradient, in the animator's order."""
    return [frame.step for frame in facts.timeline.frames if frame.step is not None and frame.step.parent == node_id]


def _grad_slips(facts: GraphFacts, node_id: str) -> list[Slip]:
    document, out, name = facts.document, facts.term(facts.output), facts.term(node_id)
    steps = _uses(facts, node_id)
    if node_id == facts.output or not steps:
        return []
    terms = []
    for step in steps:
        local = local_derivative_formula(document, step.node, step.port)
        upstream = f"∂{out}/∂{facts.term(step.node)}"
        terms.append(upstream if local == "1" else f"{upstream} × {local}")
    asked = f"${'∂' + out + '/∂' + name} = {' + '.join(terms)}$ = ?"
    found: list[Slip] = [(-facts.grad(node_id), f"has the sign flipped; {asked}")]
    if len(steps) > 1:
        found += _one_use_slips(facts, steps, name, asked)
    total = sum(step.contribution for step in steps)
    if len(steps) > 1 and any(not is_close(step.upstream, 1.0) for step in steps):
        found.append((sum(step.local for step in steps), f"adds up the local derivatives alone, leaving out the "
                                                          f"upstream gradient each is multiplied by; {asked}"))
    for step in steps:
        consumer, local = facts.term(step.node), local_derivative_formula(document, step.node, step.port)
        rest = total - step.contribution  # the other uses' shares, right: only this one slipped
        if not is_close(step.upstream, 1.0):
            found.append((rest + step.local, f"leaves out the upstream gradient: ${local}$ is the local derivative "
                                             f"$∂{consumer}/∂{name}$ alone, to be multiplied by "
                                             f"$∂{out}/∂{consumer}$; {asked}"))
        if not is_close(step.local, 1.0):
            found.append((rest + step.upstream, f"leaves out the local derivative: $∂{out}/∂{consumer}$ is the "
                                                f"gradient reaching ${consumer}$, to be multiplied by "
                                                f"$∂{consumer}/∂{name} = {local}$; {asked}"))
        other = _other_rule(facts, step)
        if other is not None:
            found.append((rest + step.upstream * other[0], f"{other[1]}; {asked}"))
    found.append((facts.value(node_id), f"is ${name}$'s value, not its gradient; {asked}"))
    return found


def _one_use_slips(facts: GraphFacts, steps: list[ChainStep], name: str, asked: str) -> list[Slip]:
    """The share of one use alone, for a node used more than once: one wire's (``a * a``: one of L's two
    operands) and, where a node takes it several times, that node's together (``t = a * a`` in
    ``L = t + a``: 6, what comes back through t); each worded for the uses on screen."""
    consumers: dict[str, list[ChainStep]] = {}
    for step in steps:
        consumers.setdefault(step.node, []).append(step)
    found: list[Slip] = []
    for consumer, own in consumers.items():
        term = facts.term(consumer)
        others = ", ".join(f"${facts.term(other)}$" for other in consumers if other != consumer)
        sum_over = f"and ${name}$'s gradient is the sum over every use: {asked}"
        if len(own) > 1:
            times = "as both its operands" if len(own) == 2 else f"as {len(own)} of its operands"
            takes = f"${term}$ takes ${name}$ {times}"
            for step in own:
                found.append((step.contribution, f"is what comes back through one of ${term}$'s uses of ${name}$ "
                                                  f"alone; {takes}, " + (f"${name}$ is used by {others} too, "
                                                                         if others else "") + sum_over))
            if others:
                found.append((sum(step.contribution for step in own),
                              f"is what comes back through ${term}$ alone ({takes}); ${name}$ is used by "
                              f"{others} too, {sum_over}"))
        else:
            found.append((own[0].contribution, f"is what comes back through ${term}$ alone; ${name}$ is used by "
                                                f"{others} too, and its gradient is the sum over every use: "
                                                f"{asked}"))
    return found


def _other_rule(facts: GraphFacts, step: ChainStep) -> tuple[float, str] | None:
    """The local derivative of the other operation at ``step`` (a product's for a sum and the other way
    round), and what that slip is, or None where the op has no such twin."""
    document = facts.document
    consumer = document.node(step.node)
    if consumer.port_count != 2 or consumer.kind not in ("add", "mul"):
        return None
    own = document.edge_at(step.node, step.port).source
    other = document.edge_at(step.node, 1 - step.port).source
    name, who = facts.term(consumer.id), facts.term(own)
    if consumer.kind == "mul":
        return (facts.value(own), f"multiplies by ${who}$ itself: a product like ${name}$ hands each factor "
                                  f"the other factor, ${facts.term(other)}$")
    return (facts.value(other), f"multiplies by ${facts.term(other)}$ as if ${name}$ were a product: a sum "
                                "hands on the upstream gradient unchanged")
