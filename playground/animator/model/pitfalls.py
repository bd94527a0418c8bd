"""The classic backpropagation bugs, replayed for teaching beside the correct pass.

Qt-free. Each replay starts from the real engine's ``backward_steps()`` (`timeline.engine_steps`)
and applies one mistake to them; the engine itself keeps its one correct backward:

- ``overwrite``: ``parent.grad = contribution`` instead of ``parent.grad += contribution``, so a
  node used twice keeps only the contribution that arrived last;
- ``order``: each node passes its gradient on as soon as a depth-first walk from the output
  reaches it, not in reverse topological order, so a node used twice may pass on only part of
  its gradient (the rest arrives too late and never reaches its inputs);
- ``zero``: two backward passes without ``zero_grad()`` in between, as a training loop that forgot
  it does: every leaf's gradient is its old one plus the new one (the engine itself accumulates
  them; the correct replay zeroes them first).

`pitfall_replay` returns both replays with the first step where they part and the final
gradients that differ; the animator draws them side by side.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from ...common.numbers import format_number
from ...graph.document import GraphDocument
from ...graph.evaluate import Evaluation, build_values, evaluate
from .timeline import BackwardPass, ChainStep, engine_steps


@dataclass(frozen=True)
class Pitfall:
    key: str
    title: str  # for a menu: "Overwrite instead of accumulate"
    mistake: str  # the buggy line or habit, in code
    correct: str  # what the engine does instead
    why: str  # what goes wrong, in a sentence


PITFALLS: dict[str, Pitfall] = {p.key: p for p in (
    Pitfall("overwrite", "Overwrite instead of accumulate", "parent.grad = contribution",
            "parent.grad += contribution",
            "A node used more than once must add up the contributions of every use; overwriting keeps only "
            "the last one."),
    Pitfall("order", "Visit nodes in the wrong order", "pass a node's gradient on as soon as a depth-first "
            "walk from the output reaches it", "reverse topological order: a node only after every node that uses it",
            "A node used more than once may pass its gradient on before all of it has arrived; what arrives "
            "later never reaches its inputs."),
    Pitfall("zero", "Forget to zero the gradients", "loss.backward() twice, no zero_grad()",
            "zero_grad() before every backward()",
            "Gradients carry over from one backward pass to the next: without zeroing, the leaves' gradients "
            "after the second pass are the sum of both passes (here: doubled)."),
)}


@dataclass
class Replay:
    passes: list[BackwardPass]

    @property
    def steps(self) -> list[ChainStep]:
        """Every chain-rule step, pass after pass."""
        return [step for backward_pass in self.passes for step in backward_pass.steps]

    def final_grads(self, output: str) -> dict[str, float | None]:
        """Every node's gradient once the replay has run, as the animator shows it at the end."""
        grads: dict[str, float | None] = {}
        for backward_pass in self.passes:
            if backward_pass.start_grads is not None:
                grads = dict(backward_pass.start_grads)
            grads[output] = 1.0
            for step in backward_pass.steps:
                grads[step.parent] = step.total
        return grads


@dataclass
class PitfallReplay:
    pitfall: Pitfall
    output: str
    correct: Replay
    mistaken: Replay
    parting: int | None  # the index (in `Replay.steps`) of the first step where the replays differ
    differing: dict[str, tuple[float | None, float | None]]  # node -> (correct, mistaken) final gradient

    def parting_position(self, forward_frames: int) -> int | None:
        """The animator's position just after the parting step (forward frames, then a seed per pass)."""
        if self.parting is None:
            return None
        index = self.parting
        for number, backward_pass in enumerate(self.correct.passes, start=1):
            if index < len(backward_pass.steps):
                earlier = sum(len(p.steps) for p in self.correct.passes[:number - 1])
                return forward_frames + number + earlier + index + 1  # a seed frame begins each pass
            index -= len(backward_pass.steps)
        return None


def same_number(a: float | None, b: float | None) -> bool:
    """Equal, with nan equal to nan (a replay that gives nan where the engine does agrees with it)."""
    if a is None or b is None:
        return a is b
    return a == b or (math.isnan(a) and math.isnan(b))


def _same_step(a: ChainStep, b: ChainStep) -> bool:
    return ((a.node, a.parent, a.port) == (b.node, b.parent, b.port) and same_number(a.contribution, b.contribution)
            and same_number(a.total, b.total))


def pitfall_replay(document: GraphDocument, key: str) -> PitfallReplay:
    """The correct and the mistaken replay of ``document``'s backward pass for the pitfall ``key``
    (one of `PITFALLS`). Raises ValueError when the graph cannot be evaluated, KeyError for an unknown key."""
    pitfall = PITFALLS[key]
    evaluation = evaluate(document)
    output = document.effective_output()
    if output is None:
        raise ValueError("the graph is empty")
    if not evaluation.is_complete and output not in evaluation.values:
        raise ValueError(evaluation.incomplete[0])
    if key == "zero":
        correct = _two_passes(document, evaluation, zero_between=True)
        mistaken = _two_passes(document, evaluation, zero_between=False)
    else:
        steps = engine_steps(document, evaluation)
        correct = Replay([BackwardPass(steps)])
        mistaken = Replay([BackwardPass(_overwritten(steps, output) if key == "overwrite"
                                        else _out_of_order(document, steps, output))])
    parting = next((i for i, (a, b) in enumerate(zip(correct.steps, mistaken.steps)) if not _same_step(a, b)), None)
    right, wrong = correct.final_grads(output), mistaken.final_grads(output)
    differing = {node: (right.get(node), wrong.get(node)) for node in right
                 if not same_number(right.get(node), wrong.get(node))}
    return PitfallReplay(pitfall, output, correct, mistaken, parting, differing)


