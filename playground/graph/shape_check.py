"""The shape every node of a document gives, and the first place where shapes cannot combine.

Qt-free. Runs each kind's shape rule (`shapes`) over the graph in topological order, as an abstract
evaluation: no number is computed. ``extra_edge``, ``values`` and ``params`` describe a change not yet
made (a wire being drawn, a leaf's new value, a node's new parameters), so the document can refuse it
before it exists.
"""

from __future__ import annotations

import networkx as nx

from .arrays import shape_of
from .catalog import kind
from .shapes import ShapeError


def infer_shapes(document, extra_edge=None, values: dict | None = None,
                 params: dict | None = None) -> tuple[dict[str, tuple | None], dict[str, str]]:
    """``(shapes, problems)``: each node's output shape (None while an input upstream is missing or
    broken) and, for each node whose operands cannot combine, the reason in shapes."""
    values, params = values or {}, params or {}
    inputs: dict[str, dict[int, str]] = {}
    for edge in document.edges:
        inputs.setdefault(edge.target, {})[edge.port] = edge.source
    if extra_edge is None:
        order = document.topological_order()
    else:
        inputs.setdefault(extra_edge.target, {})[extra_edge.port] = extra_edge.source
        graph = document.to_networkx()
        graph.add_edge(extra_edge.source, extra_edge.target, key=extra_edge.port)
        order = list(nx.topological_sort(graph))
    shapes: dict[str, tuple | None] = {}
    problems: dict[str, str] = {}
    for node_id in order:
        node = document.node(node_id)
        node_kind = kind(node.kind)
        if node_kind.is_leaf:
            shapes[node_id] = shape_of(values.get(node_id, node.value))
            continue
        wired = inputs.get(node_id, {})
        operand_shapes = [shapes.get(wired[port]) if port in wired else None for port in range(node.port_count)]
        if any(port in wired and wired[port] in problems for port in range(node.port_count)):
            shapes[node_id] = None
            continue
        try:
            shapes[node_id] = node_kind.shape(operand_shapes, params.get(node_id, node.params))
        except ShapeError as error:
            shapes[node_id] = None
            problems[node_id] = str(error)
    return shapes, problems


def first_new_problem(document, before: dict[str, str], after: dict[str, str], changed: str) -> str | None:
    """The first problem in ``after`` not already in ``before``, named by where it happens:
    plainly at ``changed`` itself, else ``at t3, ...`` for a node downstream."""
    for node_id in document.topological_order():
        if node_id in after and before.get(node_id) != after[node_id]:
            if node_id == changed:
                return after[node_id]
            return f"at {document.name(node_id)}, {after[node_id]}"
    return None
