"""The numbers a lesson states about its training setup's network, from the engine. Qt-free.

``{training.parameters}`` is how many numbers training learns, every weight and every bias, in the network
the lesson's `training:` lines build: as many gradients as the animator's counter counts for "The training
network". ``{training.even_odds_loss}`` is the training loss of a classifier that gives every class the same
probability for every point (its logits all 0): where a network that learns nothing settles. The gradient
health numbers (``{health.…}``, `health_facts`) are the other numbers of a setup;
`is_setup_name` and `setup_number` answer for both, so a lesson reads either the same way.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from engine import Tensor

from ...common.numbers import format_number
from ...training.model.session import TrainingSession, TrainingSettings
from ...training.model.settings import CLASS_COUNTS
from .health_facts import health_number, is_health_name

# What each number follows from; a lesson that states it names each. The network's size: its inputs (the
# features), its layers, its outputs (the problem, the classes, and the loss: cross-entropy has an output per
# class, the binary losses one) and whether it is the layer form's network.
DEPENDS_ON = {"training.parameters": ("problem", "dataset", "loss", "features", "hidden", "network"),
              "training.even_odds_loss": ("problem", "dataset", "loss")}
NAMES = tuple(DEPENDS_ON)


def is_setup_name(name: str) -> bool:
    """A number about the training setup rather than the step's graph: one of `NAMES`, or ``health.…``."""
    return name in NAMES or is_health_name(name)


def setup_number(training: dict, name: str) -> str:
    """The number ``name`` stands for in the setup ``training`` (the lesson's training lines so far), written as
    the app writes numbers; KeyError saying what is wrong."""
    if is_health_name(name):
        return health_number(training, name)
    if name not in NAMES:
        raise KeyError(f"unknown training number '{name}' (known: {', '.join(NAMES)})")
    missing = [key for key in DEPENDS_ON[name] if key not in training]
    if training.get("dataset") in CLASS_COUNTS and "classes" not in training:
        missing.append("classes")
    if missing:
        raise KeyError(f"{{{name}}} needs the training setup it depends on named: add {', '.join(missing)} to a "
                       "'training:' line (so the panel shows the same network)")
    settings = replace(TrainingSettings(), **training)  # checked when the lesson was read
    if name == "training.even_odds_loss":
        if settings.regression:
            raise KeyError("a regression has no classes to give even odds")
        return format_number(_even_odds_loss(replace(settings, network="layers")))  # logits all 0, whatever the network
    if settings.trains_graph:
        raise KeyError("the size of the training network is the layer form's: set network=layers")
    return f"{_parameter_count(settings):,}"


@lru_cache(maxsize=16)
def _parameter_count(settings: TrainingSettings) -> int:
    model = TrainingSession(settings, resolution=8).model  # the plane is not drawn: a tiny grid
    return sum(parameter.size for parameter in model.parameters())


@lru_cache(maxsize=16)
def _even_odds_loss(settings: TrainingSettings) -> float:
    """The setup's own loss over its training set, of logits that are all 0 (ln 2 for two classes)."""
    session = TrainingSession(settings, resolution=8)
    logits = session.model(Tensor(session.F_train)).data
    return float(session.loss_fn(Tensor(np.zeros_like(logits)), session.data.y_train).item())
