"""The network, its optimizer and its learning-rate schedule, free of Qt: building them from settings,
each layer's output over many points at once, and copies of a trained network for the animator and
for a JSON file.

The network is the layer form's `Sequential` MLP, or (``settings.network == "graph"``) the graph drawn in
the editor, trained as a `playground.graph.network.GraphNetwork` on the points' two coordinates.

Layers are numbered as the diagram draws them: layer 0 is the inputs, 1..n the hidden layers, n + 1
the outputs. Layer L's incoming weights are the `Linear` module at index 2 (L - 1) of the
`Sequential`, so its parameters are named ``"{2(L-1)}.weight"`` and ``"{2(L-1)}.bias"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine import Tensor
from engine.nn import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh, init
from engine.optim import SGD, Adam, CosineAnnealingLR, StepLR
from engine.train import classification_loss

from ...common.numbers import format_number
from ...graph.network import GraphNetwork, GraphProblem
from .points import SplitData, expand_features
from .settings import TrainingSettings

_ACTIVATION_LAYERS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid, "leaky_relu": LeakyReLU, "linear": Identity}
LEAKY_SLOPE = 0.01  # LeakyReLU's default negative slope, as PyTorch's
WEIGHTS_FORMAT = "autograd-playground-weights"
WEIGHTS_VERSION = 2  # 2: several outputs (cross-entropy), classes, initialisation and schedule


def build_model(n_inputs: int, hidden: tuple[int, ...], activation: str, seed: int, outputs: int = 1,
                init_scheme: str = "default") -> Sequential:
    """Linear layers with the activation between them, their weights drawn from ``seed`` alone.

    ``init_scheme`` (`settings.INITS`): "default" is PyTorch's (weight and bias uniform in
    +-1/sqrt(fan_in)); "xavier" is ``xavier_uniform_`` with the gain of the layer's activation;
    "kaiming" is ``kaiming_uniform_`` for ReLU (for leaky ReLU with its slope); both with zero
    biases, as usually paired; "zeros" sets everything to zero, which keeps every hidden neuron
    of a layer the same as its neighbours for ever (nothing breaks the symmetry).

    The engine's layers draw from its one global generator (`engine.manual_seed`); a worker
    thread re-seeding that would reach into every other user of it, so the weights are drawn
    again here from a generator of our own.
    """
    rng = np.random.default_rng([seed, 7919])
    sizes = (n_inputs, *hidden, outputs)
    layers = []
    for index, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        layer = Linear(fan_in, fan_out)
        hidden_layer = index < len(sizes) - 2
        _initialise(layer, init_scheme, activation if hidden_layer else "linear", rng)
        layers.append(layer)
        if hidden_layer:
            layers.append(_ACTIVATION_LAYERS[activation]())
    return Sequential(*layers)


def _initialise(layer: Linear, scheme: str, nonlinearity: str, rng: np.random.Generator) -> None:
    if scheme == "default":
        layer.reset_parameters(rng)
        return
    if scheme == "zeros":
        init.zeros_(layer.weight)
    elif scheme == "xavier":
        slope = LEAKY_SLOPE if nonlinearity == "leaky_relu" else None
        init.xavier_uniform_(layer.weight, gain=init.calculate_gain(nonlinearity, slope), generator=rng)
    elif scheme == "kaiming":
        if nonlinearity == "leaky_relu":
            init.kaiming_uniform_(layer.weight, a=LEAKY_SLOPE, nonlinearity="leaky_relu", generator=rng)
        else:
            init.kaiming_uniform_(layer.weight, nonlinearity="relu", generator=rng)
    else:
        raise ValueError(f"unknown initialisation {scheme!r}")
    init.zeros_(layer.bias)


GRAPH_FEATURES = ("x1", "x2")  # a graph takes the points' coordinates; its inputs say which it uses


def model_for(settings: TrainingSettings, graph=None, dtype=np.float64):
    """The network ``settings`` describe, with its initial weights: the layer form's, or ``graph`` (a graph
    document) at its drawn values, for ``settings.network == "graph"`` (raises `GraphProblem` if it cannot
    be trained)."""
    if settings.trains_graph:
        if graph is None:
            raise GraphProblem("There is no graph to train: build one in the graph editor")
        return GraphNetwork(graph, settings.outputs, dtype)
    seed = settings.seed if settings.init_seed is None else settings.init_seed
    model = build_model(len(settings.features), settings.hidden, settings.activation, seed,
                        settings.outputs, settings.init)
    if dtype != np.float64:
        for parameter in model.parameters():
            parameter.data = parameter.data.astype(dtype)
    return model


def input_features(settings: TrainingSettings) -> tuple[str, ...]:
    """What the network reads of each point: the layer form's chosen features, or a graph's two coordinates."""
    return GRAPH_FEATURES if settings.trains_graph else settings.features


def parameter_name(layer: int, kind: str) -> str:
    """The state-dict name of layer ``layer``'s incoming "weight" or "bias" (layer 1 is the first hidden)."""
    return f"{2 * (layer - 1)}.{kind}"


