"""The network, its optimizer and its learning-rate schedule, free of Qt: building them from settings,
each layer's output over many points at once, and copies of a trained network for the animator and
for a JSON file.

The network is the layer form's `Sequential` MLP, or (``settings.network == "graph"``) the graph drawn in
the editor, trained as a `playground.graph.network.GraphNetwork` on the points' two coordinates.

Layers are numbered as the diagram draws them: layer 0 is the inputs, 1..n the hidden layers, n + 1
the outputs. Layer L's incoming weights are the `Linear` module at index 2 (L - 1) of the
`Sequential`, so its parameters are named ``"{2(L-1)}.weight"`` and ``"{2(L-1)}.bias"``. Between two
`Linear` modules sits the hidden layer's activation, or, for a layer with dropout, its activation and then
its `Dropout` as one ``Sequential(activation, Dropout(p))`` (as PyTorch code writes it): it holds no
parameter, so the names stay those of a network without dropout, and a setup's weights fit either.

A network is built in evaluation mode (`Module.eval`: dropout off): every figure, picture and map is of the
network itself. Only the training step's own forward pass drops units (`TrainingForward`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine import Tensor, is_grad_enabled
from engine.nn import Dropout, Identity, LeakyReLU, Linear, Module, ReLU, Sequential, Sigmoid, Tanh, init
from engine.optim import SGD, Adam, CosineAnnealingLR, StepLR

from ...common.numbers import format_number
from ...graph.network import GraphNetwork, GraphProblem
from .points import SplitData, expand_features
from .settings import TrainingSettings
from .tf_setting import loss_for, page_first_weights

_ACTIVATION_LAYERS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid, "leaky_relu": LeakyReLU, "linear": Identity}
LEAKY_SLOPE = 0.01  # LeakyReLU's default negative slope, as PyTorch's
WEIGHTS_FORMAT = "autograd-playground-weights"
# 2: several outputs (cross-entropy), classes, initialisation and schedule; 3: each hidden layer's activation and
# dropout rate ("activations", "dropout")
WEIGHTS_VERSION = 3
DROPOUT_SEED_SALT = 65537  # the session draws its dropout masks from (seed, step, this), as its minibatches


def build_model(n_inputs: int, hidden: tuple[int, ...], activation: str | tuple[str, ...], seed: int,
                outputs: int = 1, init_scheme: str = "default", dropout: tuple[float, ...] = ()) -> Sequential:
    """Linear layers with the activation between them, their weights drawn from ``seed`` alone; in training
    mode, as PyTorch builds a module (`model_for` gives it in evaluation mode).

    ``activation`` is every hidden layer's, or one per hidden layer; ``dropout`` a rate per hidden layer (none:
    no dropout), the layer's `Dropout` after its activation (`activation_slot`).

    ``init_scheme`` (`settings.INITS`): "default" is PyTorch's (weight and bias uniform in
    +-1/sqrt(fan_in)); "xavier" is ``xavier_uniform_`` with the gain of the layer's activation;
    "kaiming" is ``kaiming_uniform_`` for ReLU (for leaky ReLU with its slope); both with zero
    biases, as usually paired; "tf_playground" the TF Playground's (weights U(-0.5, 0.5), biases 0.1); "zeros" sets
    everything to zero, which keeps every hidden neuron
    of a layer the same as its neighbours for ever (nothing breaks the symmetry).

    The engine's layers draw from its one global generator (`engine.manual_seed`); a worker
    thread re-seeding that would reach into every other user of it, so the weights are drawn
    again here from a generator of our own.
    """
    rng = np.random.default_rng([seed, 7919])
    activations = (activation,) * len(hidden) if isinstance(activation, str) else tuple(activation)
    rates = tuple(dropout) or (0.0,) * len(hidden)
    if len(activations) != len(hidden) or len(rates) != len(hidden):
        raise ValueError(f"{len(activations)} activations and {len(rates)} dropout rates for "
                         f"{len(hidden)} hidden layers")
    sizes = (n_inputs, *hidden, outputs)
    layers = []
    for index, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        layer = Linear(fan_in, fan_out)
        hidden_layer = index < len(hidden)
        # The gain of Xavier's and He's draws is that of the activation the layer feeds.
        _initialise(layer, init_scheme, activations[index] if hidden_layer else "linear", rng)
        layers.append(layer)
        if hidden_layer:
            layers.append(activation_slot(_ACTIVATION_LAYERS[activations[index]](), rates[index]))
    model = Sequential(*layers)
    if init_scheme == "tf_playground":  # its links drawn in its own order, the whole network at once
        init.tf_playground_(model, generator=rng)
    return model


def activation_slot(activation: Module, rate: float, generator=None) -> Module:
    """What follows a hidden layer's `Linear`: its activation, then, at a rate above 0, its `Dropout`."""
    return Sequential(activation, Dropout(rate, generator)) if rate > 0 else activation


