"""Tensor layers with PyTorch's names, layouts and default initialisation."""

from __future__ import annotations

import math

import numpy as np

from .._random import generator as _default_generator
from ..tensor import Tensor
from . import functional as F
from . import init
from .module import Module


class Linear(Module):
    """``y = x W^T + b``; W and b uniform in +-1/sqrt(in_features), as PyTorch's default."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True):
        self.in_features, self.out_features = in_features, out_features
        self.weight = Tensor(np.empty((out_features, in_features)), requires_grad=True)
        self.bias = Tensor(np.empty(out_features), requires_grad=True) if bias else None
        self.reset_parameters()

    def reset_parameters(self, generator: np.random.Generator | None = None) -> None:
        """PyTorch's default: weight and bias uniform in +-1/sqrt(in_features) (for the weight that is
        ``init.kaiming_uniform_(w, a=sqrt(5))``), drawn from ``generator`` or the engine's."""
        bound = 1.0 / math.sqrt(self.in_features) if self.in_features else 0.0
        init.uniform_(self.weight, -bound, bound, generator)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound, generator)

    def forward(self, x):
        return F.linear(x, self.weight, self.bias)

    def __repr__(self) -> str:
        return f"Linear(in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None})"


class Identity(Module):
    """The linear activation (the TF Playground's "Linear"): passes its input on unchanged, as
    ``torch.nn.Identity``, so a network without a non-linearity is built as the others are."""

    def forward(self, x):
        return x


class Tanh(Module):
    def forward(self, x):
        return x.tanh()


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class Sigmoid(Module):
    def forward(self, x):
        return x.sigmoid()


class LeakyReLU(Module):
    def __init__(self, negative_slope: float = 0.01):
        self.negative_slope = negative_slope

    def forward(self, x):
        return x.leaky_relu(self.negative_slope)

    def __repr__(self) -> str:
        return f"LeakyReLU(negative_slope={self.negative_slope})"


class Dropout(Module):
    """Inverted dropout, as ``torch.nn.Dropout``: in training mode each element is zeroed with probability ``p``
    and the others scaled by 1 / (1 - p), so that every unit's expected output stays what it is; in evaluation
    mode (`Module.eval`) its input, unchanged. ``p`` = 0 passes everything on, and draws nothing.

    The mask comes from ``generator`` (a ``numpy.random.Generator``, or anything with its ``random(shape)``);
    None: the engine's own, seeded by `engine.manual_seed`. An element is kept where its uniform draw in
    [0, 1) is at least ``p``, which happens with probability 1 - p, PyTorch's Bernoulli(1 - p).
    """

    def __init__(self, p: float = 0.5, generator=None):
        if isinstance(p, bool) or not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p!r}")
        self.p = float(p)
        self.generator = generator

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        draws = (self.generator if self.generator is not None else _default_generator()).random(x.shape)
        # The mask, scaled, multiplies the input as a constant: d/dx (x * m / (1 - p)) = m / (1 - p), so the
        # dropped elements pass no gradient back. p = 1 drops everything (PyTorch's zeros, not 0/0).
        scale = (draws >= self.p) / (1.0 - self.p) if self.p < 1.0 else np.zeros(x.shape)
        return x * Tensor(scale, dtype=x.data.dtype)

    def __repr__(self) -> str:
        return f"Dropout(p={self.p})"


class Sequential(Module):
    """Modules applied in order; parameters named ``0.weight``, ``0.bias``, ... as PyTorch."""

    def __init__(self, *modules: Module):
        self.modules = list(modules)

    def forward(self, x):
        for module in self.modules:
            x = module(x)
        return x

    def _all_named_parameters(self, prefix: str = ""):
        for index, module in enumerate(self.modules):
            yield from module._all_named_parameters(prefix=f"{prefix}{index}.")

    def __getitem__(self, index: int) -> Module:
        return self.modules[index]

    def __len__(self) -> int:
        return len(self.modules)

    def __repr__(self) -> str:
        inner = "\n".join(f"  ({i}): {module!r}" for i, module in enumerate(self.modules))
        return f"Sequential(\n{inner}\n)"
