"""Oracles for the engine's gradients: central finite differences and PyTorch in float64.

A test writes its function once, against the engine's API, and runs it three ways:

- ``value_grads`` / ``tensor_grads``: the engine under test;
- ``value_fd`` / ``tensor_fd``: central differences of the engine's own forward pass
  (an independent check of the derivative rules, good to about 1e-6 relative);
- ``value_torch`` / ``tensor_torch``: the same function on float64 ``torch`` tensors,
  where PyTorch's derivative rules are the reference (bar: 1e-12 relative).

Method names that the engine shares with torch (``x.tanh()``, ``x.exp()``, ``+ - * / ** @``,
``x.sum(axis=...)``, whose ``axis``/``keepdims`` torch accepts as aliases) work unchanged.
Where the names or meanings differ, write the function with the adapters below (`amax`,
`softmax`, `permute`, ...), which dispatch on the operand's type.

How close is close (`grad_error`): the norm-wise relative error with a floor of one,
``max|got - want| / max(1, max|want|)`` per gradient array (for a scalar,
``|got - want| / max(1, |want|)``). Purely relative error is unsound where a gradient is
near zero: a sum whose terms are of size one and cancel leaves rounding errors of about
1e-16 in absolute terms, which are huge relative to a result of 1e-14. Measured against
the size of the gradient array (or one, whichever is larger), the error of sums and matrix
products, whose rounding is proportional to the magnitude of their terms, stays bounded,
while a wrong rule (a missing factor, a misplaced axis, an unsummed broadcast) is off by
O(1) of that scale and fails by ten orders of magnitude. Non-finite entries must match
exactly (``inf`` with the same sign, ``nan`` with ``nan``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import torch

from engine import Tensor, Value
from engine import concatenate as engine_concatenate
from engine import stack as engine_stack

H = 1e-6  # finite-difference step
FD_RTOL = 1e-6  # central differences: truncation ~h^2 f''', rounding ~eps |f| / h
FD_ATOL = 1e-6
TORCH_RTOL = 1e-12  # the bar against PyTorch float64

# --------------------------------------------------------------------------------------
# Error measure


def grad_error(got, want) -> float:
    """Norm-wise relative error with a floor of one (see the module docstring); inf on mismatch."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return math.inf
    finite = np.isfinite(want)
    # Non-finite entries must agree exactly: same infinities, nan where torch has nan.
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return math.inf
    nonfinite = ~finite & ~np.isnan(want)
    if not np.array_equal(got[nonfinite], want[nonfinite]):
        return math.inf
    if not np.all(np.isfinite(got[finite])):
        return math.inf
    if not finite.any():
        return 0.0
    scale = max(1.0, float(np.max(np.abs(want[finite]))))
    return float(np.max(np.abs(got[finite] - want[finite]))) / scale


def assert_close_torch(got, want, rtol: float = TORCH_RTOL, what: str = "") -> float:
    """Assert `grad_error` <= rtol; returns the error so callers can track the worst one."""
    err = grad_error(got, want)
    assert err <= rtol, f"{what}: engine {np.asarray(got)!r} vs torch {np.asarray(want)!r} (error {err:.3g})"
    return err


def assert_close_fd(got, want, rtol: float = FD_RTOL, atol: float = FD_ATOL, what: str = "") -> None:
    """Analytic gradient ``got`` against central differences ``want``."""
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, f"{what}: shape {got.shape} vs finite differences {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol * scale, err_msg=what)


# A record of the worst engine-vs-torch gradient error per test module, reported at the end.
WORST: dict[str, list] = {}


def track(bucket: str, err: float, what: str = "") -> None:
    worst = WORST.setdefault(bucket, [0.0, "", 0])
    worst[2] += 1
    if err > worst[0] or not worst[1]:
        worst[0], worst[1] = max(err, worst[0]), what or worst[1]


# --------------------------------------------------------------------------------------
# Scalars: f(*values) -> value, written once for `engine.Value` and 0-d torch tensors.


def value_grads(f: Callable, xs: Sequence[float]) -> tuple[float, list[float]]:
    """Forward value and the gradient of every input, from the engine's ``Value``."""
    leaves = [Value(x) for x in xs]
    out = f(*leaves)
    out.backward()
    return out.data, [leaf.grad for leaf in leaves]


