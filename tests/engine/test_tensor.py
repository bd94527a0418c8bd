"""The numpy engine `engine.Tensor`, op by op: every op (with broadcasting) against finite differences and
PyTorch float64, the numerically stable softmax family, indexing, joins and composites; the worst difference
from PyTorch reported. The Tensor API and PyTorch's autograd semantics are `test_tensor_api.py`."""

import os
import sys
import zlib

import numpy as np
import pytest
import torch

import engine
from engine import Tensor

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


# --- report ---------------------------------------------------------------------------------------------------------


def test_report_worst_gradient_difference_against_torch(record_property, capsys):
    worst = oracles.WORST.get(BUCKET)
    if not worst:
        pytest.skip("no torch comparison ran in this session")
    record_property("worst_relative_difference_tensor", worst[0])
    with capsys.disabled():
        print(f"\n[tensor] worst engine-vs-torch difference {worst[0]:.3g} over {worst[2]} comparisons ({worst[1]})")
    assert worst[0] <= oracles.TORCH_RTOL
