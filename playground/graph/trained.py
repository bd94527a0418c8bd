"""The numbers of a drawn graph as the network it has been trained into: Qt-free.

While the training tab trains the editor's graph, every number the editor shows is the trained network's
(issue 39): a parameter's trained value, and the gradient of the training loss at it (the one the next full
step goes down); a node computed for each point, its value and that gradient for every training point (its
card shows its maps over the plane; its words, their range); each wire, the gradient it carries back. The
worker computes them from its own network (`trained_numbers`: one forward pass over the training points and
the engine's backward steps, as `tensor_evaluate` reads a drawn graph's); the editor turns them into an
`Evaluation` of its document (`trained_evaluation`), which its cards, wires, outline and side panel show as
they show a drawn graph's, marked as trained.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine import Tensor

from ..common.numbers import format_number
from .evaluate import Evaluation, NodeResult
from .tensor_evaluate import backward_through


@dataclass(frozen=True)
class TrainedNumbers:
    """A trained graph's numbers at ``step`` (copies): by node id, each node's value and the gradient of the
    training loss (``loss``, over ``points`` training points) with respect to it; by wire (source, target,
    port), the gradient it carries back. ``per_point``: the nodes with a row per training point."""

    step: int
    points: int
    loss: float
    values: dict[str, np.ndarray]
    grads: dict[str, np.ndarray]
    wires: dict[tuple[str, str, int], np.ndarray]
    per_point: frozenset[str]
    output: str

    def mark(self) -> str:
        """What the editor says of these numbers: ``trained, step 22,738``."""
        return f"trained, step {format_number(self.step)}"


def trained_numbers(network, loss_fn, X: np.ndarray, y: np.ndarray, step: int) -> TrainedNumbers:
    """``network`` (a `network.GraphNetwork`) evaluated on the training points ``X`` (n, features) with labels
    ``y``, and the backward pass of ``loss_fn(scores, y)`` through it: every node's value and gradient, every
    wire's gradient. The network's parameters' own ``grad`` is left as it was found (None)."""
    plan, document = network.plan, network.document
    parameters = [parameter for _name, parameter in network.named_parameters()]
    with np.errstate(all="ignore"):
        tensors = network.tensors(Tensor(X, requires_grad=True))  # the points' own gradients, as the wires' from them
        scores = tensors[plan.output]
        loss = loss_fn(scores.reshape(-1, 1) if scores.ndim == 1 else scores, y)
        grads, wires, _broadcasts = backward_through(document, tensors, plan.output, root=loss)
    for parameter in parameters:
        parameter.grad = None
    per_point = frozenset(plan.per_point)
    return TrainedNumbers(
        int(step), len(X), float(loss.item()),
        {node_id: np.array(tensor.data) for node_id, tensor in tensors.items()},
        {node_id: np.array(grad) for node_id, grad in grads.items()},
        {(edge.source, edge.target, edge.port): np.array(grad) for edge, grad in wires.items()},
        per_point, plan.output)


def trained_evaluation(document, numbers: TrainedNumbers) -> Evaluation:
    """The editor's document shown with ``numbers``: every node the trained network computes gets its trained
    value and gradient, marked with the step (`NodeResult.trained_step`); a node the network does not use keeps
    no result. Per-point nodes hold a row per training point."""
    results: dict[str, NodeResult] = {}
    scalar_graph = not document.is_tensor_graph
    for node_id in document.topological_order():
        if node_id not in numbers.values:
            results[node_id] = NodeResult()
            continue
        value, grad = numbers.values[node_id], numbers.grads.get(node_id)
        if scalar_graph and node_id not in numbers.per_point:  # a scalar graph's numbers are floats
            value = float(value)
            grad = None if grad is None else float(grad)
        problem = None if np.all(np.isfinite(value)) else "nan or inf in the trained network"
        results[node_id] = NodeResult(value, grad, problem, trained_step=numbers.step,
                                      per_point=node_id in numbers.per_point)
    edge_grads = {}
    for edge in document.edges:
        grad = numbers.wires.get((edge.source, edge.target, edge.port))
        if grad is not None:
            edge_grads[edge] = float(grad) if scalar_graph and np.ndim(grad) == 0 else grad
    return Evaluation(results, edge_grads, numbers.output, {}, [], document.is_tensor_graph, trained=numbers)
