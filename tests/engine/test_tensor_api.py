"""The numpy engine `engine.Tensor` as an API: attributes, PyTorch's autograd semantics, a chain of a million
ops, `no_grad`, `detach`, `retain_grad`, error messages that name both shapes, `backward_steps` and the absence
of reference cycles. Op by op against finite differences and PyTorch: `test_tensor.py`."""

import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import torch

import engine
from engine import BackwardStep, Tensor, no_grad
from engine.autograd import is_grad_enabled

sys.path.insert(0, os.path.dirname(__file__))
import oracles  # noqa: E402  (helpers next to this file; tests/ is not a package)
from oracles import amax, concatenate, log_softmax, logsumexp  # noqa: E402

BUCKET = "tensor"


# --- the Tensor API ---------------------------------------------------------------------------------------------


def test_attributes():
    x = Tensor([[1, 2, 3], [4, 5, 6]], requires_grad=True)
    assert x.dtype == np.float64 and x.data.dtype == np.float64
    assert x.shape == (2, 3) and x.ndim == 2
    assert x.requires_grad and x.is_leaf and x.grad is None
    assert x.op == "" and tuple(x.parents) == ()
    y = x * 2
    assert y.op == "*" and y.parents[0] is x and not y.is_leaf and y.requires_grad
    assert Tensor(3.5).item() == 3.5 and isinstance(Tensor(3.5).item(), float)
    assert Tensor([[7.0]]).item() == 7.0
    assert Tensor([1.0], dtype=np.float32).dtype == np.float32
    assert Tensor(np.arange(3)).dtype == np.float64


def test_item_of_a_tensor_with_several_elements_raises():
    with pytest.raises(ValueError, match=r"\(3,\)"):
        Tensor([1.0, 2.0, 3.0]).item()


def test_numpy_shares_data_and_is_refused_while_requiring_grad():
    x = Tensor([1.0, 2.0])
    assert x.numpy() is x.data
    w = Tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="detach"):
        w.numpy()
    assert np.shares_memory(w.detach().numpy(), w.data)


def test_grad_is_none_until_backward_then_an_array_of_the_data_shape():
    a = Tensor(np.ones((3, 1)), requires_grad=True)
    b = Tensor(np.ones((1, 4)), requires_grad=True)
    s = Tensor(2.0, requires_grad=True)
    unused = Tensor(np.ones(2), requires_grad=True)
    y = ((a + b) * s).sum()
    assert a.grad is None and b.grad is None
    y.backward()
    assert isinstance(a.grad, np.ndarray) and a.grad.shape == (3, 1)
    assert b.grad.shape == (1, 4) and isinstance(s.grad, np.ndarray) and s.grad.shape == ()
    np.testing.assert_array_equal(a.grad, np.full((3, 1), 8.0))
    np.testing.assert_array_equal(b.grad, np.full((1, 4), 6.0))
    assert s.grad == 24.0
    assert unused.grad is None


# --- PyTorch semantics ------------------------------------------------------------------------------------------


def test_results_require_grad_iff_an_input_does():
    a = Tensor([1.0, 2.0])
    b = Tensor([3.0, 4.0])
    w = Tensor([0.5, 0.5], requires_grad=True)
    for y in (a + b, a * 2, a.exp(), a @ b, a.sum(), engine.stack([a, b])):
        assert not y.requires_grad and y.is_leaf
    for y in (a + w, w * 2, b / w, w.tanh(), a @ w, engine.concatenate([a, w]), w[0], 3 - w):
        assert y.requires_grad and not y.is_leaf
    y = (a + w) * b
    y.sum().backward()
    assert a.grad is None and b.grad is None  # constants get no grad
    np.testing.assert_array_equal(w.grad, [3.0, 4.0])


