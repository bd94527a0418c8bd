"""Losses and the fused linear map, with PyTorch's definitions and reductions.

``linear`` and ``binary_cross_entropy_with_logits`` are single graph nodes with their own
rules: fewer nodes is less Python per step, the animator shows them as one Linear or one
loss node, and the loss's rule ``sigmoid(x) - y`` stays exact for huge logits.
"""

from __future__ import annotations

import numpy as np

from ..ops import sum_rows
from ..tensor import Tensor, as_tensor, make_result

REDUCTIONS = ("mean", "sum", "none")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"reduction must be one of {REDUCTIONS}, not {reduction!r}")


def _check_same_shape(name: str, input: Tensor, target: Tensor) -> None:
    if input.shape != target.shape:
        raise ValueError(f"{name}: input shape {input.shape} and target shape {target.shape} differ")


# -- linear ---------------------------------------------------------------------------------


def linear(x, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``x @ weight.T + bias`` with PyTorch's layout: weight has shape (out_features, in_features)."""
    x = as_tensor(x)
    if x.shape[-1:] != weight.shape[1:]:
        raise ValueError(f"linear: input shape {x.shape} does not fit weight shape {weight.shape}")
    data = np.dot(x.data, weight.data.T)  # x @ W^T; np.dot rather than @ for a matrix W, see ops.matmul
    if bias is None:
        return make_result(data, "linear", (x, weight), _linear_rule)
    data += bias.data
    return make_result(data, "linear", (x, weight, bias), _linear_rule)


def _linear_rule(node, g):
    # y = x W^T + b:  dx = g W,  dW = g^T x,  db = g^T 1 (g summed over the batch)
    x, weight = node._prev[0], node._prev[1]
    x_rows, g_rows = x.data, g  # a batch of any shape, as rows
    if g.ndim != 2:
        x_rows, g_rows = x_rows.reshape(-1, x_rows.shape[-1]), g.reshape(-1, g.shape[-1])
    grads = [
        np.dot(g, weight.data) if x.requires_grad else None,
        np.dot(g_rows.T, x_rows) if weight.requires_grad else None,
    ]
    if len(node._prev) == 3:
        grads.append(sum_rows(g_rows) if node._prev[2].requires_grad else None)
    return grads


# -- losses ---------------------------------------------------------------------------------


def mse_loss(input: Tensor, target, reduction: str = "mean") -> Tensor:
    """``(input - target)^2``, averaged (or summed) as ``torch.nn.functional.mse_loss``."""
    target = as_tensor(target)
    _check_same_shape("mse_loss", input, target)
    diff = input - target
    return _reduce(diff * diff, reduction)


def half_mse_loss(input: Tensor, target, reduction: str = "mean") -> Tensor:
    """``0.5 (input - target)^2``, averaged (or summed): the TF Playground's square error (nn.ts Errors.SQUARE),
    whose derivative is the plain difference ``input - target``. One graph node, where ``0.5 * mse_loss`` is
    four: a quarter of a small network's step in the TF Playground setting."""
    target = as_tensor(target)
    _check_same_shape("half_mse_loss", input, target)
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, not {reduction!r}")
    d = input.data - target.data
    loss = 0.5 * d * d
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return make_result(np.asarray(loss), "half_mse_loss", (input, target), _half_mse_rule, (reduction, d))


def _half_mse_rule(node, g):
    # d/dx 0.5 (x - y)^2 = x - y,  d/dy = -(x - y)  (times 1/n for the mean)
    input, target = node._prev
    reduction, d = node._ctx
    if reduction == "mean":
        g = g / d.size
    slope = g * d
    return (slope if input.requires_grad else None, -slope if target.requires_grad else None)


def binary_cross_entropy_with_logits(input: Tensor, target, reduction: str = "mean") -> Tensor:
    """``-[y log sigmoid(x) + (1-y) log(1-sigmoid(x))]``, computed stably as
    ``max(x, 0) - x*y + log(1 + exp(-|x|))`` so that no logit overflows."""
    target = as_tensor(target)
    _check_same_shape("binary_cross_entropy_with_logits", input, target)
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, not {reduction!r}")
    x, y = input.data, target.data
    z = np.exp(-np.abs(x))  # also the rule's way to sigmoid(x)
    loss = np.maximum(x, 0.0) - x * y + np.log1p(z)
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return make_result(np.asarray(loss), "bce_with_logits", (input, target), _bce_with_logits_rule, (reduction, z))


def _bce_with_logits_rule(node, g):
    # d/dx = sigmoid(x) - y,  d/dy = -x  (times 1/n for the mean)
    input, target = node._prev
    x = input.data
    reduction, z = node._ctx
    if reduction == "mean":
        g = g / x.size
    # sigmoid(x) = 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below: with z = e^-|x|, never overflowing
    sigmoid = np.where(x >= 0, 1.0, z) / (1.0 + z)
    return (
        g * (sigmoid - target.data) if input.requires_grad else None,
        g * -x if target.requires_grad else None,
    )


def huber_loss(input: Tensor, target, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """Squared error near the target and absolute error far from it, as ``torch.nn.functional.huber_loss``:
    ``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - 0.5 delta)``, for ``d = input - target``.
    Its gradient is ``d`` clipped to ``[-delta, delta]``: an outlier pulls no harder than ``delta``."""
    target = as_tensor(target)
    _check_same_shape("huber_loss", input, target)
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, not {reduction!r}")
    if not delta > 0:
        raise ValueError(f"huber_loss: delta must be > 0, got {delta}")
    d = input.data - target.data
    z = np.abs(d)
    # nan stays nan: nan < delta is False, and delta * (nan - ...) is nan.
    loss = np.where(z < delta, 0.5 * d * d, delta * (z - 0.5 * delta))
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return make_result(np.asarray(loss), "huber_loss", (input, target), _huber_rule, (reduction, delta))


def _huber_rule(node, g):
    # d/dx = clip(x - y, -delta, delta),  d/dy = -clip(x - y, -delta, delta)  (times 1/n for the mean)
    input, target = node._prev
    reduction, delta = node._ctx
    if reduction == "mean":
        g = g / input.data.size
    slope = g * np.clip(input.data - target.data, -delta, delta)  # np.clip keeps nan
    return (slope if input.requires_grad else None, -slope if target.requires_grad else None)


def hinge_loss(input: Tensor, target, margin: float = 1.0, reduction: str = "mean") -> Tensor:
    """The SVM max-margin loss of micrograd's demo, ``max(0, margin - y*x)``, for labels y = -1 or +1."""
    target = as_tensor(target)
    _check_same_shape("hinge_loss", input, target)
    return _reduce((margin - target * input).relu(), reduction)


def cross_entropy(input: Tensor, target, reduction: str = "mean") -> Tensor:
    """``-log softmax(input)[target]`` for logits of shape (N, C) and integer class labels (N,)."""
    labels = np.asarray(target.data if isinstance(target, Tensor) else target)
    if input.ndim != 2 or labels.shape != input.shape[:1]:
        raise ValueError(f"cross_entropy: logits of shape {input.shape} need labels of shape {input.shape[:1]}, "
                         f"got {labels.shape}")
    if not np.issubdtype(labels.dtype, np.integer):
        if not np.all(labels == np.round(labels)):
            raise ValueError("cross_entropy: target must hold integer class labels")
        labels = labels.astype(np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= input.shape[1]):
        raise ValueError(f"cross_entropy: labels must lie in [0, {input.shape[1]}), got {labels.min()}..{labels.max()}")
    picked = input.log_softmax(axis=1)[np.arange(len(labels)), labels]
    return _reduce(-picked, reduction)
