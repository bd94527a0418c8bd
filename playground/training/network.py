"""The network and its optimizer, free of Qt: building them from settings, and copies of a trained
network for the animator and for a JSON file."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.nn import LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from engine.optim import SGD, Adam
from engine.train import binary_loss

from .points import SplitData, expand_features
from .settings import TrainingSettings

_ACTIVATION_LAYERS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid, "leaky_relu": LeakyReLU}
WEIGHTS_FORMAT = "autograd-playground-weights"
WEIGHTS_VERSION = 1


def build_model(n_inputs: int, hidden: tuple[int, ...], activation: str, seed: int) -> Sequential:
    """Linear layers with PyTorch's default initialisation, drawn from ``seed`` alone.

    The engine's layers draw from its one global generator (`engine.manual_seed`); a worker
    thread re-seeding that would reach into every other user of it, so the weights are drawn
    again here from a generator of our own.
    """
    rng = np.random.default_rng([seed, 7919])
    sizes = (n_inputs, *hidden, 1)
    layers = []
    for index, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        layer = Linear(fan_in, fan_out)
        bound = 1.0 / math.sqrt(fan_in)
        layer.weight.data[...] = rng.uniform(-bound, bound, (fan_out, fan_in))
        layer.bias.data[...] = rng.uniform(-bound, bound, fan_out)
        layers.append(layer)
        if index < len(sizes) - 2:
            layers.append(_ACTIVATION_LAYERS[activation]())
    return Sequential(*layers)


def make_optimizer(settings: TrainingSettings, parameters):
    if settings.optimizer == "adam":
        return Adam(parameters, lr=settings.learning_rate, weight_decay=settings.weight_decay)
    momentum = settings.momentum if settings.optimizer == "momentum" else 0.0
    return SGD(parameters, lr=settings.learning_rate, momentum=momentum, weight_decay=settings.weight_decay)


def set_optimizer_settings(optimizer, settings: TrainingSettings) -> None:
    optimizer.lr = settings.learning_rate
    optimizer.weight_decay = settings.weight_decay
    if isinstance(optimizer, SGD) and settings.optimizer == "momentum":
        optimizer.momentum = settings.momentum


@dataclass(frozen=True)
class NetworkSnapshot:
    """A copy of the network as it stands, with one batch of its training data: what the backward
    animator replays at tensor level."""

    model: Sequential
    loss_fn: Callable
    X: np.ndarray  # the batch's network inputs (features), one row per point
    y: np.ndarray  # its labels, 0 or 1
    description: str


def network_snapshot(settings: TrainingSettings, state: dict[str, np.ndarray], step: int,
                     data: SplitData) -> NetworkSnapshot:
    """The network of ``settings`` with the weights ``state`` (at ``step``), and the batch it trains on
    first: the whole training set, or with a batch size the first points of it."""
    model = build_model(len(settings.features), settings.hidden, settings.activation, settings.seed)
    model.load_state_dict(state)
    X, y = expand_features(data.X_train, settings.features), np.asarray(data.y_train)
    if settings.batch_size is not None and settings.batch_size < len(X):
        X, y = X[:settings.batch_size], y[:settings.batch_size]
        batch = f"a batch of {len(X)} training points"
    else:
        batch = f"all {len(X)} training points"
    description = f"the {settings.architecture()} network at step {step:,} on {batch}"
    return NetworkSnapshot(model, binary_loss(settings.loss), X, y, description)


def weights_document(settings: TrainingSettings, state: dict[str, np.ndarray], step: int) -> dict:
    """The trained network as JSON-ready data: architecture, features, and every weight as lists."""
    return {
        "format": WEIGHTS_FORMAT,
        "version": WEIGHTS_VERSION,
        "architecture": {
            "inputs": list(settings.features),
            "hidden": list(settings.hidden),
            "activation": settings.activation,
            "outputs": 1,
            "layers": "Sequential of Linear layers (weight: out x in, y = x W^T + b) with the activation "
                      "between them; the output is a logit, P(class 1) = sigmoid(logit)",
        },
        "loss": settings.loss,
        "optimizer": {"kind": settings.optimizer, "learning_rate": settings.learning_rate,
                      "momentum": settings.momentum, "weight_decay": settings.weight_decay},
        "step": step,
        "state_dict": {name: np.asarray(value).tolist() for name, value in state.items()},
    }
