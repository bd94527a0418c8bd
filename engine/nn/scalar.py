"""Scalar networks on `Value`s, micrograd's `Neuron`, `Layer` and `MLP`."""

from __future__ import annotations

from .._random import generator
from ..value import Value
from .module import Module

ACTIVATIONS = ("tanh", "relu", "sigmoid", "linear")


class Neuron(Module):
    """``activation(w . x + b)`` with weights uniform in [-1, 1] and b = 0, as micrograd.

    Its parameters are labelled as in micrograd's lecture, w1, w2, ..., b; inside a layer or a
    network they carry the neuron's place too (``w1.2.3``: layer 1, neuron 2, input 3; ``b1.2``),
    so that a picture of the graph can tell every one apart.
    """

    def __init__(self, nin: int, activation: str = "tanh", name: str = ""):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; choose one of {ACTIVATIONS}")
        place = f"{name}." if name else ""
        self.w = [Value(w, f"w{place}{k}") for k, w in enumerate(generator().uniform(-1.0, 1.0, nin), start=1)]
        self.b = Value(0.0, f"b{name}")
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
    def __init__(self, nin: int, nout: int, activation: str = "tanh", name: str = ""):
        place = f"{name}." if name else ""
        self.neurons = [Neuron(nin, activation, f"{place}{j}") for j in range(1, nout + 1)]

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
            Layer(sizes[i], sizes[i + 1], "linear" if (linear_output and i == last) else activation, str(i + 1))
            for i in range(len(nouts))
        ]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def __repr__(self) -> str:
        return f"MLP of [{', '.join(map(repr, self.layers))}]"
