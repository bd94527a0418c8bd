"""The expression box's tensor grammar (issue 19), read from `ast` nodes and never run. Qt-free.

``X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))``:

- list literals of numbers (one or two levels deep) are arrays;
- the generators ``zeros(2, 3)``, ``ones(4)``, ``arange(6)``, ``eye(3)`` (or ``eye(2, 3)``), ``randn(2, 2, seed=0)``
  and ``rand(3, seed=1)`` make arrays and are remembered on the leaf;
- ``a @ b``, ``x.T``, ``sum(x, axis=0, keepdims=True)``, ``mean(x)``, ``reshape(x, (3, 2))`` (or
  ``reshape(x, 3, 2)``), ``softmax(x, axis=1)``, ``log_softmax(x)``, ``transpose(x)``, ``matmul(a, b)``,
  ``mse(prediction, target)`` and ``cross_entropy(logits, labels)``.

``sum`` with one operand that is an array, or with ``axis=``/``keepdims=``, sums the array's elements;
otherwise ``sum(a, b, c)`` adds its operands as before. Shapes are checked as each node is wired, and a
refusal is an `ExpressionError` at the operator or call (``(4, 3) @ (2, 2): the inner sizes 3 and 2 differ``).
The functions here take the parser and use its positions and building steps.
"""

from __future__ import annotations

import ast

import numpy as np

from .arrays import GENERATORS, RANDOM_GENERATORS, Generator, ValueProblem, as_leaf_value
from .catalog import kind

# function name in the box -> node kind, and the keyword arguments it takes
TENSOR_FUNCTIONS = {
    "mean": ("reduce_mean", ("axis", "keepdims")),
    "reshape": ("reshape", ()),
    "softmax": ("softmax", ("axis",)),
    "log_softmax": ("log_softmax", ("axis",)),
    "transpose": ("transpose", ()),
    "matmul": ("matmul", ()),
    "mse": ("mse", ()),
    "cross_entropy": ("cross_entropy", ()),
}
TENSOR_CALLABLE = (*TENSOR_FUNCTIONS, *GENERATORS)


def array_literal(parser, node: ast.expr) -> np.ndarray | None:
    """The array a list literal spells (``[[1, 2], [3, 4]]``), or None when ``node`` is no list."""
    if not isinstance(node, ast.List):
        return None

    def rows(part: ast.expr, depth: int):
        if isinstance(part, ast.List):
            if depth == 2:
                raise parser._error("at most 2 dimensions: a list of rows of numbers", part)
            if not part.elts:
                raise parser._error("an empty list has no values", part)
            return [rows(item, depth + 1) for item in part.elts]
        number = parser._number(part)
        if number is None:
            raise parser._error("a list holds numbers only (or lists of numbers, one per row)", part)
        return number

    values = rows(node, 0)
    if any(isinstance(row, list) for row in values):
        lengths = {len(row) if isinstance(row, list) else None for row in values}
        if len(lengths) > 1:
            raise parser._error("every row of a list of rows needs the same length", node)
    try:
        return as_leaf_value(values)
    except ValueProblem as error:
        raise parser._error(str(error), node) from None


def _whole(parser, node: ast.expr, what: str) -> int:
    number = parser._number(node)
    if number is None or number != int(number):
        raise parser._error(f"{what} must be a whole number", node)
    return int(number)


def generator_call(parser, node: ast.Call) -> Generator | None:
    """The generator a call such as ``randn(2, 3, seed=0)`` names, or None for another call."""
    if not isinstance(node.func, ast.Name) or node.func.id not in GENERATORS:
        return None
    name = node.func.id
    sizes = [_whole(parser, argument, "a size") for argument in node.args]
    seed = None
    for keyword in node.keywords:
        if keyword.arg != "seed" or name not in RANDOM_GENERATORS:
            takes = "takes only sizes and seed=" if name in RANDOM_GENERATORS else "takes only sizes"
            raise parser._error(f"{name} {takes}", keyword)
        seed = _whole(parser, keyword.value, "a seed")
    if name == "eye" and len(sizes) == 1:
        sizes = sizes * 2
    try:
        return Generator(name, tuple(sizes), seed)
    except ValueProblem as error:
        raise parser._error(str(error), node) from None


def _keyword_value(parser, keyword: ast.keyword):
    value = keyword.value
    if isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, bool)):
        return value.value
    return _whole(parser, value, keyword.arg)


def wants_reduction(parser, node: ast.Call, operands: list[str]) -> bool:
    """Whether ``sum(...)`` sums an array's elements (reduce_sum) rather than adding its operands."""
    if node.keywords:
        return True
    return len(operands) == 1 and parser.document.shape_of(operands[0]) not in ((), None)


def tensor_call(parser, node: ast.Call, name: str) -> str:
    """Build the node of a tensor function call (``softmax(x, axis=1)``); returns its id."""
    if name == "sum":
        kind_name, keywords = "reduce_sum", ("axis", "keepdims")
    else:
        kind_name, keywords = TENSOR_FUNCTIONS[name]
    params = {}
    for keyword in node.keywords:
        if keyword.arg not in keywords:
            allowed = ", ".join(f"{k}=" for k in keywords) or "no keyword arguments"
            raise parser._error(f"{name} takes {allowed}", keyword)
        params[keyword.arg] = _keyword_value(parser, keyword)
    arguments = list(node.args)
    if kind_name == "reshape":
        if len(arguments) < 2:
            raise parser._error("reshape needs the array and its new shape, such as reshape(x, (3, 2))", node.func)
        sizes = arguments[1].elts if len(arguments) == 2 and isinstance(arguments[1], ast.Tuple) else arguments[1:]
        params["shape"] = tuple(_whole(parser, size, "a size") for size in sizes)
        arguments = arguments[:1]
    count = kind(kind_name).arity
    if len(arguments) != count:
        raise parser._error(f"{name} takes {count} argument{'s' if count > 1 else ''} ({len(arguments)} given)",
                            node.func)
    operands = [parser._expression(argument) for argument in arguments]
    return parser._operation(kind_name, operands, node, params)
