"""Forward mode: a derivative pushed forwards through a recorded graph, beside autograd's reverse mode.

Reverse mode (``backward()``) gives the derivative of one output with respect to every input in a
single backward sweep. Forward mode gives the derivative of every node along one direction in the
inputs, in a single forward sweep: each leaf gets a *tangent* (how fast it moves), and each op's
tangent is the sum over its operands of (local derivative) x (operand's tangent), the Jacobian-
vector product (JVP) that `jax.jvp` and `torch.func.jvp` compute. For all n gradients of one
output it takes n sweeps, one per input, where reverse mode takes one: the reason neural networks
train with reverse mode.

This module walks the graph the engine already recorded (parents before children, the order
``backward()`` uses, forwards) and needs nothing saved beyond what the forward pass keeps.

- `forward_steps` yields one `ForwardStep` per edge, in the order a forward sweep meets them: the
  animator replays forward mode from it, as it replays reverse mode from ``backward_steps``.
- `jvp` runs it to the end and returns the output's tangent.

Scalars (`Value`) take their local derivatives from the same rules as the backward pass. Tensor
ops have a tangent rule each (`_TENSOR_RULES`), next to the formula they implement; a tensor
Jacobian is never built.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

from . import ops
from .autograd import topological_order
from .nn import functional
from .tensor import Tensor, _freed_rule


class ForwardStep(NamedTuple):
    """One edge of a forward sweep: ``parent``'s tangent carried into ``node``.

    ``contribution = local x tangent`` (for tensors, a Jacobian-vector product; ``local`` is then
    None), ``total`` is the node's tangent so far, ``index`` the parent's position among the node's
    operands (``x*x`` gives edges 0 and 1).
    """

    node: Any
    parent: Any
    local: Any
    tangent: Any
    contribution: Any
    total: Any
    index: int


def forward_steps(output, tangents: Mapping) -> Iterator[ForwardStep]:
    """The forward sweep from the leaves' ``tangents`` (a mapping from leaves of ``output``'s graph to
    their tangents; a leaf left out has tangent 0) up to ``output``, one step per edge whose parent
    carries a tangent. Each node's tangent is complete once its last step has been yielded."""
    order = topological_order(output)
    seeds = _checked_seeds(order, output, tangents)
    tangent: dict[int, Any] = dict(seeds)
    is_tensor = isinstance(output, Tensor)
    for node in order:
        if node._backward is None:
            continue
        if node._backward is _freed_rule:
            raise RuntimeError("this graph's saved values were freed by backward(): call backward(retain_graph=True) "
                               "to take its derivatives forwards afterwards")
        total = None
        locals_ = None if is_tensor else type(node)._local_derivatives(node)
        for index, parent in enumerate(node._prev):
            carried = tangent.get(id(parent))
            if carried is None:
                continue
            if is_tensor:
                local, contribution = None, _tensor_contribution(node, index, carried)
            else:
                local = locals_[index]
                if local is None:  # an operand that takes no derivative (a constant exponent)
                    continue
                contribution = local * carried
            total = contribution if total is None else total + contribution
            yield ForwardStep(node, parent, local, carried, contribution, total, index)
        if total is not None:
            tangent[id(node)] = total


def jvp(output, tangents: Mapping):
    """The derivative of ``output`` along ``tangents`` (leaf -> tangent, each the leaf's shape), computed
    in one forward sweep over the recorded graph: ``sum over leaves x of d(output)/d(x) . tangent[x]``.

    A float for a `Value` graph, an array of ``output``'s shape for a `Tensor` graph. Leaves left out
    of ``tangents`` stand still (tangent 0).
    """
    last = {}
    for step in forward_steps(output, tangents):
        last[id(step.node)] = step.total
    if id(output) in last:
        return last[id(output)]
    seeded = {id(leaf): t for leaf, t in tangents.items()}
    if id(output) in seeded:  # the output is itself a leaf
        return _as_tangent(output, seeded[id(output)])
    return np.zeros(output.shape) if isinstance(output, Tensor) else 0.0


