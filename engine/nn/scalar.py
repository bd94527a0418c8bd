"""Scalar networks on `Value`s, micrograd's `Neuron`, `Layer` and `MLP`."""

from __future__ import annotations

from .._random import generator
from ..value import Value
from .module import Module

ACTIVATIONS = ("tanh", "relu", "sigmoid", "linear")


class Neuron(Module):
    """``activation(w . x + b)`` with weights uniform in [-1, 1] and b = 0, as micrograd."""

    def __init__(self, nin: int, activation: str = "tanh"):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; choose one of {ACTIVATIONS}")
        self.w = [Value(w) for w in generator().uniform(-1.0, 1.0, nin)]
        self.b = Value(0.0)
        self.activation = activation

    def forward(self, x):
        if len(x) != len(self.w):
            raise ValueError(f"neuron with {len(self.w)} inputs got {len(x)}")
        # One node for b + w1*x1 + ... + wn*xn: the same number, added in the same order as
        # micrograd's chain of * and +, in a graph with one node instead of 2n.
        total = Value.dot(self.w, x, bias=self.b)
        if self.activation == "linear":
            return total
        return getattr(total, self.activation)()

    def __repr__(self) -> str:
        return f"Neuron({len(self.w)}, activation={self.activation!r})"


class Layer(Module):
    def __init__(self, nin: int, nout: int, activation: str = "tanh"):
        self.neurons = [Neuron(nin, activation) for _ in range(nout)]

    def forward(self, x):
        out = [neuron(x) for neuron in self.neurons]
        return out[0] if len(out) == 1 else out

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(map(repr, self.neurons))}]"


class MLP(Module):
    """``MLP(2, [16, 16, 1], activation='relu', linear_output=True)`` is micrograd's demo network.

    By default every layer applies the activation (the network of micrograd's lecture).
    """

    def __init__(self, nin: int, nouts: list[int], activation: str = "tanh", linear_output: bool = False):
        sizes = [nin, *nouts]
        last = len(nouts) - 1
        self.layers = [
            Layer(sizes[i], sizes[i + 1], "linear" if (linear_output and i == last) else activation)
            for i in range(len(nouts))
        ]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(map(repr, self.layers))}]"
