"""`Value.dot`, a neuron's ``b + w . x`` as one node: against finite differences and PyTorch
float64, against micrograd's chain of ``*`` and ``+`` (the same numbers, bit for bit), its
operands, steps, errors and IEEE results; and numbers of every kind in `Value.sum`."""

import math
import os
import random
import sys

import numpy as np
import pytest
import torch

from engine import Value

sys.path.insert(0, os.path.dirname(__file__))
import oracles  # noqa: E402  (helpers next to this file; tests/ is not a package)

BUCKET = "value"


def dot(a, b, bias=None):
    """``Value.dot`` for engine values, the same sum for torch tensors (the oracle)."""
    if any(isinstance(v, Value) for v in (*a, *b, bias)):
        return Value.dot(a, b, bias=bias)

    def vector(items):
        return torch.stack([v if torch.is_tensor(v) else torch.tensor(float(v), dtype=torch.float64) for v in items])

    total = torch.dot(vector(a), vector(b))
    return total if bias is None else bias + total


def chained(a, b, bias=None):
    """micrograd's neuron: ``sum((ai*bi for ai, bi in zip(a, b)), bias)``, binary nodes only."""
    total = bias
    for a_i, b_i in zip(a, b):
        total = a_i * b_i if total is None else total + a_i * b_i
    return total


CASES = [
    # name, function of the leaves, leaf values
    ("1 pair", lambda a, b: dot([a], [b]), [0.7, -1.3]),
    ("1 pair + bias", lambda a, b, c: dot([a], [b], c), [0.7, -1.3, 0.25]),
    ("3 pairs + bias", lambda a0, a1, a2, b0, b1, b2, c: dot([a0, a1, a2], [b0, b1, b2], c),
     [0.5, -1.5, 2.0, 1.1, 0.3, -0.8, -0.4]),
    ("x . x", lambda x, y: dot([x, y], [x, y]), [1.5, -0.6]),  # every operand twice
    ("shared across sides", lambda x, y, z: dot([x, y], [y, z], x), [0.9, -1.2, 0.4]),
    ("numbers among the operands", lambda x, y: dot([x, 2.0], [0.5, y], 1.5), [1.3, -0.7]),
    ("of op results", lambda x, y: dot([x.tanh(), x * y], [y.exp(), x - y], y.sigmoid()), [0.3, -0.9]),
    ("inside a graph", lambda x, y: (dot([x, y], [y, x]) * x).relu() + dot([x], [y]).sin(), [0.8, 1.1]),
]


@pytest.mark.parametrize("f, xs", [pytest.param(f, xs, id=name) for name, f, xs in CASES])
def test_dot_matches_finite_differences_and_torch(f, xs):
    oracles.check_value(f, xs, BUCKET)


@pytest.mark.parametrize("n", [1, 2, 16, 33])
def test_a_neurons_dot_matches_torch_at_width(n):
    rng = random.Random(n)
    xs = [rng.uniform(-2, 2) for _ in range(2 * n + 1)]

    def neuron(*leaves):
        w, x, b = leaves[:n], leaves[n : 2 * n], leaves[-1]
        return dot(w, x, b).relu() if n % 2 else dot(w, x, b).tanh()

    oracles.check_value(neuron, xs, BUCKET, fd=n <= 16)


@pytest.mark.parametrize("n", [1, 2, 5, 16])
def test_dot_is_micrographs_chain_bit_for_bit_in_value_and_gradient(n):
    rng = random.Random(100 + n)
    numbers = [rng.uniform(-3, 3) for _ in range(2 * n + 1)]
    w, x, b = [Value(v) for v in numbers[:n]], [Value(v) for v in numbers[n : 2 * n]], Value(numbers[-1])
    one = Value.dot(w, x, bias=b)
    one.backward()
    grads_one = [v.grad for v in (*w, *x, b)]
    w2, x2, b2 = [Value(v) for v in numbers[:n]], [Value(v) for v in numbers[n : 2 * n]], Value(numbers[-1])
    chain = chained(w2, x2, b2)
    chain.backward()
    assert one.data == chain.data  # added in the same order, from the bias
    assert grads_one == [v.grad for v in (*w2, *x2, b2)]


