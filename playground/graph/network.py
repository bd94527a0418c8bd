"""A drawn graph as a network that trains: one batched function of the points and its parameters. Qt-free.

`plan_training` reads a document as a network, or refuses it with the reason a person can act on
(`GraphProblem`): the output node is the model's score for each point, the inputs the points feed
(`feeding`) are its data, every parameter leaf is trained, and every other leaf keeps its value. Its shapes
are checked with the batch as a size of its own, ``n``, so a graph that fits 8 points in the editor but not
the batch is refused before anything runs (``W1 (3, 16) @ X (n, 2)``).

`GraphNetwork` is that plan as an `engine.nn.Module`: ``net(X)`` evaluates the whole graph for all points at
once with the engine's `Tensor` ops (a scalar graph's ``x1`` becomes the vector of the points' first
coordinates, its parameters stay 0-d, and broadcasting does the rest), never point by point, and returns the
scores as (n, k). `node_values` gives every per-point node's values for the maps on its card.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from engine import Tensor, no_grad
from engine.nn import Module

from .arrays import shape_text
from .catalog import kind
from .feeding import data_inputs
from .shape_check import infer_shapes

# The batch's size in the shape check: no leaf is this long (a leaf holds at most 4,096 numbers), so a shape
# that holds it is a shape per point, and a message shows it as n.
BATCH = 1_000_003
FED_SHAPES = {"x1": (BATCH,), "x2": (BATCH,), "points": (BATCH, 2)}
COLUMNS = {"x1": 0, "x2": 1}
NO_DATA = "Name an input x1 and x2, or X, for the points to feed it (or make X with points())"


class GraphProblem(ValueError):
    """Why a graph cannot be trained, in words a person can act on."""


def batch_shape_text(shape) -> str:
    """A shape with the batch written as n: ``(n, 16)``."""
    return shape_text(shape).replace(str(BATCH), "n")


@dataclass(frozen=True)
class TrainingPlan:
    """A document read as a network: what is computed, in order, and from what."""

    output: str
    order: tuple[str, ...]             # the output and everything it is computed from, operands first
    fed: dict[str, str]                # data inputs: node id -> "x1", "x2" or "points"
    parameters: tuple[str, ...]        # trained leaves, in order
    per_point: tuple[str, ...]         # nodes with a row per point (their maps), in order
    shapes: dict[str, tuple]           # every node's shape, the batch as BATCH
    names: dict[str, str]              # every node's readable name

    @property
    def parameter_names(self) -> dict[str, str]:
        """A unique name per trained leaf, as `state_dict` keys it: its readable name (with its id if taken)."""
        counts: dict[str, int] = {}
        for node_id in self.parameters:
            counts[self.names[node_id]] = counts.get(self.names[node_id], 0) + 1
        return {node_id: self.names[node_id] if counts[self.names[node_id]] == 1 else f"{self.names[node_id]}#{node_id}"
                for node_id in self.parameters}

    def describe(self) -> str:
        """One line about the network: ``the editor's graph: 3 parameters (w1, w2, b), output h``."""
        names = list(self.parameter_names.values())
        shown = ", ".join(names[:6]) + (", …" if len(names) > 6 else "")
        count = f"{len(names)} parameter{'s' if len(names) != 1 else ''}"
        return f"the editor's graph: {count} ({shown}), output {self.names[self.output]}"


