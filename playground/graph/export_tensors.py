"""Export a tensor graph as a Python script: engine Tensors forward and backward, every value and gradient
printed in full, optionally beside PyTorch's (float64). Qt-free; `export_code.to_python` calls it for a
graph that holds arrays.
"""

from __future__ import annotations

import numpy as np

from ..files.exported_scripts import how_to_run, import_guard, torch_guard
from .catalog import kind
from .tensor_evaluate import _label_only_leaves

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**", "matmul": "@"}
_METHODS = {"exp", "log", "tanh", "sigmoid", "relu", "abs"}


def _literal(value, number) -> str:
    """A nested list literal of the array, each element as ``number`` writes it (nan and inf included)."""
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        return number(float(array))
    if array.ndim == 1:
        return "[" + ", ".join(number(float(x)) for x in array) + "]"
    return "[" + ", ".join(_literal(row, number) for row in array) + "]"


def _reduce_arguments(params: dict, axis_word: str, keep_word: str) -> str:
    parts = []
    if params.get("axis") is not None:
        parts.append(f"{axis_word}={params['axis']}")
    if params.get("keepdims"):
        parts.append(f"{keep_word}=True")
    return ", ".join(parts)


def engine_expression(document, node_id: str, names: dict[str, str], number, needs_grad: bool) -> str:
    node = document.node(node_id)
    if node.is_leaf:
        grad = ", requires_grad=True" if needs_grad else ""
        return f"Tensor({_literal(node.value, number)}{grad}, label={document.name(node_id)!r})"
    operands = [names[document.edge_at(node_id, port).source] for port in range(node.port_count)]
    params = node.params
    if node.kind in _INFIX:
        return f"{operands[0]} {_INFIX[node.kind]} {operands[1]}"
    if node.kind == "neg":
        return f"-{operands[0]}"
    if node.kind == "sum":
        return " + ".join(operands)
    if node.kind in _METHODS:
        return f"{operands[0]}.{node.kind}()"
    if node.kind == "transpose":
        return f"{operands[0]}.T"
    if node.kind in ("reduce_sum", "reduce_mean"):
        return f"{operands[0]}.{kind(node.kind).function}({_reduce_arguments(params, 'axis', 'keepdims')})"
    if node.kind == "reshape":
        return f"{operands[0]}.reshape({tuple(params['shape'])})"
    if node.kind in ("softmax", "log_softmax"):
        return f"{operands[0]}.{node.kind}(axis={params['axis']})"
    if node.kind == "mse":
        return f"F.mse_loss({operands[0]}, {operands[1]})"
    if node.kind == "cross_entropy":
        return f"F.cross_entropy({operands[0]}, {operands[1]})"
    raise ValueError(f"{kind(node.kind).title} has no engine.Tensor op")


def torch_expression(document, node_id: str, names: dict[str, str], number, needs_grad: bool) -> str:
    node = document.node(node_id)
    if node.is_leaf:
        grad = ", requires_grad=True" if needs_grad else ""
        return f"torch.tensor({_literal(node.value, number)}, dtype=torch.float64{grad})"
    operands = [names[document.edge_at(node_id, port).source] for port in range(node.port_count)]
    params = node.params
    if node.kind in _INFIX:
        return f"{operands[0]} {_INFIX[node.kind]} {operands[1]}"
    if node.kind == "neg":
        return f"-{operands[0]}"
    if node.kind == "sum":
        return " + ".join(operands) if len(operands) > 1 else f"{operands[0]}.clone()"
    if node.kind in _METHODS:
        return f"torch.{node.kind}({operands[0]})"
    if node.kind == "transpose":
        source_shape = document.shape_of(document.edge_at(node_id, 0).source)
        return f"{operands[0]}.T" if len(source_shape) == 2 else f"{operands[0]}.clone()"
    if node.kind in ("reduce_sum", "reduce_mean"):
        function = kind(node.kind).function
        if params.get("axis") is None:
            rank = len(document.shape_of(document.edge_at(node_id, 0).source))
            keep = f".reshape({(1,) * rank})" if params.get("keepdims") else ""
            return f"torch.{function}({operands[0]}){keep}"
        return f"torch.{function}({operands[0]}, {_reduce_arguments(params, 'dim', 'keepdim')})"
    if node.kind == "reshape":
        return f"{operands[0]}.reshape({tuple(params['shape'])})"
    if node.kind in ("softmax", "log_softmax"):
        return f"torch.{node.kind}({operands[0]}, dim={params['axis']})"
    if node.kind == "mse":
        return f"torch.nn.functional.mse_loss({operands[0]}, {operands[1]})"
    if node.kind == "cross_entropy":
        return f"torch.nn.functional.cross_entropy({operands[0]}, {operands[1]}.long())"
    raise ValueError(f"no PyTorch function for {kind(node.kind).title}")


