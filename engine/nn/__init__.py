"""Networks: scalar micrograd-style (`Neuron`, `Layer`, `MLP`) and tensor PyTorch-style layers (with `Dropout`,
on in training mode and off after `Module.eval`); their losses
(`functional`), regularisation (`regularization`) and per-layer gradient health (`health`)."""

from . import functional, health, regularization
from .health import LayerHealth, gradient_health
from .layers import Dropout, Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .regularization import Regularization
from .scalar import MLP, Layer, Neuron

__all__ = [
    "MLP",
    "Dropout",
    "Identity",
    "Layer",
    "LayerHealth",
    "LeakyReLU",
    "Linear",
    "Module",
    "Neuron",
    "Regularization",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Tanh",
    "functional",
    "gradient_health",
    "health",
    "regularization",
]
