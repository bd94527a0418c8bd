"""Export a graph document as a standalone Python script that rebuilds it with the engine.

Qt-free. The script builds one ``Value`` per node in topological order, calls ``backward()``
on the document's output and prints every node's value and gradient; optionally it builds the
same graph in PyTorch float64 and prints PyTorch's gradients next to ours. Leaf values are
written with ``repr`` so the script computes exactly what the editor shows.
"""

from __future__ import annotations

import builtins
import keyword
import math
import re
from collections import Counter

from ..files.exported_scripts import how_to_run, import_guard, torch_guard
from .catalog import kind
from .document import GraphDocument
from .evaluate import evaluate
from .export_tensors import tensor_script
from .from_engine import leaf_kind

# Names the script itself uses: a node label must not shadow them.
_RESERVED = (frozenset({"Value", "torch", "show", "tensor", "Tensor", "np", "F", "sys", "missing"})
             | frozenset(dir(builtins)))

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}
_TORCH_FUNCTIONS = {"exp", "log", "tanh", "sigmoid", "relu", "sin", "cos", "abs"}


def to_python(document: GraphDocument, use_torch: bool = False) -> str:
    """A readable script that rebuilds ``document`` with ``engine.Value`` and prints values and grads.

    Raises ``ValueError`` for an empty graph or one with an unconnected input.
    """
    evaluation = evaluate(document)
    if evaluation.incomplete:
        raise ValueError(f"cannot export an incomplete graph: {evaluation.incomplete[0]}")
    output = document.effective_output()
    if output is None:
        raise ValueError("cannot export an empty graph")

    order = document.topological_order()
    names = _variable_names(document, order)
    taken = set(names.values()) | _RESERVED
    torch_names = {}
    for node_id in order:
        torch_names[node_id] = _unique(f"{names[node_id]}_t", taken)
    if evaluation.is_tensor:  # arrays: engine.Tensor, every element printed (issue 19)
        return tensor_script(document, evaluation, names, torch_names, _number, use_torch)

    out_name = names[output]
    lines = [
        "# Exported by Autograd Playground.",
        "# Rebuilds the graph with the engine's Value, runs backward() from the output "
        f"{document.name(output)!r}",
        "# and prints every node's value and gradient" + (", next to PyTorch's (float64)." if use_torch else "."),
        *(f"# {line}" for line in how_to_run()),
        "",
        "import sys",
        "",
    ]
    lines += [*import_guard(["from engine import Value"]), ""]
    if use_torch:
        lines += [*torch_guard(["import torch"]), ""]
    lines += ["# Forward pass: operands before results."]
    for node_id in order:
        lines.append(f"{names[node_id]} = {_engine_expression(document, node_id, names)}")
    labelled = [node_id for node_id in order if document.node(node_id).label and not document.node(node_id).is_leaf]
    if labelled:
        lines += ["", "# The results' labels, micrograd style: playground.show() names each node as the editor."]
        lines += [f"{names[node_id]}.label = {_string(document.node(node_id).label)}" for node_id in labelled]
    lines += ["", f"# Backward pass from the output {out_name}: its gradient is 1, the chain rule does the rest.",
              f"{out_name}.backward()"]
    lines += ["", *_show_call(document, order, names, output)]

    if use_torch:
        lines += ["", "# The same graph in PyTorch, float64."]
        interior = []
        for node_id in order:
            lines.append(f"{torch_names[node_id]} = {_torch_expression(document, node_id, torch_names)}")
            if not document.node(node_id).is_leaf:
                interior.append(torch_names[node_id])
        if interior:
            lines += ["# Keep the gradients of interior tensors too (PyTorch keeps only the leaves' by default).",
                      f"for tensor in [{', '.join(interior)}]:",
                      "    tensor.retain_grad()"]
        lines.append(f"{torch_names[output]}.backward()")

    shown = [document.name(node_id) for node_id in order]
    width = max(len(name) for name in shown)
    lines += ["", ""]
    if use_torch:
        lines += [
            "def show(name, ours, theirs):",
            '    """One line per node: our value and grad, then PyTorch\'s grad (None: no gradient reached it)."""',
            "    torch_grad = None if theirs.grad is None else theirs.grad.item()",
            f'    print(f"{{name:>{width}}}  value={{ours.data!r}}  grad={{ours.grad!r}}  "',
            "          f\"torch_grad={torch_grad!r}\")",
        ]
    else:
        lines += [
            "def show(name, ours):",
            '    """One line per node: its value and gradient, in full precision."""',
            f'    print(f"{{name:>{width}}}  value={{ours.data!r}}  grad={{ours.grad!r}}")',
        ]
    lines += ["", ""]
    for node_id, name in zip(order, shown):
        arguments = [_string(name), names[node_id]] + ([torch_names[node_id]] if use_torch else [])
        lines.append(f"show({', '.join(arguments)})")
    return "\n".join(lines) + "\n"


