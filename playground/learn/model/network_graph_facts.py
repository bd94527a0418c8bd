"""A lesson's graph that is a network the training tab trains (issue 28): what its text may state. Qt-free.

A ``graph:`` or ``build:`` with arrays whose inputs the points feed (``X = points()``) and whose output is a
score for each point (``out = tanh(X @ W1 + b1) @ W2 + b2``) is no loss to replay in the animator: it is a
network, read as the training tab reads it (`playground.graph.network.plan_training`). Its facts are its
shapes, with ``n`` for the batch (``{H.shape}`` is ``(n, 16)``, ``{W1.shape}`` ``(2, 16)``), its sizes
(``{W1.size}``) and its parameters' drawn values (``{b1}``); what training makes of it is `trained_facts`'.
"""

from __future__ import annotations

import numpy as np

from ...graph.arrays import format_array
from ...graph.document import GraphDocument
from ...graph.network import BATCH, GraphProblem, TrainingPlan, batch_shape_text, plan_training
from .facts import GraphFacts


class NetworkGraphFacts(GraphFacts):
    """A step's graph trained on the points: its training plan, shapes and parameters (no animator replay)."""

    def __init__(self, document: GraphDocument):
        self.document = document
        self.plan: TrainingPlan = plan_training(document)  # GraphProblem (a ValueError) says why it is none
        self.output = self.plan.output
        self._ids = {name: node_id for node_id, name in document.names().items()}
        self._terms = dict(document.names())

    # A network is trained, not replayed: nothing in the animator to reveal or to hide.
    forward_frames = frame_count = 0

    def value_position(self, node_id: str) -> None:
        return None

    grad_position = value_position

    def forward_order(self) -> list[str]:
        raise ValueError("'exercise:' asks every value or gradient of a scalar graph, not of a network")

    backward_order = forward_order

    def value(self, node_id: str) -> np.ndarray:
        return np.asarray(self.document.node(node_id).value)

    def grad(self, node_id: str) -> None:
        return None  # its gradients are the training's, step by step

    def shape(self, node_id: str) -> tuple[int, ...]:
        return self.plan.shapes[node_id]

    def number(self, name: str) -> str:
        """``W1.shape`` (``(2, 16)``; a node with a row a point ``(n, 16)``), ``W1.size`` or a parameter's drawn
        value ``b1``; KeyError if unknown."""
        base, _dot, what = name.rpartition(".") if name.endswith((".shape", ".size")) else (name, "", "")
        node_id = self.node_id(base)
        if node_id is None or node_id not in self.plan.shapes:
            raise KeyError(f"the network has no node named '{base}' (it has {', '.join(self.plan.names.values())}); "
                           "a network's text reads {name.shape}, {name.size} or a parameter's {name}")
        shape = self.plan.shapes[node_id]
        if what == "shape":
            return batch_shape_text(shape)
        if what == "size":
            if BATCH in shape:
                raise KeyError(f"'{base}' has a row for each point: its size follows the batch")
            return str(int(np.prod(shape, dtype=np.int64)))
        if node_id not in self.plan.parameters:
            raise KeyError(f"'{base}' is not a parameter: a network's text states a parameter's value, or a node's "
                           "{name.shape}")
        return format_array(self.value(node_id))


def is_network(document: GraphDocument) -> bool:
    """Whether a graph with arrays is a network the training tab trains (its output a score for each point)."""
    if not document.is_tensor_graph:
        return False
    try:
        plan_training(document)
    except GraphProblem:
        return False
    return True
