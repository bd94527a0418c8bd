"""Forward and backward through `engine.Tensor` for a graph document that holds arrays. Qt-free.

Each document node becomes one engine `Tensor` (a loss such as mse is one node here and a few engine
ops inside); the output's ``backward_steps()`` give every node's gradient and the gradient each wire
carries, so the editor shows exactly what the engine computes. Where an elementwise op broadcast an
operand, the engine's own step shows it (its upstream gradient has the result's shape, its contribution
the operand's): `broadcast_text` says so in words, for the wire's tooltip and the animator.

A non-scalar output is seeded with ones, as ``out.backward(torch.ones_like(out))``: the gradients are
those of the sum of its elements.
"""

from __future__ import annotations

import numpy as np

from engine import Tensor

from .arrays import shape_text
from .catalog import kind


def _axes_text(axes: list[int]) -> str:
    if len(axes) == 1:
        return f"axis {axes[0]}"
    return "axes " + ", ".join(str(a) for a in axes[:-1]) + f" and {axes[-1]}"


def broadcast_axes(operand: tuple[int, ...], result: tuple[int, ...]) -> list[int]:
    """The axes of ``result`` over which an operand of shape ``operand`` was broadcast (NumPy's rules):
    the leading axes it lacked and those where it had size 1 and the result more."""
    extra = len(result) - len(operand)
    if extra < 0:
        return []
    return list(range(extra)) + [extra + i for i, n in enumerate(operand) if n == 1 and result[extra + i] != 1]


def broadcast_text(name: str, operand: tuple[int, ...], result: tuple[int, ...]) -> str | None:
    """``b was broadcast over axis 0 of (3, 2): its gradient sums over that axis, (3, 2) → (2,)``, or None
    when ``operand`` already had the result's shape."""
    axes = broadcast_axes(tuple(operand), tuple(result))
    if not axes:
        return None
    that = "that axis" if len(axes) == 1 else "those axes"
    return (f"{name} was broadcast over {_axes_text(axes)} of {shape_text(result)}: its gradient sums over "
            f"{that}, {shape_text(result)} → {shape_text(operand)}")


def _label_only_leaves(document) -> set[str]:
    """Leaves that feed nothing but label ports (cross_entropy's labels): they take no gradient."""
    uses: dict[str, list[bool]] = {}
    for edge in document.edges:
        uses.setdefault(edge.source, []).append(edge.port in kind(document.node(edge.target).kind).label_ports)
    return {node_id for node_id, is_label in uses.items() if all(is_label) and document.node(node_id).is_leaf}


def build_tensors(document, order: list[str] | None = None, leaves: dict[str, Tensor] | None = None):
    """``(tensors, missing, problems)``: an engine Tensor per computable node, the unconnected ports of each
    node, and why a node could not be computed or gives nan/inf (in words).

    ``leaves`` supplies the leaf tensors (a gradient check perturbs them); otherwise each leaf becomes a
    Tensor that requires grad, unless it only feeds labels.
    """
    tensors: dict[str, Tensor] = {}
    missing: dict[str, list[str]] = {}
    problems: dict[str, str] = {}
    labels_only = _label_only_leaves(document)
    shape_problems = document.shape_problems()
    for node_id in order or document.topological_order():
        node = document.node(node_id)
        node_kind = kind(node.kind)
        if node_kind.is_leaf:
            if leaves is not None and node_id in leaves:
                tensors[node_id] = leaves[node_id]
            else:
                tensors[node_id] = Tensor(node.array, requires_grad=node_id not in labels_only,
                                          label=document.name(node_id))
            continue
        operands = document.operands_from(node_id, tensors, missing)
        if operands is None:
            continue
        if node_kind.tensor_apply is None:
            problems[node_id] = f"{node_kind.title} works on scalar graphs only: engine.Tensor has no {node.kind}"
            continue
        if node_id in shape_problems:
            problems[node_id] = shape_problems[node_id]
            continue
        if node_kind.tensor_only:  # e.g. cross_entropy's labels must be class numbers in range
            reason = node_kind.problem(*(operand.data for operand in operands))
            if reason:
                problems[node_id] = reason
                continue
        with np.errstate(all="ignore"):
            result = node_kind.tensor_apply(node.params, *operands)
        result.label = document.name(node_id)
        tensors[node_id] = result
    return tensors, missing, problems