def test_only_leaves_keep_grad_unless_retain_grad():
    x = Tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = x * x
    k = h.tanh()
    k.retain_grad()
    assert k.retains_grad and not h.retains_grad
    loss = k.sum()
    loss.backward()
    assert h.grad is None and loss.grad is None
    np.testing.assert_allclose(k.grad, np.ones(3))
    tx = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    th = tx * tx
    tk = th.tanh()
    tk.retain_grad()
    tk.sum().backward()
    np.testing.assert_array_equal(k.grad, tk.grad.numpy())
    oracles.track(BUCKET, oracles.assert_close_torch(x.grad, tx.grad.numpy(), what="retain_grad leaf"))


def test_retain_grad_on_a_leaf_is_harmless_and_on_a_constant_raises():
    x = Tensor([1.0, 2.0], requires_grad=True)
    x.retain_grad()
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad, [3.0, 3.0])
    with pytest.raises(RuntimeError):
        Tensor([1.0]).retain_grad()


def test_leaf_grads_accumulate_over_backward_calls():
    x = Tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad, [5.0, 7.0])


def test_a_second_backward_through_the_same_graph_raises():
    x = Tensor([0.5, -1.0], requires_grad=True)
    loss = (x * x).tanh().sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        loss.backward()
    # torch agrees
    tx = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    tl = (tx * tx).tanh().sum()
    tl.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        tl.backward()


def test_a_second_backward_through_a_shared_subgraph_raises():
    x = Tensor([0.5, -1.0], requires_grad=True)
    h = (x * x).exp()
    h.sum().backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        (h * 2).sum().backward()


def test_retain_graph_allows_a_second_backward_that_accumulates():
    x = Tensor([0.5, -1.0], requires_grad=True)
    loss = (x * x).tanh().sum()
    loss.backward(retain_graph=True)
    first = x.grad.copy()
    loss.backward(retain_graph=True)
    np.testing.assert_array_equal(x.grad, 2 * first)
    loss.backward()  # frees
    np.testing.assert_array_equal(x.grad, 3 * first)
    with pytest.raises(RuntimeError, match="retain_graph"):
        loss.backward()


