"""The scalar engine: micrograd's ``Value``, exact, IEEE-safe and cycle-free.

Each op computes its result and names its rule; a rule returns one contribution per parent,
``upstream * (local derivative)``, written so that ``rule(node, 1.0)`` is the local derivative
itself (the animator shows both).

The result of a binary op, the commonest node (micrograd's neuron is 2n of them), is a
`Value` that keeps its two operands in slots of its own instead of a tuple: half the
objects per node, and the cyclic garbage collector, which visits every live container
object however acyclic, then runs half as often over half as much (in micrograd's graph
shape it took more time than the arithmetic). Other nodes keep their operands in a tuple:
leaves, unary and n-ary results stay one type, so that CPython's attribute caches stay
hot where a neuron's weights meet its inputs. ``_prev`` gives every node's operands as a
tuple, for the shared autograd core.
"""

from __future__ import annotations

import math

from . import _ieee
from .autograd import backward_steps, run_backward


class Value:
    """A scalar in a computation graph: ``.data``, ``.grad`` (0.0 until a backward pass)."""

    __slots__ = ("data", "grad", "label", "_prev", "_op", "_backward")

    def __init__(self, data, label: str = "", _prev: tuple = (), _op: str = "", _backward=None):
        if not isinstance(label, str):  # micrograd's second argument is _children: say so, do not store it
            raise TypeError(f"Value's label must be a string, not {type(label).__name__}: engine.Value(data, label) "
                            "takes the label second (micrograd's Value(data, _children, _op) does not)")
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._prev = _prev
        self._op = _op
        self._backward = _backward

    @property
    def parents(self) -> tuple[Value, ...]:
        """The operands this value was computed from, in order (``x*x`` lists ``x`` twice)."""
        return self._prev

    @property
    def op(self) -> str:
        """The op that made this value (``''`` for a leaf)."""
        return self._op

    def __repr__(self) -> str:
        label = f", label={self.label!r}" if self.label else ""
        return f"Value(data={self.data}, grad={self.grad}{label})"

    def _repr_svg_(self) -> str:
        """The graph behind this value, drawn for a notebook (no graphviz needed)."""
        from .draw import to_svg

        return to_svg(self)

    # -- arithmetic -------------------------------------------------------------------

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _binary(self.data + other.data, self, other, "+", _add_rule)

    def __radd__(self, other):
        return Value(other) + self

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _binary(self.data - other.data, self, other, "-", _sub_rule)

    def __rsub__(self, other):
        return Value(other) - self

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _binary(self.data * other.data, self, other, "*", _mul_rule)

    def __rmul__(self, other):
        return Value(other) * self

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return _binary(_ieee.div(self.data, other.data), self, other, "/", _div_rule)

    def __rtruediv__(self, other):
        return Value(other) / self

    def __pow__(self, exponent):
        if isinstance(exponent, Value):
            return _binary(_ieee.pow(self.data, exponent.data), self, exponent, "**", _pow_rule)
        # A number exponent is a constant: it appears in the graph but receives no gradient.
        exponent = Value(exponent)
        return _binary(_ieee.pow(self.data, exponent.data), self, exponent, "**", _pow_const_rule)

    def __rpow__(self, base):
        return Value(base) ** self

    def __neg__(self):
        return _result(-self.data, (self,), "neg", _neg_rule)

    @staticmethod
    def sum(terms) -> Value:
        """``terms[0] + terms[1] + ...`` as one node with many parents, added left to right.

        The same number as a chain of ``+``, in a graph with one node instead of n-1: the
        "Sum" node of the graph editor. Terms are `Value`s or numbers.
        """
        terms = tuple(terms)
        if not terms:
            raise ValueError("Value.sum needs at least one term")
        try:
            total = -0.0  # -0.0 + x == x for every float: the sum starts exactly at the first term
            for term in terms:
                total += term.data
        except (AttributeError, TypeError):  # numbers among the terms (numpy's have a .data of their own)
            total = None
        if type(total) is not float:  # each number becomes a constant leaf
            return Value.sum([_as_value(term) for term in terms])
        return _result(total, terms, "sum", _sum_rule)

    @staticmethod
    def dot(a, b, bias=None) -> Value:
        """``bias + a[0]*b[0] + a[1]*b[1] + ...`` as one node: a neuron's ``w . x + b``.

        Added left to right from the bias, so the same number as micrograd's
        ``sum((wi*xi for wi, xi in zip(w, x)), b)``, in a graph with one node instead of 2n.
        Parents: ``a``'s items, then ``b``'s, then the bias (if any). Items are `Value`s or numbers.
        """
        if len(a) != len(b):
            raise ValueError(f"Value.dot needs two sequences of one length, not {len(a)} and {len(b)}")
        try:
            total = -0.0 if bias is None else bias.data  # (-0.0: see `sum`)
            for a_i, b_i in zip(a, b):
                total += a_i.data * b_i.data
        except (AttributeError, TypeError):  # numbers among the operands, as in `sum`
            total = None
        if type(total) is not float:
            a, b = [_as_value(a_i) for a_i in a], [_as_value(b_i) for b_i in b]
            return Value.dot(a, b, None if bias is None else _as_value(bias))
        operands = (*a, *b) if bias is None else (*a, *b, bias)
        return _result(total if operands else 0.0, operands, "dot", _dot_rule)  # an empty dot is 0, as numpy

    # -- functions --------------------------------------------------------------------

    def exp(self):
        return _result(_ieee.exp(self.data), (self,), "exp", _exp_rule)

    def log(self):
        return _result(_ieee.log(self.data), (self,), "log", _log_rule)

    def tanh(self):
        return _result(math.tanh(self.data), (self,), "tanh", _tanh_rule)

    def sigmoid(self):
        return _result(_ieee.sigmoid(self.data), (self,), "sigmoid", _sigmoid_rule)

    def relu(self):
        x = self.data
        return _result(0.0 if x <= 0.0 else x, (self,), "relu", _relu_rule)  # nan stays nan, as PyTorch

    def sin(self):
        return _result(_ieee.sin(self.data), (self,), "sin", _sin_rule)

    def cos(self):
        return _result(_ieee.cos(self.data), (self,), "cos", _cos_rule)

    def abs(self):
        return _result(abs(self.data), (self,), "abs", _abs_rule)

    __abs__ = abs

    # -- backward ---------------------------------------------------------------------

    def backward(self) -> None:
        """Set this value's grad to 1 and propagate: leaves accumulate, interior nodes are reset.

        Calling it twice therefore adds each leaf's gradient exactly once more, without the
        double counting micrograd shows on interior nodes.
        """
        run_backward(self, 1.0)

    def backward_steps(self):
        """The backward pass as a generator of `BackwardStep`s, one per chain-rule edge."""
        return backward_steps(self, 1.0)

    # Hooks of the shared autograd core: during a pass, ``grad`` holds the running total.
    @staticmethod
    def _begin_pass(interior: list[Value], leaves: list[Value]) -> list[float]:
        # -0.0 is the additive identity of IEEE floats (-0.0 + x == x for every x, signed zeros
        # and nan included), so a total that starts there holds exactly its first contribution.
        for node in interior:
            node.grad = -0.0
        before = [leaf.grad for leaf in leaves]
        for leaf in leaves:
            leaf.grad = -0.0
        return before

    @staticmethod
    def _end_pass(interior: list[Value], leaves: list[Value], before: list[float]) -> None:
        # A leaf adds this pass's total to what it had (PyTorch's accumulation); an interior
        # node keeps this pass's total, which is already in place.
        for leaf, grad in zip(leaves, before):
            leaf.grad = grad + leaf.grad

    @staticmethod
    def _local_derivatives(node: Value) -> tuple:
        return node._backward(node, 1.0)

    @staticmethod
    def _free_saved(node: Value) -> None:
        """Scalars save nothing beyond their operands: a graph can be replayed any number of times."""


