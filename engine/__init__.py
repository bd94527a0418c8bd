"""Autograd Playground's engine: reverse-mode autodiff on scalars (`Value`) and numpy arrays (`Tensor`).

Qt-free: the app imports the engine, never the other way round.
"""

from ._random import manual_seed
from .autograd import BackwardStep, is_grad_enabled, no_grad
from .ops import concatenate, stack
from .tensor import Tensor
from .value import Value

__all__ = [
    "BackwardStep",
    "Tensor",
    "Value",
    "concatenate",
    "is_grad_enabled",
    "manual_seed",
    "no_grad",
    "stack",
]