def _owners(document, tensors: dict[str, Tensor]) -> dict[int, str]:
    """Which document node each engine tensor belongs to, the ops inside a loss node included."""
    owner = {id(t): node_id for node_id, t in tensors.items()}
    for node_id, tensor in tensors.items():
        stack = list(tensor.parents)
        while stack:
            inner = stack.pop()
            if id(inner) in owner:
                continue
            owner[id(inner)] = node_id
            stack.extend(inner.parents)
    return owner


def nonfinite_problem(document, node_id: str, tensors: dict[str, Tensor]) -> str:
    """Why a node's array holds nan or inf, in words: which input brings it in, or the op's own reason."""
    data = tensors[node_id].data
    bad = int(np.size(data) - np.count_nonzero(np.isfinite(data)))
    count = "its value" if np.ndim(data) == 0 else f"{bad} of its {np.size(data)} elements"
    node = document.node(node_id)
    if node.is_leaf:
        return f"{count} {'is' if np.ndim(data) == 0 else 'are'} nan or infinite"
    operands = [document.edge_at(node_id, port).source for port in range(node.port_count)]
    for source in operands:
        if not np.all(np.isfinite(tensors[source].data)):
            return f"{count}: nan or inf comes in from {document.name(source)}"
    first = np.unravel_index(int(np.argmin(np.isfinite(data))), np.shape(data)) if np.ndim(data) else ()
    if not kind(node.kind).tensor_only:  # elementwise: the scalar op's reason at the first bad element
        try:
            at = [float(np.broadcast_to(tensors[s].data, np.shape(data))[first]) for s in operands]
            reason = kind(node.kind).problem(*at)
        except (ValueError, IndexError):
            reason = None
        if reason:
            where = "" if not first else f" (first at {tuple(int(i) for i in first)})"
            return f"{count}: {reason}{where}"
    return f"{count}: the result is nan or too large for a float"


def backward_through(document, tensors: dict[str, Tensor], output: str, root: Tensor | None = None):
    """Run the engine's backward from ``output`` (or from ``root``, a scalar computed from it: a training loss);
    return (node grads, wire grads, broadcast texts)."""
    root = tensors[output] if root is None else root
    grads: dict[str, np.ndarray] = {}
    edge_grads: dict = {}
    broadcasts: dict = {}
    if not root.requires_grad:
        return grads, edge_grads, broadcasts
    for tensor in tensors.values():
        if tensor.requires_grad:
            tensor.grad = None
            if not tensor.is_leaf:
                tensor.retain_grad()
    owner = _owners(document, tensors)
    document_tensor = {id(t): node_id for node_id, t in tensors.items()}
    for step in root.backward_steps(np.ones_like(root.data)):
        source = document_tensor.get(id(step.parent))
        target = owner.get(id(step.node))
        if source is None or target is None or target == source:
            continue
        edges = [e for e in document.edges_of(target) if e.target == target and e.source == source]
        if not edges:
            continue
        edge = next((e for e in edges if e.port == step.index), edges[0])
        edge_grads[edge] = edge_grads.get(edge, 0) + np.asarray(step.contribution)
        if step.node is tensors[target] and not kind(document.node(target).kind).tensor_only:  # elementwise ops
            text = broadcast_text(document.name(source), np.shape(step.contribution), np.shape(step.upstream))
            if text:
                broadcasts[edge] = text
    for node_id in document.ancestors(output) | {output}:
        tensor = tensors.get(node_id)
        if tensor is not None and tensor.grad is not None:
            grads[node_id] = np.array(tensor.grad)
    return grads, edge_grads, broadcasts