class _TwoOperands(Value):
    """A binary op's result: its operands ``_a`` and ``_b`` in slots (the inherited ``_prev`` slot stays empty)."""

    __slots__ = ("_a", "_b")

    @property
    def _prev(self) -> tuple[Value, Value]:
        return (self._a, self._b)


_new = object.__new__


# The ops' constructors: ``data`` is already a float, the label empty, the operands Values.
def _result(data: float, operands: tuple, op: str, rule) -> Value:
    out = _new(Value)
    out.data = data
    out.grad = 0.0
    out.label = ""
    out._prev = operands
    out._op = op
    out._backward = rule
    return out


def _binary(data: float, a: Value, b: Value, op: str, rule) -> Value:
    out = _new(_TwoOperands)
    out.data = data
    out.grad = 0.0
    out.label = ""
    out._a = a
    out._b = b
    out._op = op
    out._backward = rule
    return out


def _as_value(x) -> Value:
    return x if isinstance(x, Value) else Value(x)


# -- derivative rules: rule(node, upstream) -> one contribution per parent ---------------


def _add_rule(node, upstream):
    # d(a+b)/da = 1, d(a+b)/db = 1
    return upstream, upstream


def _sum_rule(node, upstream):
    # d(a+b+...)/da = 1 for every term
    return (upstream,) * len(node._prev)


