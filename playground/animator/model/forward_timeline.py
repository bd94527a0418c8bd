"""Forward mode in the animator, Qt-free: values and tangents flowing forward together, one pass per input.

Pick an input (a leaf of the editor's graph); its tangent is seeded to 1, every other leaf's is 0, and
each node in forward order gets its value and its tangent, the sum over its operands of (local
derivative) x (operand's tangent), as `engine.forward_steps` computes it on the engine's own Values:

    ṫ₁ = ∂t₁/∂a · ȧ = 3 × 1 = 3

One such pass gives the derivative of every node along one input: all n gradients of the output take
n passes, where reverse mode takes one backward pass. `work_of_graph` and `work_of_network` count both
(passes, and edges visited), `WorkCount.text` says it in a line.

`ForwardAnimation` has the shape the animator's panel and `SceneSync` expect of an animation (a
`Timeline` of `Frame`s, ``wire_labels``, ``node_lines``, ``node_tooltip``, ``finished_note``).
"""

from __future__ import annotations

import unicodedata
from copy import deepcopy
from dataclasses import dataclass

import numpy as np

from engine import Tensor, forward_steps

from ...common.numbers import format_number, full_number
from ...graph.document import GraphDocument
from ...graph.evaluate import evaluate
from .timeline import DisplayState, DisplayTracker, Frame, NodeState, Timeline, build_timeline, forward_formula, terms

HIDDEN = "?"  # what a quiz prints in place of a number it asks for
DOT = "\u0307"  # combining dot above: ȧ, ṫ₁, the tangent (Newton's dot: a rate of change)
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def pretty(name: str) -> str:
    """t1 -> t₁: digits at the end of a name as subscripts."""
    stem = name.rstrip("0123456789")
    return stem + name[len(stem):].translate(SUBSCRIPTS) if stem else name


def dotted(name: str) -> str:
    """The tangent's name: a dot over a one-letter name (ȧ, ṫ₁, L̇), else ``d`` before it (dloss)."""
    stem = name.rstrip("0123456789₀₁₂₃₄₅₆₇₈₉")
    if len(stem) != 1:  # no letter to dot, or a word (loss): d-prefixed, as JAX names tangents
        return f"d{name}"
    return unicodedata.normalize("NFC", stem + DOT + name[len(stem):].translate(SUBSCRIPTS))  # ȧ as one letter


def inputs_of(document: GraphDocument) -> list[str]:
    """The leaves a person can take a derivative by (inputs and parameters; not constants), in the order
    the forward pass meets them, among the nodes the output depends on."""
    output = document.effective_output()
    if output is None:
        return []
    needed = document.ancestors(output)
    return [n for n in document.topological_order()
            if n in needed and document.node(n).is_leaf and document.node(n).kind != "constant"]


