"""The node kinds a graph can hold: their palette group, ports, formula and engine op.

Qt-free. Each kind evaluates with the engine's `Value`, so what the editor shows is what
the engine computes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine import Tensor, Value
from engine.nn import functional

from . import shapes


@dataclass(frozen=True)
class NodeKind:
    name: str  # the key stored in files: "add", "tanh", "input", ...
    title: str  # shown on the node and in the palette
    group: str  # palette group
    arity: int  # number of input ports; -1 for the Sum node's adjustable count
    apply: Callable[..., Value] | None = None  # engine op on the operands; None for leaves
    port_names: tuple[str, ...] = ()
    symbol: str = ""  # infix symbol for formulas and code export, if any
    description: str = ""
    problem: Callable[..., str | None] = field(default=lambda *operands: None)  # why a result is nan/inf
    # The tensor side (issue 19): the op on engine Tensors, ``tensor_apply(params, *operands)`` (None: the kind
    # works on scalar graphs only), the output shape from the operands' shapes and the parameters (see
    # `shapes`), the parameters a node of this kind carries with their defaults, and the ports that take
    # integer labels (no gradient flows into them).
    tensor_apply: Callable[..., Tensor] | None = None
    shape: Callable[[list, dict], tuple | None] = shapes.same_shape
    params: tuple[tuple[str, object], ...] = ()
    tensor_only: bool = False  # a kind that only makes sense on arrays (matmul, reshape, ...)
    label_ports: tuple[int, ...] = ()
    function: str = ""  # its name in a formula and the expression box, when not ``name`` (sum for reduce_sum)

    @property
    def is_leaf(self) -> bool:
        return self.apply is None

    @property
    def is_variadic(self) -> bool:
        return self.arity < 0

    def port_name(self, port: int) -> str:
        return self.port_names[port] if port < len(self.port_names) else f"x{port + 1}"

    @property
    def default_params(self) -> dict:
        return dict(self.params)

    def formula(self, operands: list[str], params: dict | None = None) -> str:
        """The op applied to ``operands`` (names or numbers): ``t2 * t3``, ``-x``, ``x1 + x2 + x3``, ``tanh(n)``,
        and for tensor kinds with their parameters: ``X @ W``, ``X.T``, ``sum(t1, axis=0)``, ``reshape(x, (3, 2))``."""
        if self.name == "neg":
            return f"-{operands[0]}"
        if self.name == "transpose":
            return f"{operands[0]}.T"
        if self.symbol and (len(operands) == 2 or self.is_variadic):
            return f" {self.symbol} ".join(operands)
        arguments = list(operands)
        for name, value in {**self.default_params, **(params or {})}.items():
            if name == "shape":
                arguments.append(str(tuple(value)))
            elif value != dict(self.params)[name]:
                arguments.append(f"{name}={value}")
        return f"{self.function or self.name}({', '.join(arguments)})"


def _division_problem(a: float, b: float) -> str | None:
    return "division by zero" if b == 0 else None


def _log_problem(a: float) -> str | None:
    if a == 0:
        return "log of zero is -inf"
    if a < 0:
        return "log of a negative number is undefined (nan)"
    return None


def _pow_problem(a: float, b: float) -> str | None:
    if a < 0 and b != int(b):
        return "a negative number to a fractional power is undefined (nan)"
    if a == 0 and b < 0:
        return "zero to a negative power is a division by zero"
    return None


LEAF_GROUP, ARITHMETIC_GROUP, FUNCTION_GROUP, TENSOR_GROUP = "Inputs", "Arithmetic", "Functions", "Tensors"
DATA_GROUP = "Data"  # the palette's inputs the training points feed (presets of an input, below)


def _added(params, *terms):
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def _labels(tensor: Tensor) -> np.ndarray:
    return tensor.data.astype(np.int64)


def _cross_entropy_problem(logits, labels) -> str | None:
    labels = np.asarray(labels)
    if np.any(labels != np.round(labels)):
        return "cross_entropy: the labels must be whole class numbers"
    classes = np.shape(logits)[-1] if np.ndim(logits) else 0
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        return f"cross_entropy: each label must be a class number from 0 to {classes - 1}"
    return None


def _elementwise(name, title, group, arity, apply, ports, symbol, description, problem=None, method=None):
    """A kind that works on scalars and, elementwise with broadcasting, on arrays."""
    if method is not None:
        tensor_apply = lambda params, a: getattr(a, method)()  # noqa: E731
    else:
        tensor_apply = lambda params, *operands: apply(*operands)  # noqa: E731
    return NodeKind(name, title, group, arity, apply, ports, symbol, description,
                    problem or (lambda *operands: None), tensor_apply,
                    shapes.elementwise(symbol or name) if arity != 1 else shapes.same_shape)


def _tensor_kind(name, title, arity, tensor_apply, ports, shape, description, params=(), symbol="", function="",
                 label_ports=(), problem=None):
    return NodeKind(name, title, TENSOR_GROUP, arity, _scalar_graphs_only(name), ports, symbol, description,
                    problem or (lambda *operands: None), tensor_apply=tensor_apply, shape=shape, params=params,
                    tensor_only=True, label_ports=label_ports, function=function)


_REDUCTION_PARAMS = (("axis", None), ("keepdims", False))  # axis None: over everything


def _scalar_graphs_only(name):
    def apply(*operands):
        raise TypeError(f"{name} works on engine Tensors: the graph is evaluated with engine.Tensor")
    return apply

_KINDS = [
    NodeKind("input", "Input", LEAF_GROUP, 0, description="A data value, such as x1"),
    NodeKind("parameter", "Parameter", LEAF_GROUP, 0, description="A weight or bias the network learns"),
    NodeKind("constant", "Constant", LEAF_GROUP, 0, description="A fixed number"),
    _elementwise("add", "add", ARITHMETIC_GROUP, 2, lambda a, b: a + b, ("a", "b"), "+", "a + b"),
    _elementwise("sub", "sub", ARITHMETIC_GROUP, 2, lambda a, b: a - b, ("a", "b"), "-", "a - b"),
    _elementwise("mul", "mul", ARITHMETIC_GROUP, 2, lambda a, b: a * b, ("a", "b"), "*", "a * b"),
    _elementwise("div", "div", ARITHMETIC_GROUP, 2, lambda a, b: a / b, ("a", "b"), "/", "a / b", _division_problem),
    _elementwise("pow", "pow", ARITHMETIC_GROUP, 2, lambda a, b: a**b, ("base", "exp"), "**", "base ** exponent",
                 _pow_problem),
    _elementwise("neg", "neg", ARITHMETIC_GROUP, 1, lambda a: -a, ("a",), "-", "-a"),
    NodeKind("sum", "Sum", ARITHMETIC_GROUP, -1, lambda *terms: Value.sum(terms), (), "+",
             "x1 + x2 + ... (any number of inputs)", tensor_apply=_added, shape=shapes.elementwise("+")),
    _elementwise("exp", "exp", FUNCTION_GROUP, 1, Value.exp, ("x",), "", "e^x", method="exp"),
    _elementwise("log", "log", FUNCTION_GROUP, 1, Value.log, ("x",), "", "natural logarithm", _log_problem, "log"),
    _elementwise("tanh", "tanh", FUNCTION_GROUP, 1, Value.tanh, ("x",), "", "hyperbolic tangent", method="tanh"),
    _elementwise("sigmoid", "sigmoid", FUNCTION_GROUP, 1, Value.sigmoid, ("x",), "", "1 / (1 + e^-x)",
                 method="sigmoid"),
    _elementwise("relu", "relu", FUNCTION_GROUP, 1, Value.relu, ("x",), "", "max(0, x)", method="relu"),
    NodeKind("sin", "sin", FUNCTION_GROUP, 1, Value.sin, ("x",), description="sine", shape=shapes.scalar_only("sin")),
    NodeKind("cos", "cos", FUNCTION_GROUP, 1, Value.cos, ("x",), description="cosine",
             shape=shapes.scalar_only("cos")),
    _elementwise("abs", "abs", FUNCTION_GROUP, 1, Value.abs, ("x",), "", "|x|", method="abs"),
    # Kinds for arrays only (issue 19); each names its engine op, its shape rule and its parameters.
    _tensor_kind("matmul", "matmul", 2, lambda params, a, b: a @ b, ("a", "b"), shapes.matmul,
                 "matrix product a @ b", symbol="@"),
    _tensor_kind("transpose", "transpose", 1, lambda params, a: a.T, ("x",), shapes.transpose,
                 "x.T: rows become columns"),
    _tensor_kind("reduce_sum", "sum", 1, lambda params, a: a.sum(params["axis"], params["keepdims"]), ("x",),
                 shapes.reduction("sum"), "sum over everything or one axis", _REDUCTION_PARAMS,
                 function="sum"),
    _tensor_kind("reduce_mean", "mean", 1, lambda params, a: a.mean(params["axis"], params["keepdims"]), ("x",),
                 shapes.reduction("mean"), "mean over everything or one axis", _REDUCTION_PARAMS,
                 function="mean"),
    _tensor_kind("reshape", "reshape", 1, lambda params, a: a.reshape(tuple(params["shape"])), ("x",),
                 shapes.reshape, "the same numbers in a new shape", (("shape", (-1,)),)),
    _tensor_kind("softmax", "softmax", 1, lambda params, a: a.softmax(params["axis"]), ("x",),
                 shapes.along_axis("softmax"), "exp(x) / sum(exp(x)) along an axis", (("axis", -1),)),
    _tensor_kind("log_softmax", "log_softmax", 1, lambda params, a: a.log_softmax(params["axis"]), ("x",),
                 shapes.along_axis("log_softmax"), "log(softmax(x)) along an axis", (("axis", -1),)),
    _tensor_kind("mse", "mse", 2, lambda params, a, b: functional.mse_loss(a, b), ("prediction", "target"),
                 shapes.mse, "mean of (prediction - target)²"),
    _tensor_kind("cross_entropy", "cross_entropy", 2,
                 lambda params, a, b: functional.cross_entropy(a, _labels(b)), ("logits", "labels"),
                 shapes.cross_entropy, "-mean log softmax(logits)[label], labels whole class numbers",
                 label_ports=(1,), problem=_cross_entropy_problem),
]

@dataclass(frozen=True)
class Preset:
    """A palette entry that makes a node of an existing kind ready-made: the Data group's inputs, named as the
    training points feed them (`feeding`)."""

    name: str         # its key in the palette, a drag and the quick search
    title: str
    kind: str         # the node it makes is of this kind...
    label: str        # ... with this label...
    value: float = 0.0          # ... and this value,
    generator: str | None = None  # or the values of this generator (its default shape)
    description: str = ""

    def as_entry(self) -> NodeKind:
        """The preset as the palette lists it: a leaf of the Data group."""
        return NodeKind(self.name, self.title, DATA_GROUP, 0, description=self.description)


PRESETS: dict[str, Preset] = {preset.name: preset for preset in (
    Preset("data_x1", "x1", "input", "x1", 0.0, description="The points' first coordinate, x₁ (trained: one a point)"),
    Preset("data_x2", "x2", "input", "x2", 0.0, description="The points' second coordinate, x₂ (trained: one a point)"),
    Preset("data_points", "X", "input", "X", generator="points",
           description="The training points, one row each, (n, 2): 8 of them until trained"),
)}

# ALL_KINDS is every kind a document and a graph file may hold; KINDS is what the palette and the quick search
# offer: those kinds, and the Data group's presets before them. SCALAR_KINDS are those a version-1 file holds.
ALL_KINDS: dict[str, NodeKind] = {kind.name: kind for kind in _KINDS}
KINDS: dict[str, NodeKind] = {**{name: preset.as_entry() for name, preset in PRESETS.items()}, **ALL_KINDS}
SCALAR_KINDS: dict[str, NodeKind] = {name: k for name, k in ALL_KINDS.items() if not k.tensor_only}
GROUPS: tuple[str, ...] = (DATA_GROUP, LEAF_GROUP, ARITHMETIC_GROUP, FUNCTION_GROUP, TENSOR_GROUP)
LEAF_KINDS = tuple(kind.name for kind in _KINDS if kind.is_leaf)
FUNCTION_NAMES = tuple(kind.name for kind in _KINDS if kind.group == FUNCTION_GROUP)
TENSOR_KINDS = tuple(kind.name for kind in _KINDS if kind.tensor_only)
DEFAULT_SUM_INPUTS = 3


def kind(name: str) -> NodeKind:
    try:
        return ALL_KINDS[name]
    except KeyError:
        raise KeyError(f"unknown node kind {name!r}") from None


def is_finite(x: float) -> bool:
    return math.isfinite(x)


def matches(node_kind: NodeKind, text: str) -> bool:
    """Does a search text match this kind (name, title, group, description, symbol)?"""
    text = text.strip().lower()
    if not text:
        return True
    haystack = " ".join([node_kind.name, node_kind.title, node_kind.group, node_kind.description, node_kind.symbol])
    return all(word in haystack.lower() for word in text.split())


def search_rank(node_kind: NodeKind, text: str) -> int | None:
    """How well a search text matches a kind: 0 exact, 1 prefix, 2 in the name, 3 elsewhere; None: no match."""
    text = text.strip().lower()
    names = (node_kind.name.lower(), node_kind.title.lower())
    if not text:
        return 3
    if text in names:
        return 0
    if any(name.startswith(text) for name in names):
        return 1
    if any(text in name for name in names):
        return 2
    return 3 if matches(node_kind, text) else None
