"""The gradient check: each leaf's gradient from the engine against central finite differences.

A tensor graph is checked per element (issue 19), with the Jacobians the engine's own `gradcheck` compares:
one row per element of each leaf the output depends on, named ``W[0, 1]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine import Tensor
from engine.gradcheck import _tensor_jacobians

from .document import GraphDocument
from .evaluate import build_values, evaluate
from .tensor_evaluate import build_tensors


@dataclass(frozen=True)
class GradientCheckRow:
    node_id: str
    name: str
    analytic: float
    numerical: float
    output_size: float = 0.0  # |output| (a tensor's: the sum of its elements' sizes) where the check stood
    eps: float = 1e-6         # the finite differences' step

    @property
    def difference(self) -> float:
        return abs(self.analytic - self.numerical)

    @property
    def tolerance(self) -> float:
        """PyTorch's gradcheck tolerance: |a - n| <= atol + rtol * |n|."""
        return 1e-5 + 1e-3 * abs(self.numerical)

    @property
    def passed(self) -> bool:
        if math.isnan(self.analytic) and math.isnan(self.numerical):
            return True
        return self.difference <= self.tolerance

    @property
    def resolution(self) -> float:
        """The smallest gradient central differences can see here: the output's own rounding (machine epsilon
        times its size) over the step. exp(exp(exp(1.5))) is 2e38: a change of 157 at eps 1e-6 is lost in it."""
        return float(np.finfo(np.float64).eps) * self.output_size / self.eps

    @property
    def verdict(self) -> str:
        """"agree"; "differ"; or "unchecked": they differ, but by no more than the differences could see there."""
        if self.passed:
            return "agree"
        if self.resolution > self.tolerance and self.difference <= self.resolution:
            return "unchecked"
        return "differ"


def check_gradients(document: GraphDocument, eps: float = 1e-6) -> list[GradientCheckRow]:
    """One row per leaf the output depends on; empty when the graph cannot be evaluated."""
    evaluation = evaluate(document)
    output = evaluation.output
    if output is None or not evaluation.is_complete or output not in evaluation.values:
        return []
    if evaluation.is_tensor:
        return _check_tensor_gradients(document, evaluation, eps)
    order = document.topological_order()
    rows = []
    for node_id in order:
        node = document.node(node_id)
        result = evaluation.results[node_id]
        if not node.is_leaf or result.grad is None:
            continue
        plus, minus = (build_values(document, order, leaf_values={node_id: node.value + step})[0][output].data
                       for step in (eps, -eps))
        numerical = (plus - minus) / (2 * eps)
        size = abs(float(evaluation.results[output].value))
        rows.append(GradientCheckRow(node_id, document.name(node_id), result.grad, numerical, size, eps))
    return rows


def _check_tensor_gradients(document: GraphDocument, evaluation, eps: float) -> list[GradientCheckRow]:
    order = document.topological_order()
    output = evaluation.output
    leaf_ids = [n for n in order if document.node(n).is_leaf]
    leaves = [Tensor(document.node(n).array, requires_grad=evaluation.results[n].grad is not None) for n in leaf_ids]
    checked = [t for t in leaves if t.requires_grad]
    if not checked:
        return []

    def output_of(*tensors):  # the output's elements summed, as the editor seeds a non-scalar output with ones
        result = build_tensors(document, order, dict(zip(leaf_ids, tensors)))[0][output]
        return result if result.data.size == 1 else result.sum()

    with np.errstate(all="ignore"):
        analytical, numerical = _tensor_jacobians(output_of, tuple(leaves), checked, eps)
        values = build_tensors(document, order, dict(zip(leaf_ids, leaves)))[0][output].data
        size = float(np.sum(np.abs(values)))
    rows = []
    checked_ids = [n for n, t in zip(leaf_ids, leaves) if t.requires_grad]
    for node_id, tensor, a, n in zip(checked_ids, checked, analytical, numerical):
        name = document.name(node_id)
        for k in range(tensor.data.size):
            index = np.unravel_index(k, tensor.shape) if tensor.ndim else ()
            element = f"{name}[{', '.join(str(int(i)) for i in index)}]" if index else name
            rows.append(GradientCheckRow(node_id, element, float(a[0, k]), float(n[0, k]), size, eps))
    return rows
