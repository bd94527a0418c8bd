"""Gradient health, free of Qt: each layer's weight-gradient norm after every training step, kept as it
comes, and the share of each hidden layer's saturated tanh/sigmoid units and dead ReLUs
(`engine.nn.gradient_health`), handed to the GUI as copies (`HealthFrame`). A graph drawn in the editor has
no layers: each of its parameters' gradient norm is logged instead, a line a parameter, named."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.nn import Linear, gradient_health

from ...graph.network import GraphNetwork
from .peaks import MAX_SHOWN, peak_bins

__all__ = ["MAX_SHOWN", "GradientLog", "HealthFrame", "peak_bins"]


@dataclass(frozen=True)
class HealthFrame:
    """What the gradient health plot draws: the points of its lines, steps (n,) and norms (n, layers),
    every step's or, past `MAX_SHOWN` steps, each bin of `steps_per_bin` steps as two points (`peak_bins`);
    the norms at the last step (`latest`); and per layer (first to output) its activation and the share
    of saturated and of dead units (None where it does not apply)."""

    steps: np.ndarray
    norms: np.ndarray
    activations: tuple[str | None, ...]
    saturated: tuple[float | None, ...]
    dead: tuple[float | None, ...]
    latest: np.ndarray = field(default_factory=lambda: np.empty(0))
    steps_per_bin: int = 1
    names: tuple[str, ...] = ()  # a graph's: the parameter each line is (the layer form's lines are layers 1..n)


class GradientLog:
    """Each `Linear`'s weight-gradient norm (Frobenius) after each step, grown by doubling; for a graph, each
    parameter's."""

    def __init__(self, model):
        if isinstance(model, GraphNetwork):
            named = list(model.named_parameters())
            self.names = tuple(name for name, _ in named)
            self._watched = [parameter for _, parameter in named]
        else:
            self.names = ()
            self._watched = [module.weight for module in model.modules if isinstance(module, Linear)]
        self._steps = np.empty(256)
        self._norms = np.empty((256, len(self._watched)))
        self.size = 0

    def record(self, step: int) -> None:
        """The gradients the step just taken left on the weights (the optimizer zeroes them before the next)."""
        if self.size == len(self._steps):
            self._steps = np.concatenate([self._steps, np.empty_like(self._steps)])
            self._norms = np.concatenate([self._norms, np.empty_like(self._norms)])
        self._steps[self.size] = step
        for column, watched in enumerate(self._watched):
            grad = watched.grad
            self._norms[self.size, column] = np.sqrt(np.sum(grad * grad)) if grad is not None else np.nan
        self.size += 1

    @property
    def steps(self) -> np.ndarray:
        return self._steps[:self.size]

    @property
    def norms(self) -> np.ndarray:
        return self._norms[:self.size]

    def frame(self, model, x: np.ndarray) -> HealthFrame:
        """Copies for the plot (at most `MAX_SHOWN` points, `peak_bins`), with the unit shares over the
        points ``x`` (one forward pass)."""
        steps, norms, steps_per_bin = peak_bins(self.steps, self.norms)
        latest = self.norms[-1].copy() if self.size else np.empty(0)
        if self.names:  # a graph: no layers of units to count saturated or dead
            nothing = (None,) * len(self.names)
            return HealthFrame(steps, norms, nothing, nothing, nothing, latest, steps_per_bin, self.names)
        with np.errstate(all="ignore"):
            layers = gradient_health(model, x=x)
        return HealthFrame(steps, norms, tuple(h.activation for h in layers), tuple(h.saturated for h in layers),
                           tuple(h.dead for h in layers), latest, steps_per_bin)