def plan_training(document, outputs: int = 1) -> TrainingPlan:
    """``document`` read as a network with ``outputs`` scores a point (1: two classes or a regression, k: k
    classes); raises `GraphProblem` naming what to change."""
    output = document.effective_output()
    if output is None:
        raise GraphProblem("The graph is empty: build a network whose output is a score for each point")
    names = document.names()
    within = document.ancestors(output) | {output}
    order = tuple(node_id for node_id in document.topological_order() if node_id in within)
    fed = {node_id: feed for node_id, feed in data_inputs(document).items() if node_id in within}
    if not fed:
        raise GraphProblem(NO_DATA)
    for node_id in order:
        node_kind = kind(document.node(node_id).kind)
        if not node_kind.is_leaf and node_kind.tensor_apply is None:
            raise GraphProblem(f"{names[node_id]} is a {node_kind.title}, which works on single numbers: a graph "
                               "trained on every point at once needs operations on arrays")
    unwired = [node_id for node_id in order
               if any(document.edge_at(node_id, port) is None for port in range(document.node(node_id).port_count))]
    if unwired:
        raise GraphProblem(f"{names[unwired[0]]} has an input with no wire: connect it, or remove the node")
    parameters = tuple(node_id for node_id in order if document.node(node_id).kind == "parameter")
    if not parameters:
        raise GraphProblem("Nothing to train: the graph has no parameter (names like w1, b or W1 become parameters "
                           "in the expression box; the properties panel makes a leaf one)")
    shapes, problems = infer_shapes(document, values={node_id: np.broadcast_to(0.0, FED_SHAPES[feed])
                                                      for node_id, feed in fed.items()})
    for node_id in order:
        if node_id in problems:
            node = document.node(node_id)
            operands = [names[document.edge_at(node_id, port).source] for port in range(node.port_count)]
            formula = kind(node.kind).formula(operands, node.params)
            raise GraphProblem(f"The points do not fit the graph at {names[node_id]} = {formula}: "
                               f"{batch_shape_text_in(problems[node_id])}")
    _check_output(shapes[output], names[output], outputs)
    graph = nx.DiGraph([(e.source, e.target) for e in document.edges if e.target in within])
    reached = set(fed).union(*(nx.descendants(graph, node_id) for node_id in fed if node_id in graph))
    per_point = tuple(node_id for node_id in order if node_id in reached
                      and (shapes[node_id] or (None,))[0] == BATCH)
    return TrainingPlan(output, order, fed, parameters, per_point, {n: shapes[n] for n in order}, names)


def batch_shape_text_in(message: str) -> str:
    return message.replace(str(BATCH), "n")


def _check_output(shape: tuple, name: str, outputs: int) -> None:
    wanted = "(n,) or (n, 1)" if outputs == 1 else f"(n, {outputs})"
    scores = "one score a point" if outputs == 1 else f"{outputs} scores a point, one a class"
    if not shape or shape[0] != BATCH:
        raise GraphProblem(f"The output {name} has shape {batch_shape_text(shape)}, not a score for each point: "
                           f"training needs {scores}, {wanted} (a sum or mean over the points gives one number)")
    width = 1 if len(shape) == 1 else shape[1]
    if width != outputs:
        classes = "two classes or a regression" if outputs == 1 else f"{outputs} classes"
        raise GraphProblem(f"The output {name} has shape {batch_shape_text(shape)}: {classes} need {scores}, "
                           f"{wanted}")


