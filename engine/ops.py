"""Tensor ops, each followed by its derivative rule.

A rule is ``rule(node, upstream) -> one contribution per parent``: the vector-Jacobian
product ``upstream . d(node)/d(parent)`` with the parent's shape, or None for a parent that
needs no gradient. The formula each rule implements is the comment on its first line.
"""

from __future__ import annotations

import builtins
import math
from functools import lru_cache

import numpy as np

from .tensor import Tensor, as_tensor, make_result

# -- helpers ------------------------------------------------------------------------------


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``grad`` over the axes broadcasting added or stretched, back to ``shape``."""
    if grad.shape == shape:
        return grad
    added, stretched = _broadcast_axes(grad.shape, shape)
    if added and shape:  # each element summed over the rows broadcasting added, as for a bias
        kept = grad.shape[len(added):]
        grad = _reshaped(sum_rows(grad.reshape(-1, math.prod(kept))), kept)
    elif added:  # down to one number: numpy's pairwise sum, the more accurate
        grad = np.add.reduce(grad, axis=added)
    if stretched:
        grad = np.add.reduce(grad, axis=stretched, keepdims=True)
    return grad


def sum_rows(grad: np.ndarray) -> np.ndarray:
    """The rows of a 2-D ``grad`` added up, as the product ``1^T grad``: one BLAS pass. numpy's sum
    over the first axis adds the rows one at a time through its buffered iterator, 3 times slower
    for 200 rows of 16 (a bias's gradient) and 6 times for 2000; neither adds pairwise."""
    return np.dot(_ones(grad.shape[0], grad.dtype), grad)


@lru_cache(maxsize=64)
def _ones(count: int, dtype: np.dtype) -> np.ndarray:
    ones = np.ones(count, dtype)
    ones.flags.writeable = False  # shared by every call
    return ones


@lru_cache(maxsize=1024)
def _broadcast_axes(grad_shape: tuple[int, ...], shape: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The axes broadcasting added in front of ``shape`` to make ``grad_shape``, and those of ``shape`` it
    stretched from 1. Worked out once per pair of shapes: a training step meets the same pairs every time."""
    extra = len(grad_shape) - len(shape)
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad_shape[extra + i] != 1)
    return tuple(range(extra)), stretched


def _binary(ufunc, a: Tensor, b: Tensor, name: str) -> np.ndarray:
    try:
        return ufunc(a.data, b.data)
    except ValueError:
        raise ValueError(f"{name}: shapes {a.shape} and {b.shape} cannot be broadcast together") from None


def _expand_reduced(grad: np.ndarray, shape: tuple[int, ...], axis, keepdims: bool) -> np.ndarray:
    """Put back the axes a reduction removed, so ``grad`` broadcasts against the input."""
    if keepdims:
        return grad
    if not shape:  # a 0-d input reduced over axis 0 or -1 (numpy and PyTorch allow it): nothing was removed
        return np.reshape(grad, ())
    if axis is None:
        return np.reshape(grad, (1,) * len(shape))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return np.expand_dims(grad, tuple(a % len(shape) for a in axes))


# -- arithmetic -----------------------------------------------------------------------------


def add(a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    return make_result(_binary(np.add, a, b, "add"), "+", (a, b), _add_rule)


def _add_rule(node, g):
    # d(a+b)/da = 1, d(a+b)/db = 1
    a, b = node._prev
    return (
        unbroadcast(g, a.shape) if a.requires_grad else None,
        unbroadcast(g, b.shape) if b.requires_grad else None,
    )


def sub(a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    return make_result(_binary(np.subtract, a, b, "sub"), "-", (a, b), _sub_rule)


def _sub_rule(node, g):
    # d(a-b)/da = 1, d(a-b)/db = -1
    a, b = node._prev
    return (
        unbroadcast(g, a.shape) if a.requires_grad else None,
        unbroadcast(-g, b.shape) if b.requires_grad else None,
    )


def mul(a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    return make_result(_binary(np.multiply, a, b, "mul"), "*", (a, b), _mul_rule)


def _mul_rule(node, g):
    # d(a*b)/da = b, d(a*b)/db = a
    a, b = node._prev
    return (
        unbroadcast(g * b.data, a.shape) if a.requires_grad else None,
        unbroadcast(g * a.data, b.shape) if b.requires_grad else None,
    )


def div(a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return make_result(_binary(np.true_divide, a, b, "div"), "/", (a, b), _div_rule)


def _div_rule(node, g):
    # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2
    a, b = node._prev
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (
            unbroadcast(g / b.data, a.shape) if a.requires_grad else None,
            unbroadcast(-g * a.data / (b.data * b.data), b.shape) if b.requires_grad else None,
        )


def pow(a, b) -> Tensor:  # noqa: A001 - torch.pow
    a, b = as_tensor(a), as_tensor(b)
    with np.errstate(all="ignore"):
        return make_result(_binary(np.power, a, b, "pow"), "**", (a, b), _pow_rule)


def _pow_rule(node, g):
    # d(a^b)/da = b*a^(b-1), d(a^b)/db = a^b*ln(a) (0 where a = 0 and b >= 0, as PyTorch)
    a, b = node._prev
    with np.errstate(all="ignore"):
        grad_a = grad_b = None
        if a.requires_grad:
            local = np.where(b.data == 0.0, 0.0, b.data * np.power(a.data, b.data - 1.0))
            grad_a = unbroadcast(g * local, a.shape)
        if b.requires_grad:
            local = np.where((a.data == 0.0) & (b.data >= 0.0), 0.0, node.data * np.log(a.data))
            grad_b = unbroadcast(g * local, b.shape)
    return grad_a, grad_b


def neg(a) -> Tensor:
    return make_result(np.negative(a.data), "neg", (a,), _neg_rule)


def _neg_rule(node, g):
    # d(-a)/da = -1
    return (-g,)


# Products of matrices go through np.dot rather than np.matmul (``@``): the same numbers, but np.dot
# hands every shape to BLAS, while np.matmul runs its own loop when the inner dimension is 1 (the outer
# product in the gradient of a layer with one output: 7 us against 2.8 us for 200 x 16) and is a little
# slower on the rest. The two differ for operands above 2-D, which keep ``@``.


def matmul(a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    if a.data.ndim == 0 or b.data.ndim == 0:
        raise ValueError(f"matmul: both operands need at least one dimension, got shapes {a.shape} and {b.shape}")
    try:
        data = np.dot(a.data, b.data) if a.data.ndim == b.data.ndim == 2 else np.matmul(a.data, b.data)
    except ValueError:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} are not aligned") from None
    return make_result(data, "@", (a, b), _matmul_rule)


def _matmul_rule(node, g):
    # d(A@B)/dA = g @ B^T, d(A@B)/dB = A^T @ g (batch axes summed back by unbroadcast)
    a, b = node._prev
    a_data, b_data = a.data, b.data
    if a_data.ndim == 1 or b_data.ndim == 1:
        a_data, b_data, g = _as_matrices(a_data, b_data, g)
    product = np.dot if g.ndim == 2 else np.matmul  # g is 2-D when both operands are
    grad_a = grad_b = None
    if a.requires_grad:
        grad_a = _reshaped(unbroadcast(product(g, b_data.swapaxes(-1, -2)), a_data.shape), a.data.shape)
    if b.requires_grad:
        grad_b = _reshaped(unbroadcast(product(a_data.swapaxes(-1, -2), g), b_data.shape), b.data.shape)
    return grad_a, grad_b


def _as_matrices(a: np.ndarray, b: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 1-D operand of a product acts as a row (left) or a column (right) vector: the operands and
    the gradient with the axes the product dropped put back, so that the 2-D formulas apply."""
    if a.ndim == 1 and b.ndim == 1:
        return a[None, :], b[:, None], np.reshape(g, (1, 1))
    if a.ndim == 1:
        return a[None, :], b, np.expand_dims(g, -2)
    return a, b[:, None], np.expand_dims(g, -1)


def _reshaped(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return grad if grad.shape == shape else grad.reshape(shape)


# -- elementwise functions --------------------------------------------------------------------


def exp(a) -> Tensor:
    with np.errstate(over="ignore"):
        return make_result(np.exp(a.data), "exp", (a,), _exp_rule)


def _exp_rule(node, g):
    # d/da e^a = e^a
    return (g * node.data,)


def log(a) -> Tensor:
    with np.errstate(divide="ignore", invalid="ignore"):
        return make_result(np.log(a.data), "log", (a,), _log_rule)


def _log_rule(node, g):
    # d/da ln(a) = 1/a
    with np.errstate(divide="ignore", invalid="ignore"):
        return (g / node._prev[0].data,)


def tanh(a) -> Tensor:
    return make_result(np.tanh(a.data), "tanh", (a,), _tanh_rule)


def _tanh_rule(node, g):
    # d/da tanh(a) = 1 - tanh(a)^2
    t = node.data
    return (g * (1.0 - t * t),)


def sigmoid(a) -> Tensor:
    x = a.data
    # Stable on both sides: 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below; e^-|x| never overflows.
    z = np.exp(-np.abs(x))
    data = np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))
    return make_result(data, "sigmoid", (a,), _sigmoid_rule)


def _sigmoid_rule(node, g):
    # d/da sigmoid(a) = sigmoid(a) * (1 - sigmoid(a))
    s = node.data
    return (g * (s * (1.0 - s)),)


def relu(a) -> Tensor:
    return make_result(np.maximum(a.data, 0.0), "relu", (a,), _relu_rule)


def _relu_rule(node, g):
    # d/da relu(a) = 1 where a > 0, else 0
    return (np.where(node._prev[0].data > 0, g, 0.0),)


def leaky_relu(a, negative_slope: float = 0.01) -> Tensor:
    x = a.data
    return make_result(np.where(x > 0, x, x * negative_slope), "leaky_relu", (a,), _leaky_relu_rule, negative_slope)


def _leaky_relu_rule(node, g):
    # d/da leaky_relu(a) = 1 where a > 0, else the negative slope
    return (np.where(node._prev[0].data > 0, g, g * node._ctx),)


def abs(a) -> Tensor:  # noqa: A001 - torch.abs
    return make_result(np.abs(a.data), "abs", (a,), _abs_rule)


def _abs_rule(node, g):
    # d/da |a| = sign(a) (0 at a = 0, as PyTorch)
    return (g * np.sign(node._prev[0].data),)


# -- reductions -----------------------------------------------------------------------------


def sum(a, axis=None, keepdims: bool = False) -> Tensor:  # noqa: A001 - torch.sum
    a = as_tensor(a)
    return make_result(np.sum(a.data, axis=axis, keepdims=keepdims), "sum", (a,), _sum_rule, (axis, keepdims))


def _sum_rule(node, g):
    # d(sum a)/da_i = 1: the upstream gradient is spread to every summed element
    a = node._prev[0]
    axis, keepdims = node._ctx
    return (np.broadcast_to(_expand_reduced(g, a.shape, axis, keepdims), a.shape),)


def mean(a, axis=None, keepdims: bool = False) -> Tensor:
    a = as_tensor(a)
    data = np.mean(a.data, axis=axis, keepdims=keepdims)
    count = a.data.size // builtins.max(np.size(data), 1) if a.data.size else 0
    return make_result(data, "mean", (a,), _mean_rule, (axis, keepdims, count))


def _mean_rule(node, g):
    # d(mean a)/da_i = 1/n over the n averaged elements
    a = node._prev[0]
    axis, keepdims, count = node._ctx
    return (np.broadcast_to(_expand_reduced(g / count, a.shape, axis, keepdims), a.shape),)


def max(a, axis=None, keepdims: bool = False) -> Tensor:  # noqa: A001 - torch.max / numpy.max
    a = as_tensor(a)
    if a.data.size == 0:
        raise ValueError(f"max of an empty tensor of shape {a.shape}")
    return make_result(np.max(a.data, axis=axis, keepdims=keepdims), "max", (a,), _max_rule, (axis, keepdims))


def _max_rule(node, g):
    # d(max a)/da_i = 1 where a_i is the maximum, shared evenly among ties (torch.amax)
    a = node._prev[0]
    axis, keepdims = node._ctx
    peak = _expand_reduced(node.data, a.shape, axis, keepdims)
    is_max = a.data == peak
    ties = np.sum(is_max, axis=axis, keepdims=True)
    return (is_max * (_expand_reduced(g, a.shape, axis, keepdims) / ties),)


def logsumexp(a, axis=None, keepdims: bool = False) -> Tensor:
    a = as_tensor(a)
    x = a.data
    # Shift by the maximum so exp never overflows; an all -inf slice shifts by 0, not nan.
    shift = np.max(x, axis=axis, keepdims=True)
    shift = np.where(np.isfinite(shift), shift, 0.0)
    with np.errstate(divide="ignore"):
        data = np.log(np.sum(np.exp(x - shift), axis=axis, keepdims=True)) + shift
    if not keepdims:
        data = np.squeeze(data, axis=axis) if axis is not None else data.reshape(())
    return make_result(data, "logsumexp", (a,), _logsumexp_rule, (axis, keepdims))


def _logsumexp_rule(node, g):
    # d(logsumexp a)/da_i = exp(a_i - logsumexp a) = softmax(a)_i
    a = node._prev[0]
    axis, keepdims = node._ctx
    lse = _expand_reduced(node.data, a.shape, axis, keepdims)
    return (_expand_reduced(g, a.shape, axis, keepdims) * np.exp(a.data - lse),)


def softmax(a, axis: int = -1) -> Tensor:
    a = as_tensor(a)
    shifted = a.data - np.max(a.data, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return make_result(e / np.sum(e, axis=axis, keepdims=True), "softmax", (a,), _softmax_rule, axis)


def _softmax_rule(node, g):
    # d(softmax a)_j/da_i = s_j (delta_ij - s_i)  =>  vjp = s * (g - sum(g * s))
    s = node.data
    return (s * (g - np.sum(g * s, axis=node._ctx, keepdims=True)),)


def log_softmax(a, axis: int = -1) -> Tensor:
    a = as_tensor(a)
    shifted = a.data - np.max(a.data, axis=axis, keepdims=True)
    data = shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return make_result(data, "log_softmax", (a,), _log_softmax_rule, axis)


def _log_softmax_rule(node, g):
    # d(log_softmax a)_j/da_i = delta_ij - softmax(a)_i  =>  vjp = g - softmax * sum(g)
    return (g - np.exp(node.data) * np.sum(g, axis=node._ctx, keepdims=True),)


# -- shapes and indexing ----------------------------------------------------------------------


def reshape(a, shape: tuple[int, ...]) -> Tensor:
    a = as_tensor(a)
    try:
        data = a.data.reshape(shape)
    except ValueError:
        raise ValueError(f"reshape: cannot reshape shape {a.shape} into shape {tuple(shape)}") from None
    return make_result(data, "reshape", (a,), _reshape_rule)


def _reshape_rule(node, g):
    # reshape moves no numbers: the gradient takes the input's shape back
    return (g.reshape(node._prev[0].shape),)


def transpose(a, axes=None) -> Tensor:
    a = as_tensor(a)
    try:
        data = np.transpose(a.data, axes)
    except (ValueError, np.exceptions.AxisError):
        raise ValueError(f"transpose: axes {axes} do not fit shape {a.shape}") from None
    if axes is not None:
        axes = tuple(axis % a.ndim for axis in axes)  # the rule inverts the permutation with argsort
    return make_result(data, "transpose", (a,), _transpose_rule, axes)


def _transpose_rule(node, g):
    # transposing permutes axes: the gradient goes through the inverse permutation
    axes = node._ctx
    return (np.transpose(g, None if axes is None else np.argsort(axes)),)


def getitem(a, index) -> Tensor:
    a = as_tensor(a)
    index = _plain_index(index)
    return make_result(a.data[index], "getitem", (a,), _getitem_rule, index)


def _plain_index(index):
    """Tensors inside an index become their arrays; lists become integer/boolean arrays."""
    if isinstance(index, Tensor):
        return _index_array(index.data)
    if isinstance(index, list):
        return np.asarray(index)
    if isinstance(index, tuple):
        return tuple(_plain_index(i) for i in index)
    return index


def _index_array(data: np.ndarray) -> np.ndarray:
    if data.dtype == np.bool_ or np.issubdtype(data.dtype, np.integer):
        return data
    return data.astype(np.int64)


def _getitem_rule(node, g):
    # d(a[i])/da scatters the gradient back to the picked positions, adding where an
    # integer array picks the same element twice
    index = node._ctx
    grad = np.zeros_like(node._prev[0].data)
    if _is_basic(index):
        grad[index] = g  # basic indexing never picks an element twice
    else:
        np.add.at(grad, index, g)
    return (grad,)


def _is_basic(index) -> bool:
    parts = index if isinstance(index, tuple) else (index,)
    return all(part is None or part is Ellipsis or isinstance(part, (int, np.integer, slice)) for part in parts)


def concatenate(tensors, axis: int = 0) -> Tensor:
    tensors = tuple(as_tensor(t) for t in tensors)
    try:
        data = np.concatenate([t.data for t in tensors], axis=axis)
    except ValueError:
        raise ValueError(f"concatenate: shapes {[t.shape for t in tensors]} do not fit on axis {axis}") from None
    sizes = [t.shape[axis] for t in tensors]
    return make_result(data, "concatenate", tensors, _concatenate_rule, (axis, np.cumsum(sizes)[:-1]))


def _concatenate_rule(node, g):
    # each input gets back its own slice of the gradient
    axis, splits = node._ctx
    pieces = np.split(g, splits, axis=axis)
    return tuple(piece if t.requires_grad else None for t, piece in zip(node._prev, pieces))


def stack(tensors, axis: int = 0) -> Tensor:
    tensors = tuple(as_tensor(t) for t in tensors)
    try:
        data = np.stack([t.data for t in tensors], axis=axis)
    except ValueError:
        raise ValueError(f"stack: shapes {[t.shape for t in tensors]} must all be equal") from None
    return make_result(data, "stack", tensors, _stack_rule, axis)


def _stack_rule(node, g):
    # each input gets back its own slice of the gradient along the new axis
    axis = node._ctx
    return tuple(np.take(g, i, axis=axis) if t.requires_grad else None for i, t in enumerate(node._prev))
