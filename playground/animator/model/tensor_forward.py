"""Forward mode on a tensor graph, Qt-free: one element of one input moves, and its tangents flow forward.

On a tensor graph an input X has many elements, and the derivative of the scalar output L by X is X's
gradient, one number per element. Forward mode takes them one at a time: X's tangent is one-hot (1 at the
element chosen, say X[1, 0], 0 at every other), every other input's is 0, and each node gets, beside
its value, its tangent: the column of its Jacobian for that element, of the node's own shape, from the
op's tangent rule ("matmul: Ẏ = Ẋ @ W + X @ Ẇ"), as `engine.forward_steps` computes it. At the end
L̇ = ∂L/∂X[1, 0], one element of the gradient the backward pass gives all at once: X's n elements take
n passes.

`TensorForwardAnimation` draws the same nodes as the backward tensor replay (`tensor_timeline`), with
the same rows (shapes, norms, the value's statistics) and a tangent row under each.
"""

from __future__ import annotations

from collections import defaultdict
from copy import deepcopy

import numpy as np

from engine import Tensor, forward_steps
from engine.autograd import topological_order

from ...common.numbers import format_number
from ...graph.document import GraphDocument
from .editor_tensors import document_tensors
from .forward_timeline import dotted, inputs_of, work_of_tensors
from .tensor_timeline import (
    OPS,
    TensorAnimation,
    describe,
    graph_animation,
    norm,
    shape_text,
    statistics,
    tensor_animation,
    tensor_node_ids,
)
from .timeline import DisplayState, DisplayTracker, Frame, NodeState, Timeline

# The tangent rule of each op, by its ``op`` name: {0}, {1}, ... the operands, {d0}, {d1}, ... their tangents.
TANGENT_RULES: dict[str, str] = {
    "linear": "{d0} · {1}ᵀ + {0} · {d1}ᵀ + {d2}",
    "+": "{d0} + {d1}", "-": "{d0} − {d1}", "*": "{d0} ⊙ {1} + {0} ⊙ {d1}",
    "/": "{d0} / {1} − {0} ⊙ {d1} / {1}²", "**": "{d0} ⊙ {1}·{0}^({1}−1) + {d1} ⊙ {0}^{1}·ln({0})",
    "@": "{d0} @ {1} + {0} @ {d1}", "neg": "−{d0}", "sum": "sum({d0})", "mean": "mean({d0})",
    "reshape": "reshape({d0})", "transpose": "{d0}ᵀ", "exp": "{d0} ⊙ exp({0})", "log": "{d0} / {0}",
    "tanh": "{d0} ⊙ (1 − tanh({0})²)", "sigmoid": "{d0} ⊙ σ({0})(1 − σ({0}))", "relu": "{d0} ⊙ [{0} > 0]",
    "leaky_relu": "{d0} ⊙ (1 where {0} > 0, else the slope)", "abs": "{d0} ⊙ sign({0})",
    "bce_with_logits": "mean((σ({0}) − {1}) ⊙ {d0} − {0} ⊙ {d1})",
    "log_softmax": "{d0} − (softmax({0}) ⊙ {d0} summed over the row)", "getitem": "{d0}[each point's class]",
}


def index_text(shape: tuple[int, ...], element: int) -> str:
    """The element at flat position ``element`` of an array of ``shape``, as written: "[1, 0]" ("" for a scalar)."""
    if shape == ():
        return ""
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(element, shape)) + "]"


def tangent_rule(op: str, operands: list[str]) -> str:
    """``Ẏ``'s formula for the op ``op`` on ``operands`` (their names): "Ẋ @ W + X @ Ẇ"."""
    rule = TANGENT_RULES.get(op)
    if rule is None or (rule.count("{d") > len(operands) and op != "linear"):  # no rule in words: a Jacobian each
        return " + ".join(f"J{i + 1} · {tangent_name(name)}" for i, name in enumerate(operands))
    if op == "linear" and len(operands) == 2:  # no bias
        rule = "{d0} · {1}ᵀ + {0} · {d1}ᵀ"
    for i, name in enumerate(operands):
        rule = rule.replace(f"{{d{i}}}", tangent_name(name)).replace(f"{{{i}}}", name)
    return rule


def tangent_name(title: str) -> str:
    """A tangent's name: Ẋ, ṫ₁, Ẇ₂, and d(Linear 1) for a layer's output (a name of words)."""
    return f"d({title})" if " " in title else dotted(title)


def _tangent_text(tangent, size: int) -> str:
    if tangent is None:
        return "0"
    return format_number(float(np.reshape(tangent, -1)[0])) if size == 1 else f"‖·‖ {format_number(norm(tangent))}"