def layer_outputs(model: Sequential, inputs: Tensor) -> list[np.ndarray]:
    """Every layer's output for ``inputs`` in one forward pass: each hidden layer after its activation,
    then the output logits (layer 1, 2, ..., n + 1 of the diagram)."""
    outputs = []
    h = inputs
    last = len(model) - 1
    for index, module in enumerate(model.modules):
        h = module(h)
        if not isinstance(module, Linear) or index == last:
            outputs.append(h.data)
    return outputs


def make_optimizer(settings: TrainingSettings, parameters):
    if settings.optimizer == "adam":
        return Adam(parameters, lr=settings.learning_rate)
    momentum = settings.momentum if settings.optimizer == "momentum" else 0.0
    return SGD(parameters, lr=settings.learning_rate, momentum=momentum)


def set_optimizer_settings(optimizer, settings: TrainingSettings) -> None:
    optimizer.lr = settings.learning_rate
    if isinstance(optimizer, SGD) and settings.optimizer == "momentum":
        optimizer.momentum = settings.momentum


def make_scheduler(settings: TrainingSettings, optimizer, step: int):
    """The learning-rate schedule of ``settings`` as it stands after ``step`` steps (None: constant).

    It starts from ``settings.learning_rate``, so changing the rate or the schedule mid-run lands
    on the schedule's value for the current step, not back at its top.
    """
    if settings.schedule == "constant":
        return None
    optimizer.initial_lr = settings.learning_rate
    if settings.schedule == "step":
        return StepLR(optimizer, step_size=settings.schedule_steps, gamma=settings.schedule_gamma,
                      last_epoch=step - 1)
    return CosineAnnealingLR(optimizer, T_max=settings.schedule_steps, last_epoch=step - 1)


@dataclass(frozen=True)
class NetworkSnapshot:
    """A copy of the network as it stands, with one batch of its training data: what the backward
    animator replays at tensor level."""

    model: Sequential
    loss_fn: Callable
    X: np.ndarray  # the batch's network inputs (features), one row per point
    y: np.ndarray  # its labels, 0..k-1
    description: str


def network_snapshot(settings: TrainingSettings, state: dict[str, np.ndarray], step: int,
                     data: SplitData, graph=None) -> NetworkSnapshot:
    """The network of ``settings`` (or ``graph``) with the weights ``state`` (at ``step``), and the batch it
    trains on first: the whole training set, or with a batch size the first points of it."""
    model = model_for(settings, graph)
    model.load_state_dict(state)
    X, y = expand_features(data.X_train, input_features(settings)), np.asarray(data.y_train)
    if settings.batch_size is not None and settings.batch_size < len(X):
        X, y = X[:settings.batch_size], y[:settings.batch_size]
        batch = f"a batch of {len(X)} training points"
    else:
        batch = f"all {len(X)} training points"
    network = "the editor's graph" if settings.trains_graph else f"the {settings.architecture()} network"
    description = f"{network} at step {format_number(step)} on {batch}"
    return NetworkSnapshot(model, classification_loss(settings.loss), X, y, description)


def weights_document(settings: TrainingSettings, state: dict[str, np.ndarray], step: int,
                     classes: tuple[str, ...] = ()) -> dict:
    """The trained network as JSON-ready data: architecture, features, and every weight as lists."""
    if settings.outputs == 1:
        output = "the output is a logit, P(class 1) = sigmoid(logit)"
    else:
        output = f"the {settings.outputs} outputs are logits, P(class c) = softmax(logits)[c]"
    return {
        "format": WEIGHTS_FORMAT,
        "version": WEIGHTS_VERSION,
        "architecture": {
            "inputs": list(settings.features),
            "hidden": list(settings.hidden),
            "activation": settings.activation,
            "outputs": settings.outputs,
            "layers": "Sequential of Linear layers (weight: out x in, y = x W^T + b) with the activation "
                      f"between them; {output}",
        },
        "classes": list(classes) or [str(c) for c in range(settings.classes)],
        "init": settings.init,
        "loss": settings.loss,
        "optimizer": {"kind": settings.optimizer, "learning_rate": settings.learning_rate,
                      "momentum": settings.momentum,
                      "regularization": settings.regularization,
                      "regularization_rate": settings.regularization_rate,
                      "schedule": settings.schedule, "schedule_steps": settings.schedule_steps,
                      "schedule_gamma": settings.schedule_gamma},
        "step": step,
        "state_dict": {name: np.asarray(value).tolist() for name, value in state.items()},
    }
