"""Gradient health, free of Qt: each layer's weight-gradient norm after every training step, kept as it
comes, and the share of each hidden layer's saturated tanh/sigmoid units and dead ReLUs
(`engine.nn.gradient_health`), handed to the GUI as copies (`HealthFrame`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.nn import Linear, gradient_health

MAX_SHOWN = 1000  # at most this many steps go to the plot (evenly thinned): two a pixel of the widest plot


@dataclass(frozen=True)
class HealthFrame:
    """What the gradient health plot draws: steps (n,), norms (n, layers), and per layer (first to output)
    its activation and the share of saturated and of dead units (None where it does not apply)."""

    steps: np.ndarray
    norms: np.ndarray
    activations: tuple[str | None, ...]
    saturated: tuple[float | None, ...]
    dead: tuple[float | None, ...]


class GradientLog:
    """Each `Linear`'s weight-gradient norm (Frobenius) after each step, grown by doubling."""

    def __init__(self, model):
        self.layers = [module for module in model.modules if isinstance(module, Linear)]
        self._steps = np.empty(256)
        self._norms = np.empty((256, len(self.layers)))
        self.size = 0

    def record(self, step: int) -> None:
        """The gradients the step just taken left on the weights (the optimizer zeroes them before the next)."""
        if self.size == len(self._steps):
            self._steps = np.concatenate([self._steps, np.empty_like(self._steps)])
            self._norms = np.concatenate([self._norms, np.empty_like(self._norms)])
        self._steps[self.size] = step
        for column, layer in enumerate(self.layers):
            grad = layer.weight.grad
            self._norms[self.size, column] = np.sqrt(np.sum(grad * grad)) if grad is not None else np.nan
        self.size += 1

    @property
    def steps(self) -> np.ndarray:
        return self._steps[:self.size]

    @property
    def norms(self) -> np.ndarray:
        return self._norms[:self.size]

    def frame(self, model, x: np.ndarray) -> HealthFrame:
        """Copies for the plot (at most `MAX_SHOWN` steps, the last always among them), with the unit
        shares over the points ``x`` (one forward pass)."""
        picked = np.arange(self.size)
        if self.size > MAX_SHOWN:
            picked = np.unique(np.append(np.linspace(0, self.size - 1, MAX_SHOWN).astype(int), self.size - 1))
        with np.errstate(all="ignore"):
            layers = gradient_health(model, x=x)
        return HealthFrame(self._steps[picked].copy(), self._norms[picked].copy(),
                           tuple(h.activation for h in layers), tuple(h.saturated for h in layers),
                           tuple(h.dead for h in layers))