def _row_tangent(dot: str, tangent, size: int, seeded_at: str | None) -> str:
    """A step row's tangent: "Ẇ = one-hot at [0, 1]", "‖ṫ₁‖ = 5.916", "L̇ = 2.745", "ḃ = 0"."""
    if seeded_at:
        return f"{dot} = one-hot at {seeded_at}"
    if tangent is None or size == 1:
        return f"{dot} = {_tangent_text(tangent, 1)}"
    return f"‖{dot}‖ = {format_number(norm(tangent))}"


def tensor_inputs(document: GraphDocument, tensors: dict[str, Tensor]) -> list[str]:
    """The leaves of a tensor graph forward mode can take a derivative by: those that require grad (an
    array of labels does not: no gradient to compare with)."""
    return [n for n in inputs_of(document) if n in tensors and tensors[n].requires_grad]


class TensorForwardAnimation:
    """Forward mode along one element (flat index ``element``) of the leaf ``leaf`` of the scalar tensor
    ``output``'s graph, drawn as ``base`` (the backward replay of the same graph) draws it: a frame per node
    in forward order, its value and its tangent. ``leaves``: every leaf a gradient is wanted by (the
    counter's passes). Built by `of_document` (an editor tensor graph) or `of_network`."""

    labels_stay = False
    wire_labels: dict = {}  # the cards show the tangents

    @classmethod
    def of_document(cls, document: GraphDocument, input_id: str, element: int = 0) -> TensorForwardAnimation:
        """Along the element ``element`` of the input ``input_id`` of an editor tensor graph."""
        tensors, output = document_tensors(document)
        if input_id not in tensor_inputs(document, tensors):
            raise ValueError(f"{document.name(input_id) if document.has_node(input_id) else input_id} is not an "
                             "input the output depends on")
        leaves = [tensors[n] for n in tensor_inputs(document, tensors)]
        base = graph_animation(output)  # the backward replay: its nodes, layout, value rows and the gradient
        return cls(base, output, tensors[input_id], element, leaves)

    @classmethod
    def of_network(cls, model, loss_fn, X, y, parameter: int, element: int = 0) -> TensorForwardAnimation:
        """Along the element ``element`` of the ``parameter``-th parameter (W1, b1, W2, ...) of a network on one
        batch (on copies of the network: its weights stay as they are)."""
        base = tensor_animation(deepcopy(model), loss_fn, X, y)  # its backward pass frees its graph:
        model = deepcopy(model)  # forward mode runs the same batch again, through the same ops
        output = loss_fn(model(Tensor(np.asarray(X, dtype=np.float64))), y)
        parameters = list(model.parameters())
        if not 0 <= parameter < len(parameters):
            raise ValueError(f"the network has {len(parameters)} parameters, not {parameter + 1}")
        return cls(base, output, parameters[parameter], element, parameters)

    def __init__(self, base: TensorAnimation, output: Tensor, leaf: Tensor, element: int, leaves: list[Tensor]):
        self.nodes, self.edges, self.output = base.nodes, base.edges, base.output
        ids = tensor_node_ids(output)  # the same graph as base's: the same node ids
        self.input_node, self.element = ids[id(leaf)], element
        name = self.nodes[self.input_node].title
        if not 0 <= element < leaf.size:
            raise ValueError(f"{name} has {leaf.size} elements, not {element + 1}")
        self.seed_name = name + index_text(leaf.shape, element)
        self.leaf_titles = [self.nodes[ids[id(t)]].title for t in leaves]  # what a pass can be along
        seed = np.zeros(leaf.shape)
        seed.flat[element] = 1.0
        steps_into: dict[str, list] = defaultdict(list)
        self.edges_visited = 0
        for step in forward_steps(output, {leaf: seed}):
            steps_into[ids[id(step.node)]].append(step)
            self.edges_visited += 1
        tensor_of = {ids[id(t)]: t for t in topological_order(output)}  # every node, an op inside a node's too
        value_frames = [f for f in base.timeline.frames if f.phase == "forward"]
        self.tangents: dict[str, np.ndarray | None] = {}
        tracker = DisplayTracker(self.nodes)
        frames = []
        for base_frame in value_frames:
            node_id = base_frame.node_id
            node = self.nodes[node_id]
            steps = steps_into.get(node_id, [])
            line, tangent = self._tangent_line(node_id, steps, seed, tensor_of.get(node_id))
            self.tangents[node_id] = tangent
            seeded_at = index_text(node.shape, element) if node_id == self.input_node and node.size > 1 else None
            title = f"{base_frame.title},  {_row_tangent(tangent_name(node.title), tangent, node.size, seeded_at)}"
            frame = Frame("forward", node_id, title, f"{base_frame.explanation}\n\nTangent:\n{line}",
                          wires=base_frame.wires)
            tracker.change(frame, node_id, "state", NodeState.COMPUTED)
            tracker.change(frame, node_id, "value", _value_of(base_frame))
            tracker.change(frame, node_id, "grad", tangent)  # the card's last row: the tangent
            frames.append(frame)
        self.timeline = Timeline(frames, tracker.initial())
        self.gradient = float(_final_grad(base, self.input_node).reshape(-1)[element])  # the backward pass's
        out = self.nodes[self.output].title
        final = self.tangents[self.output]
        self.output_tangent = 0.0 if final is None else float(np.reshape(final, -1)[0])
        self.work = work_of_tensors(output, leaves)
        dot, out_dot = tangent_name(name), tangent_name(out)
        self.start_text = (
            f"Press Play or → to start: forward mode along {self.seed_name}. {name}'s tangent {dot} is one-hot: "
            f"1 at {index_text(leaf.shape, element) or name}, 0 at its other {leaf.size - 1} elements; every other "
            f"leaf's tangent is 0. Each node's value and tangent (the column of its Jacobian for that element, of "
            f"the node's own shape) are computed together, in the order of the forward pass: at the end {out_dot} "
            f"= ∂{out}/∂{self.seed_name}, one element of {name}'s gradient.")
        self.finished_text = f"\n\nFinished: every value and every tangent along {self.seed_name} is computed."
        self.finished_note = (
            f"One forward pass gives ∂{out}/∂{self.seed_name} = {out_dot} = {format_number(self.output_tangent)}: "
            f"the backward pass gives the same number ({format_number(self.gradient)}) for this element, and "
            f"every other gradient in the same pass. Forward mode takes a pass for each of {name}'s {leaf.size} "
            f"elements, {self.work.inputs} passes for all of this graph's gradients.")

    def _tangent_line(self, node_id: str, steps: list, seed: np.ndarray, tensor) -> tuple[str, np.ndarray | None]:
        node = self.nodes[node_id]
        dot = tangent_name(node.title)
        if node_id == self.input_node:
            where = index_text(node.shape, self.element)
            rest = f", 0 at the other {node.size - 1} elements" if node.size > 1 else ""
            return (f"{dot} = 1 at {where or 'its one element'}{rest}   (seeded: the element we take the derivative "
                    f"by)", seed)
        if not node.port_names:
            return f"{dot} = 0   (held still: only {self.seed_name} moves)", None
        if not steps:
            return f"{dot} = 0   (nothing it depends on moves with {self.seed_name})", None
        ports = sorted((e.port, self.nodes[e.source].title) for e in self.edges if e.target == node_id)
        operands = [title for _port, title in ports]
        op = getattr(tensor, "op", "") if tensor is not None else ""
        word = OPS[op].word if op in OPS else (op or node.kind)
        carried = {step.index for step in steps}
        lines = [f"{word}: {dot} = {tangent_rule(op, operands)}"]
        for step in steps:
            lines.append(f"  from {operands[step.index]}: {describe(step.contribution)}")
        still = [operands[i] for i in range(len(operands)) if i not in carried]
        if still:
            terms = "its term is" if len(still) == 1 else "their terms are"
            lines.append(f"  {', '.join(still)} held still: {terms} 0")
        total = steps[-1].total
        lines.append(f"{dot} = {describe(total)}")
        return "\n".join(lines), np.asarray(total)

    def node_lines(self, node_id: str, state: DisplayState) -> list[str]:
        node = self.nodes[node_id]
        lines = [f"shape {shape_text(node.shape)}"]
        if state.value is None:
            lines.append("value —")
        else:
            lines.append(f"value {format_number(float(np.reshape(state.value, -1)[0]))}" if node.size == 1
                         else f"‖value‖ {format_number(norm(state.value))}")
        if state.state is NodeState.NOT_REACHED:
            lines.append("tangent —")
        elif node_id == self.input_node and node.size > 1:  # one-hot: its norm (1) would not say where
            lines.append(f"tangent 1 at {index_text(node.shape, self.element)}")
        elif node.size == 1 or state.grad is None:
            lines.append(f"tangent {_tangent_text(state.grad, 1)}")
        else:
            lines.append(f"‖tangent‖ {format_number(norm(state.grad))}")
        return lines

    def node_tooltip(self, node_id: str, state: DisplayState) -> str:
        node = self.nodes[node_id]
        lines = [f"{node.title} ({node.kind}): {node.description}", f"{state.state.value}", f"shape {node.shape}"]
        if state.value is not None:
            lines.append(f"value: {statistics(state.value, full=True)}")
        if state.state is not NodeState.NOT_REACHED:
            tangent = "0" if state.grad is None else statistics(state.grad, full=True)
            lines.append(f"tangent d{node.title}/d{self.seed_name}: {tangent}")
        return "\n".join(lines)


def _value_of(frame: Frame):
    return next(change.new for change in frame.changes if change.field == "value")


def _final_grad(animation, node_id: str) -> np.ndarray:
    """The gradient the backward replay ``animation`` ends with at ``node_id``."""
    grad = None
    for frame in animation.timeline.frames:
        for change in frame.changes:
            if change.node_id == node_id and change.field == "grad":
                grad = change.new
    return np.zeros(animation.nodes[node_id].shape) if grad is None else np.asarray(grad)