def tensor_script(document, evaluation, names: dict[str, str], torch_names: dict[str, str], number,
                  use_torch: bool) -> str:
    """The script for a tensor graph (``evaluation`` is complete; ``names`` are valid Python names)."""
    order = document.topological_order()
    output = evaluation.output
    labels_only = _label_only_leaves(document)
    needs_grad = {node_id: node_id not in labels_only for node_id in order}
    out_name = names[output]
    lines = [
        "# Exported by Autograd Playground.",
        f"# Rebuilds the tensor graph with the engine's Tensor, runs backward() from the output "
        f"{document.name(output)!r}",
        "# and prints every node's value and gradient in full" + (
            ", then whether PyTorch's (float64) agrees." if use_torch else "."),
        *(f"# {line}" for line in how_to_run()),
        "",
        "import sys",
        "",
    ]
    lines += [*import_guard(["import numpy as np", "from engine import Tensor",
                             "from engine.nn import functional as F"]), ""]
    if use_torch:
        lines += [*torch_guard(["import torch"]), ""]
    lines += ["# Forward pass: operands before results."]
    for node_id in order:
        lines.append(f"{names[node_id]} = {engine_expression(document, node_id, names, number, needs_grad[node_id])}")
    interior = [names[n] for n in order if not document.node(n).is_leaf and evaluation.values[n].requires_grad]
    if interior:
        lines += ["# Keep the gradients of interior tensors too (only the leaves' are kept by default).",
                  f"for tensor in [{', '.join(interior)}]:", "    tensor.retain_grad()"]
    seed = "" if np.size(evaluation.results[output].value) == 1 else f"np.ones({out_name}.shape)"
    if seed:
        lines.append(f"# {out_name} is not a single number: seeded with ones: the gradients of its sum.")
    lines += [f"{out_name}.backward({seed})"]

    if use_torch:
        lines += ["", "# The same graph in PyTorch, float64."]
        for node_id in order:
            expression = torch_expression(document, node_id, torch_names, number, needs_grad[node_id])
            lines.append(f"{torch_names[node_id]} = {expression}")
        torch_interior = [torch_names[n] for n in order
                          if not document.node(n).is_leaf and evaluation.values[n].requires_grad]
        if torch_interior:
            lines += [f"for tensor in [{', '.join(torch_interior)}]:", "    tensor.retain_grad()"]
        torch_seed = "" if not seed else f"torch.ones_like({torch_names[output]})"
        lines.append(f"{torch_names[output]}.backward({torch_seed})")

    lines += ["", ""]
    if use_torch:
        lines += [
            "def show(name, ours, theirs):",
            '    """A node\'s shape, value and gradient, and whether PyTorch computes the same (None: no gradient)."""',
            "    grad = None if ours.grad is None else ours.grad.tolist()",
            "    same_value = np.allclose(ours.data, theirs.detach().numpy(), atol=1e-12, equal_nan=True)",
            "    same_grad = (ours.grad is None) == (theirs.grad is None) and (ours.grad is None or np.allclose(",
            "        ours.grad, theirs.grad.numpy(), atol=1e-12, equal_nan=True))",
            "    print(f\"{name}  shape {ours.shape}  value={ours.data.tolist()}  grad={grad}  \"",
            "          f\"torch_agrees={same_value and same_grad}\")",
        ]
    else:
        lines += [
            "def show(name, ours):",
            '    """A node\'s shape, value and gradient, every element in full precision."""',
            "    grad = None if ours.grad is None else ours.grad.tolist()",
            "    print(f\"{name}  shape {ours.shape}  value={ours.data.tolist()}  grad={grad}\")",
        ]
    lines += ["", ""]
    for node_id in order:
        arguments = [repr(document.name(node_id)), names[node_id]] + ([torch_names[node_id]] if use_torch else [])
        lines.append(f"show({', '.join(arguments)})")
    return "\n".join(lines) + "\n"
