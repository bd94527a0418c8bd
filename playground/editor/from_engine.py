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


def named_kinds(inputs: Iterable = (), parameters: Iterable = (), constants: Iterable = ()) -> dict[int, str]:
    """Leaves whose kind the caller names, by identity: ``{id(leaf): kind}``. A leaf named twice is refused."""
    kinds: dict[int, str] = {}
    for kind_name, leaves in (("input", inputs), ("parameter", parameters), ("constant", constants)):
        if _is_value_like(leaves):
            leaves = [leaves]
        for leaf in leaves:
            if not _is_value_like(leaf):
                raise TypeError(f"{kind_name}s= takes the graph's leaf Values, not {type(leaf).__name__}")
            if kinds.setdefault(id(leaf), kind_name) != kind_name:
                raise ValueError(f"a leaf ({_describe(leaf)}) is named both {kinds[id(leaf)]} and {kind_name}")
    return kinds


def _describe(value) -> str:
    label = getattr(value, "label", "") or ""
    return f"{label!r} = {value.data!r}" if label else f"value {value.data!r}"


def document_from_values(roots: Sequence[Value], inputs: Iterable = (), parameters: Iterable = (),
                         constants: Iterable = ()) -> GraphDocument:
    """The graph behind ``roots`` as a document, laid out; its output is the first root. A leaf in
    ``inputs``, ``parameters`` or ``constants`` is that kind, whatever its label says.

    Raises ``TypeError`` for anything but `Value`s (the engine's, or micrograd-style ones) and
    ``ValueError`` for an op the editor has no node for (the message names it), or a leaf named
    for a kind that is not a leaf of this graph.
    """
    roots = list(roots)
    if not roots or not all(_is_value_like(root) for root in roots):
        raise TypeError("show() takes an engine.Value (or a micrograd-style Value: .data, ._prev, ._op), a list of "
                        "them, or a scalar engine.Tensor")
    kinds = named_kinds(inputs, parameters, constants)
    named_leaves = dict.fromkeys(kinds, False)  # found in the graph as a leaf?
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
            if id(value) in kinds:
                named_leaves[id(value)] = True
            ids[id(value)] = add(kinds.get(id(value)) or leaf_kind(label), label, value=float(value.data))
            continue
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
    strays = [key for key, found in named_leaves.items() if not found]
    if strays:
        raise ValueError(f"{len(strays)} of the Values named as inputs, parameters or constants "
                         f"{'is' if len(strays) == 1 else 'are'} not a leaf of this graph")
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    document.set_output(ids[id(roots[0])])
    return document
