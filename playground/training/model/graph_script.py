"""The model part of Export > Training as Python when the training tab trains the editor's graph: the graph as
an `engine.nn.Module` whose forward is the graph's operations, one line a node, for all the points at once (and
the same as a ``torch.nn.Module``, for the PyTorch check). Qt-free; `export_script` writes the rest.

Its parameters are the graph's, in the app's order and with its names where they are Python names, so the
optimizer steps them as the app does and the script's losses are the app's.
"""

from __future__ import annotations

import keyword

import numpy as np

from ...graph.export_tensors import engine_expression, torch_expression
from ...graph.network import GraphNetwork

ENGINE_CLASS, TORCH_CLASS = "DrawnGraph", "TorchDrawnGraph"


def _number(x: float) -> str:
    return repr(float(x)) if np.isfinite(x) else f"float({str(x)!r})"


def _literal(value) -> str:
    return repr(np.asarray(value, dtype=np.float64).tolist())


def python_names(network: GraphNetwork) -> dict[str, str]:
    """A Python name for every node of the network's graph: its own name where it is one, else a made-up one."""
    names, taken = {}, {"self", "X", "np", "torch", "Tensor", "F"}
    for node_id in network.plan.order:
        name = network.plan.names[node_id]
        if not name.isidentifier() or keyword.iskeyword(name) or name in taken:
            name = f"v_{node_id}" if f"v_{node_id}" not in taken else f"v_{len(taken)}"
        taken.add(name)
        names[node_id] = name
    return names


def engine_model(network: GraphNetwork) -> tuple[list[str], dict[str, np.ndarray]]:
    """The lines of ``class DrawnGraph(Module)``, and its initial weights by attribute name (the drawn values)."""
    return _model(network, torch=False)


def torch_model(network: GraphNetwork) -> list[str]:
    """The lines of ``class TorchDrawnGraph(torch.nn.Module)``, loaded from the same ``INITIAL_WEIGHTS``."""
    return _model(network, torch=True)[0]


def _model(network: GraphNetwork, torch: bool) -> tuple[list[str], dict[str, np.ndarray]]:
    plan, document = network.plan, network.document
    names = python_names(network)
    parameter_names = plan.parameter_names
    weights = {names[node_id]: np.asarray(network.state_dict()[parameter_names[node_id]])
               for node_id in plan.parameters}
    regularized = {id(t) for t in network.weights()}
    trained = dict(network.named_parameters())
    weight_attributes = [names[node_id] for node_id in plan.parameters
                         if id(trained[parameter_names[node_id]]) in regularized]
    head = (f"class {TORCH_CLASS}(torch.nn.Module):" if torch else f"class {ENGINE_CLASS}(Module):")
    lines = [head,
             f'    """{plan.describe()[0].upper()}{plan.describe()[1:]}: its output, one score a point."""', "",
             "    def __init__(self):"]
    if torch:
        lines.append("        super().__init__()")
    for node_id in plan.order:
        node = document.node(node_id)
        if not node.is_leaf or node_id in plan.fed:
            continue
        attribute = names[node_id]
        if node_id in parameter_names:
            value = (f"torch.nn.Parameter(torch.tensor(INITIAL_WEIGHTS[{attribute!r}]))" if torch
                     else f"Tensor(INITIAL_WEIGHTS[{attribute!r}], requires_grad=True)")
        else:
            value = (f"torch.tensor({_literal(node.value)}, dtype=torch.float64)" if torch
                     else f"Tensor({_literal(node.value)})")
        lines.append(f"        self.{attribute} = {value}")
    lines += ["", "    def forward(self, X):", '        """The scores of the points X, (n, 2) -> (n, k)."""']
    operands = {node_id: (f"self.{names[node_id]}" if document.node(node_id).is_leaf else names[node_id])
                for node_id in plan.order}
    for node_id, feed in plan.fed.items():
        operands[node_id] = names[node_id]
        column = "X" if feed == "points" else f"X[:, {0 if feed == 'x1' else 1}]"
        lines.append(f"        {names[node_id]} = {column}")
    expression = torch_expression if torch else engine_expression
    for node_id in plan.order:
        if document.node(node_id).is_leaf:
            continue
        lines.append(f"        {names[node_id]} = {expression(document, node_id, operands, _number, False)}")
    output = names[plan.output]
    lines += [f"        return {output}.reshape(-1, 1) if {output}.ndim == 1 else {output}", ""]
    if not torch:
        lines += ["    def weights(self):",
                  '        """What L1 and L2 act on: the weights, not the biases (a parameter only ever added)."""',
                  f"        return [{', '.join(f'self.{a}' for a in weight_attributes)}]", ""]
    else:
        lines += ["    def regularized(self):",
                  f"        return [{', '.join(f'self.{a}' for a in weight_attributes)}]", ""]
    return lines, weights