def _show_call(document: GraphDocument, order: list[str], names: dict[str, str], output: str) -> list[str]:
    """Comment lines with the `playground.show` call that opens this graph in the app again, exactly.

    Its roots are the output, then every other sink (a node nothing uses: a side result, an unused
    leaf), so nothing that is not behind the output is lost and an interior output stays the output.
    A leaf whose label does not tell its kind (a named constant, a parameter called ``c``) is listed."""
    misread: dict[str, list[str]] = {"input": [], "parameter": [], "constant": []}
    for node_id in order:
        node = document.node(node_id)
        if node.is_leaf:
            label = node.label or (document.name(node_id) if node.kind != "constant" else "")
            if leaf_kind(label) != node.kind:
                misread[node.kind].append(names[node_id])
    sinks = set(document.sinks())
    roots = [names[output]] + [names[node_id] for node_id in order if node_id in sinks and node_id != output]
    shown = roots[0] if len(roots) == 1 else f"[{', '.join(roots)}]"
    arguments = [shown] + [f"{kind_name}s=[{', '.join(leaves)}]" for kind_name, leaves in misread.items() if leaves]
    lines = ["# To look at this graph in the app (from this script, or a notebook):"]
    if len(roots) > 1:
        lines.append(f"# (the output {names[output]} first, then every other node nothing uses: the whole graph)")
    if len(arguments) > 1:
        lines.append("# (the leaves listed are of a kind their labels do not tell)")
    return [*lines, f"#     import playground; playground.show({', '.join(arguments)})"]


# -- expressions ----------------------------------------------------------------------------


def _operands(document: GraphDocument, node_id: str, names: dict[str, str]) -> list[str]:
    node = document.node(node_id)
    return [names[document.edge_at(node_id, port).source] for port in range(node.port_count)]


def _engine_expression(document: GraphDocument, node_id: str, names: dict[str, str]) -> str:
    node = document.node(node_id)
    if node.is_leaf:
        # Inputs and parameters always carry their name, constants only a label they were given:
        # `playground.show` tells the leaf kinds apart by these labels, so the round trip is exact.
        name = node.label or (document.name(node_id) if node.kind != "constant" else "")
        label = f", label={_string(name)}" if name else ""
        return f"Value({_number(node.value)}{label})"
    operands = _operands(document, node_id, names)
    if node.kind in _INFIX:
        return f"{operands[0]} {_INFIX[node.kind]} {operands[1]}"
    if node.kind == "neg":
        return f"-{operands[0]}"
    if node.kind == "sum":
        return f"Value.sum([{', '.join(operands)}])"
    return f"{operands[0]}.{node.kind}()"


def _torch_expression(document: GraphDocument, node_id: str, names: dict[str, str]) -> str:
    node = document.node(node_id)
    if node.is_leaf:
        return f"torch.tensor({_number(node.value)}, dtype=torch.float64, requires_grad=True)"
    operands = _operands(document, node_id, names)
    if node.kind in _INFIX:
        return f"{operands[0]} {_INFIX[node.kind]} {operands[1]}"
    if node.kind == "neg":
        return f"-{operands[0]}"
    if node.kind == "sum":  # added left to right, as Value.sum does
        return " + ".join(operands) if len(operands) > 1 else f"{operands[0]}.clone()"
    if node.kind in _TORCH_FUNCTIONS:
        return f"torch.{node.kind}({operands[0]})"
    raise ValueError(f"no PyTorch function for {kind(node.kind).title}")


# -- names and literals -----------------------------------------------------------------------


def _variable_names(document: GraphDocument, order: list[str]) -> dict[str, str]:
    """The node's readable name (label, or t1, x1, ...) where it is a valid, unused Python name given to one
    node only, else that name made valid and unique (``a_b`` for a label ``a*b``)."""
    shown = document.names()
    counts = Counter(shown.values())
    names: dict[str, str] = {}
    for node_id in order:
        name = shown[node_id]
        if name.isidentifier() and not keyword.iskeyword(name) and name not in _RESERVED and counts[name] == 1:
            names[node_id] = name
    taken = set(names.values()) | _RESERVED
    for node_id in order:
        if node_id not in names:
            base = re.sub(r"[^0-9A-Za-z_]", "_", shown[node_id])
            if not base or base[0].isdigit():
                base = f"{document.node(node_id).kind}_{base}"
            names[node_id] = _unique(base, taken)
    return names


def _unique(base: str, taken: set[str]) -> str:
    name, n = base, 2
    while name in taken or keyword.iskeyword(name):
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _number(x: float) -> str:
    """A literal that reads back as exactly ``x`` (``repr``; nan and inf spelt as ``float(...)``)."""
    if math.isnan(x):
        return 'float("nan")'
    if math.isinf(x):
        return 'float("inf")' if x > 0 else '-float("inf")'
    return repr(float(x))


def _string(text: str) -> str:
    """A string literal, in double quotes where that needs no escaping."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        return f'"{literal[1:-1]}"'
    return literal
