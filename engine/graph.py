"""The computation graph behind a result, as a networkx graph for layout and analysis."""

from __future__ import annotations

from .autograd import topological_order


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