class GraphNetwork(Module):
    """A document trained as a network (see the module docstring); its parameters start at the document's
    values and are named as `TrainingPlan.parameter_names` says."""

    def __init__(self, document, outputs: int = 1, dtype=np.float64, plan: TrainingPlan | None = None):
        self.plan = plan if plan is not None else plan_training(document, outputs)
        self.outputs = outputs
        self.dtype = np.dtype(dtype)
        plan = self.plan
        names = plan.parameter_names
        leaves: dict[str, Tensor] = {}
        self._parameters: list[tuple[str, Tensor]] = []
        for node_id in plan.order:
            node = document.node(node_id)
            if not kind(node.kind).is_leaf or node_id in plan.fed:
                continue
            trained = node_id in names
            tensor = Tensor(np.array(node.array), dtype=self.dtype, requires_grad=trained,
                            label=names.get(node_id, plan.names[node_id]))
            leaves[node_id] = tensor
            if trained:
                self._parameters.append((names[node_id], tensor))
        self._leaves = leaves
        position = {node_id: index for index, node_id in enumerate(plan.order)}
        # One step per computed node: (its op, its parameters, where its operands are).
        # Each result is labelled with its node's name, so that a replay of the pass (the animator) names it.
        self._steps = []
        for node_id in plan.order:
            node = document.node(node_id)
            node_kind = kind(node.kind)
            if node_kind.is_leaf:
                continue
            sources = tuple(position[document.edge_at(node_id, port).source] for port in range(node.port_count))
            self._steps.append((position[node_id], node_kind.tensor_apply, dict(node.params), sources,
                                plan.names[node_id]))
        self._fed = [(position[node_id], feed, plan.names[node_id]) for node_id, feed in plan.fed.items()]
        self._fixed = [(position[node_id], tensor) for node_id, tensor in leaves.items()]
        self._output = position[plan.output]
        self._position = position
        self._document = document.copy()

    # -- engine.nn.Module --

    def _all_named_parameters(self, prefix: str = ""):
        for name, tensor in self._parameters:
            yield prefix + name, tensor

    def forward(self, X: Tensor) -> Tensor:
        """The scores for every row of ``X`` (n, 2): (n, k)."""
        scores = self._run(X)[self._output]
        return scores.reshape(-1, 1) if scores.ndim == 1 else scores

    # -- the graph --

    def _run(self, X: Tensor) -> list:
        values: list = [None] * len(self.plan.order)
        for at, tensor in self._fixed:
            values[at] = tensor
        for at, feed, name in self._fed:
            if feed != "points":
                values[at] = X[:, COLUMNS[feed]]
                values[at].label = name
            else:
                values[at] = X
        for at, apply, params, sources, name in self._steps:
            result = values[at] = apply(params, *(values[source] for source in sources))
            result.label = name
        return values

    def tensors(self, X: Tensor) -> dict[str, Tensor]:
        """Every node's tensor for the points ``X``, by node id, the gradients tracked (`trained.trained_numbers`
        runs the backward pass of a loss computed from them)."""
        values = self._run(X)
        return {node_id: values[at] for node_id, at in self._position.items()}

    def node_values(self, X: Tensor, node_ids=None) -> dict[str, np.ndarray]:
        """The values of ``node_ids`` (default: every per-point node) for the points ``X``, each with a row a
        point: (n,) or (n, columns)."""
        wanted = self.plan.per_point if node_ids is None else node_ids
        with no_grad(), np.errstate(all="ignore"):
            values = self._run(X)
        return {node_id: values[self._position[node_id]].data for node_id in wanted}

    def weights(self) -> list[Tensor]:
        """The parameters L1 and L2 regularise: the weights, not the biases. A bias is a parameter that is only
        ever added (``+ b``, ``X @ W + b1``); a weight is one that multiplies or passes through anything else."""
        added = {"add", "sub", "sum"}
        uses: dict[str, set[str]] = {}
        for edge in self._document.edges:
            if edge.source in self.plan.parameter_names and edge.target in self._position:
                uses.setdefault(edge.source, set()).add(self._document.node(edge.target).kind)
        names = self.plan.parameter_names
        tensors = dict(self._parameters)
        return [tensors[names[node_id]] for node_id in self.plan.parameters if not uses.get(node_id, set()) <= added]

    def node_id_of(self, parameter_name: str) -> str:
        """The document node a parameter name (a `state_dict` key) stands for."""
        return {name: node_id for node_id, name in self.plan.parameter_names.items()}[parameter_name]

    @property
    def document(self):
        """A copy of the document this network was built from (its parameters at their drawn values)."""
        return self._document

    def cast(self, dtype) -> GraphNetwork:
        """A twin of this network computing in ``dtype`` (float32 for pictures), the same weights now."""
        twin = GraphNetwork(self._document, self.outputs, dtype, self.plan)
        twin.load_state_dict(self.state_dict())
        return twin

    def describe(self) -> str:
        return self.plan.describe()