def test_backward_of_a_non_scalar_needs_a_gradient():
    x = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="scalar"):
        y.backward()
    y.backward(gradient=np.array([1.0, 10.0, 100.0]))
    np.testing.assert_array_equal(x.grad, [2.0, 20.0, 200.0])
    z = x * 3
    z.backward(Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(x.grad, [5.0, 23.0, 203.0])


def test_backward_gradient_of_the_wrong_shape_names_both_shapes():
    y = Tensor(np.ones((2, 3)), requires_grad=True) * 2
    with pytest.raises(ValueError, match=r"\(3, 2\)") as info:
        y.backward(np.ones((3, 2)))
    assert "(2, 3)" in str(info.value)


def test_backward_of_a_tensor_that_does_not_require_grad_raises():
    with pytest.raises(RuntimeError, match="does not require grad"):
        (Tensor([1.0]) * 2).sum().backward()


def test_backward_from_a_leaf():
    x = Tensor(3.0, requires_grad=True)
    x.backward()
    assert x.grad == 1.0


def test_integer_tensors_cannot_require_grad():
    with pytest.raises(RuntimeError, match="floating"):
        Tensor([1, 2], dtype=np.int64, requires_grad=True)


# --- scale ---------------------------------------------------------------------------------------------------

MILLION_CHAIN = """
import sys
from engine import Tensor

assert sys.getrecursionlimit() == 1000, sys.getrecursionlimit()
x = Tensor([0.5, -2.0], requires_grad=True)
y = x
for _ in range(1_000_000):
    y = -y             # an even number of negations: y = x
y.sum().backward()
assert x.grad.tolist() == [1.0, 1.0], x.grad
del y                  # a million-deep chain freed by reference counting
print("ok")
"""


def test_a_million_op_tensor_chain_backpropagates_at_the_default_recursion_limit():
    # In a subprocess: a crash while freeing the chain must fail this test, not end the session.
    result = subprocess.run([sys.executable, "-c", MILLION_CHAIN], capture_output=True, text=True, timeout=120,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


# --- no_grad ----------------------------------------------------------------------------------------------------


def test_no_grad_as_a_context_manager():
    w = Tensor([1.0, 2.0], requires_grad=True)
    with no_grad():
        assert not is_grad_enabled()
        y = w * 2 + 1
        with no_grad():
            pass
        assert not is_grad_enabled()  # a nested block restores the outer state
        z = w.exp().sum()
    assert is_grad_enabled()
    assert not y.requires_grad and y.is_leaf and not z.requires_grad
    assert (w * 2).requires_grad


def test_no_grad_restores_grad_mode_after_an_exception():
    with pytest.raises(KeyError):
        with no_grad():
            raise KeyError("boom")
    assert is_grad_enabled()


def test_no_grad_as_a_decorator():
    @no_grad()
    def step(w):
        """docstring kept"""
        return w * 2

    w = Tensor([1.0], requires_grad=True)
    assert not step(w).requires_grad
    assert is_grad_enabled() and (w * 2).requires_grad
    assert step.__doc__ == "docstring kept" and step.__name__ == "step"


def test_no_grad_as_a_bare_decorator():
    @no_grad
    def step(w):
        return w * 2

    w = Tensor([1.0], requires_grad=True)
    assert not step(w).requires_grad and step.__name__ == "step"
    assert is_grad_enabled() and (w * 2).requires_grad


def test_no_grad_is_per_thread():
    seen = []
    with no_grad():
        worker = threading.Thread(target=lambda: seen.append(is_grad_enabled()))
        worker.start()
        worker.join()
    assert seen == [True]


# --- detach -------------------------------------------------------------------------------------------------


def test_detach_shares_data_and_cuts_the_graph():
    x = Tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    d = h.detach()
    assert d.data is h.data or np.shares_memory(d.data, h.data)
    assert not d.requires_grad and d.is_leaf and d.grad is None
    d.data[0] = 10.0
    assert h.data[0] == 10.0  # shared, as torch's detach
    y = (d * x).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad, d.data)  # no path through d


# --- error messages name both shapes ------------------------------------------------------------------------------

SHAPE_ERRORS = [
    ("add", lambda a, b: a + b, (3,), (4,)),
    ("sub", lambda a, b: a - b, (2, 3), (3, 2)),
    ("mul", lambda a, b: a * b, (2, 3), (4,)),
    ("div", lambda a, b: a / b, (5,), (2,)),
    ("pow", lambda a, b: a**b, (3, 1, 2), (4, 3)),
    ("matmul", lambda a, b: a @ b, (3, 4), (5, 6)),
    ("matmul vectors", lambda a, b: a @ b, (3,), (4,)),
    ("matmul batch", lambda a, b: a @ b, (2, 3, 4), (3, 4, 5)),
    ("matmul 0-d", lambda a, b: a @ b, (), (3,)),
]


@pytest.mark.parametrize("name, f, sa, sb", SHAPE_ERRORS, ids=[e[0] for e in SHAPE_ERRORS])
def test_shape_mismatch_raises_value_error_naming_both_shapes(name, f, sa, sb):
    a = Tensor(np.ones(sa), requires_grad=True)
    b = Tensor(np.ones(sb))
    with pytest.raises(ValueError) as info:
        f(a, b)
    assert str(sa) in str(info.value) and str(sb) in str(info.value), str(info.value)
    with pytest.raises(ValueError) as info:
        f(a, np.ones(sb))  # a numpy operand too
    assert str(sa) in str(info.value) and str(sb) in str(info.value), str(info.value)


def test_shape_errors_of_reshape_concatenate_and_stack_name_the_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\)") as info:
        Tensor(np.ones((2, 3))).reshape(4, 2)
    assert "(4, 2)" in str(info.value)
    with pytest.raises(ValueError, match=r"\(2, 3\)") as info:
        engine.concatenate([Tensor(np.ones((2, 3))), Tensor(np.ones((2, 4)))], axis=0)
    assert "(2, 4)" in str(info.value)
    with pytest.raises(ValueError, match=r"\(2, 3\)") as info:
        engine.stack([Tensor(np.ones((2, 3))), Tensor(np.ones((3, 2)))])
    assert "(3, 2)" in str(info.value)


