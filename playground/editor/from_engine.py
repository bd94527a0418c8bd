"""An engine graph as an editor document: what `playground.show` opens.

Each op of the engine's `Value` graph becomes the editor node of the same op, wired in the same
operand order, so the editor's evaluation computes the very same numbers. A leaf's kind follows
the rule the expression box uses: a leaf without a label is a constant (``x * 2`` makes one), a
label that names a parameter (``w``, ``w1``, ``b``, ``weight``, ``bias``...) gives a parameter,
any other label an input. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from engine import Value
from engine.graph import to_networkx

from .document import Edge, GraphDocument, Node
from .expression import is_parameter_name
from .layout import layered_layout

# The engine's op names and the editor's node kinds that compute the same thing.
OP_KINDS = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "neg": "neg", "sum": "sum",
    "exp": "exp", "log": "log", "tanh": "tanh", "sigmoid": "sigmoid", "relu": "relu",
    "sin": "sin", "cos": "cos", "abs": "abs",
}


def leaf_kind(label: str) -> str:
    if not label:
        return "constant"
    return "parameter" if is_parameter_name(label) else "input"


def _reading_order(roots: Sequence[Value]) -> list[Value]:
    """Every node once, operands before results and the first operand's side first: the order in which a
    person reads ``x1*w1 + x2*w2`` (so x1*w1 is t1), which names and places the nodes."""
    order, seen = [], set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            value, expanded = stack.pop()
            if expanded:
                order.append(value)
                continue
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.append((value, True))
            stack.extend((parent, False) for parent in reversed(value._prev) if id(parent) not in seen)
    return order


def document_from_values(roots: Sequence[Value]) -> GraphDocument:
    """The graph behind ``roots`` as a document, laid out; its output is the first root.

    Raises ``TypeError`` for anything but `Value`s and ``ValueError`` for an op the editor has no
    node for (the message names it).
    """
    roots = list(roots)
    if not roots or not all(isinstance(root, Value) for root in roots):
        raise TypeError("show() takes an engine.Value or a list of them")
    graph = nx.compose_all([to_networkx(root) for root in roots])
    ids: dict[int, str] = {}
    document = GraphDocument()
    for value in _reading_order(roots):
        node_id = ids[id(value)] = f"n{len(ids) + 1}"
        if not value._prev:
            document.add_node(Node(node_id, leaf_kind(value.label), label=value.label, value=value.data))
            continue
        kind = OP_KINDS.get(value._op)
        if kind is None:
            raise ValueError(f"the editor has no node for the op {value._op!r}")
        inputs = len(value._prev) if kind == "sum" else 0
        document.add_node(Node(node_id, kind, label=value.label, inputs=inputs))
    for parent, child, port in graph.edges(keys=True):
        document.add_edge(Edge(ids[id(parent)], ids[id(child)], port))
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    document.set_output(ids[id(roots[0])])
    return document
