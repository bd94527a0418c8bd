"""The scalar engine: micrograd's ``Value``, exact, IEEE-safe and cycle-free.

Each op computes its result and names its rule; a rule returns one contribution per parent,
``upstream * (local derivative)``, written so that ``rule(node, 1.0)`` is the local derivative
itself (the animator shows both).
"""

from __future__ import annotations

import math

from . import _ieee
from .autograd import backward_steps, run_backward


class Value:
    """A scalar in a computation graph: ``.data``, ``.grad`` (0.0 until a backward pass)."""

    __slots__ = ("data", "grad", "label", "_prev", "_op", "_backward")

    def __init__(self, data, label: str = "", _prev: tuple = (), _op: str = "", _backward=None):
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

    # -- arithmetic -------------------------------------------------------------------

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, "", (self, other), "+", _add_rule)

    def __radd__(self, other):
        return Value(other) + self

    def __sub__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data - other.data, "", (self, other), "-", _sub_rule)

    def __rsub__(self, other):
        return Value(other) - self

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, "", (self, other), "*", _mul_rule)

    def __rmul__(self, other):
        return Value(other) * self

    def __truediv__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(_ieee.div(self.data, other.data), "", (self, other), "/", _div_rule)

    def __rtruediv__(self, other):
        return Value(other) / self

    def __pow__(self, exponent):
        if isinstance(exponent, Value):
            return Value(_ieee.pow(self.data, exponent.data), "", (self, exponent), "**", _pow_rule)
        # A number exponent is a constant: it appears in the graph but receives no gradient.
        exponent = Value(exponent)
        return Value(_ieee.pow(self.data, exponent.data), "", (self, exponent), "**", _pow_const_rule)

    def __rpow__(self, base):
        return Value(base) ** self

    def __neg__(self):
        return Value(-self.data, "", (self,), "neg", _neg_rule)

    @staticmethod
    def sum(terms) -> Value:
        """``terms[0] + terms[1] + ...`` as one node with many parents, added left to right.

        The same number as a chain of ``+``, in a graph with one node instead of n-1: the
        "Sum" node of the graph editor, and a neuron's weighted sum.
        """
        terms = tuple(term if isinstance(term, Value) else Value(term) for term in terms)
        if not terms:
            raise ValueError("Value.sum needs at least one term")
        total = terms[0].data
        for term in terms[1:]:
            total += term.data
        return Value(total, "", terms, "sum", _sum_rule)

    # -- functions --------------------------------------------------------------------

    def exp(self):
        return Value(_ieee.exp(self.data), "", (self,), "exp", _exp_rule)

    def log(self):
        return Value(_ieee.log(self.data), "", (self,), "log", _log_rule)

    def tanh(self):
        return Value(math.tanh(self.data), "", (self,), "tanh", _tanh_rule)

    def sigmoid(self):
        return Value(_ieee.sigmoid(self.data), "", (self,), "sigmoid", _sigmoid_rule)

    def relu(self):
        x = self.data
        return Value(0.0 if x <= 0.0 else x, "", (self,), "relu", _relu_rule)  # nan stays nan, as PyTorch

    def sin(self):
        return Value(_ieee.sin(self.data), "", (self,), "sin", _sin_rule)

    def cos(self):
        return Value(_ieee.cos(self.data), "", (self,), "cos", _cos_rule)

    def abs(self):
        return Value(abs(self.data), "", (self,), "abs", _abs_rule)

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

    # Hooks of the shared autograd core.
    @staticmethod
    def _receive_grad(node: Value, total: float) -> None:
        if node._backward is None:
            node.grad += total
        else:
            node.grad = total

    @staticmethod
    def _local_derivatives(node: Value) -> tuple:
        return node._backward(node, 1.0)

    @staticmethod
    def _free_saved(node: Value) -> None:
        """Scalars save nothing beyond their operands: a graph can be replayed any number of times."""


# -- derivative rules: rule(node, upstream) -> one contribution per parent ---------------


def _add_rule(node, upstream):
    # d(a+b)/da = 1, d(a+b)/db = 1
    return upstream, upstream


def _sum_rule(node, upstream):
    # d(a+b+...)/da = 1 for every term
    return (upstream,) * len(node._prev)


def _sub_rule(node, upstream):
    # d(a-b)/da = 1, d(a-b)/db = -1
    return upstream, -upstream


def _mul_rule(node, upstream):
    # d(a*b)/da = b, d(a*b)/db = a
    a, b = node._prev
    return upstream * b.data, upstream * a.data


def _div_rule(node, upstream):
    # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2 = -(a/b)/b
    b = node._prev[1].data
    return upstream * _ieee.div(1.0, b), upstream * -_ieee.div(node.data, b)


def _pow_rule(node, upstream):
    # d(a^b)/da = b*a^(b-1), d(a^b)/db = a^b*ln(a) (0 where a = 0 and b >= 0, as PyTorch)
    a, b = node._prev[0].data, node._prev[1].data
    d_base = 0.0 if b == 0.0 else b * _ieee.pow(a, b - 1.0)
    d_exponent = 0.0 if (a == 0.0 and b >= 0.0) else node.data * _ieee.log(a)
    return upstream * d_base, upstream * d_exponent


def _pow_const_rule(node, upstream):
    # d(a^n)/da = n*a^(n-1); the constant exponent gets nothing
    a, n = node._prev[0].data, node._prev[1].data
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
    # d/da relu(a) = 1 where a > 0, else 0 (0 at a = 0, as PyTorch)
    return (upstream if node._prev[0].data > 0.0 else 0.0,)


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


