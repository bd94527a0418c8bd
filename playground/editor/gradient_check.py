"""The gradient check: each leaf's gradient from the engine against central finite differences."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .document import GraphDocument
from .evaluate import build_values, evaluate


@dataclass(frozen=True)
class GradientCheckRow:
    node_id: str
    name: str
    analytic: float
    numerical: float

    @property
    def difference(self) -> float:
        return abs(self.analytic - self.numerical)

    @property
    def passed(self) -> bool:
        # PyTorch's gradcheck tolerance: |a - n| <= atol + rtol * |n|
        if math.isnan(self.analytic) and math.isnan(self.numerical):
            return True
        return self.difference <= 1e-5 + 1e-3 * abs(self.numerical)


def check_gradients(document: GraphDocument, eps: float = 1e-6) -> list[GradientCheckRow]:
    """One row per leaf the output depends on; empty when the graph cannot be evaluated."""
    evaluation = evaluate(document)
    output = evaluation.output
    if output is None or not evaluation.is_complete or output not in evaluation.values:
        return []
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
        rows.append(GradientCheckRow(node_id, document.name(node_id), result.grad, numerical))
    return rows
