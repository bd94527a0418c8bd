"""The numbers a lesson states about its training network's gradient health, from the engine.

Qt-free. A step's text says ``{health.ratio}`` and `HealthFacts` reads it from the network the lesson's
training setup builds at its seed, before any step: the training set through the network, the loss
backwards, and `engine.nn.gradient_health` on it. With a full batch and no L2 that gradient is the one
the first training step takes, so the numbers are the first points of the gradient health plot.

Names (layers are counted as the plot counts them: 1 the first hidden layer, the last the output):

- ``health.layers``: how many layers have weights;
- ``health.norm(k)``: layer k's weight-gradient norm; ``health.first`` and ``health.output`` the first
  and the output layer's;
- ``health.ratio``: how many times smaller the first layer's gradient is than the output layer's;
- ``health.slowest``: the layer whose gradient is smallest (it learns slowest under gradient descent);
- ``health.saturated(k)``: the share of hidden layer k's tanh or sigmoid units that are saturated, in %.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from engine import Tensor
from engine.nn import gradient_health

from ...common.numbers import format_number
from ...training.model.session import TrainingSession, TrainingSettings
from ...training.model.settings import CLASS_COUNTS

PREFIX = "health."
# The settings the gradient at the initial weights depends on: a lesson that states these numbers names
# each, so the panel builds the same network whatever the person had set there before.
DEPENDS_ON = ("problem", "dataset", "points", "noise", "test_fraction", "seed", "features", "hidden", "activation",
              "init", "loss", "batch_size", "regularization")
ASKABLE = ("health.ratio", "health.slowest")  # the names an `ask:` line may ask about
_LAYER = re.compile(r"health\.(norm|saturated)\(\s*(\d+)\s*\)")


def is_health_name(name: str) -> bool:
    return name.startswith(PREFIX)


@dataclass(frozen=True)
class LayerNumbers:
    norm: float                # the weight-gradient norm
    saturated: float | None    # the share of saturated tanh/sigmoid units (None: another activation, or output)


class HealthFacts:
    """A training setup's gradient health at its initial weights, over the whole training set."""

    def __init__(self, settings: TrainingSettings):
        self.settings = settings
        session = TrainingSession(settings, resolution=8)  # the plane is not drawn: a tiny grid
        model = session.model
        with np.errstate(all="ignore"):
            session.loss_fn(model(Tensor(session.F_train)), session.data.y_train).backward()
            health = gradient_health(model, x=session.F_train)
        self.layers = [LayerNumbers(h.grad_norm, h.saturated) for h in health]

    @property
    def ratio(self) -> float:
        return self.layers[-1].norm / self.layers[0].norm

    @property
    def slowest(self) -> int:
        return int(np.argmin([layer.norm for layer in self.layers])) + 1

    def value(self, name: str) -> float:
        """The number ``name`` stands for; KeyError naming what is wrong."""
        fixed = {"health.layers": lambda: len(self.layers), "health.first": lambda: self.layers[0].norm,
                 "health.output": lambda: self.layers[-1].norm, "health.ratio": lambda: self.ratio,
                 "health.slowest": lambda: self.slowest}
        if name == "health.ratio" and not (self.layers[0].norm > 0 and self.layers[-1].norm > 0):  # nan too
            raise KeyError("at these initial weights layer 1 or the output layer gets no gradient (weights all zero?): "
                           "there is no ratio to state")
        if name in fixed:
            return float(fixed[name]())
        match = _LAYER.fullmatch(name)
        if match is None:
            raise KeyError(f"unknown gradient health number '{name}' (known: health.layers, health.first, "
                           "health.output, health.ratio, health.slowest, health.norm(k), health.saturated(k))")
        what, k = match.group(1), int(match.group(2))
        if not 1 <= k <= len(self.layers):
            raise KeyError(f"the network has layers 1 to {len(self.layers)}, not {k}")
        layer = self.layers[k - 1]
        if what == "norm":
            return layer.norm
        if layer.saturated is None:
            raise KeyError(f"layer {k} has no tanh or sigmoid units to saturate")
        return 100.0 * layer.saturated

    def number(self, name: str) -> str:
        """``name`` written as the app writes numbers."""
        return format_number(self.value(name))


def settings_of(training: dict) -> TrainingSettings:
    """The settings a lesson's training lines so far describe; KeyError (the reason) when they leave out
    one the gradient depends on, or take a step the numbers do not describe."""
    missing = [name for name in DEPENDS_ON if name not in training]
    if training.get("dataset") in CLASS_COUNTS and "classes" not in training:
        missing.append("classes")
    if missing:
        raise KeyError(f"the gradient health numbers need the training setup named in full: add "
                       f"{', '.join(missing)} to a 'training:' line (so the panel shows the same network)")
    settings = replace(TrainingSettings(), **training)
    if settings.trains_graph:
        raise KeyError("the gradient health numbers are the layer form's network's: set network=layers")
    if settings.batch_size is not None or settings.regularization == "l2":
        raise KeyError("the gradient health numbers are the full batch's, without L2: set batch_size=None and "
                       "regularization=none or l1")
    return settings


@lru_cache(maxsize=16)
def _facts(settings: TrainingSettings) -> HealthFacts:
    return HealthFacts(settings)


def health_facts(training: dict) -> HealthFacts:
    """The facts of a lesson's training setup (computed once per setup); KeyError as `settings_of`."""
    return _facts(settings_of(training))


def health_number(training: dict, name: str) -> str:
    return health_facts(training).number(name)


def decades(ratio: float) -> float:
    """How many powers of ten ``ratio`` spans (log10)."""
    return math.log10(ratio) if ratio > 0 else -math.inf
