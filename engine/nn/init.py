"""Weight initialisation with `torch.nn.init`'s names, formulas and in-place convention.

Each function fills a `Tensor` (or a numpy array) in place and returns it. Random ones draw
from ``generator`` (a ``numpy.random.Generator``), by default the engine's own, seeded by
`engine.manual_seed` as ``torch.manual_seed`` seeds PyTorch's.

`tf_playground_` is the TF Playground's start, for a whole network: weights U(-0.5, 0.5), biases 0.1.

The fans are PyTorch's: for a weight of shape (out, in, *kernel), fan_in = in x prod(kernel)
and fan_out = out x prod(kernel). PyTorch's `Linear` draws its weight with
``kaiming_uniform_(w, a=sqrt(5))``, which is uniform in +-1/sqrt(fan_in).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._random import generator as _default_generator
from ..tensor import Tensor

__all__ = [
    "calculate_gain",
    "constant_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "tf_playground_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]

_LINEAR_FUNCTIONS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                     "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor by which a nonlinearity shrinks (or keeps) the spread of its input, as PyTorch's:
    1 for linear and sigmoid, 5/3 for tanh, sqrt(2) for relu, sqrt(2 / (1 + slope^2)) for
    leaky_relu (slope 0.01 unless ``param`` says), 3/4 for selu."""
    if nonlinearity in _LINEAR_FUNCTIONS or nonlinearity == "sigmoid":
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, numbers.Real) and not isinstance(param, bool):
            slope = float(param)
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _array(tensor) -> np.ndarray:
    return tensor.data if isinstance(tensor, Tensor) else tensor


def _fill(tensor, values) -> Tensor | np.ndarray:
    array = _array(tensor)
    array[...] = values  # in place, keeping the tensor's dtype (float32 twins stay float32)
    return tensor


def _calculate_fan_in_and_fan_out(tensor) -> tuple[int, int]:
    shape = _array(tensor).shape
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _rng(generator: np.random.Generator | None) -> np.random.Generator:
    return generator if generator is not None else _default_generator()


def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator: np.random.Generator | None = None):
    """Fill with draws from U(a, b)."""
    return _fill(tensor, _rng(generator).uniform(a, b, _array(tensor).shape))


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator: np.random.Generator | None = None):
    """Fill with draws from N(mean, std^2)."""
    return _fill(tensor, _rng(generator).normal(mean, std, _array(tensor).shape))


def constant_(tensor, val: float):
    return _fill(tensor, val)


def ones_(tensor):
    return _fill(tensor, 1.0)


def zeros_(tensor):
    return _fill(tensor, 0.0)


def xavier_uniform_(tensor, gain: float = 1.0, generator: np.random.Generator | None = None):
    """Glorot & Bengio (2010): U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)), so that a signal
    keeps its variance both forward and backward through a linear layer."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std  # a uniform on [-a, a] has standard deviation a / sqrt(3)
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain: float = 1.0, generator: np.random.Generator | None = None):
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator: np.random.Generator | None = None):
    """He et al. (2015): U(-bound, bound) with bound = gain * sqrt(3 / fan), the gain of
    ``nonlinearity`` (with negative slope ``a`` for leaky_relu; a = 0 is plain relu)."""
    if 0 in _array(tensor).shape:
        return tensor  # nothing to fill, as PyTorch (which also warns)
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator: np.random.Generator | None = None):
    """N(0, std^2) with std = gain / sqrt(fan)."""
    if 0 in _array(tensor).shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


TF_PLAYGROUND_BIAS = 0.1  # nn.ts: every Node starts with bias = 0.1


def tf_playground_(module, generator: np.random.Generator | None = None, uniform=None):
    """The TF Playground's initial network (nn.ts buildNetwork), in place: every parameter named
    ``weight`` (a `Linear`'s matrix) uniform in [-0.5, 0.5), every ``bias`` 0.1. Returns ``module``.

    Its links draw ``Math.random() - 0.5`` as they are made: layer by layer, for each neuron of the layer,
    for each node of the layer before. With PyTorch's layout (out_features, in_features) that is each
    weight matrix in row-major order, the layers in order: the order taken here from ``uniform`` (a uniform
    source, ``uniform(n)`` -> the next n numbers in [0, 1), see `engine.seedrandom`), so the
    stream that made a TF Playground page's data gives its first weights too. Without ``uniform``,
    ``generator``'s (or the engine's) uniform numbers, which only share the distribution.
    """
    draw = uniform if uniform is not None else _rng(generator).random
    for name, parameter in module.named_parameters():
        kind = name.rsplit(".", 1)[-1]
        if kind == "weight":
            shape = _array(parameter).shape
            _fill(parameter, np.asarray(draw(math.prod(shape)), dtype=np.float64).reshape(shape) - 0.5)
        elif kind == "bias":
            constant_(parameter, TF_PLAYGROUND_BIAS)
        else:
            raise ValueError(f"tf_playground_: {name} is neither a weight nor a bias")
    return module
