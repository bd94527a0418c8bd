"""Turn a typed formula such as ``tanh(x1*w1 + x2*w2 + b)`` into a graph document.

Qt-free. The text is read with Python's `ast` module and never run: only the shapes of the
tree are looked at, and anything outside a small grammar is refused with an `ExpressionError`
that says what is wrong and where (``column`` is an offset into the text, for a caret in the UI).

Grammar: zero or more assignments and then one expression (the output), separated by ``;`` or
newlines::

    a = 2; b = -3            # a name given a number is an input (or a parameter: w, w1, b, b2, weight, bias)
    e = a * b                # a name given an expression labels that node; later uses share it
    L = tanh(e + e) ** 2     # the last statement is the output

Operators ``+ - * / **`` and unary ``-``; functions exp, log, tanh, sigmoid, relu, sin, cos, abs
(one argument) and sum (one or more). A name that is never assigned becomes an input with value 1.

Tensors (issue 19; see `expression_tensors`): list literals, the generators zeros, ones, arange, eye,
randn, rand, the operator ``@``, ``x.T``, and sum/mean/reshape/softmax/log_softmax/mse/cross_entropy::

    X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))
"""

from __future__ import annotations

import ast
import bisect
import re

import numpy as np

from .arrays import RANDOM_GENERATORS, Generator
from .catalog import FUNCTION_NAMES
from .document import Edge, GraphDocument, Node
from .expression_tensors import (
    TENSOR_CALLABLE,
    TENSOR_FUNCTIONS,
    array_literal,
    generator_call,
    tensor_call,
    wants_reduction,
)
from .layout import layered_layout

EXAMPLE = "tanh(x1*w1 + x2*w2 + b)"
CALLABLE = (*FUNCTION_NAMES, "sum", *TENSOR_CALLABLE)
DEFAULT_INPUT_VALUE = 1.0

_PARAMETER_NAME = re.compile(r"(?:[wb]|weight|bias)\d*(?:\.\d+)*")  # w, w1, b2, weight, bias, w1.2.3 (engine.nn)
_OPERATORS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow", ast.MatMult: "matmul"}
_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.FloorDiv: "//", ast.Mod: "%",
    ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Is: "is",
    ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.And: "and", ast.Or: "or",
}
_HINTS = {  # for functions people often reach for
    "sqrt": "write x ** 0.5",
    "pow": "write x ** y",
    "max": "relu(x) is max(0, x)",
    "ln": "log is the natural logarithm",
    "sigma": "the logistic function is sigmoid",
}
_UNSUPPORTED = {  # expression node type -> what to call it
    ast.Lambda: "lambda", ast.IfExp: "a conditional (a if c else b)", ast.Dict: "a dictionary {...}",
    ast.Set: "a set {...}", ast.List: "a list [...]", ast.ListComp: "a comprehension", ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension", ast.GeneratorExp: "a generator expression", ast.Await: "'await'",
    ast.Yield: "'yield'", ast.YieldFrom: "'yield from'", ast.JoinedStr: "an f-string",
    ast.FormattedValue: "an f-string", ast.Starred: "'*' unpacking", ast.NamedExpr: "':='", ast.Slice: "a slice",
}


class ExpressionError(ValueError):
    """Why a formula cannot be turned into a graph.

    ``line`` is the 1-based index of the statement at fault (statements are separated by ``;`` or
    newlines), ``column`` the 0-based offset into the whole text of the offending token; either may
    be None (an empty text has neither). ``message`` may say where ("... at column 5"); ``reason``
    never does, for a caller that says where in its own terms (a lesson: the file's line and column).
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 reason: str | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.reason = reason if reason is not None else message


def parse_expression(text: str) -> GraphDocument:
    """A laid-out document for ``text``, its last statement as the output; raises `ExpressionError`."""
    return _Parser(text).parse()


def is_parameter_name(name: str) -> bool:
    """Names that read as learnable weights: w, w1, b, b2, weight, bias, and engine.nn's w1.2.3 and b1.2."""
    return _PARAMETER_NAME.fullmatch(name) is not None


