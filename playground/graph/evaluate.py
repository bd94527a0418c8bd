"""Forward and backward through the engine for a graph document.

Each document node becomes one engine `Value`; the output's ``backward_steps()`` then give
every node's gradient and the gradient each wire carries (its chain-rule contribution).
A document that holds arrays (`GraphDocument.is_tensor_graph`) is evaluated with engine `Tensor`s
instead (`tensor_evaluate`): each node's value and gradient, and each wire's, are then numpy arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine import Value

from ..common.numbers import format_number
from .arrays import format_array, same_value
from .catalog import kind
from .document import Edge, GraphDocument
from .tensor_evaluate import backward_through, build_tensors, nonfinite_problem


@dataclass(eq=False)
class NodeResult:
    value: float | np.ndarray | None = None  # None: not computable; an array in a tensor graph
    grad: float | np.ndarray | None = None  # None: the output does not depend on this node
    problem: str | None = None  # why the value is nan or inf, in words
    missing_ports: list[str] = field(default_factory=list)  # names of unconnected inputs
    # The trained network's numbers (`trained.trained_evaluation`): the step they are of (None: the drawn
    # graph's), the gradient being the training loss's; a per-point node's value and gradient, a row a point.
    trained_step: int | None = None
    per_point: bool = False

    def __eq__(self, other) -> bool:
        if not isinstance(other, NodeResult):
            return NotImplemented
        return (same_number(self.value, other.value) and same_number(self.grad, other.grad)
                and (self.problem, self.missing_ports, self.trained_step, self.per_point)
                == (other.problem, other.missing_ports, other.trained_step, other.per_point))

    __hash__ = None


def same_number(a, b) -> bool:
    """Equal, with nan equal to nan (a nan gradient that stays nan needs no repaint); arrays equal in shape
    and every element."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return same_value(a, b)
    return a == b or (a is not None and b is not None and a != a and b != b)


def same_numbers(a: NodeResult, b: NodeResult) -> bool:
    """The same value and gradient (nan equal to nan): a card showing ``a`` need not repaint for ``b``."""
    return same_number(a.value, b.value) and same_number(a.grad, b.grad)


@dataclass
class Evaluation:
    results: dict[str, NodeResult]
    edge_grads: dict[Edge, float]
    output: str | None
    values: dict[str, Value]  # the engine objects, for the backward animator (Tensors in a tensor graph)
    incomplete: list[str]  # one message per unconnected input
    is_tensor: bool = False  # evaluated with engine.Tensor: values and gradients are arrays
    broadcasts: dict[Edge, str] = field(default_factory=dict)  # how a broadcast operand's gradient was summed back
    # The trained network's numbers (`trained.TrainedNumbers`, not imported: it builds on this module), shown in
    # place of the drawn graph's.
    trained: object | None = None

    @property
    def is_complete(self) -> bool:
        return not self.incomplete

    def summary(self) -> str:
        if self.trained is not None:
            t = self.trained
            return (f"Trained network at step {format_number(t.step)}: training loss {format_number(t.loss)} over "
                    f"{format_number(t.points)} points")
        if self.output is None:
            return "Empty graph: drag a node from the palette or type an expression."
        if self.incomplete:
            more = f" (and {len(self.incomplete) - 1} more)" if len(self.incomplete) > 1 else ""
            return f"Incomplete: {self.incomplete[0]}{more}"
        problems = [r.problem for r in self.results.values() if r.problem]
        result = self.results[self.output]
        if result.value is None:
            return f"Cannot compute {self.output}: {result.problem}"
        text = f"Output = {format_array(result.value) if self.is_tensor else format_number(result.value)}"
        return text + (f"; {len(problems)} node(s) give nan or inf" if problems else "")


def build_values(document: GraphDocument, order: list[str] | None = None,
                 leaf_values: dict[str, float] | None = None) -> tuple[dict[str, Value], dict[str, list[str]]]:
    """Engine `Value`s for every computable node, and the unconnected ports of each node."""
    values: dict[str, Value] = {}
    missing: dict[str, list[str]] = {}
    for node_id in order or document.topological_order():
        node = document.node(node_id)
        node_kind = kind(node.kind)
        if node_kind.is_leaf:
            value = node.value if leaf_values is None else leaf_values.get(node_id, node.value)
            values[node_id] = Value(value, node.label)
            continue
        operands = document.operands_from(node_id, values, missing)
        if operands is None:
            continue
        result = node_kind.apply(*operands)
        result.label = node.label
        values[node_id] = result
    return values, missing


def evaluate(document: GraphDocument) -> Evaluation:
    if document.is_tensor_graph:
        return evaluate_tensors(document)
    order = document.topological_order()
    values, missing = build_values(document, order)
    results = {node_id: NodeResult() for node_id in order}
    incomplete = []
    for node_id, ports in missing.items():
        name = document.name(node_id)
        results[node_id].missing_ports = ports
        incomplete += [f"input '{port}' of {name} is not connected" for port in ports]

    for node_id in order:
        value = values.get(node_id)
        if value is None:
            continue
        results[node_id].value = value.data
        if not math.isfinite(value.data):
            results[node_id].problem = _problem(document, node_id, values)

    output = document.effective_output()
    edge_grads: dict[Edge, float] = {}
    if output is not None and output in values:
        node_of = {id(v): node_id for node_id, v in values.items()}
        root = values[output]
        for step in root.backward_steps():
            target = node_of[id(step.node)]
            edge_grads[document.edge_at(target, step.index)] = step.contribution
        depends = document.ancestors(output) | {output}
        for node_id in depends:
            if node_id in values:
                results[node_id].grad = values[node_id].grad
    return Evaluation(results, edge_grads, output, values, incomplete)


def _problem(document: GraphDocument, node_id: str, values: dict[str, Value]) -> str:
    node = document.node(node_id)
    value = values[node_id].data
    if node.is_leaf:
        return "this value is nan" if math.isnan(value) else "this value is infinite"
    operands = [values[document.edge_at(node_id, port).source] for port in range(node.port_count)]
    for port, operand in enumerate(operands):
        if not math.isfinite(operand.data):
            source = document.edge_at(node_id, port).source
            return f"{format_number(operand.data)} comes in from {document.name(source)}"
    reason = kind(node.kind).problem(*(operand.data for operand in operands))
    if reason:
        return reason
    return "the result is too large for a float (overflow)" if math.isinf(value) else "the result is undefined (nan)"


def evaluate_tensors(document: GraphDocument) -> Evaluation:
    """`evaluate` for a graph holding arrays: engine Tensors forward, the engine's backward steps back."""
    order = document.topological_order()
    tensors, missing, problems = build_tensors(document, order)
    results = {node_id: NodeResult() for node_id in order}
    incomplete = []
    for node_id, ports in missing.items():
        results[node_id].missing_ports = ports
        incomplete += [f"input '{port}' of {document.name(node_id)} is not connected" for port in ports]
    for node_id, problem in problems.items():
        results[node_id].problem = problem
        incomplete.append(f"{document.name(node_id)}: {problem}")
    for node_id in order:
        tensor = tensors.get(node_id)
        if tensor is None:
            continue
        results[node_id].value = np.array(tensor.data)
        if not np.all(np.isfinite(tensor.data)):
            results[node_id].problem = nonfinite_problem(document, node_id, tensors)
    output = document.effective_output()
    edge_grads, broadcasts = {}, {}
    if output is not None and output in tensors:
        grads, edge_grads, broadcasts = backward_through(document, tensors, output)
        for node_id, grad in grads.items():
            results[node_id].grad = grad
    return Evaluation(results, edge_grads, output, tensors, incomplete, True, broadcasts)