# --- backward_steps ---------------------------------------------------------------------------------------------


def _tensor_graph():
    x = Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]]), requires_grad=True)
    w = Tensor(np.array([[0.2], [-0.4], [0.9]]), requires_grad=True)
    c = Tensor(np.array([1.0, 2.0]))  # a constant: no step reaches it
    h = (x @ w).tanh() + x.sum(axis=1, keepdims=True)
    loss = (h.reshape(2) * c).sum() + amax(x, axis=None)
    return loss, [x, w], c


def test_tensor_backward_steps_yield_one_step_per_edge_needing_a_gradient():
    loss, leaves, constant_leaf = _tensor_graph()
    steps = list(loss.backward_steps())
    assert steps and all(isinstance(s, BackwardStep) for s in steps)
    running = {}
    for s in steps:
        assert s.parent is not constant_leaf
        assert s.parent in s.node.parents
        assert s.local is None  # tensors never build their Jacobians
        assert np.shape(s.contribution) == s.parent.shape and np.shape(s.upstream) == s.node.shape
        prev = running.get(s.parent)
        np.testing.assert_array_equal(s.total, s.contribution if prev is None else prev + s.contribution)
        running[s.parent] = s.total
    for leaf in leaves:
        np.testing.assert_array_equal(running[leaf], leaf.grad)  # the last total per leaf is its grad
    assert constant_leaf.grad is None


def test_tensor_backward_is_backward_steps_run_to_the_end():
    loss_a, leaves_a, _ = _tensor_graph()
    loss_b, leaves_b, _ = _tensor_graph()
    loss_a.backward()
    for _ in loss_b.backward_steps():
        pass
    for a, b in zip(leaves_a, leaves_b):
        np.testing.assert_array_equal(a.grad, b.grad)
    with pytest.raises(RuntimeError, match="retain_graph"):
        loss_b.backward()  # the steps freed the graph as backward() does


def test_tensor_backward_steps_with_retain_graph():
    loss, leaves, _ = _tensor_graph()
    n = len(list(loss.backward_steps(retain_graph=True)))
    assert n == len(list(loss.backward_steps()))


# --- no reference cycles --------------------------------------------------------------------------------------


def _garbage_after(build) -> int:
    gc.collect()
    gc.disable()
    try:
        build()
        return gc.collect()
    finally:
        gc.enable()


def test_the_cycle_check_sees_a_cycle():
    def cyclic():
        x = Tensor([1.0])
        x.label = [x]  # any self-reference

    assert _garbage_after(cyclic) > 0


def test_a_spent_tensor_graph_leaves_no_reference_cycles():
    def build():
        x = Tensor(np.linspace(-1, 1, 12).reshape(4, 3), requires_grad=True)
        w = Tensor(np.linspace(-1, 1, 6).reshape(3, 2), requires_grad=True)
        h = x
        for _ in range(5):
            h = concatenate([(h @ w).tanh(), h[:, :1].sigmoid()], axis=1) * 0.5 + h
        loss = log_softmax(h, -1).sum() + amax(h, axis=0).mean() + logsumexp(h, 1).sum()
        loss.backward()
        h2 = (x * 2).relu().abs()
        h2.retain_grad()
        h2.sum().backward(retain_graph=True)
        list((x.exp() ** 2).sum().backward_steps())
        with no_grad():
            (x * 3).sum()
        del loss, h, h2

    assert _garbage_after(build) == 0


@pytest.mark.parametrize("reduce", [lambda t: t.sum(axis=0), lambda t: t.sum(axis=-1), lambda t: t.max(axis=0),
                                    lambda t: t.logsumexp(axis=0)])
def test_a_zero_dimensional_tensor_reduced_over_axis_0_has_gradient_1_as_in_pytorch(reduce):
    t = Tensor(2.0, requires_grad=True)
    out = reduce(t)
    out.backward()
    assert out.shape == () and float(t.grad) == 1.0
