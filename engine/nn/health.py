"""Gradient health of a `Sequential` MLP, layer by layer: how large each layer's weight gradient is, and
how many of its units pass almost no gradient on (saturated tanh/sigmoid units, dead ReLUs).

Backpropagation multiplies the gradient by each layer's weights and by each unit's local slope on
its way down. A sigmoid's slope is at most 1/4, so through six sigmoid layers the gradient reaching
the first is typically thousands of times smaller than at the last (vanishing gradients); a unit
driven far into a flat tail of tanh or sigmoid passes almost nothing back (saturation); a ReLU
whose input is negative on every point passes exactly nothing and never learns again (dead).

Thresholds, one rule for both squashing functions: a unit is saturated on a point where its local
derivative is below 2% of the function's largest. For tanh (slope 1 - a^2, largest 1) that is
``|a| > sqrt(0.98) ~ 0.990``; for sigmoid (slope a (1 - a), largest 1/4) it is ``a < 0.00503`` or
``a > 0.99497``. The usual rules of thumb, |tanh| > 0.99 and sigmoid outside [0.01, 0.99], would let
a sigmoid unit pass twice the share of its peak slope (3.96%) that a tanh unit may (1.99%) and still
count as saturated; one rule on the slope treats both alike. A ReLU is dead on a batch when its
output is 0 for every point of it (input <= 0 everywhere), so its weights get exactly no gradient.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..autograd import no_grad
from ..tensor import Tensor
from .layers import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh

SATURATION_SLOPE = 0.02  # a unit is saturated where its slope is below 2% of its largest
# The activation values at which that happens, from the slope rules above.
TANH_SATURATED = float(np.sqrt(1.0 - SATURATION_SLOPE))  # |tanh| above this: 1 - a^2 < 0.02
SIGMOID_SATURATED = float((1.0 - np.sqrt(1.0 - SATURATION_SLOPE)) / 2.0)  # below this or above 1 - it: 4a(1-a) < 0.02

_ACTIVATIONS = {Tanh: "tanh", Sigmoid: "sigmoid", ReLU: "relu", LeakyReLU: "leaky_relu", Identity: "identity"}


def activation_name(module) -> str | None:
    """The activation ``module`` applies ("tanh", ...), or None. An activation followed by dropout, the
    ``Sequential(Tanh(), Dropout(p))`` PyTorch code writes, is its first module's: the dropout (identity once
    the network is evaluated) changes no unit's slope."""
    if isinstance(module, Sequential) and module.modules:
        module = module.modules[0]
    return _ACTIVATIONS.get(type(module))


@dataclass(frozen=True)
class LayerHealth:
    """One `Linear` of the network and the activation after it (None for the output layer).

    ``grad_norm`` and ``weight_norm`` are Frobenius norms of the weight matrix's gradient and of
    the matrix (``grad_norm`` is nan before any backward pass). With activations given,
    ``saturated`` is the share of (point, unit) pairs of a tanh or sigmoid layer that are saturated
    and ``dead`` the share of a ReLU layer's units that are 0 on every point; each is None where it
    does not apply (or no activations were given).
    """

    index: int
    name: str
    activation: str | None
    grad_norm: float
    weight_norm: float
    saturated: float | None = None
    dead: float | None = None


def trace(model: Sequential, x) -> list[np.ndarray]:
    """Each module's output for input ``x`` in one forward pass without a graph: ``len(model)`` arrays (in
    the model's mode: call it on a model in evaluation mode for outputs without dropout)."""
    outputs = []
    with no_grad():
        h = x if isinstance(x, Tensor) else Tensor(np.asarray(x, dtype=np.float64))
        for module in model.modules:
            h = module(h)
            outputs.append(h.data)
    return outputs


def saturated_share(activation: str, values: np.ndarray) -> float | None:
    """The share of entries of ``values`` (outputs of a tanh or sigmoid) that are saturated; None for
    other activations. nan entries count as not saturated."""
    values = np.asarray(values)
    if values.size == 0:
        return float("nan")
    if activation == "tanh":
        return float(np.mean(np.abs(values) > TANH_SATURATED))
    if activation == "sigmoid":
        return float(np.mean((values < SIGMOID_SATURATED) | (values > 1.0 - SIGMOID_SATURATED)))
    return None


def dead_share(activation: str, values: np.ndarray) -> float | None:
    """The share of units (columns of ``values``, rows being points) of a ReLU layer that are 0 on every
    point; None for other activations (a leaky ReLU always passes some gradient)."""
    if activation != "relu":
        return None
    values = np.asarray(values)
    if values.shape[0] == 0:
        return float("nan")
    return float(np.mean(np.all(values.reshape(values.shape[0], -1) == 0.0, axis=0)))


def gradient_health(model: Sequential, x=None, activations=None) -> list[LayerHealth]:
    """One `LayerHealth` per `Linear` of ``model``, first layer first.

    Call it after ``loss.backward()`` for the gradient norms. For the unit statistics give either
    the batch ``x`` (one forward pass is run, without a graph) or ``activations``, the outputs of
    each module of one forward pass as `trace` returns them.
    """
    if not isinstance(model, Sequential):
        raise TypeError(f"gradient_health needs a Sequential, got {type(model).__name__}")
    if x is not None and activations is not None:
        raise ValueError("give x or activations, not both")
    if x is not None:
        activations = trace(model, x)
    if activations is not None and len(activations) != len(model):
        raise ValueError(f"activations: {len(activations)} arrays for a model of {len(model)} modules")
    health = []
    for index, module in enumerate(model.modules):
        if not isinstance(module, Linear):
            continue
        following = model.modules[index + 1] if index + 1 < len(model) else None
        activation = activation_name(following) if following is not None else None
        grad = module.weight.grad
        saturated = dead = None
        if activations is not None and activation is not None:
            values = np.asarray(activations[index + 1])
            saturated, dead = saturated_share(activation, values), dead_share(activation, values)
        health.append(LayerHealth(
            index=index,
            name=f"{index}.weight",
            activation=activation,
            grad_norm=float(np.linalg.norm(grad)) if grad is not None else float("nan"),
            weight_norm=float(np.linalg.norm(module.weight.data)),
            saturated=saturated,
            dead=dead,
        ))
    return health
