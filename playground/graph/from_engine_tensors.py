"""An engine `Tensor` graph as an editor document: what `playground.show(tensor)` can open in the editor.

Qt-free. Each engine op becomes the editor node of the same op (its parameters read from what the op
saved: a sum's axis and keepdims, a softmax's axis, a reshape's result shape), wired in operand order,
so the editor's evaluation computes the very same arrays. ``linear`` (one engine node) is drawn as what
it computes, ``x @ W.T + b``, so each step of it can be seen. A leaf is a parameter if it requires grad,
else an input if it has a label and a constant if not (``x * 2`` makes one). A leaf past the editor's
limits (more than 2 dimensions or 4,096 elements) or an op the editor has no node for is refused with a
message that names it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine import Tensor
from engine.graph import reading_order

from .arrays import ValueProblem, as_leaf_value, shape_text
from .document import Edge, GraphDocument, Node
from .layout import layered_layout

OP_KINDS = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "neg": "neg", "@": "matmul",
    "exp": "exp", "log": "log", "tanh": "tanh", "sigmoid": "sigmoid", "relu": "relu", "abs": "abs",
    "sum": "reduce_sum", "mean": "reduce_mean", "softmax": "softmax", "log_softmax": "log_softmax",
    "reshape": "reshape", "transpose": "transpose",
}


def _inferred_reduction(tensor: Tensor) -> tuple:
    """A reduction's (axis, keepdims) from its input's and result's shapes, once backward() freed its context."""
    source, result = tensor.parents[0].shape, tensor.shape
    if result == () or (len(result) == len(source) and all(n == 1 for n in result) and len(source) > 1):
        return None, result != ()
    if len(result) == len(source):
        return next(i for i, (m, n) in enumerate(zip(source, result)) if m != n or n == 1), True
    return next((i for i in range(len(source)) if source[:i] + source[i + 1:] == result), 0), False


def _inferred_softmax_axis(tensor: Tensor) -> int:
    """A softmax's axis, once backward() freed its context: the axis along which its rows sum to 1."""
    data = tensor.data if tensor.op == "softmax" else np.exp(tensor.data)
    for axis in range(-1, -tensor.ndim - 1, -1):
        if np.allclose(data.sum(axis=axis), 1.0):
            return axis
    return -1


def _params(tensor: Tensor, kind_name: str) -> dict:
    """The node parameters an engine op saved in its context (inferred from shapes and values when a
    backward pass without ``retain_graph`` has freed it)."""
    ctx = tensor._ctx
    if ctx is None and kind_name in ("reduce_sum", "reduce_mean"):
        ctx = _inferred_reduction(tensor)
    if ctx is None and kind_name in ("softmax", "log_softmax"):
        ctx = _inferred_softmax_axis(tensor)
    if kind_name in ("reduce_sum", "reduce_mean"):
        axis, keepdims = ctx[0], ctx[1]
        if axis is not None and not isinstance(axis, int):
            raise ValueError(f"the editor sums over one axis or all of them, not over axes {tuple(axis)}")
        return {"axis": axis, "keepdims": bool(keepdims)}
    if kind_name in ("softmax", "log_softmax"):
        return {"axis": int(ctx)}
    if kind_name == "reshape":
        return {"shape": tuple(tensor.shape)}
    if kind_name == "transpose":
        parent = tensor.parents[0]
        if ctx is not None and tuple(ctx) != tuple(reversed(range(parent.ndim))):
            raise ValueError(f"the editor's transpose reverses the axes; this one permutes them as {tuple(ctx)}")
    return {}


def _leaf_kind(tensor: Tensor) -> str:
    if tensor.requires_grad:
        return "parameter"
    return "input" if tensor.label else "constant"


def document_from_tensors(roots: Sequence[Tensor]) -> GraphDocument:
    """The graph behind ``roots`` (engine Tensors, the output first) as a laid-out document.

    Raises ``ValueError`` naming an op the editor has no node for, or a leaf past the limits."""
    roots = list(roots)
    if not roots or not all(isinstance(root, Tensor) for root in roots):
        raise TypeError("document_from_tensors takes engine Tensors, the output first")
    document = GraphDocument()
    ids: dict[int, str] = {}

    def add(kind_name: str, label: str = "", **fields) -> str:
        node_id = f"n{len(document.nodes) + 1}"
        document.add_node(Node(node_id, kind_name, label=label, **fields))
        return node_id

    def wire(node_id: str, operands: list[str]) -> None:
        for port, operand in enumerate(operands):
            document.add_edge(Edge(operand, node_id, port))

    for tensor in reading_order(roots, lambda t: t.parents):
        label = tensor.label or ""
        if not tensor.parents:
            try:
                value = as_leaf_value(tensor.data)
            except ValueProblem as error:
                raise ValueError(f"the leaf {label or 'without a label'} of shape {shape_text(tensor.shape)} is "
                                 f"past the editor's limits: {error}") from None
            ids[id(tensor)] = add(_leaf_kind(tensor), label, value=value)
            continue
        operands = [ids[id(parent)] for parent in tensor.parents]
        if tensor.op == "linear":  # x @ W.T (+ b), one engine node, three editor nodes
            transposed = add("transpose")
            wire(transposed, [operands[1]])
            product = add("matmul", "" if len(operands) == 3 else label)
            wire(product, [operands[0], transposed])
            if len(operands) == 3:
                ids[id(tensor)] = add("add", label)
                wire(ids[id(tensor)], [product, operands[2]])
            else:
                ids[id(tensor)] = product
            continue
        kind_name = OP_KINDS.get(tensor.op)
        if kind_name is None:
            raise ValueError(f"the editor has no node for the tensor op {tensor.op!r}")
        ids[id(tensor)] = add(kind_name, label, params=_params(tensor, kind_name))
        wire(ids[id(tensor)], operands)
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    document.set_output(ids[id(roots[0])])
    return document