def _passed_on(step: ChainStep, upstream: float) -> float:
    """What ``step``'s node hands on when its gradient is ``upstream``: the engine's own number when
    that is what the engine had, else upstream x local."""
    return step.contribution if same_number(upstream, step.upstream) else upstream * step.local


def _overwritten(steps: list[ChainStep], output: str) -> list[ChainStep]:
    grad = {output: 1.0}
    mistaken = []
    for step in steps:
        upstream = grad[step.node]
        contribution = _passed_on(step, upstream)
        before = grad.get(step.parent)
        note = ""
        if before is not None:
            note = (f"overwrote {format_number(before)} instead of adding: it should be {format_number(before)} + "
                    f"{format_number(contribution)} = {format_number(before + contribution)}")
        grad[step.parent] = contribution
        mistaken.append(replace(step, upstream=upstream, contribution=contribution, before=before,
                                total=contribution, note=note))
    return mistaken


def depth_first_order(document: GraphDocument, output: str) -> list[str]:
    """Nodes in the order a depth-first walk from the output first reaches them (operands in port order)."""
    order, seen, stack = [], set(), [output]
    while stack:
        node_id = stack.pop()
        if node_id in seen:
            continue
        seen.add(node_id)
        order.append(node_id)
        node = document.node(node_id)
        operands = [document.edge_at(node_id, port) for port in range(node.port_count)]
        stack.extend(edge.source for edge in reversed(operands) if edge is not None)
    return order


def _out_of_order(document: GraphDocument, steps: list[ChainStep], output: str) -> list[ChainStep]:
    by_node: dict[str, list[ChainStep]] = {}
    for step in steps:  # the engine hands on a node's gradient to all its operands at once
        by_node.setdefault(step.node, []).append(step)
    consumers = Counter(step.parent for step in steps)  # how many uses hand each node a gradient
    received: Counter = Counter()
    grad = {output: 1.0}
    passed_on: set[str] = set()
    mistaken = []
    for node_id in depth_first_order(document, output):
        if node_id not in by_node:  # a leaf: nothing to pass on
            continue
        upstream, early = grad[node_id], received[node_id] < consumers[node_id]
        for step in by_node[node_id]:
            contribution = _passed_on(step, upstream)
            before = grad.get(step.parent)
            total = contribution if before is None else before + contribution
            note = ""
            if step.parent in passed_on:
                note = (f"{_name(document, step.parent)} already passed its gradient on: this "
                        f"{format_number(contribution)} never reaches its inputs")
            elif early:
                note = (f"{_name(document, node_id)} passes on {format_number(upstream)} after only "
                        f"{received[node_id]} of its {consumers[node_id]} contributions: the rest comes too late")
            mistaken.append(replace(step, upstream=upstream, contribution=contribution, before=before,
                                    total=total, note=note))
            grad[step.parent] = total
            received[step.parent] += 1
        passed_on.add(node_id)
    return mistaken


def _name(document: GraphDocument, node_id: str) -> str:
    return document.name(node_id)


def _two_passes(document: GraphDocument, evaluation: Evaluation, zero_between: bool) -> Replay:
    """Two real backward passes of the engine over the same `Value`s, with or without zeroing the
    leaves' gradients in between. In the second pass a leaf shows what it held before the pass plus
    what the pass has brought so far: at the end, exactly the engine's own accumulated ``.grad``."""
    output = document.effective_output()
    needed = document.ancestors(output) | {output}
    order = [n for n in document.topological_order() if n in evaluation.values]
    values, _missing = build_values(document, order)
    order = [n for n in order if n in needed]
    node_of = {id(v): node_id for node_id, v in values.items()}
    leaves = [node_id for node_id in order if document.node(node_id).is_leaf]
    passes = []
    for number in (1, 2):
        start, note, held = None, "", {}
        if number == 2:
            if zero_between:
                for node_id in leaves:
                    values[node_id].grad = 0.0  # what zero_grad() does to every parameter
                start = dict.fromkeys(leaves, 0.0)
                note = "zero_grad(): every leaf's gradient is set back to 0 before this pass."
            else:
                start = {node_id: values[node_id].grad for node_id in order}
                note = ("No zero_grad(): every gradient of the first pass is still there, and each leaf "
                        "adds this pass's gradient to it.")
            held = {node_id: values[node_id].grad for node_id in leaves}
        totals: dict[str, float] = {}  # this pass's running totals, as the engine keeps them
        steps = []
        for step in values[output].backward_steps():
            node_id, parent_id = node_of[id(step.node)], node_of[id(step.parent)]
            previous, base = totals.get(parent_id), held.get(parent_id)
            before, total, note_here = previous, step.total, ""
            if base is not None:  # a leaf in the second pass: on top of what it held
                before, total = (base if previous is None else base + previous), base + step.total
                if base != 0.0:
                    note_here = (f"{_name(document, parent_id)} still held {format_number(base)} from the first "
                                 f"pass: {format_number(total)} where a zeroed gradient gives "
                                 f"{format_number(step.total)}")
            steps.append(ChainStep(node_id, parent_id, step.index, step.local, step.upstream, step.contribution,
                                   before, total, note_here))
            totals[parent_id] = step.total
        passes.append(BackwardPass(steps, start, note))
    return Replay(passes)