def value_torch(f: Callable, xs: Sequence[float]) -> tuple[float, list[float]]:
    """The same, from 0-d float64 torch tensors (``None`` grads, from unused inputs, become 0)."""
    leaves = [torch.tensor(float(x), dtype=torch.float64, requires_grad=True) for x in xs]
    out = f(*leaves)
    out.backward()
    return out.item(), [0.0 if leaf.grad is None else leaf.grad.item() for leaf in leaves]


def value_fd(f: Callable, xs: Sequence[float], h: float = H) -> list[float]:
    """Central differences (f(x+h) - f(x-h)) / 2h of the engine's forward pass, per input."""
    grads = []
    for i in range(len(xs)):
        plus, minus = list(xs), list(xs)
        plus[i] += h
        minus[i] -= h
        up = f(*[Value(x) for x in plus]).data
        down = f(*[Value(x) for x in minus]).data
        grads.append((up - down) / (2 * h))
    return grads


# --------------------------------------------------------------------------------------
# Tensors: f(*tensors) -> tensor. A non-scalar output is seeded with a fixed upstream
# gradient (``backward(gradient=seed)``), so every output element is exercised.


def _seed_for(shape, seed) -> np.ndarray | None:
    if seed is None:
        return None
    return np.asarray(seed, dtype=np.float64).reshape(shape)


def upstream_for(shape: tuple[int, ...], rng: np.random.Generator | None = None) -> np.ndarray:
    """A deterministic, generic upstream gradient for an output of ``shape``."""
    rng = rng or np.random.default_rng(12345)
    return np.asarray(rng.uniform(0.5, 1.5, size=shape) * rng.choice([-1.0, 1.0], size=shape))


def tensor_grads(f: Callable, arrays: Sequence, seed=None) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """Engine forward output and leaf gradients; ``seed`` None means the output must be a scalar."""
    leaves = [Tensor(np.array(a, dtype=np.float64), requires_grad=True) for a in arrays]
    out = f(*leaves)
    out.backward(None if seed is None else _seed_for(out.shape, seed))
    return out.data.copy(), [leaf.grad for leaf in leaves]


def tensor_torch(f: Callable, arrays: Sequence, seed=None) -> tuple[np.ndarray, list[np.ndarray]]:
    """The same function on float64 torch tensors (``None`` for an input backward never reached)."""
    leaves = [torch.tensor(np.array(a, dtype=np.float64), requires_grad=True) for a in arrays]
    out = f(*leaves)
    if seed is None:
        out.backward()
    else:
        out.backward(torch.from_numpy(_seed_for(tuple(out.shape), seed)))
    grads = [None if leaf.grad is None else leaf.grad.numpy().copy() for leaf in leaves]
    return out.detach().numpy().copy(), grads


def tensor_fd(f: Callable, arrays: Sequence, seed=None, h: float = H) -> list[np.ndarray]:
    """Central differences of ``sum(seed * f(...))`` (or of the scalar ``f``), element by element."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]

    def scalar(values) -> float:
        out = f(*[Tensor(v) for v in values]).data
        return float(np.sum(out if seed is None else _seed_for(out.shape, seed) * out))

    grads = []
    for i, a in enumerate(arrays):
        grad = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            plus = [v.copy() for v in arrays]
            minus = [v.copy() for v in arrays]
            plus[i][index] += h
            minus[i][index] -= h
            grad[index] = (scalar(plus) - scalar(minus)) / (2 * h)
        grads.append(grad)
    return grads


# --------------------------------------------------------------------------------------
# Adapters where torch's name or meaning differs from the engine's (numpy's) one.


def _is_torch(x) -> bool:
    return isinstance(x, torch.Tensor)


def _dims(x, axis):
    """numpy's axis=None (all axes) as torch's explicit tuple of dims."""
    return tuple(range(x.ndim)) if axis is None else axis


def amax(x, axis=None, keepdims=False):
    """``Tensor.max(axis, keepdims)``; torch's ``max(dim)`` returns indices too, ``amax`` is the match."""
    if _is_torch(x):
        return torch.amax(x, dim=_dims(x, axis), keepdim=keepdims)
    return x.max(axis=axis, keepdims=keepdims)


