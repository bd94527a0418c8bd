"""Networks: scalar micrograd-style (`Neuron`, `Layer`, `MLP`) and tensor PyTorch-style layers."""

from . import functional
from .layers import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from .module import Module
from .scalar import MLP, Layer, Neuron

__all__ = [
    "MLP",
    "Identity",
    "Layer",
    "LeakyReLU",
    "Linear",
    "Module",
    "Neuron",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Tanh",
    "functional",
]
