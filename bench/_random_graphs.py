"""The random graph the editor and animator benchmarks measure on (not a benchmark itself)."""

from __future__ import annotations

import random

from playground.graph.document import Edge, GraphDocument, Node

UNARY = ("tanh", "exp", "sin", "relu", "neg", "sigmoid")
BINARY = ("add", "mul", "sub")


def random_graph(n: int, seed: int = 0) -> GraphDocument:
    """A connected random DAG: a fifth leaves, the rest ops on earlier nodes, one output."""
    rng = random.Random(seed)
    doc = GraphDocument()
    ids = []
    for i in range(n):
        node_id = f"n{i + 1}"
        if i < max(2, n // 5):
            doc.add_node(Node(node_id, "input", label=f"x{i + 1}", value=rng.uniform(-1, 1)))
        else:
            kind = rng.choice(UNARY + BINARY)
            doc.add_node(Node(node_id, kind))
            arity = 1 if kind in UNARY else 2
            for port in range(arity):
                source = ids[-1] if port == 0 else rng.choice(ids[-40:])  # mostly local wiring
                doc.add_edge(Edge(source, node_id, port))
        ids.append(node_id)
    return doc