class ForwardAnimation:
    """Forward mode on a graph document for one input: its frames, one per node in forward order."""

    labels_stay = False
    wire_labels: dict = {}  # a wire label reads "grad …": forward mode shows its tangents on the cards

    def __init__(self, document: GraphDocument, input_id: str):
        self.document = document
        self.input_id = input_id
        self.evaluation = evaluation = evaluate(document)
        # The backward timeline: its forward frames have the values' arithmetic; a lesson's exercise about
        # the backward pass says what to hide in its positions (`forward_hiding`).
        backward_frames, initial = build_timeline(document, evaluation)
        self.backward_timeline = Timeline(backward_frames, initial)
        self._value_frames = value_frames = {f.node_id: f for f in backward_frames if f.phase == "forward"}
        values = evaluation.values
        output = document.effective_output()
        if input_id not in inputs_of(document):
            raise ValueError(f"{document.name(input_id) if document.has_node(input_id) else input_id} is not an "
                             "input the output depends on")
        node_of = {id(value): node_id for node_id, value in values.items()}
        steps_into: dict[str, list] = {}
        self.edges_visited = 0
        for step in forward_steps(values[output], {values[input_id]: 1.0}):
            steps_into.setdefault(node_of[id(step.node)], []).append(step)
            self.edges_visited += 1
        self._terms = terms(document)
        self._names = names = {key: pretty(name) for key, name in self._terms.items()}
        seed = names[input_id]
        order = list(value_frames)
        tracker = DisplayTracker(order)
        frames = []
        self.tangents: dict[str, float] = {}
        self._tangent_lines: dict[str, tuple[str, str]] = {}  # the tangent line: (in symbols, its arithmetic)
        self.positions: dict[str, int] = {}  # each node's step (1 = the first)
        for node_id in order:
            base = value_frames[node_id]
            name = names[node_id]
            steps = steps_into.get(node_id, [])
            symbols = ""
            if node_id == input_id:
                tangent = 1.0
                numbers = "1   (seeded: the input we take the derivative by)"
            elif document.node(node_id).is_leaf:
                tangent = 0.0
                numbers = f"0   (held still: only {seed} moves)"
            elif not steps:
                tangent = 0.0
                numbers = f"0   (nothing it depends on moves with {seed})"
            else:
                tangent = steps[-1].total
                parents = [node_of[id(s.parent)] for s in steps]
                symbols = " + ".join(f"∂{name}/∂{names[p]} · {dotted(names[p])}" for p in parents)
                products = " + ".join(f"{format_number(s.local)} × {format_number(s.tangent)}" for s in steps)
                numbers = f"{products} = {format_number(tangent)}"
            self.tangents[node_id] = tangent
            self._tangent_lines[node_id] = (symbols, numbers)
            self.positions[node_id] = len(frames) + 1
            edges = tuple(document.edge_at(node_id, s.index) for s in steps)
            title, explanation = self.texts(node_id)
            frame = Frame("forward", node_id, title, explanation, wires=edges or base.wires)
            tracker.change(frame, node_id, "state", NodeState.COMPUTED)
            tracker.change(frame, node_id, "value", values[node_id].data)
            tracker.change(frame, node_id, "grad", tangent)  # the card's second line: the tangent
            frames.append(frame)
        self.output = output
        self.timeline = Timeline(frames, tracker.initial())
        out = names[output]
        self.finished_note = (f"One forward pass gives ∂{out}/∂{seed} = {dotted(out)} = "
                              f"{format_number(self.tangents[output])}: the derivative by {seed} only. Each "
                              f"other input takes a pass of its own.")
        self.finished_text = "\n\nFinished: every value and every tangent along " + seed + " is computed."
        self.start_text = (f"Press Play or → to start: forward mode along {seed}. Its tangent {dotted(seed)} is set to "
                           f"1 (every other input's to 0), and each node's value and tangent are computed together, "
                           f"in the order of the forward pass: at the end {dotted(out)} = ∂{out}/∂{seed}.")

    def texts(self, node_id: str, hide_value: bool = False, hide_tangent: bool = False) -> tuple[str, str]:
        """The step of ``node_id``: its row in the step list and its step box, with "?" for its value or its
        tangent where a quiz asks for them (then the step says what it computes, never what it comes to)."""
        base, name = self._value_frames[node_id], self._names[node_id]
        title, explanation = base.title, base.explanation
        if hide_value:
            title, explanation = self._hidden_value_texts(node_id)
        symbols, numbers = self._tangent_lines[node_id]
        if hide_tangent:  # a number given (an input's 1 or 0) is no answer: only a computed tangent is hidden
            line = f"{dotted(name)} = {symbols} = {HIDDEN}" if symbols else f"{dotted(name)} = {HIDDEN}"
            tangent = HIDDEN
        else:
            line = f"{dotted(name)} = {symbols} = {numbers}" if symbols else f"{dotted(name)} = {numbers}"
            tangent = format_number(self.tangents[node_id])
        return f"{title},  {dotted(name)} = {tangent}", f"{explanation}\n\nTangent:\n{line}"

    def _hidden_value_texts(self, node_id: str) -> tuple[str, str]:
        name, node = self._terms[node_id], self.document.node(node_id)
        operands = [self._terms[edge.source] for edge in self._value_frames[node_id].wires]
        formula = "" if node.is_leaf else forward_formula(self.document, node_id, operands)
        if not formula:
            return f"{name} = {HIDDEN}", f"Forward: {name} = {HIDDEN}"
        return f"{name} = {formula} = {HIDDEN}", f"Forward: {name} = {formula}\n  = {HIDDEN}"

    def node_lines(self, node_id: str, state: DisplayState, hidden: frozenset[str] = frozenset()) -> list[str]:
        """The card's lines; ``hidden``: the numbers a quiz asks for ("value", "tangent"), as "?"."""
        value = HIDDEN if "value" in hidden else format_number(state.value)
        tangent = HIDDEN if "tangent" in hidden else format_number(state.grad)
        return [f"value {value}", f"tangent {tangent}"]

    def node_tooltip(self, node_id: str, state: DisplayState, hidden: frozenset[str] = frozenset()) -> str:
        name = self.document.name(node_id)
        value = HIDDEN if "value" in hidden else full_number(state.value)
        tangent = HIDDEN if "tangent" in hidden else full_number(state.grad)
        return (f"{name}: {state.state.value}\nvalue = {value}\n"
                f"tangent d{name}/d{self.document.name(self.input_id)} = {tangent}")