def logsumexp(x, axis=None, keepdims=False):
    if _is_torch(x):
        return torch.logsumexp(x, dim=_dims(x, axis), keepdim=keepdims)
    return x.logsumexp(axis=axis, keepdims=keepdims)


def softmax(x, axis=-1):
    return torch.softmax(x, dim=axis) if _is_torch(x) else x.softmax(axis=axis)


def log_softmax(x, axis=-1):
    return torch.log_softmax(x, dim=axis) if _is_torch(x) else x.log_softmax(axis=axis)


def permute(x, *axes):
    """numpy's ``transpose(*axes)`` (a permutation; none reverses) is torch's ``permute``."""
    if _is_torch(x):
        return x.permute(*(axes or reversed(range(x.ndim))))
    return x.transpose(*axes)


def T(x):
    """``.T`` reverses all axes in numpy; torch deprecates ``.T`` beyond 2-D, so permute."""
    return x.permute(*reversed(range(x.ndim))) if _is_torch(x) else x.T


def leaky_relu(x, negative_slope=0.01):
    if _is_torch(x):
        return torch.nn.functional.leaky_relu(x, negative_slope)
    return x.leaky_relu(negative_slope)


def concatenate(tensors, axis=0):
    tensors = list(tensors)
    if _is_torch(tensors[0]):
        return torch.cat(tensors, dim=axis)
    return engine_concatenate(tensors, axis=axis)


def stack(tensors, axis=0):
    tensors = list(tensors)
    if _is_torch(tensors[0]):
        return torch.stack(tensors, dim=axis)
    return engine_stack(tensors, axis=axis)


# --------------------------------------------------------------------------------------
# One call per case: engine against finite differences and against torch.


def check_value(f: Callable, xs: Sequence[float], bucket: str, what: str = "", fd: bool = True) -> None:
    """Forward value and every input's gradient: engine vs torch (1e-12) and vs central differences."""
    data, grads = value_grads(f, xs)
    want_data, want_grads = value_torch(f, xs)
    what = what or f"at {list(xs)}"
    track(bucket, assert_close_torch(data, want_data, what=f"forward {what}"), f"forward {what}")
    for i, (got, want) in enumerate(zip(grads, want_grads)):
        track(bucket, assert_close_torch(got, want, what=f"grad {i} {what}"), f"grad {i} {what}")
    if fd:
        assert_close_fd(grads, value_fd(f, xs), what=f"finite differences {what}")


def check_tensor(
    f: Callable, arrays: Sequence, bucket: str, what: str = "", seed=None, fd: bool = True, torch_f=None
) -> list:
    """Forward output and every leaf's gradient: engine vs torch (1e-12) and vs central differences.

    ``seed`` is an upstream gradient for a non-scalar output (``"auto"``: `upstream_for` its shape).
    ``torch_f`` replaces ``f`` on the torch side where no adapter fits. Returns the engine's grads.
    """
    if isinstance(seed, str):
        with_grad_off = f(*[Tensor(np.array(a, dtype=np.float64)) for a in arrays])
        seed = upstream_for(with_grad_off.shape)
    data, grads = tensor_grads(f, arrays, seed)
    want_data, want_grads = tensor_torch(torch_f or f, arrays, seed)
    track(bucket, assert_close_torch(data, want_data, what=f"forward {what}"), f"forward {what}")
    for i, (got, want) in enumerate(zip(grads, want_grads)):
        if want is None:
            assert got is None, f"{what}: input {i} got a grad but torch's backward never reached it"
            continue
        assert got is not None, f"{what}: input {i} has no grad, torch gives {want}"
        assert got.shape == np.shape(arrays[i]), f"{what}: grad {i} has shape {got.shape}"
        track(bucket, assert_close_torch(got, want, what=f"grad {i} {what}"), f"grad {i} {what}")
    if fd:
        for i, (got, want) in enumerate(zip(grads, tensor_fd(f, arrays, seed))):
            got = np.zeros_like(want) if got is None else got
            assert_close_fd(got, want, what=f"finite differences, input {i} {what}")
    return grads


def constant(x, array):
    """A constant (non-leaf-gradient) operand of ``x``'s kind: torch tensor or numpy array."""
    return torch.from_numpy(np.asarray(array, dtype=np.float64)) if _is_torch(x) else np.asarray(array, np.float64)
