"""Autograd Playground's engine: reverse-mode autodiff on scalars (`Value`) and numpy arrays (`Tensor`).

Qt-free: the app imports the engine, never the other way round.
"""

from ._random import manual_seed
from .autograd import BackwardStep, is_grad_enabled, no_grad
from .forward import ForwardStep, forward_steps, jvp
from .ops import concatenate, stack
from .paths import GradientPath, PathSum, paths
from .tensor import Tensor
from .value import Value

__all__ = [
    "BackwardStep",
    "ForwardStep",
    "GradientPath",
    "PathSum",
    "Tensor",
    "Value",
    "concatenate",
    "forward_steps",
    "is_grad_enabled",
    "jvp",
    "manual_seed",
    "no_grad",
    "paths",
    "stack",
]
