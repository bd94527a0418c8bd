"""The computation graph behind a result, as a networkx graph for layout and analysis."""

from __future__ import annotations

from .autograd import topological_order


def reading_order(roots, parents=lambda node: node._prev) -> list:
    """Every node ``roots`` were computed from, once, operands before results and the first operand's
    side first: the order in which a person reads ``x1*w1 + x2*w2`` (x1, w1, x1*w1, x2, ...).

    A topological order, like `autograd.topological_order`, whose ties follow the operands'
    order; pictures (the editor, `draw`) name and place nodes by it. Iterative, no recursion.
    ``parents(node)`` gives a node's operands in order (by default its ``_prev``).
    """
    order, seen = [], set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((parent, False) for parent in reversed(tuple(parents(node))) if id(parent) not in seen)
    return order


def to_networkx(root):
    """A ``networkx.MultiDiGraph`` of everything ``root`` was computed from.

    Nodes are the `Value`/`Tensor` objects themselves, with attributes ``op``, ``data``,
    ``grad`` and ``label``; an edge runs from each operand to its result, keyed by the
    operand's position (so ``x*x`` has two edges, keys 0 and 1).
    """
    import networkx as nx  # imported here so that `import engine` stays light

    graph = nx.MultiDiGraph()
    for node in topological_order(root):
        graph.add_node(node, op=node._op, data=node.data, grad=node.grad, label=node.label)
        for index, parent in enumerate(node._prev):
            graph.add_edge(parent, node, key=index, index=index)
    return graph