def _checked_seeds(order: list, output, tangents: Mapping) -> dict[int, Any]:
    nodes = {id(node) for node in order}
    seeds = {}
    for leaf, tangent in tangents.items():
        if id(leaf) not in nodes:
            raise ValueError(f"{_name(leaf)} is not part of the graph of the output: it has no tangent to give")
        if leaf._backward is not None:
            raise ValueError(f"{_name(leaf)} is computed from other nodes: tangents are given to leaves")
        seeds[id(leaf)] = _as_tangent(leaf, tangent)
    return seeds


def _as_tangent(leaf, tangent):
    if isinstance(leaf, Tensor):
        array = np.asarray(tangent.data if isinstance(tangent, Tensor) else tangent, dtype=np.float64)
        if array.shape != leaf.shape:
            raise ValueError(f"the tangent of {_name(leaf)} has shape {array.shape}, the leaf has shape {leaf.shape}")
        return array
    return float(tangent)


def _name(node) -> str:
    label = getattr(node, "label", "")
    return repr(label) if label else f"a {type(node).__name__}"


# -- tensor tangent rules: rule(node, index, t) -> what operand ``index``'s tangent t adds to node's --


def _tensor_contribution(node, index: int, t: np.ndarray) -> np.ndarray:
    rule = _TENSOR_RULES.get(node._backward)
    if rule is None:
        raise NotImplementedError(f"forward mode has no tangent rule for the op {node._op!r}")
    with np.errstate(all="ignore"):  # IEEE semantics: inf and nan are shown, not raised
        return np.broadcast_to(rule(node, index, t), node.shape)


def _operand(node, index: int) -> np.ndarray:
    return node._prev[index].data


def _add(node, i, t):  # d(a+b) = da + db
    return t


def _sub(node, i, t):  # d(a-b) = da - db
    return t if i == 0 else -t


def _mul(node, i, t):  # d(a*b) = da*b + a*db
    return t * _operand(node, 1 - i)


def _div(node, i, t):  # d(a/b) = da/b - a*db/b^2
    a, b = _operand(node, 0), _operand(node, 1)
    return t / b if i == 0 else -t * a / (b * b)


def _pow(node, i, t):  # d(a^b) = b*a^(b-1)*da + a^b*ln(a)*db (0 where PyTorch has 0)
    a, b = _operand(node, 0), _operand(node, 1)
    if i == 0:
        return t * np.where(b == 0.0, 0.0, b * np.power(a, b - 1.0))
    return t * np.where((a == 0.0) & (b >= 0.0), 0.0, node.data * np.log(a))


def _neg(node, i, t):  # d(-a) = -da
    return -t


def _matmul(node, i, t):  # d(A@B) = dA@B + A@dB
    return np.matmul(t, _operand(node, 1)) if i == 0 else np.matmul(_operand(node, 0), t)


def _exp(node, i, t):  # d e^a = e^a da
    return t * node.data


def _log(node, i, t):  # d ln(a) = da / a
    return t / _operand(node, 0)


def _tanh(node, i, t):  # d tanh(a) = (1 - tanh(a)^2) da
    return t * (1.0 - node.data * node.data)


def _sigmoid(node, i, t):  # d sigmoid(a) = s (1 - s) da
    return t * (node.data * (1.0 - node.data))


def _relu(node, i, t):  # d relu(a) = da where a > 0, else 0
    return np.where(_operand(node, 0) > 0, t, 0.0)


def _leaky_relu(node, i, t):  # d leaky_relu(a) = da where a > 0, else slope * da
    return np.where(_operand(node, 0) > 0, t, t * node._ctx)


def _abs(node, i, t):  # d|a| = sign(a) da
    return t * np.sign(_operand(node, 0))


def _sum(node, i, t):  # d sum(a) = sum(da)
    axis, keepdims = node._ctx
    return np.sum(t, axis=axis, keepdims=keepdims)


def _mean(node, i, t):  # d mean(a) = mean(da)
    axis, keepdims, count = node._ctx
    return np.sum(t, axis=axis, keepdims=keepdims) / count


