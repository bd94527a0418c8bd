"""The numpy engine `engine.Tensor`: every op (with broadcasting) against finite differences and
PyTorch float64, PyTorch's autograd semantics, error messages, numerically stable softmax family,
indexing, `no_grad`, `detach`, `retain_grad`, `backward_steps` and the absence of reference cycles."""

import gc
import os
import subprocess
import sys
import threading
import zlib

import numpy as np
import pytest
import torch

import engine
from engine import BackwardStep, Tensor, no_grad
from engine.autograd import is_grad_enabled

sys.path.insert(0, os.path.dirname(__file__))
import oracles  # noqa: E402  (helpers next to this file; tests/ is not a package)
from oracles import T, amax, concatenate, constant, leaky_relu, log_softmax, logsumexp, permute, softmax, stack  # noqa: E402

BUCKET = "tensor"


def _input(shape, domain, rng):
    if domain == "pos":  # log, fractional powers, bases of a ** b
        return rng.uniform(0.5, 2.5, size=shape)
    if domain == "away0":  # kinks (relu, abs) and denominators: |x| >= 0.3
        return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.3, 2.0, size=shape)
    return rng.uniform(-2.0, 2.0, size=shape)


def case(name, f, *inputs, fd=True, torch_f=None, seed="auto", marks=()):
    """One op case: ``inputs`` are shapes, or (shape, domain) pairs; domain 'any', 'pos' or 'away0'."""
    inputs = [(i, "any") if not (len(i) == 2 and isinstance(i[1], str)) else i for i in inputs]
    return pytest.param(f, inputs, fd, torch_f, seed, id=name, marks=marks)


def run_case(f, inputs, fd, torch_f, seed, case_id):
    rng = np.random.default_rng(zlib.crc32(case_id.encode()))  # stable per case
    arrays = [_input(shape, domain, rng) for shape, domain in inputs]
    return oracles.check_tensor(f, arrays, BUCKET, what=case_id, seed=seed, fd=fd, torch_f=torch_f)


# --- elementwise binary ops with broadcasting -------------------------------------------------------------

BROADCAST_SHAPES = [
    ((3, 1), (1, 4)),
    ((2, 3, 4), (4,)),
    ((5,), ()),
    ((), (5,)),
    ((), ()),
    ((2, 1, 3), (4, 1)),
    ((3, 4), (3, 4)),
    ((1,), (2, 3)),
]

BINARY_OPS = [
    ("add", lambda a, b: a + b, "any", "any"),
    ("sub", lambda a, b: a - b, "any", "any"),
    ("mul", lambda a, b: a * b, "any", "any"),
    ("div", lambda a, b: a / b, "any", "away0"),
    ("pow", lambda a, b: a**b, "pos", "any"),
]