def set_dropout(model: Sequential, rates: tuple[float, ...], generator=None) -> None:
    """Give the hidden layers of a layer-form ``model`` the dropout ``rates`` (one per hidden layer), their masks
    drawn from ``generator``: the weights, and so an optimizer's hold on them, stay as they are."""
    slots = range(1, len(model) - 1, 2)  # between the Linear modules
    if len(slots) != len(rates):
        raise ValueError(f"{len(rates)} dropout rates for {len(slots)} hidden layers")
    for index, rate in zip(slots, rates):
        slot = model.modules[index]
        activation = slot.modules[0] if isinstance(slot, Sequential) else slot
        model.modules[index] = activation_slot(activation, rate, generator)
    model.train(model.training)  # a new slot takes the model's mode


def learner(model, settings: TrainingSettings, step: int):
    """What `engine.train.train` is to train for ``settings`` from ``step`` on: ``model`` with the settings'
    dropout rates (the layer form's), its masks drawn from (seed, step, `DROPOUT_SEED_SALT`) as the minibatch
    order is from (seed, step, ...), so that a run resumed at a step draws the masks the run itself draws
    once anchored there; seen through `TrainingForward` where a layer drops units."""
    if settings.trains_graph:
        return model
    set_dropout(model, settings.layer_dropout, np.random.default_rng([settings.seed, step, DROPOUT_SEED_SALT]))
    return TrainingForward(model) if settings.has_dropout else model


class TrainingForward(Module):
    """``model`` as `engine.train.train` is to see it, dropout on only for the step's own forward pass.

    A PyTorch loop calls ``model.train()`` before its step and ``model.eval()`` for its figures. `train` takes
    both in one generator step: the loss whose gradient it follows, with autograd recording, then the
    accuracies (a regression's losses) beside it, under ``no_grad``. So this runs ``model`` in training mode
    while autograd records and in evaluation mode otherwise: the figures are the network's own, and the masks
    are drawn once a step, for the loss alone. ``model`` is left in evaluation mode. Its parameters are
    ``model``'s, by the same names (what L1 and L2 regularise)."""

    def __init__(self, model: Module):
        self.model = model

    def forward(self, x):
        if not is_grad_enabled():
            return self.model(x)
        self.model.train()
        try:
            return self.model(x)
        finally:
            self.model.eval()

    def _all_named_parameters(self, prefix: str = ""):
        return self.model._all_named_parameters(prefix)


def _initialise(layer: Linear, scheme: str, nonlinearity: str, rng: np.random.Generator) -> None:
    if scheme == "tf_playground":
        return  # drawn for the whole network (`build_model`)
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
    """The network ``settings`` describe, with its initial weights, in evaluation mode (no dropout): the layer
    form's, or ``graph`` (a graph document) at its drawn values, for ``settings.network == "graph"`` (raises
    `GraphProblem` if it cannot be trained)."""
    if settings.trains_graph:
        if graph is None:
            raise GraphProblem("There is no graph to train: build one in the graph editor")
        return GraphNetwork(graph, settings.outputs, dtype)
    seed = settings.seed if settings.init_seed is None else settings.init_seed
    model = build_model(len(settings.features), settings.hidden, settings.layer_activations, seed,
                        settings.outputs, settings.init, settings.layer_dropout)
    page_first_weights(model, settings)  # a TF Playground URL's seed: that page's very first weights
    if dtype != np.float64:
        for parameter in model.parameters():
            parameter.data = parameter.data.astype(dtype)
    return model.eval()


def input_features(settings: TrainingSettings) -> tuple[str, ...]:
    """What the network reads of each point: the layer form's chosen features, or a graph's two coordinates."""
    return GRAPH_FEATURES if settings.trains_graph else settings.features


def parameter_name(layer: int, kind: str) -> str:
    """The state-dict name of layer ``layer``'s incoming "weight" or "bias" (layer 1 is the first hidden)."""
    return f"{2 * (layer - 1)}.{kind}"


def layer_outputs(model: Sequential, inputs: Tensor) -> list[np.ndarray]:
    """Every layer's output for ``inputs`` in one forward pass: each hidden layer after its activation (and its
    dropout, which a model in evaluation mode passes by), then the output logits (layer 1, 2, ..., n + 1 of
    the diagram)."""
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
    dropped = ", without its dropout" if settings.has_dropout else ""  # the model is evaluated: nothing drops
    description = f"{network} at step {format_number(step)} on {batch}{dropped}"
    return NetworkSnapshot(model, loss_for(settings), X, y, description)


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
            "activations": list(settings.layer_activations),  # each hidden layer's, first layer first
            "dropout": list(settings.layer_dropout),  # each hidden layer's rate while training (0: none)
            "outputs": settings.outputs,
            "layers": "Sequential of Linear layers (weight: out x in, y = x W^T + b) with each hidden layer's "
                      "activation after it (then its Dropout while training, where its rate is above 0); "
                      f"{output}",
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