@dataclass(frozen=True)
class WorkCount:
    """The work for all gradients of one output: forward mode's passes (one per input) and the edges they
    visit, against reverse mode's one backward pass and its edges."""

    inputs: int  # scalars to take the derivative by: forward passes
    forward_edges: int  # edges visited by all those passes together
    backward_edges: int  # edges visited by the one backward pass

    def text(self) -> str:
        s = "" if self.inputs == 1 else "es"
        return (f"All {self.inputs:,} gradients: forward mode {self.inputs:,} pass{s} "
                f"({self.forward_edges:,} edges visited) · reverse mode 1 backward pass "
                f"({self.backward_edges:,} edges visited)")


def work_of_graph(document: GraphDocument) -> WorkCount:
    """Counted by the engine: `forward_steps` seeded at each input in turn, and ``backward_steps`` once."""
    evaluation = evaluate(document)
    output = document.effective_output()
    if output is None or output not in evaluation.values or evaluation.is_tensor:
        raise ValueError("the graph has no complete scalar output")
    values = evaluation.values
    inputs = inputs_of(document)
    forward = sum(sum(1 for _ in forward_steps(values[output], {values[i]: 1.0})) for i in inputs)
    backward = sum(1 for _ in values[output].backward_steps())
    return WorkCount(len(inputs), forward, backward)


def work_of_network(model, loss_fn, X, y) -> WorkCount:
    """The same for a network on one batch, counted by the engine on a copy of it: each scalar of each
    parameter takes a forward pass of its own (`forward_steps` seeded with a tangent that is 1 at that
    scalar only: the edges it visits are the same for every scalar of one tensor, so one sweep per tensor
    counts them), against ``loss.backward_steps()`` once."""
    model = deepcopy(model)
    loss = loss_fn(model(Tensor(np.asarray(X, dtype=np.float64))), y)
    return work_of_tensors(loss, model.parameters())


def work_of_tensors(loss: Tensor, leaves) -> WorkCount:
    """The work for the gradients of the scalar tensor ``loss`` by every element of each of ``leaves``: a
    forward pass per element (one sweep per leaf counts them: a one-hot tangent visits the same edges
    wherever its 1 is), against one backward pass (the graph is kept: it may be shown afterwards)."""
    scalars = forward = 0
    for leaf in leaves:
        tangent = np.zeros(leaf.shape)
        tangent.flat[0] = 1.0
        visited = sum(1 for _ in forward_steps(loss, {leaf: tangent}))
        scalars += leaf.size
        forward += leaf.size * visited
    backward = sum(1 for _ in loss.backward_steps(retain_graph=True))
    return WorkCount(scalars, forward, backward)