BINARY_CASES = [
    case(f"{name} {sa}{sb}", f, (sa, da), (sb, db)) for name, f, da, db in BINARY_OPS for sa, sb in BROADCAST_SHAPES
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", BINARY_CASES)
def test_binary_ops_with_broadcasting(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


# Numbers, numpy arrays and constant tensors on either side of every operator.
C34 = np.linspace(0.5, 2.0, 12).reshape(3, 4)
C4 = np.array([0.7, -1.2, 1.5, 0.4])

OPERAND_CASES = [
    case("x + 2.5", lambda x: x + 2.5, (3, 4)),
    case("2.5 + x", lambda x: 2.5 + x, (3, 4)),
    case("x - 2", lambda x: x - 2, (3, 4)),
    case("2 - x", lambda x: 2 - x, (3, 4)),
    case("x * -1.5", lambda x: x * -1.5, (3, 4)),
    case("3 * x", lambda x: 3 * x, (3, 4)),
    case("x / 4", lambda x: x / 4, (3, 4)),
    case("2 / x", lambda x: 2 / x, ((3, 4), "away0")),
    case("x ** 2", lambda x: x**2, (3, 4)),
    case("x ** 3", lambda x: x**3, (3, 4)),
    case("x ** 0.5", lambda x: x**0.5, ((3, 4), "pos")),
    case("x ** -1.5", lambda x: x**-1.5, ((3, 4), "pos")),
    case("x ** 0", lambda x: x**0, (3, 4)),
    case("2 ** x", lambda x: 2**x, (3, 4)),
    case("0.5 ** x", lambda x: 0.5**x, (3, 4)),
    case("x + numpy", lambda x: x + constant(x, C4), (3, 4)),
    case("x - numpy", lambda x: x - constant(x, C34), (3, 4)),
    case("x * numpy", lambda x: x * constant(x, C4), (2, 3, 4)),
    case("x / numpy", lambda x: x / constant(x, C34), (3, 4)),
    case("x ** numpy", lambda x: x ** constant(x, C4), ((3, 4), "pos")),
    case("x @ numpy", lambda x: x @ constant(x, C34.T), (2, 4)),
    case("x + constant tensor", lambda x: x + (torch.tensor(C4) if torch.is_tensor(x) else Tensor(C4)), (3, 4)),
    case("constant tensor / x", lambda x: (torch.tensor(C4) if torch.is_tensor(x) else Tensor(C4)) / x, (3, 4)),
    case("-x", lambda x: -x, (3, 4)),
    case("-x 0-d", lambda x: -x, ()),
]

NUMPY_LEFT_CASES = [
    case("numpy + x", lambda x: constant(x, C4) + x, (3, 4)),
    case("numpy - x", lambda x: constant(x, C34) - x, (3, 4)),
    case("numpy * x", lambda x: constant(x, C4) * x, (3, 4)),
    case("numpy / x", lambda x: constant(x, C34) / x, ((3, 4), "away0")),
    case("numpy ** x", lambda x: constant(x, C34) ** x, (3, 4)),
    case("numpy float64 * x", lambda x: np.float64(2.0) * x, (3, 4)),
    case("numpy @ x", lambda x: constant(x, C34.T) @ x, (3, 4)),
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", OPERAND_CASES)
def test_numbers_numpy_and_constants_on_either_side(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", NUMPY_LEFT_CASES)
def test_numpy_on_the_left(f, inputs, fd, torch_f, seed, request):
    x = Tensor(np.ones((3, 4)), requires_grad=True)
    assert isinstance(f(x), Tensor)
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


# --- matmul ---------------------------------------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3,), (3,)),
    ((3, 4), (4,)),
    ((4,), (4, 5)),
    ((3, 4), (4, 5)),
    ((1, 4), (4, 1)),
    ((2, 3, 4), (4, 5)),
    ((3, 4), (2, 4, 5)),
    ((2, 3, 4), (2, 4, 5)),
    ((1, 3, 4), (5, 4, 2)),
    ((4,), (2, 4, 5)),
    ((2, 3, 4), (4,)),
    ((2, 1, 3, 4), (5, 4, 2)),
]


@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES, ids=[f"{a}@{b}" for a, b in MATMUL_SHAPES])
def test_matmul(sa, sb):
    run_case(lambda a, b: a @ b, [(sa, "any"), (sb, "any")], True, None, "auto", f"matmul {sa}@{sb}")


def test_matmul_of_two_vectors_is_a_0d_dot_product():
    a = Tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = Tensor([4.0, 5.0, 6.0], requires_grad=True)
    y = a @ b
    assert y.shape == () and y.item() == 32.0
    y.backward()
    np.testing.assert_array_equal(a.grad, [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(b.grad, [1.0, 2.0, 3.0])


# --- elementwise functions --------------------------------------------------------------------------------------

UNARY = [
    ("exp", lambda x: x.exp(), "any"),
    ("log", lambda x: x.log(), "pos"),
    ("tanh", lambda x: x.tanh(), "any"),
    ("sigmoid", lambda x: x.sigmoid(), "any"),
    ("relu", lambda x: x.relu(), "away0"),
    ("abs", lambda x: x.abs(), "away0"),
    ("builtin abs", lambda x: abs(x), "away0"),
    ("leaky_relu", lambda x: leaky_relu(x), "away0"),
    ("leaky_relu 0.2", lambda x: leaky_relu(x, 0.2), "away0"),
    ("neg", lambda x: -x, "any"),
]

UNARY_CASES = [case(f"{name} {shape}", f, (shape, domain)) for name, f, domain in UNARY for shape in [(), (5,), (2, 3)]]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", UNARY_CASES)
def test_elementwise_functions(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_sigmoid_is_stable_at_large_magnitudes():
    x = np.array([-700.0, -50.0, -1.0, 0.0, 1.0, 50.0, 700.0])
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow warning either
        y = Tensor(x).sigmoid().data
    assert np.all(np.isfinite(y)) and y[3] == 0.5 and y[-1] == 1.0
    oracles.check_tensor(lambda x: x.sigmoid(), [x[1:-1]], BUCKET, what="sigmoid wide", seed="auto")


def test_relu_abs_leaky_relu_at_zero_follow_torch():
    x = np.array([-1.0, 0.0, 2.0])
    for f in (lambda x: x.relu(), lambda x: x.abs(), lambda x: leaky_relu(x, 0.1)):
        oracles.check_tensor(f, [x], BUCKET, what="kink at 0", seed="auto", fd=False)


# --- reductions ------------------------------------------------------------------------------------------------

REDUCTION_AXES = [
    (None, False),
    (None, True),
    (0, False),
    (1, True),
    (-1, False),
    ((0, 2), False),
    ((0, 2), True),
    ((-1, 0), False),
]

REDUCTION_CASES = [
    case(f"{name} axis={axis} keepdims={keep}", (lambda g, a, k: lambda x: g(x, a, k))(f, axis, keep), (2, 3, 4))
    for name, f in [
        ("sum", lambda x, a, k: x.sum(axis=a, keepdims=k)),
        ("mean", lambda x, a, k: x.mean(axis=a, keepdims=k)),
        ("max", lambda x, a, k: amax(x, axis=a, keepdims=k)),  # random data: no ties
        ("logsumexp", lambda x, a, k: logsumexp(x, axis=a, keepdims=k)),
    ]
    for axis, keep in REDUCTION_AXES
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", REDUCTION_CASES)
def test_reductions(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_reductions_default_to_all_axes_and_support_scalar_backward():
    x = Tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    assert x.sum().shape == () and x.sum().item() == 15.0
    assert x.mean().item() == 2.5 and x.max().item() == 5.0
    x.mean().backward()
    np.testing.assert_array_equal(x.grad, np.full((2, 3), 1 / 6))
    oracles.check_tensor(lambda x: x.sum(), [np.arange(6.0).reshape(2, 3)], BUCKET, what="sum()", seed=None)
    oracles.check_tensor(lambda x: x.mean(), [np.arange(6.0)], BUCKET, what="mean()", seed=None)


TIES = [[1.0, 3.0, 3.0], [-2.0, 3.0, 0.0]]
TIES_DOWN = [[1.0, 3.0, 3.0], [1.0, 2.0, 3.0]]


@pytest.mark.parametrize(
    "data, axis, expected",
    [
        (TIES, None, [[0, 1 / 3, 1 / 3], [0, 1 / 3, 0]]),
        (TIES, 1, [[0, 0.5, 0.5], [0, 1, 0]]),
        (TIES_DOWN, 0, [[0.5, 1, 0.5], [0.5, 0, 0.5]]),
        (TIES_DOWN, (0, 1), [[0, 1 / 3, 1 / 3], [0, 0, 1 / 3]]),
    ],
)
def test_max_shares_the_gradient_evenly_among_ties(data, axis, expected):
    data = np.array(data)
    x = Tensor(data, requires_grad=True)
    out = x.max(axis=axis)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad, expected)
    f = lambda x: amax(x, axis=axis)  # noqa: E731
    oracles.check_tensor(f, [data], BUCKET, what=f"max ties axis={axis}", seed="auto", fd=False)


# --- softmax family, numerically stable ---------------------------------------------------------------------

EXTREME = np.array([[1000.0, -1000.0, 0.0, 999.0], [-1000.0, -1001.0, -999.5, -1000.0], [0.1, -0.2, 0.3, 0.0]])

SOFTMAX_CASES = [
    case(f"{name} {shape} axis={axis}", (lambda g, a: lambda x: g(x, a))(f, axis), shape)
    for name, f in [("softmax", softmax), ("log_softmax", log_softmax), ("logsumexp", logsumexp)]
    for shape, axis in [((5,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -1)]
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", SOFTMAX_CASES)
def test_softmax_family(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_softmax_defaults_to_the_last_axis():
    x = Tensor(EXTREME)
    np.testing.assert_array_equal(x.softmax().data, x.softmax(axis=-1).data)
    np.testing.assert_array_equal(x.log_softmax().data, x.log_softmax(axis=1).data)


@pytest.mark.parametrize(
    "name, f",
    [
        ("softmax", lambda x: softmax(x, -1)),
        ("softmax axis 0", lambda x: softmax(x, 0)),
        ("log_softmax", lambda x: log_softmax(x, -1)),
        ("log_softmax axis 0", lambda x: log_softmax(x, 0)),
        ("logsumexp axis 1", lambda x: logsumexp(x, 1)),
        ("logsumexp all", lambda x: logsumexp(x)),
    ],
)
def test_softmax_family_is_stable_at_plus_minus_1000(name, f):
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow in exp, no 0 * inf
        out = f(Tensor(EXTREME)).data
    assert np.all(np.isfinite(out)), out
    oracles.check_tensor(f, [EXTREME], BUCKET, what=f"{name} extreme", seed="auto")


def test_logsumexp_of_1000_values():
    x = Tensor(np.array([1000.0, 1000.0]))
    assert x.logsumexp().item() == 1000.0 + np.log(2.0)
    assert Tensor(np.array([-1000.0, -1000.0])).logsumexp(axis=0).item() == -1000.0 + np.log(2.0)


def test_softmax_rows_sum_to_one_and_log_softmax_is_its_log():
    x = Tensor(EXTREME)
    np.testing.assert_allclose(x.softmax().data.sum(axis=-1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(np.exp(x.log_softmax().data), x.softmax().data, rtol=1e-14, atol=1e-300)


# --- shapes ---------------------------------------------------------------------------------------------------

SHAPE_CASES = [
    case("reshape(6, 4)", lambda x: x.reshape(6, 4), (2, 3, 4)),
    case("reshape((4, 6))", lambda x: x.reshape((4, 6)), (2, 3, 4)),
    case("reshape(-1)", lambda x: x.reshape(-1), (2, 3, 4)),
    case("reshape(2, 1, -1)", lambda x: x.reshape(2, 1, -1), (2, 3, 4)),
    case("reshape() to 0-d", lambda x: x.reshape(()), (1, 1)),
    case("transpose()", lambda x: permute(x), (2, 3, 4)),
    case("transpose(1, 0, 2)", lambda x: permute(x, 1, 0, 2), (2, 3, 4)),
    case("transpose(2, 0, 1)", lambda x: permute(x, 2, 0, 1), (2, 3, 4)),
    case("transpose((2, 0, 1))", lambda x: x.transpose((2, 0, 1)), (2, 3, 4), torch_f=lambda x: x.permute(2, 0, 1)),
    case("transpose 2-D", lambda x: permute(x, 1, 0), (3, 4)),
    case(".T 2-D", lambda x: T(x), (3, 4)),
    case(".T 3-D", lambda x: T(x), (2, 3, 4)),
    case(".T 1-D", lambda x: T(x), (4,)),
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", SHAPE_CASES)
def test_reshape_and_transpose(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_transpose_follows_numpy():
    x = Tensor(np.arange(24.0).reshape(2, 3, 4))
    assert x.transpose().shape == (4, 3, 2) and x.T.shape == (4, 3, 2)
    np.testing.assert_array_equal(x.transpose(1, 2, 0).data, np.transpose(x.data, (1, 2, 0)))


@pytest.mark.parametrize("axes", [(-1, 0, 1), (0, -1, -2), (1, -1, 0)])
def test_transpose_with_negative_axes(axes):
    run_case(lambda x: permute(x, *axes), [((2, 3, 4), "any")], True, None, "auto", f"transpose{axes}")


# --- indexing -------------------------------------------------------------------------------------------------

MASK = np.array([True, False, True, True, False])

INDEX_CASES = [
    case("x[1]", lambda x: x[1], (5, 3)),
    case("x[-1]", lambda x: x[-1], (5, 3)),
    case("x[1:4]", lambda x: x[1:4], (5, 3)),
    case("x[::2]", lambda x: x[::2], (5, 3)),
    case("x[:, 1]", lambda x: x[:, 1], (5, 3)),
    case("x[1, 2]", lambda x: x[1, 2], (5, 3)),
    case("x[..., 0]", lambda x: x[..., 0], (2, 5, 3)),
    case("x[None, 1:]", lambda x: x[None, 1:], (5, 3)),
    case("x[[0, 0, 3]] repeats", lambda x: x[[0, 0, 3]], (5, 3)),
    case("x[array([4, 1, 4, 4])] repeats", lambda x: x[np.array([4, 1, 4, 4])], (5, 3)),
    case("x[[0, 2], [1, 1]]", lambda x: x[[0, 2], [1, 1]], (5, 3)),
    case("x[[1, 1], [2, 2]] same element", lambda x: x[[1, 1], [2, 2]], (5, 3)),
    case("x[:, [0, 0, 2]]", lambda x: x[:, [0, 0, 2]], (5, 3)),
    case("x[2:, [2, 0]]", lambda x: x[2:, [2, 0]], (5, 3)),
    case("x[bool mask]", lambda x: x[MASK], (5, 3)),
    case("x[bool mask list]", lambda x: x[MASK.tolist()], (5, 3)),
    case("x[x > 0]", lambda x: x[x > 0], ((5, 3), "away0")),
    case("x[2d int array]", lambda x: x[np.array([[0, 1], [1, 0]])], (5, 3)),
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", INDEX_CASES)
def test_indexing(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_repeated_indices_accumulate():
    x = Tensor(np.arange(4.0), requires_grad=True)
    x[[1, 1, 1, 3]].sum().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 3.0, 0.0, 1.0])
    y = Tensor(np.arange(4.0), requires_grad=True)
    y[Tensor([2, 2])].sum().backward()  # an index given as a Tensor
    np.testing.assert_array_equal(y.grad, [0.0, 0.0, 2.0, 0.0])


# --- concatenate and stack --------------------------------------------------------------------------------

JOIN_CASES = [
    case("concatenate axis 0", lambda a, b, c: concatenate([a, b, c], 0), (2, 3), (1, 3), (4, 3)),
    case("concatenate axis 1", lambda a, b: concatenate([a, b], axis=1), (2, 3), (2, 5)),
    case("concatenate axis -1", lambda a, b: concatenate([a, b], axis=-1), (2, 2, 3), (2, 2, 1)),
    case("concatenate with numpy", lambda a: concatenate([a, constant(a, C4[:3][None])], 0), (2, 3)),
    case("concatenate same tensor twice", lambda a: concatenate([a, a], 0), (2, 3)),
    case("stack axis 0", lambda a, b, c: stack([a, b, c], 0), (2, 3), (2, 3), (2, 3)),
    case("stack axis 1", lambda a, b: stack([a, b], axis=1), (2, 3), (2, 3)),
    case("stack axis -1", lambda a, b: stack([a, b], axis=-1), (2, 3), (2, 3)),
    case("stack with numpy", lambda a: stack([constant(a, C4), a], 0), (4,)),
    case("stack 0-d", lambda a, b: stack([a, b]), (), ()),
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", JOIN_CASES)
def test_concatenate_and_stack(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


def test_concatenate_and_stack_are_exported_from_engine():
    a, b = Tensor(np.ones((2, 3))), Tensor(np.zeros((2, 3)))
    assert engine.concatenate([a, b]).shape == (4, 3)
    assert engine.stack([a, b], axis=1).shape == (2, 2, 3)


# --- composites -----------------------------------------------------------------------------------------------

W = np.linspace(-1.0, 1.0, 12).reshape(4, 3)
ONEHOT = np.eye(3)[[0, 2, 1, 2, 0]]


def _cross_entropy(x, w, b):
    logits = x @ w + b
    return -(log_softmax(logits, -1) * constant(x, ONEHOT)).sum(axis=1).mean()


def _mlp(x, w, b):
    h = (x @ w + b).tanh()
    return (h * h).sum(axis=-1, keepdims=True).sigmoid() - amax(h, axis=0) * 0.5


COMPOSITE_CASES = [
    case("cross entropy", _cross_entropy, (5, 4), (4, 3), (3,), seed=None),
    case("mlp", _mlp, (5, 4), (4, 3), (3,)),
    case(
        "normalise",
        lambda x: (x - x.mean(axis=0, keepdims=True)) / ((x * x).mean(axis=0) + 1) ** 0.5,
        (4, 3),
    ),
    case("x * (x + 1)", lambda x: x * (x + 1), (3,)),
    case("(x + 1) * x", lambda x: (x + 1) * x, (3,)),
    case("softmax attention", lambda q, k: softmax(q @ T(k), -1) @ k, (3, 4), (5, 4)),
    case("x / (x * x + 1)", lambda x: x / (x * x + 1), (3,)),
]


@pytest.mark.parametrize("f, inputs, fd, torch_f, seed", COMPOSITE_CASES)
def test_composites(f, inputs, fd, torch_f, seed, request):
    run_case(f, inputs, fd, torch_f, seed, request.node.callspec.id)


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


# --- report ---------------------------------------------------------------------------------------------------------


def test_report_worst_gradient_difference_against_torch(record_property, capsys):
    worst = oracles.WORST.get(BUCKET)
    if not worst:
        pytest.skip("no torch comparison ran in this session")
    record_property("worst_relative_difference_tensor", worst[0])
    with capsys.disabled():
        print(f"\n[tensor] worst engine-vs-torch difference {worst[0]:.3g} over {worst[2]} comparisons ({worst[1]})")
    assert worst[0] <= oracles.TORCH_RTOL


@pytest.mark.parametrize("reduce", [lambda t: t.sum(axis=0), lambda t: t.sum(axis=-1), lambda t: t.max(axis=0),
                                    lambda t: t.logsumexp(axis=0)])
def test_a_zero_dimensional_tensor_reduced_over_axis_0_has_gradient_1_as_in_pytorch(reduce):
    t = Tensor(2.0, requires_grad=True)
    out = reduce(t)
    out.backward()
    assert out.shape == () and float(t.grad) == 1.0