def _dot_rule(node, upstream):
    # d(bias + sum_i a_i*b_i)/da_i = b_i, d/db_i = a_i, d/dbias = 1
    operands = node._prev
    n = len(operands) // 2
    scaled = [upstream * operand.data for operand in operands]  # upstream*a_i, then upstream*b_i
    contributions = scaled[n : 2 * n] + scaled[:n]  # a_i receives upstream*b_i, b_i upstream*a_i
    if len(operands) > 2 * n:
        contributions.append(upstream)  # the bias
    return contributions


def _sub_rule(node, upstream):
    # d(a-b)/da = 1, d(a-b)/db = -1
    return upstream, -upstream


def _mul_rule(node, upstream):
    # d(a*b)/da = b, d(a*b)/db = a
    return upstream * node._b.data, upstream * node._a.data


def _div_rule(node, upstream):
    # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2 = -(a/b)/b
    b = node._b.data
    return upstream * _ieee.div(1.0, b), upstream * -_ieee.div(node.data, b)


def _pow_rule(node, upstream):
    # d(a^b)/da = b*a^(b-1), d(a^b)/db = a^b*ln(a) (0 where a = 0 and b >= 0, as PyTorch)
    a, b = node._a.data, node._b.data
    d_base = 0.0 if b == 0.0 else b * _ieee.pow(a, b - 1.0)
    d_exponent = 0.0 if (a == 0.0 and b >= 0.0) else node.data * _ieee.log(a)
    return upstream * d_base, upstream * d_exponent


def _pow_const_rule(node, upstream):
    # d(a^n)/da = n*a^(n-1); the constant exponent gets nothing
    a, n = node._a.data, node._b.data
    return upstream * (0.0 if n == 0.0 else n * _ieee.pow(a, n - 1.0)), None


def _neg_rule(node, upstream):
    # d(-a)/da = -1
    return (-upstream,)


def _exp_rule(node, upstream):
    # d/da e^a = e^a
    return (upstream * node.data,)


def _log_rule(node, upstream):
    # d/da ln(a) = 1/a
    return (upstream * _ieee.div(1.0, node._prev[0].data),)


def _tanh_rule(node, upstream):
    # d/da tanh(a) = 1 - tanh(a)^2
    t = node.data
    return (upstream * (1.0 - t * t),)


def _sigmoid_rule(node, upstream):
    # d/da sigmoid(a) = sigmoid(a) * (1 - sigmoid(a))
    s = node.data
    return (upstream * (s * (1.0 - s)),)


def _relu_rule(node, upstream):
    # d/da relu(a) = 1 where a > 0, else 0 (0 at a = 0, as PyTorch); relu(a) > 0 exactly where a > 0
    return (upstream if node.data > 0.0 else 0.0,)


def _sin_rule(node, upstream):
    # d/da sin(a) = cos(a)
    return (upstream * _ieee.cos(node._prev[0].data),)


def _cos_rule(node, upstream):
    # d/da cos(a) = -sin(a)
    return (upstream * -_ieee.sin(node._prev[0].data),)


def _abs_rule(node, upstream):
    # d/da |a| = sign(a) (0 at a = 0, as PyTorch)
    a = node._prev[0].data
    return (upstream * (1.0 if a > 0.0 else -1.0 if a < 0.0 else 0.0),)


