"""An engine graph as an editor document: what `playground.show` opens.

Each op of the engine's `Value` graph becomes the editor node of the same op, wired in the same
operand order, so the editor's evaluation computes the very same numbers. A leaf's kind follows
the rule the expression box uses: a leaf without a label is a constant (``x * 2`` makes one), a
label that names a parameter (``w``, ``w1``, ``b``, ``weight``, ``bias``...) gives a parameter,
any other label an input, unless the caller names the leaf's kind (``inputs=``, ``parameters=``,
``constants=``: what an exported script's last lines pass, so that its graph comes back exactly).
A neuron's ``Value.dot`` (``b + w . x`` as one engine node) is drawn as what it computes, a
product per weight and a Sum, so every step of it can be seen.

micrograd's own ``Value`` (and the lecture's, and any class shaped like it: ``data``, ``_prev``,
``_op``, maybe ``label``) is drawn as well: its ops are ``+``, ``*``, ``**k`` (the exponent a
constant), ``tanh``, ``exp``, ``ReLU``..., and it keeps its operands in a set, so ``x*x`` holds
``x`` once: a binary op with one operand uses it twice. Qt-free.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Value
from engine.graph import reading_order

from .document import Edge, GraphDocument, Node
from .expression import is_parameter_name
from .layout import layered_layout

# The engine's op names and the editor's node kinds that compute the same thing.
OP_KINDS = {
    "+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "neg": "neg", "sum": "sum",
    "exp": "exp", "log": "log", "tanh": "tanh", "sigmoid": "sigmoid", "relu": "relu",
    "sin": "sin", "cos": "cos", "abs": "abs",
}


# micrograd's op names (and its lecture's) for the same kinds; "**k" is matched apart.
MICROGRAD_KINDS = {"ReLU": "relu", "-": "sub", "/": "div"}
BINARY_KINDS = {"add", "sub", "mul", "div"}
COMMUTATIVE_KINDS = {"add", "mul"}


def _is_value_like(value) -> bool:
    return isinstance(value, Value) or all(hasattr(value, name) for name in ("data", "_prev", "_op"))


def _parents(value) -> tuple:
    """A node's operands in order; a set's (micrograd's) in a fixed order, a lone one twice for a binary op."""
    parents = value._prev
    if isinstance(parents, tuple):
        return parents
    kind = _kind_of(value)[0]
    if len(parents) == 2 and kind not in COMMUTATIVE_KINDS:
        raise ValueError(f"the op {value._op!r} keeps its operands in a set, so their order is unknown")
    parents = tuple(sorted(parents, key=lambda parent: float(parent.data)))  # + and *: any order gives the same
    if len(parents) == 1 and kind in BINARY_KINDS:
        return parents * 2
    return parents


def _kind_of(value) -> tuple[str | None, float | None]:
    """The editor's kind for a node's op, and the constant exponent of micrograd's ``**k`` (else None)."""
    op = value._op
    if op.startswith("**") and len(op) > 2:
        try:
            return "pow", float(op[2:])
        except ValueError:
            return None, None
    if op == "dot":
        return "sum", None
    return OP_KINDS.get(op) or MICROGRAD_KINDS.get(op) or OP_KINDS.get(op.lower()), None


def leaf_kind(label: str) -> str:
    if not label:
        return "constant"
    return "parameter" if is_parameter_name(label) else "input"


def _expand_dot(document: GraphDocument, add, operands: list[str]) -> list[str]:
    """``bias + a1*b1 + ... + an*bn`` as a product node per pair: the Sum's operands, bias first
    (the order `Value.dot` adds in, so the Sum gives the very same number)."""
    n = len(operands) // 2
    products = []
    for a, b in zip(operands[:n], operands[n:2 * n]):
        product = add("mul")
        document.add_edge(Edge(a, product, 0))
        document.add_edge(Edge(b, product, 1))
        products.append(product)
    return operands[2 * n:] + products


def named_kinds(inputs: Iterable = (), parameters: Iterable = (), constants: Iterable = ()) -> dict[int, tuple]:
    """Leaves whose kind the caller names, by identity: ``{id(leaf): (kind, leaf)}``. A leaf named twice is
    refused."""
    kinds: dict[int, tuple] = {}
    for kind_name, leaves in (("input", inputs), ("parameter", parameters), ("constant", constants)):
        if _is_value_like(leaves):
            leaves = [leaves]
        for leaf in leaves:
            if not _is_value_like(leaf):
                raise TypeError(f"{kind_name}s= takes the graph's leaf Values, not {type(leaf).__name__}")
            named, _ = kinds.setdefault(id(leaf), (kind_name, leaf))
            if named != kind_name:
                raise ValueError(f"a leaf ({_describe(leaf)}) is named both {named} and {kind_name}")
    return kinds


def _describe(value) -> str:
    label = getattr(value, "label", "") or ""
    return f"{label!r} = {value.data!r}" if label else f"value {value.data!r}"


_TAKES = ("show() takes an engine.Value (or a micrograd-style Value: .data, ._prev, ._op), a list of them "
          "(the output first), or a scalar engine.Tensor")


def _check_roots(roots: list) -> None:
    """Refuse anything but a non-empty list of Values, saying what was given instead."""
    if not roots:
        raise ValueError(f"show() was given an empty list: nothing to draw. {_TAKES}.")
    for position, root in enumerate(roots, start=1):
        if not _is_value_like(root):
            given = f"a {type(root).__name__}" if len(roots) == 1 else \
                f"a list whose item {position} is a {type(root).__name__}"
            raise TypeError(f"{_TAKES}; it was given {given}" + (
                f" ({root!r}): wrap a number in Value(...) to draw it" if isinstance(root, (int, float)) else ""))


def _refuse_misnamed(kinds: dict[int, tuple], leaves_found: set[int], results_found: set[int]) -> None:
    """A Value named in inputs=, parameters= or constants= must be a leaf of the graph: say what it is instead."""
    for key, (kind_name, value) in kinds.items():
        if key in leaves_found:
            continue
        if key in results_found:
            raise ValueError(f"{kind_name}s= names {_describe(value)}, the result of an op "
                             f"({value._op!r}) in this graph, not a leaf: only a Value made directly "
                             "(Value(2.0, label=...)) can be an input, parameter or constant")
        raise ValueError(f"{kind_name}s= names {_describe(value)}, which is not in this graph "
                         "(not behind any Value given to show)")


def document_from_values(roots: Sequence[Value], inputs: Iterable = (), parameters: Iterable = (),
                         constants: Iterable = ()) -> GraphDocument:
    """The graph behind ``roots`` as a document, laid out; its output is the first root (give the
    other sinks after it to keep them). A leaf in ``inputs``, ``parameters`` or ``constants`` is that
    kind, whatever its label says.

    Raises ``TypeError`` for anything but `Value`s (the engine's, or micrograd-style ones) and
    ``ValueError`` for an empty list, an op the editor has no node for (the message names it), or a
    Value named for a kind that is not a leaf of this graph (the message says what it is).
    """
    roots = list(roots)
    _check_roots(roots)
    kinds = named_kinds(inputs, parameters, constants)
    leaves_found: set[int] = set()
    results_found: set[int] = set()
    ids: dict[int, str] = {}
    document = GraphDocument()

    def add(kind: str, label: str = "", **fields) -> str:
        node_id = f"n{len(document.nodes) + 1}"
        document.add_node(Node(node_id, kind, label=label, **fields))
        return node_id

    for value in reading_order(roots, _parents):
        label = getattr(value, "label", "") or ""
        parents = _parents(value)
        if not parents:  # a leaf (or an empty dot product, which is a plain 0)
            named = kinds.get(id(value))
            if named:
                leaves_found.add(id(value))
            ids[id(value)] = add(named[0] if named else leaf_kind(label), label, value=float(value.data))
            continue
        if id(value) in kinds:
            results_found.add(id(value))
        operands = [ids[id(parent)] for parent in parents]
        kind, exponent = _kind_of(value)
        if kind is None:
            raise ValueError(f"the editor has no node for the op {value._op!r}")
        if value._op == "dot":
            operands = _expand_dot(document, add, operands)
        if exponent is not None:  # micrograd's x**k: k is a constant of the op, a constant node here
            operands.append(add("constant", value=exponent))
        node_id = ids[id(value)] = add(kind, label, inputs=len(operands) if kind == "sum" else 0)
        for port, operand in enumerate(operands):
            document.add_edge(Edge(operand, node_id, port))
    _refuse_misnamed(kinds, leaves_found, results_found)
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    document.set_output(ids[id(roots[0])])
    return document
