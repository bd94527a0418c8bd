"""Networks: scalar micrograd-style (`Neuron`, `Layer`, `MLP`) and tensor PyTorch-style layers; their losses
(`functional`), regularisation (`regularization`) and per-layer gradient health (`health`)."""

from . import functional, health, regularization
from .health import LayerHealth, gradient_health
from .layers import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .regularization import Regularization
from .scalar import MLP, Layer, Neuron

__all__ = [
    "MLP",
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
