"""Networks: scalar micrograd-style (`Neuron`, `Layer`, `MLP`) and tensor PyTorch-style layers."""

from . import functional, regularization
from .layers import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .regularization import Regularization
from .scalar import MLP, Layer, Neuron

__all__ = [
    "MLP",
    "Identity",
    "Layer",
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
    "regularization",
]
