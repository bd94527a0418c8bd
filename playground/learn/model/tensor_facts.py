"""The numbers and shapes a lesson states about a tensor graph, from the engine. Qt-free.

A lesson's ``graph:`` may hold arrays (``X = [[1, 2], [3, 4]]; W = randn(2, 3, seed=0); ...``). Its
facts are then `TensorGraphFacts`: the editor's own evaluation (engine Tensors) for the values and
gradients, and the animator's tensor replay of the same graph (`editor_tensors.document_animation`)
for the positions a question reveals. A lesson's text reads ``{b.grad}`` (the array, as the cards
write it), ``{W.grad.shape}`` or ``{X.shape}`` (``(4, 2)``, as numpy prints a shape) and ``{b.size}``.
"""

from __future__ import annotations

import numpy as np

from ...animator.model.editor_tensors import document_animation
from ...animator.model.tensor_hiding import replay_ids
from ...animator.model.tensor_timeline import TensorAnimation
from ...graph.arrays import format_array, shape_text
from ...graph.document import GraphDocument
from ...graph.evaluate import evaluate
from .facts import GraphFacts
from .network_graph_facts import NetworkGraphFacts, is_network

_SUFFIXES = (".grad.shape", ".shape", ".size", ".grad")


class TensorGraphFacts(GraphFacts):
    """A step's tensor graph: values and gradients are numpy arrays; positions are the tensor replay's."""

    def __init__(self, document: GraphDocument):
        self.document = document
        self.evaluation = evaluate(document)
        output = document.effective_output()
        if output is None:
            raise ValueError("the graph is empty")
        if self.evaluation.incomplete:
            raise ValueError(self.evaluation.incomplete[0])
        self.output = output
        self.animation: TensorAnimation = document_animation(document)  # ValueError: e.g. not a single-number output
        self.timeline = self.animation.timeline
        self._ids = {name: node_id for node_id, name in document.names().items()}
        self._terms = dict(document.names())  # a tensor constant is written by its name, not by its numbers
        self.replay_ids = replay_ids(self.animation, document)  # document node id -> the replay's

    def value(self, node_id: str) -> np.ndarray:
        return np.asarray(self.evaluation.results[node_id].value)

    def grad(self, node_id: str) -> np.ndarray | None:
        grad = self.evaluation.results[node_id].grad
        return None if grad is None else np.asarray(grad)

    def shape(self, node_id: str) -> tuple[int, ...]:
        return tuple(int(n) for n in np.shape(self.evaluation.results[node_id].value))

    # -- the replay's positions ------------------------------------------------------------------

    def forward_order(self) -> list[str]:
        raise ValueError("'exercise:' asks every value or gradient of a scalar graph; on a tensor graph use "
                         "'ask:' lines")

    backward_order = forward_order

    def value_position(self, node_id: str) -> int | None:
        replay = self.replay_ids.get(node_id)
        return next((position for position, frame in enumerate(self.timeline.frames, start=1)
                     if frame.phase == "forward" and frame.node_id == replay), None)

    def grad_position(self, node_id: str) -> int | None:
        """Once the last share of ``node_id``'s gradient has arrived (the seed for the output)."""
        if node_id == self.output:
            return self.forward_frames + 1
        replay = self.replay_ids.get(node_id)
        positions = [position for position, frame in enumerate(self.timeline.frames, start=1)
                     if frame.phase == "backward" and frame.edge is not None and frame.edge.source == replay]
        return positions[-1] if positions else None

    # -- the text --------------------------------------------------------------------------------

    def number(self, name: str) -> str:
        """``b`` (the value), ``b.grad``, ``W.shape``, ``W.grad.shape`` or ``b.size``; KeyError if unknown."""
        base, what = name, ""
        for suffix in _SUFFIXES:
            if name.endswith(suffix):
                base, what = name[: -len(suffix)], suffix
                break
        node_id = self.node_id(base)
        if node_id is None:
            raise KeyError(f"the graph has no node named '{base}' (it has {', '.join(self.names())}); on a tensor "
                           "graph a lesson reads {name}, {name.grad}, {name.shape}, {name.grad.shape} or {name.size}")
        if what == ".size":
            return str(int(np.prod(self.shape(node_id), dtype=np.int64)))
        if what in (".grad", ".grad.shape"):
            grad = self.grad(node_id)
            if grad is None:
                raise KeyError(f"'{base}' gets no gradient: the output does not depend on it")
            return shape_text(grad.shape) if what == ".grad.shape" else format_array(grad)
        value = self.value(node_id)
        return shape_text(value.shape) if what == ".shape" else format_array(value)


def graph_facts(document: GraphDocument) -> GraphFacts:
    """The facts of a lesson's graph: `TensorGraphFacts` when it holds arrays, `NetworkGraphFacts` when those make
    a network the training tab trains (a score for each point); raises ValueError saying why it cannot be
    evaluated."""
    if not document.is_tensor_graph:
        return GraphFacts(document)
    return NetworkGraphFacts(document) if is_network(document) else TensorGraphFacts(document)