class _Parser:
    def __init__(self, text: str):
        self.text = text
        # Offsets of line starts, split the way Python's tokenizer splits (\r\n, \r, \n).
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
        self.document = GraphDocument()
        self.names: dict[str, str] = {}  # name -> node id, for names seen so far
        self.assigned_anywhere: set[str] = set()
        self.statement = 0  # 1-based index of the statement being read

    # -- entry -----------------------------------------------------------------------------

    def parse(self) -> GraphDocument:
        module = self._syntax_tree()
        if not module.body:
            raise ExpressionError(f"type an expression such as {EXAMPLE}")
        self.assigned_anywhere = {
            target.id for statement in module.body if isinstance(statement, ast.Assign)
            for target in statement.targets if isinstance(target, ast.Name)
        }
        output = None
        try:
            for index, statement in enumerate(module.body, start=1):
                self.statement = index
                output = self._statement(statement, last=index == len(module.body))
        except RecursionError:
            raise ExpressionError("the expression is nested too deeply", self.statement) from None
        self.document.set_output(output)
        for node_id, (x, y) in layered_layout(self.document).items():
            self.document.move_node(node_id, x, y)
        return self.document

    def _syntax_tree(self) -> ast.Module:
        if "\0" in self.text:
            raise ExpressionError("the text contains a null character", None, self.text.index("\0"))
        # Indentation means nothing here, but Python refuses a line that starts with spaces ("unexpected
        # indent"). A form feed resets Python's indentation count, so one per leading blank keeps every
        # offset the same while making all lines start at column 0.
        source = re.sub(r"(?m)^[ \t]+", lambda m: "\f" * len(m.group()), self.text)
        try:
            return ast.parse(source, mode="exec")
        except SyntaxError as error:
            raise self._syntax_error(error) from None
        except (RecursionError, MemoryError):
            raise ExpressionError("the expression is nested too deeply") from None

    def _syntax_error(self, error: SyntaxError) -> ExpressionError:
        message = re.split(r"\. (?:Perhaps|Maybe|Did you)", error.msg or "invalid syntax")[0]
        if not error.lineno or error.lineno > len(self.line_starts):
            column = len(self.text)
        else:
            line_start = self.line_starts[error.lineno - 1]
            line_end = self.line_starts[error.lineno] if error.lineno < len(self.line_starts) else len(self.text)
            column = min(line_start + max((error.offset or 1) - 1, 0), line_end)
        line, column_in_line = self._physical(column)
        where = f"at column {column_in_line + 1}" if len(self.line_starts) == 1 else \
            f"at line {line}, column {column_in_line + 1}"
        return ExpressionError(f"{message} {where}", self._statement_at(column), column, message)

    def _statement_at(self, offset: int) -> int:
        """The 1-based statement an offset falls in, counting top-level ';' and newlines (for syntax errors)."""
        statement, depth, content, i = 1, 0, False, 0
        while i < offset:
            ch = self.text[i]
            if ch == "#":
                while i < offset and self.text[i] not in "\r\n":
                    i += 1
                continue
            if ch == "\\" and self.text[i + 1:i + 2] in ("\n", "\r"):
                i += 2
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(depth - 1, 0)
            if ch in ";\r\n" and depth == 0:
                statement += content
                content = False
            elif not ch.isspace():
                content = True
            i += 1
        return statement

    # -- positions -------------------------------------------------------------------------

    def _physical(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1]

    def _offset(self, lineno: int, col_offset: int) -> int:
        """Offset into the text of ast's (line, UTF-8 byte column)."""
        start = self.line_starts[lineno - 1]
        prefix = self.text[start:start + col_offset].encode("utf-8")[:col_offset]  # a character is >= 1 byte
        return start + len(prefix.decode("utf-8", errors="ignore"))

    def _start(self, node: ast.AST) -> int:
        return self._offset(node.lineno, node.col_offset)

    def _end(self, node: ast.AST) -> int:
        return self._offset(node.end_lineno, node.end_col_offset)

    def _between(self, left: ast.AST, right: ast.AST, symbol: str, fallback: ast.AST) -> int:
        """Where ``symbol`` sits between two operands (an operator has no position of its own in ast)."""
        start = self._end(left)
        found = self.text.find(symbol, start, self._start(right))
        return found if found >= 0 else self._start(fallback)

    def _error(self, message: str, where: ast.AST | int) -> ExpressionError:
        column = where if isinstance(where, int) else self._start(where)
        return ExpressionError(message, self.statement, column)

    # -- statements ------------------------------------------------------------------------

    def _statement(self, statement: ast.stmt, last: bool) -> str:
        if isinstance(statement, ast.Expr):
            if not last:
                raise self._error("only the last statement can be a bare expression; give this one a name "
                                  "(e = ...) or remove it", statement)
            return self._expression(statement.value)
        if isinstance(statement, ast.Assign):
            return self._assignment(statement, last)
        if isinstance(statement, ast.AugAssign):
            symbol = _SYMBOLS.get(type(statement.op), "") + "="
            column = self._between(statement.target, statement.value, symbol, statement)
            raise self._error(f"'{symbol}' is not supported; give the new value a new name (a2 = a + ...)", column)
        if isinstance(statement, ast.AnnAssign):
            raise self._error("type annotations are not supported", statement.annotation)
        word = re.match(r"\w*", self.text[self._start(statement):]).group() or "this statement"
        raise self._error(f"'{word}' is not supported here: type assignments such as a = 2 and then one expression",
                          statement)

    def _assignment(self, statement: ast.Assign, last: bool) -> str:
        if len(statement.targets) > 1:
            raise self._error("chained assignment (a = b = ...) is not supported; assign one name at a time",
                              statement.targets[1])
        target = statement.targets[0]
        if isinstance(target, (ast.Tuple, ast.List)):
            raise self._error("assigning several names at once is not supported; write one assignment per "
                              "statement", target)
        if not isinstance(target, ast.Name):
            raise self._error("only a plain name can be assigned (such as e = ...)", target)
        name = target.id
        if name in CALLABLE:
            raise self._error(f"'{name}' is a function name and cannot be assigned; pick another name", target)
        if name in self.names:
            raise self._error(f"'{name}' is assigned twice; use a new name for the new value", target)
        number = self._number(statement.value)
        if number is not None:
            if last:
                raise self._error(f"nothing to compute: the last statement gives '{name}' a number; end with an "
                                  f"expression such as {EXAMPLE}", statement.value)
            node_id = self._leaf(name, number)
        elif (array := array_literal(self, statement.value)) is not None:
            node_id = self._leaf(name, array)
        elif isinstance(statement.value, ast.Call) and (generator := generator_call(self, statement.value)):
            node_id = self._leaf(name, generator.values(), generator)
        else:
            node_id = self._expression(statement.value)
            if not self.document.node(node_id).label:  # a fresh node; a bare name (e = a) just shares a's node
                self.document.set_label(node_id, name)
        self.names[name] = node_id
        return node_id

    # -- expressions -----------------------------------------------------------------------

    def _expression(self, node: ast.expr) -> str:
        # Walk a left-leaning chain (a + b + c + ...) without recursion, so long sums do not hit the limit.
        chain = []
        while isinstance(node, ast.BinOp):
            chain.append(node)
            node = node.left
        result = self._operand(node)
        for binop in reversed(chain):
            result = self._binary(binop, result)
        return result

    def _binary(self, node: ast.BinOp, left_id: str) -> str:
        op = _OPERATORS.get(type(node.op))
        if op is None:
            symbol = _SYMBOLS.get(type(node.op), "this operator")
            column = self._between(node.left, node.right, symbol, node)
            raise self._error(f"the operator '{symbol}' is not supported; use + - * / ** @", column)
        right_id = self._expression(node.right)
        symbol = _SYMBOLS[type(node.op)]
        return self._operation(op, [left_id, right_id], self._between(node.left, node.right, symbol, node))

    def _operand(self, node: ast.expr) -> str:
        number = self._number(node)
        if number is not None:
            return self._constant(number)
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.UAdd):
                return self._expression(node.operand)
            if isinstance(node.op, ast.USub):
                return self._operation("neg", [self._expression(node.operand)])
            symbol = "not" if isinstance(node.op, ast.Not) else "~"
            raise self._error(f"'{symbol}' is not supported", node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.List):
            return self._constant(array_literal(self, node))
        if isinstance(node, ast.Attribute) and node.attr == "T":
            return self._operation("transpose", [self._expression(node.value)], node)
        raise self._unsupported(node)

    def _name(self, node: ast.Name) -> str:
        name = node.id
        if name in self.names:
            return self.names[name]
        if name in self.assigned_anywhere:
            raise self._error(f"'{name}' is used before it is assigned", node)
        if name in CALLABLE:
            raise self._error(f"'{name}' is a function; call it like {name}(x)", node)
        self.names[name] = self._leaf(name, DEFAULT_INPUT_VALUE)
        return self.names[name]

    def _call(self, node: ast.Call) -> str:
        if isinstance(node.func, ast.Attribute):
            raise self._unsupported(node.func)
        if not isinstance(node.func, ast.Name):
            raise self._error(f"only these functions can be called: {', '.join(CALLABLE)}", node.func)
        name = node.func.id
        if name not in CALLABLE:
            hint = f" ({_HINTS[name]})" if name in _HINTS else ""
            raise self._error(f"unknown function '{name}'{hint}; available: {', '.join(CALLABLE)}", node.func)
        for argument in node.args:
            if isinstance(argument, ast.Starred):
                raise self._unsupported(argument)
        generator = generator_call(self, node)
        if generator is not None:
            return self._constant(generator.values(), generator)
        if name in TENSOR_FUNCTIONS or (name == "sum" and node.keywords and all(k.arg for k in node.keywords)):
            return tensor_call(self, node, name)
        if node.keywords:
            keyword = node.keywords[0]
            what = "'**' unpacking" if keyword.arg is None else f"keyword arguments ({keyword.arg}=...)"
            raise self._error(f"{what} are not supported; {name} takes plain arguments", keyword)
        count = len(node.args)
        if name == "sum":
            if count == 0:
                raise self._error("sum needs at least one argument, such as sum(a, b, c)", node.func)
        elif count != 1:
            given = "none" if count == 0 else str(count)
            raise self._error(f"{name} takes exactly one argument ({given} given)",
                              node.args[1] if count > 1 else node.func)
        operands = [self._expression(argument) for argument in node.args]
        if name == "sum" and wants_reduction(self, node, operands):
            return self._operation("reduce_sum", operands, node)
        return self._operation(name, operands, node)

    def _number(self, node: ast.expr) -> float | None:
        """The value of a number literal, signs included (-3, +2.5, -(1e3)); None for anything else."""
        sign = 1.0
        while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            sign = -sign if isinstance(node.op, ast.USub) else sign
            node = node.operand
        if not isinstance(node, ast.Constant) or not isinstance(node.value, (int, float)) \
                or isinstance(node.value, bool):
            return None
        try:
            return sign * float(node.value)
        except OverflowError:
            raise self._error("this number is too large", node) from None

    def _unsupported(self, node: ast.expr) -> ExpressionError:
        if isinstance(node, ast.Attribute):
            dot = self.text.rfind(".", self._end(node.value), self._end(node))
            return self._error(f"attribute access ('.{node.attr}') is not supported", dot if dot >= 0 else node)
        if isinstance(node, ast.Subscript):
            column = self._between(node.value, node.slice, "[", node)
            return self._error("indexing with [...] is not supported", column)
        if isinstance(node, ast.Compare):
            symbol = _SYMBOLS.get(type(node.ops[0]), "")
            column = self._between(node.left, node.comparators[0], symbol.split()[0], node)
            return self._error(f"comparisons such as '{symbol}' are not supported", column)
        if isinstance(node, ast.BoolOp):
            symbol = _SYMBOLS[type(node.op)]
            column = self._between(node.values[0], node.values[1], symbol, node)
            return self._error(f"'{symbol}' is not supported", column)
        if isinstance(node, ast.Tuple):
            return self._error("a list of values separated by commas is not supported; to add several terms "
                               "use sum(a, b, c)", node)
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                return self._error(f"{value} is not a number; use 1 or 0", node)
            if isinstance(value, (str, bytes)):
                what = "text in quotes"
            elif isinstance(value, complex):
                what = "a complex number"
            else:
                what = repr(value)
            return self._error(f"{what} is not supported", node)
        what = _UNSUPPORTED.get(type(node), type(node).__name__)
        if isinstance(node, ast.IfExp):
            return self._error(f"{what} is not supported", self._between(node.body, node.test, "if", node))
        return self._error(f"{what} is not supported", node)

    # -- building --------------------------------------------------------------------------

    def _leaf(self, name: str, value, generator: Generator | None = None) -> str:
        # An array named W or B reads as a weight as w and b do; randomly drawn values are weights too.
        learnable = is_parameter_name(name) or (np.ndim(value) > 0 and is_parameter_name(name.lower())) \
            or (generator is not None and generator.name in RANDOM_GENERATORS)
        kind = "parameter" if learnable else "input"
        return self.document.add_node(Node(self.document.new_id(), kind, label=name, value=value,
                                           generator=generator)).id

    def _constant(self, value, generator: Generator | None = None) -> str:
        return self.document.add_node(Node(self.document.new_id(), "constant", value=value, generator=generator)).id

    def _operation(self, kind: str, operands: list[str], where: ast.AST | int | None = None,
                   params: dict | None = None) -> str:
        """A node of ``kind`` wired to ``operands``; shapes that cannot combine are an error at ``where``."""
        inputs = len(operands) if kind == "sum" else 0
        try:
            node = Node(self.document.new_id(), kind, inputs=inputs, params=params or {})
        except ValueError as error:
            raise self._error(str(error), where if where is not None else 0) from None
        node_id = self.document.add_node(node).id
        for port, source in enumerate(operands):
            try:
                self.document.add_edge(Edge(source, node_id, port))
            except ValueError as error:
                raise self._error(str(error), where if where is not None else 0) from None
        return node_id
