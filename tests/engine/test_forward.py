"""`engine.jvp` / `engine.forward_steps`: forward mode over the recorded graph, checked against the
engine's reverse mode (the adjoint identity <u, J t> = <J^T u, t>), central finite differences of
the engine's forward pass, and PyTorch's `torch.func.jvp` in float64."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings

from engine import Tensor, Value, forward_steps, jvp
from engine.nn import functional as F
from tests.engine.test_backward_paths import build, programs

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_lesson_two_tangents_are_the_gradients_one_input_at_a_time():
    a, b, c, d = Value(2.0, "a"), Value(3.0, "b"), Value(4.0, "c"), Value(5.0, "d")
    L = (a * b + c) * (a + d)
    assert [jvp(L, {x: 1.0}) for x in (a, b, c, d)] == [31.0, 14.0, 7.0, 10.0]
    assert jvp(L, {a: 1.0, b: 2.0}) == 31.0 + 2 * 14.0
    assert jvp(L, {}) == 0.0


def test_forward_steps_carry_each_tangent_along_each_edge_in_forward_order():
    a, b = Value(2.0, "a"), Value(3.0, "b")
    t = a * b
    L = t + a
    steps = list(forward_steps(L, {a: 1.0}))
    assert [(s.node, s.parent, s.local, s.tangent, s.contribution, s.total) for s in steps] == [
        (t, a, 3.0, 1.0, 3.0, 3.0),  # d(a*b)/da = b = 3, times a's tangent 1
        (L, t, 1.0, 3.0, 3.0, 3.0),
        (L, a, 1.0, 1.0, 1.0, 4.0),  # the second use of a adds to L's tangent: 3 + 1
    ]


@SETTINGS
@given(steps=programs())
def test_on_random_scalar_graphs_each_tangent_equals_the_backward_gradient(steps):
    root, nodes, leaves = build(steps)
    root.backward()
    for leaf in set(leaves):
        steps = list(forward_steps(root, {leaf: 1.0}))
        tangent = jvp(root, {leaf: 1.0})
        if math.isfinite(leaf.grad) and math.isfinite(tangent):
            # Sums of large terms that cancel round in either order: the error scales with the terms.
            scale = max([1.0, abs(leaf.grad), *(abs(s.contribution) for s in steps if math.isfinite(s.contribution))])
            assert abs(tangent - leaf.grad) <= 1e-12 * scale


def test_a_leaf_outside_the_graph_or_an_interior_node_is_refused():
    a, b = Value(1.0, "a"), Value(2.0, "b")
    t = a * 2
    with pytest.raises(ValueError, match="'b' is not part of the graph"):
        jvp(t.tanh(), {b: 1.0})
    with pytest.raises(ValueError, match="computed from other nodes"):
        jvp(t.tanh(), {t: 1.0})


# -- tensors: every op with a tangent rule ----------------------------------------------------

RNG = np.random.default_rng(7)


def positive(*shape):
    return RNG.uniform(0.5, 2.0, shape)


def normal(*shape):
    return RNG.normal(size=shape)


# name -> (function of the engine's tensors and of torch's, the inputs)
TENSOR_CASES = {
    "add broadcast": (lambda x, y: x + y, [normal(3, 2), normal(2)]),
    "sub": (lambda x, y: x - y, [normal(3, 2), normal(3, 1)]),
    "mul broadcast": (lambda x, y: x * y, [normal(3, 2), normal(1, 2)]),
    "div": (lambda x, y: x / y, [normal(2, 3), positive(2, 3)]),
    "pow": (lambda x, y: x**y, [positive(4), normal(4)]),
    "neg": (lambda x: -x, [normal(3)]),
    "matmul": (lambda x, y: x @ y, [normal(4, 3), normal(3, 2)]),
    "matmul vector": (lambda x, y: x @ y, [normal(3), normal(3, 2)]),
    "exp": (lambda x: x.exp(), [normal(3, 2)]),
    "log": (lambda x: x.log(), [positive(3, 2)]),
    "tanh": (lambda x: x.tanh(), [normal(3, 2)]),
    "sigmoid": (lambda x: x.sigmoid(), [normal(3, 2)]),
    "relu": (lambda x: x.relu(), [normal(3, 2)]),
    "abs": (lambda x: x.abs(), [normal(3, 2)]),
    "sum axis": (lambda x: x.sum(axis=0), [normal(3, 2)]),
    "sum all": (lambda x: x.sum(), [normal(3, 2)]),
    "mean keepdims": (lambda x: x.mean(axis=1, keepdims=True), [normal(3, 2)]),
    "transpose": (lambda x: x.T, [normal(3, 2)]),
    "reshape": (lambda x: x.reshape(6), [normal(3, 2)]),
    "getitem": (lambda x: x[1:, 0], [normal(3, 2)]),
    "layer": (lambda x, w, b: (x @ w + b).tanh().sum(axis=1), [normal(4, 3), normal(3, 2), normal(2)]),
}

ENGINE_ONLY = {
    "softmax": (lambda x: x.softmax(axis=1), [normal(3, 4)]),
    "log_softmax": (lambda x: x.log_softmax(axis=0), [normal(3, 4)]),
    "logsumexp": (lambda x: x.logsumexp(axis=1), [normal(3, 4)]),
    "max": (lambda x: x.max(axis=0), [normal(3, 4)]),
    "linear": (lambda x, w, b: F.linear(x, w, b), [normal(4, 3), normal(2, 3), normal(2)]),
    "bce with logits": (lambda x, y: F.binary_cross_entropy_with_logits(x, y), [normal(5), RNG.uniform(0, 1, 5)]),
    "leaky relu": (lambda x: x.leaky_relu(0.1), [normal(3, 2)]),
    "huber mean": (lambda x, y: F.huber_loss(x, y, delta=0.7), [normal(6), normal(6)]),
    "huber none": (lambda x, y: F.huber_loss(x, y, reduction="none", delta=0.7), [normal(3, 2), normal(3, 2)]),
}


def _engine_jvp(f, arrays, tangents):
    leaves = [Tensor(a, requires_grad=True) for a in arrays]
    out = f(*leaves)
    return out, leaves, jvp(out, dict(zip(leaves, tangents)))


@pytest.mark.parametrize("name", sorted({**TENSOR_CASES, **ENGINE_ONLY}))
def test_tensor_jvp_is_the_adjoint_of_the_backward_pass_and_matches_finite_differences(name):
    f, arrays = {**TENSOR_CASES, **ENGINE_ONLY}[name]
    tangents = [normal(*np.shape(a)) for a in arrays]
    out, leaves, pushed = _engine_jvp(f, arrays, tangents)
    assert pushed.shape == out.shape
    # <u, J t> = sum_i <J_i^T u, t_i>: forward and reverse mode are each other's transpose.
    u = normal(*out.shape)
    out.backward(u)
    pulled = sum(float(np.sum(leaf.grad * t)) for leaf, t in zip(leaves, tangents))
    assert abs(float(np.sum(u * pushed)) - pulled) <= 1e-12 * max(1.0, abs(pulled))
    # Central differences of the engine's own forward pass along the tangents.
    h = 1e-6
    ahead = f(*[Tensor(a + h * t) for a, t in zip(arrays, tangents)]).data
    behind = f(*[Tensor(a - h * t) for a, t in zip(arrays, tangents)]).data
    assert np.allclose(pushed, (ahead - behind) / (2 * h), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(TENSOR_CASES))
def test_tensor_jvp_matches_pytorch(name):
    f, arrays = TENSOR_CASES[name]
    tangents = [normal(*np.shape(a)) for a in arrays]
    _, _, pushed = _engine_jvp(f, arrays, tangents)
    _, want = torch.func.jvp(f, tuple(torch.tensor(a, dtype=torch.float64) for a in arrays),
                             tuple(torch.tensor(t, dtype=torch.float64) for t in tangents))
    assert np.allclose(pushed, want.numpy(), rtol=1e-12, atol=1e-12)


def test_a_tangent_of_the_wrong_shape_is_refused_naming_both_shapes():
    w = Tensor(normal(2, 3), requires_grad=True, label="W")
    with pytest.raises(ValueError, match=r"tangent of 'W' has shape \(3, 2\), the leaf has shape \(2, 3\)"):
        jvp((w * 2).sum(), {w: np.zeros((3, 2))})


def test_a_graph_freed_by_backward_says_how_to_keep_it():
    w = Tensor(normal(2), requires_grad=True)
    loss = (w.tanh() * 3).sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        jvp(loss, {w: np.ones(2)})


def test_one_forward_sweep_per_input_against_one_backward_pass_for_a_network():
    """What forward mode costs for a whole gradient: one sweep per parameter, each the same length."""
    x = Tensor(normal(8, 2))
    w1, b1 = Tensor(normal(2, 4), requires_grad=True), Tensor(normal(4), requires_grad=True)
    w2 = Tensor(normal(4, 1), requires_grad=True)
    loss = ((x @ w1 + b1).tanh() @ w2).mean()
    loss.backward(retain_graph=True)  # forward mode walks the same recorded graph afterwards
    for leaf in (w1, b1, w2):
        columns = []
        for index in np.ndindex(leaf.shape):
            direction = np.zeros(leaf.shape)
            direction[index] = 1.0
            columns.append(float(jvp(loss, {leaf: direction})))
        assert np.allclose(np.reshape(columns, leaf.shape), leaf.grad, rtol=1e-12, atol=1e-14)