def test_dot_is_one_node_with_its_operands_in_order():
    w, x, b = [Value(1.0), Value(2.0)], [Value(3.0), Value(4.0)], Value(0.5)
    y = Value.dot(w, x, bias=b)
    assert y.op == "dot" and y.data == 11.5
    assert y.parents == (*w, *x, b)
    assert all(p is q for p, q in zip(y.parents, (*w, *x, b)))
    assert Value.dot(w, x).parents == (*w, *x)  # no bias: no third kind of operand


def test_dot_steps_give_each_operand_the_other_sides_data():
    w, x, b = [Value(1.0), Value(2.0)], [Value(3.0), Value(4.0)], Value(0.5)
    y = Value.dot(w, x, bias=b) * 2.0
    steps = [s for s in y.backward_steps() if s.node.op == "dot"]
    assert [s.index for s in steps] == [0, 1, 2, 3, 4]
    assert [s.local for s in steps] == [3.0, 4.0, 1.0, 2.0, 1.0]  # d/dw_i = x_i, d/dx_i = w_i, d/db = 1
    assert all(s.upstream == 2.0 and s.contribution == 2.0 * s.local for s in steps)
    assert [v.grad for v in (*w, *x, b)] == [6.0, 8.0, 2.0, 4.0, 2.0]


def test_dot_of_numbers_makes_constant_leaves():
    w = [Value(2.0), Value(-1.0)]
    y = Value.dot(w, [3, np.float64(0.5)], bias=1)  # ints, numpy floats: constants
    assert y.data == 1 + 6.0 - 0.5
    assert all(isinstance(p, Value) for p in y.parents)
    y.backward()
    assert [v.grad for v in w] == [3.0, 0.5]


def test_dot_of_empty_sequences_is_zero_or_the_bias():
    empty = Value.dot([], [])
    assert empty.data == 0.0 and math.copysign(1.0, empty.data) == 1.0  # +0, as numpy
    b = Value(1.5)
    y = Value.dot([], [], bias=b)
    y.backward()
    assert y.data == 1.5 and b.grad == 1.0


def test_dot_of_unequal_lengths_names_both():
    with pytest.raises(ValueError, match="3 and 2"):
        Value.dot([Value(1.0)] * 3, [Value(1.0)] * 2)


def test_dot_of_something_not_a_number_says_so():
    with pytest.raises((TypeError, ValueError)):
        Value.dot([Value(1.0)], ["one"])


def test_dot_sign_of_zero_matches_the_chain():
    # -0.0 products sum to -0.0 in the chain; the dot starts from the additive identity -0.0
    w, x = [Value(-0.0), Value(0.0)], [Value(1.0), Value(-1.0)]
    assert math.copysign(1.0, Value.dot(w, x).data) == math.copysign(1.0, chained(w, x).data) == -1.0


@pytest.mark.parametrize(
    "w, x, bias",
    [
        ([math.inf, 1.0], [0.0, 2.0], None),  # inf * 0 = nan
        ([1e308, 1e308], [10.0, -10.0], 0.0),  # overflow: inf - inf = nan
        ([math.inf], [2.0], -math.inf),  # inf + -inf = nan
        ([math.nan, 1.0], [1.0, 1.0], 0.0),
        ([2.0, 3.0], [math.inf, 1.0], 1.0),
    ],
)
def test_dot_ieee_results_and_gradients_match_torch(w, x, bias):
    n = len(w)
    xs = w + x + ([] if bias is None else [bias])

    def f(*leaves):
        return dot(leaves[:n], leaves[n : 2 * n], None if bias is None else leaves[-1])

    data, grads = oracles.value_grads(f, xs)  # no exception
    want_data, want_grads = oracles.value_torch(f, xs)
    assert oracles.grad_error(data, want_data) == 0.0
    assert oracles.grad_error(grads, want_grads) == 0.0


def test_sum_takes_numpy_numbers_as_constants():
    x = Value(1.5)
    y = Value.sum([x, np.float64(2.0), 3, np.float32(0.5)])
    assert y.data == 7.0 and all(isinstance(p, Value) for p in y.parents)
    y.backward()
    assert x.grad == 1.0 and [p.grad for p in y.parents[1:]] == [1.0, 1.0, 1.0]
