"""The node kinds a graph can hold: their palette group, ports, formula and engine op.

Qt-free. Each kind evaluates with the engine's `Value`, so what the editor shows is what
the engine computes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import Value


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

    @property
    def is_leaf(self) -> bool:
        return self.apply is None

    @property
    def is_variadic(self) -> bool:
        return self.arity < 0

    def port_name(self, port: int) -> str:
        return self.port_names[port] if port < len(self.port_names) else f"x{port + 1}"

    def formula(self, operands: list[str]) -> str:
        """The op applied to ``operands`` (names or numbers): ``t2 * t3``, ``-x``, ``x1 + x2 + x3``, ``tanh(n)``."""
        if self.name == "neg":
            return f"-{operands[0]}"
        if self.symbol and (len(operands) == 2 or self.is_variadic):
            return f" {self.symbol} ".join(operands)
        return f"{self.name}({', '.join(operands)})"


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


LEAF_GROUP, ARITHMETIC_GROUP, FUNCTION_GROUP = "Inputs", "Arithmetic", "Functions"

_KINDS = [
    NodeKind("input", "Input", LEAF_GROUP, 0, description="A data value, such as x1"),
    NodeKind("parameter", "Parameter", LEAF_GROUP, 0, description="A weight or bias the network learns"),
    NodeKind("constant", "Constant", LEAF_GROUP, 0, description="A fixed number"),
    NodeKind("add", "add", ARITHMETIC_GROUP, 2, lambda a, b: a + b, ("a", "b"), "+", "a + b"),
    NodeKind("sub", "sub", ARITHMETIC_GROUP, 2, lambda a, b: a - b, ("a", "b"), "-", "a - b"),
    NodeKind("mul", "mul", ARITHMETIC_GROUP, 2, lambda a, b: a * b, ("a", "b"), "*", "a * b"),
    NodeKind("div", "div", ARITHMETIC_GROUP, 2, lambda a, b: a / b, ("a", "b"), "/", "a / b", _division_problem),
    NodeKind("pow", "pow", ARITHMETIC_GROUP, 2, lambda a, b: a**b, ("base", "exp"), "**", "base ** exponent",
             _pow_problem),
    NodeKind("neg", "neg", ARITHMETIC_GROUP, 1, lambda a: -a, ("a",), "-", "-a"),
    NodeKind("sum", "Sum", ARITHMETIC_GROUP, -1, lambda *terms: Value.sum(terms), (), "+",
             "x1 + x2 + ... (any number of inputs)"),
    NodeKind("exp", "exp", FUNCTION_GROUP, 1, Value.exp, ("x",), description="e^x"),
    NodeKind("log", "log", FUNCTION_GROUP, 1, Value.log, ("x",), description="natural logarithm", problem=_log_problem),
    NodeKind("tanh", "tanh", FUNCTION_GROUP, 1, Value.tanh, ("x",), description="hyperbolic tangent"),
    NodeKind("sigmoid", "sigmoid", FUNCTION_GROUP, 1, Value.sigmoid, ("x",), description="1 / (1 + e^-x)"),
    NodeKind("relu", "relu", FUNCTION_GROUP, 1, Value.relu, ("x",), description="max(0, x)"),
    NodeKind("sin", "sin", FUNCTION_GROUP, 1, Value.sin, ("x",), description="sine"),
    NodeKind("cos", "cos", FUNCTION_GROUP, 1, Value.cos, ("x",), description="cosine"),
    NodeKind("abs", "abs", FUNCTION_GROUP, 1, Value.abs, ("x",), description="|x|"),
]

KINDS: dict[str, NodeKind] = {kind.name: kind for kind in _KINDS}
GROUPS: tuple[str, ...] = (LEAF_GROUP, ARITHMETIC_GROUP, FUNCTION_GROUP)
LEAF_KINDS = tuple(kind.name for kind in _KINDS if kind.is_leaf)
FUNCTION_NAMES = tuple(kind.name for kind in _KINDS if kind.group == FUNCTION_GROUP)
DEFAULT_SUM_INPUTS = 3


def kind(name: str) -> NodeKind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"unknown node kind {name!r}") from None


def is_finite(x: float) -> bool:
    return math.isfinite(x)