def _max(node, i, t):  # d max(a) = da at the maximum, shared evenly among ties (as the backward rule)
    a = _operand(node, 0)
    axis, keepdims = node._ctx
    is_max = a == ops._expand_reduced(node.data, a.shape, axis, keepdims)
    ties = np.sum(is_max, axis=axis, keepdims=True)
    return np.sum(is_max * t / ties, axis=axis, keepdims=keepdims)


def _logsumexp(node, i, t):  # d logsumexp(a) = sum(softmax(a) da)
    a = _operand(node, 0)
    axis, keepdims = node._ctx
    weights = np.exp(a - ops._expand_reduced(node.data, a.shape, axis, keepdims))
    return np.sum(weights * t, axis=axis, keepdims=keepdims)


def _softmax(node, i, t):  # d softmax(a) = s (da - sum(s da))
    s = node.data
    return s * (t - np.sum(s * t, axis=node._ctx, keepdims=True))


def _log_softmax(node, i, t):  # d log_softmax(a) = da - sum(softmax(a) da)
    return t - np.sum(np.exp(node.data) * t, axis=node._ctx, keepdims=True)


def _reshape(node, i, t):  # reshape moves no numbers: neither does its tangent
    return t.reshape(node.shape)


def _transpose(node, i, t):  # the tangent is permuted as the value is
    return np.transpose(t, node._ctx)


def _getitem(node, i, t):  # the tangent of the elements picked
    return t[node._ctx]


def _concatenate(node, i, t):  # operand i's tangent in its own slice, zero elsewhere
    axis, _ = node._ctx
    pieces = [t if j == i else np.zeros(p.shape) for j, p in enumerate(node._prev)]
    return np.concatenate(pieces, axis=axis)


def _stack(node, i, t):  # operand i's tangent in its own layer, zero elsewhere
    pieces = [t if j == i else np.zeros(p.shape) for j, p in enumerate(node._prev)]
    return np.stack(pieces, axis=node._ctx)


def _linear(node, i, t):  # d(x W^T + b) = dx W^T + x dW^T + db
    x, weight = _operand(node, 0), _operand(node, 1)
    if i == 0:
        return t @ weight.T
    return x @ t.T if i == 1 else t


def _bce_with_logits(node, i, t):  # d loss = (sigmoid(x) - y) dx - x dy, then reduced as the loss was
    x, y = _operand(node, 0), _operand(node, 1)
    z = np.exp(-np.abs(x))
    sigmoid = np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))
    elementwise = t * (sigmoid - y) if i == 0 else -t * x
    reduction, _ = node._ctx
    return elementwise.mean() if reduction == "mean" else elementwise.sum() if reduction == "sum" else elementwise


def _huber(node, i, t):  # d loss = clip(x - y, -delta, delta) (dx - dy), then reduced as the loss was
    reduction, delta = node._ctx
    slope = np.clip(_operand(node, 0) - _operand(node, 1), -delta, delta)
    elementwise = t * slope if i == 0 else -t * slope
    return elementwise.mean() if reduction == "mean" else elementwise.sum() if reduction == "sum" else elementwise


_TENSOR_RULES = {
    functional._linear_rule: _linear, functional._bce_with_logits_rule: _bce_with_logits,
    functional._huber_rule: _huber,
    ops._add_rule: _add, ops._sub_rule: _sub, ops._mul_rule: _mul, ops._div_rule: _div, ops._pow_rule: _pow,
    ops._neg_rule: _neg, ops._matmul_rule: _matmul, ops._exp_rule: _exp, ops._log_rule: _log,
    ops._tanh_rule: _tanh, ops._sigmoid_rule: _sigmoid, ops._relu_rule: _relu, ops._leaky_relu_rule: _leaky_relu,
    ops._abs_rule: _abs, ops._sum_rule: _sum, ops._mean_rule: _mean, ops._max_rule: _max,
    ops._logsumexp_rule: _logsumexp, ops._softmax_rule: _softmax, ops._log_softmax_rule: _log_softmax,
    ops._reshape_rule: _reshape, ops._transpose_rule: _transpose, ops._getitem_rule: _getitem,
    ops._concatenate_rule: _concatenate, ops._stack_rule: _stack,
}
