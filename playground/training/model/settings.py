"""What a person sets on the training panel, free of Qt: the vocabularies, `TrainingSettings`, and
`Change`, how much of a run a change of settings resets.

Each hidden layer of the layer form has its activation and its dropout rate (tensorflow/playground #50): the
settings keep one ``activation`` for every layer and, only where the layers differ, one per layer
(``activations``), and a dropout rate per layer only where some layer has one (``dropout``); both follow the
layers as they come and go (`TrainingSettings.with_layers`).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, fields, replace

from ...common.numbers import format_number

# -- vocabularies: internal name -> what a person reads -----------------------------------------

DATASETS = {
    "moons": "Two moons",
    "circles": "Circles",
    "xor": "XOR",
    "spiral": "Spiral",
    "blobs": "Gaussian blobs",
    "plane": "Plane",
    "gaussians": "Multi Gaussian",
    "csv": "Your CSV",
}
# Classification (a class per point) or regression (a real number per point), as in the TF Playground.
PROBLEMS = {"classification": "Classification", "regression": "Regression"}
REGRESSION_DATASETS = ("plane", "gaussians", "csv")  # a CSV whose third column is a real number
# The data a problem type starts from when a person switches to it, as the TF Playground does (500 points
# to classify, 1200 to regress, noise 0 unless slid up). A regression needs more points and clean targets:
# the multi Gaussian's six cones have a radius of 2 in a 12 x 12 square, so 140 training points (200 at a
# 30% test split) put about a dozen on each cone, and a noise of 0.1 reads each target up to 0.6 away
# from its point, which alone caps the test R² at about 0.86. The default 2-16-16-1 network then reached a
# test R² of 0.12 to 0.78 over five seeds when "When learned" paused it (it overfits the noise to reach
# the training R² of 0.9 the rule asks for); with 600 points and no noise, 0.95 to 0.98.
PROBLEM_DATA = {
    "classification": {"dataset": "moons", "points": 200, "noise": 0.1},
    "regression": {"dataset": "plane", "points": 600, "noise": 0.0},
}
CLASSIFICATION_DATASETS = tuple(name for name in DATASETS if name not in ("plane", "gaussians"))
FEATURES = {
    "x1": "x₁",
    "x2": "x₂",
    "x1^2": "x₁²",
    "x2^2": "x₂²",
    "x1*x2": "x₁·x₂",
    "sin x1": "sin(x₁)",
    "sin x2": "sin(x₂)",
}
# "linear": no non-linearity (`engine.nn.Identity`): a network of them is one linear map, its boundary a straight line.
ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "sigmoid": "Sigmoid", "leaky_relu": "Leaky ReLU", "linear": "Linear"}
# "tf_square": the TF Playground's, the mean of ½ (output - label)² with a tanh output unit (labels ±1) to classify
# and a linear one to regress (`engine.train.tanh_half_mse`, `half_mse`).
LOSSES = {"bce": "Binary cross-entropy", "hinge": "Hinge", "mse": "Mean squared error",
          "cross_entropy": "Cross-entropy (softmax)", "huber": "Huber",
          "tf_square": "½(output − label)², TF Playground"}
BINARY_LOSSES = ("bce", "hinge", "mse", "tf_square")  # one output, two classes; cross-entropy has one per class
REGRESSION_LOSSES = ("mse", "huber", "tf_square")  # one linear output, a real target (`engine.train.regression_loss`)
OPTIMIZERS = {"adam": "Adam", "sgd": "SGD", "momentum": "SGD + momentum"}
INITS = {"default": "PyTorch default", "xavier": "Xavier / Glorot", "kaiming": "He / Kaiming", "zeros": "Zeros",
         "tf_playground": "TF Playground: U(−0.5, 0.5), biases 0.1"}
# "Data and loss as in the TF Playground" (`tf_setting`): its generators for our dataset names, what it has of
# ours, its initialisations (its own and its initZero), and the noise and ratios its sliders reach.
TF_DATASETS = {"circles": "circle", "xor": "xor", "blobs": "gauss", "spiral": "spiral", "plane": "reg-plane",
               "gaussians": "reg-gauss"}
TF_POINTS = {"classification": 500, "regression": 1200}
TF_INITS = ("tf_playground", "zeros")
MAX_TF_NOISE = 0.8  # its slider's 50, a URL's 80
SCHEDULES = {"constant": "Constant", "step": "Step decay", "cosine": "Cosine"}
# The TF Playground's Regularization, on the weights alone (`engine.nn.Regularization`): L2 through the
# gradient, L1 as a soft threshold that sets weights to exactly 0.
REGULARIZATIONS = {"none": "None", "l1": "L1", "l2": "L2"}
MAX_REGULARIZATION_RATE = 10.0
# When training pauses by itself: once it has learned (`learned.has_learned`), never, or once a figure
# reaches `stop_at` (accuracy as a share).
STOP_CONDITIONS = {"learned": "When learned", "never": "Never", "test_accuracy": "Test accuracy ≥",
                   "test_r2": "Test R² ≥", "train_loss": "Train loss ≤", "epochs": "Epochs ="}
STOP_DEFAULTS = {"learned": 0.0, "never": 0.0, "test_accuracy": 0.97, "test_r2": 0.95, "train_loss": 0.01,
                 "epochs": 100.0}
# A classification has an accuracy to stop at, a regression an R² (issue 30: each offers its own only); a
# condition carried over from the other problem becomes this one's figure, and says so (issue 39).
STOP_FOR_PROBLEM = {"classification": "test_accuracy", "regression": "test_r2"}
_FIGURES = {"test_accuracy": "test accuracy", "test_r2": "test R²"}

# What is trained: the network the layer form describes, or the graph drawn in the editor (issue 28).
NETWORKS = {"layers": "Layers", "graph": "The editor's graph"}
# What the layer form sets and a graph ignores.
LAYER_FIELDS = ("features", "hidden", "activation", "activations", "dropout", "init")

MAX_LAYERS = 6
MAX_NEURONS = 64
MAX_DROPOUT = 0.9  # a hidden layer's dropout rate: above it, too few units are left to learn from
MIN_LR, MAX_LR = 1e-5, 10.0
MAX_CLASSES = 8  # a CSV's; the palette has as many colours
MAX_POINTS = 100_000  # a dataset's, a CSV's or a setup's points
CLASS_COUNTS = {"spiral": (2, 5), "blobs": (2, 6), "csv": (2, MAX_CLASSES)}  # the others have two classes


@dataclass(frozen=True)
class TrainingSettings:
    """Everything a person can set on the training panel; defaults are the TF Playground's classic."""

    dataset: str = "moons"
    points: int = 200
    noise: float = 0.1
    test_fraction: float = 0.3
    seed: int = 0
    features: tuple[str, ...] = ("x1", "x2")
    hidden: tuple[int, ...] = (16, 16)
    activation: str = "tanh"        # every hidden layer's, and a new layer's
    # One activation per hidden layer (() while every layer has `activation`), and one dropout rate per hidden
    # layer, each from 0 to MAX_DROPOUT (() while none drops): normalised in __post_init__ (`_normalise_layers`).
    activations: tuple[str, ...] = ()
    dropout: tuple[float, ...] = ()
    loss: str = "bce"
    optimizer: str = "adam"
    learning_rate: float = 0.01
    momentum: float = 0.9
    regularization: str = "none"    # REGULARIZATIONS
    regularization_rate: float = 0.0  # its rate (the Playground's "Regularization rate")
    batch_size: int | None = None  # None: the whole training set every step
    # The pace: steps a second, a pace a teacher can talk over (the moons take ~5 s); None: as fast as
    # the machine goes while the window stays responsive.
    steps_per_second: int | None = 20
    classes: int = 2                # spiral arms, blob centres, a CSV's labels; the other datasets have two
    init: str = "default"           # how the weights start: INITS
    schedule: str = "constant"      # the learning rate over the steps: SCHEDULES
    schedule_steps: int = 500       # step decay: steps between two decays; cosine: steps from top to bottom
    schedule_gamma: float = 0.5     # step decay: the factor at each decay
    stop_when: str = "learned"      # pause by itself once learned, or when a figure (STOP_CONDITIONS) reaches stop_at
    stop_at: float = 0.0            # test accuracy as a share (0.97), a train loss, or a number of epochs
    problem: str = "classification"  # PROBLEMS: regression learns a real number per point with one linear output
    network: str = "layers"         # NETWORKS: the layer form's network, or the editor's graph (given beside)
    # The seed the initial weights are drawn from; None: `seed`'s (the data's). Repeat trains runs that differ in
    # this alone: the same points, other initial weights.
    init_seed: int | None = None
    # The TF Playground's data, loss, initial weights and SGD (`tf_setting`): its numbers mean the same here.
    tf_playground: bool = False
    # The seed of a TF Playground page's URL ("0.50819"): its very points and, at the start, its very first weights
    # (its own random stream, `engine.seedrandom.SeedRandom`); "": `seed`'s, numpy's stream.
    tf_seed: str = ""

    def __post_init__(self):
        _check_choice("dataset", self.dataset, DATASETS)
        _check_choice("network", self.network, NETWORKS)
        _check_choice("activation", self.activation, ACTIVATIONS)
        _check_choice("loss", self.loss, LOSSES)
        _check_choice("optimizer", self.optimizer, OPTIMIZERS)
        _check_choice("init", self.init, INITS)
        _check_choice("schedule", self.schedule, SCHEDULES)
        _check_choice("regularization", self.regularization, REGULARIZATIONS)
        _check_choice("problem", self.problem, PROBLEMS)
        if self.regression:
            if self.dataset not in REGRESSION_DATASETS:
                raise ValueError(f"a regression needs real targets: the {DATASETS[self.dataset]} dataset has classes; "
                                 f"choose one of {', '.join(DATASETS[d] for d in REGRESSION_DATASETS)}")
            if self.loss not in REGRESSION_LOSSES:
                raise ValueError(f"a regression minimises {' or '.join(LOSSES[n] for n in REGRESSION_LOSSES)}, "
                                 f"not {LOSSES[self.loss]}")
            object.__setattr__(self, "classes", 2)  # no classes: kept at its default
        elif self.dataset not in CLASSIFICATION_DATASETS:
            raise ValueError(f"the {DATASETS[self.dataset]} dataset has real targets: it is for a regression")
        elif self.loss == "huber":
            raise ValueError("the Huber loss is for a regression; a classification takes another loss")
        _check_choice("stop condition", self.stop_when, STOP_CONDITIONS)
        refusal = stop_refusal(self.problem, self.stop_when)
        if refusal is not None:
            raise ValueError(f"stop_when: {refusal}")
        _check_stop(self.stop_when, self.stop_at)
        if self.dataset not in CLASS_COUNTS and not self.regression:  # moons, circles, XOR: the dataset decides
            object.__setattr__(self, "classes", 2)
        low, high = CLASS_COUNTS[self.dataset] if self.dataset in CLASS_COUNTS else (2, 2)
        if not isinstance(self.classes, int) or isinstance(self.classes, bool) or not low <= self.classes <= high:
            counts = "two classes" if low == high else f"{low} to {high} classes"
            raise ValueError(f"the {DATASETS[self.dataset]} dataset has {counts}, not {self.classes!r}")
        if self.classes > 2 and self.loss in BINARY_LOSSES:
            raise ValueError(f"{self.classes} classes need the cross-entropy loss (one output per class), "
                             f"not {LOSSES[self.loss]}")
        if not isinstance(self.schedule_steps, int) or not 1 <= self.schedule_steps <= 1_000_000:
            raise ValueError(f"schedule_steps must be an int from 1 to 1000000, not {self.schedule_steps!r}")
        if not 0.0 < self.schedule_gamma <= 1.0:
            raise ValueError(f"schedule_gamma must be in (0, 1], not {self.schedule_gamma!r}")
        if not isinstance(self.points, int) or not 4 <= self.points <= MAX_POINTS:
            raise ValueError(f"points must be an int from 4 to {MAX_POINTS}, not {self.points!r}")
        if not 0.0 <= self.noise <= 10.0:
            raise ValueError(f"noise must be between 0 and 10, not {self.noise!r}")
        if not 0.0 < self.test_fraction < 1.0:
            raise ValueError(f"test_fraction must be strictly between 0 and 1, not {self.test_fraction!r}")
        features = tuple(self.features)
        if not features or len(set(features)) != len(features):
            raise ValueError(f"features must be one or more distinct names, not {features!r}")
        for name in features:
            _check_choice("feature", name, FEATURES)
        object.__setattr__(self, "features", tuple(f for f in FEATURES if f in features))  # canonical order
        hidden = tuple(self.hidden)
        if len(hidden) > MAX_LAYERS or any(not isinstance(n, int) or not 1 <= n <= MAX_NEURONS for n in hidden):
            raise ValueError(f"hidden must be up to {MAX_LAYERS} layers of 1 to {MAX_NEURONS} neurons, not {hidden!r}")
        object.__setattr__(self, "hidden", hidden)
        self._normalise_layers()
        if not MIN_LR <= self.learning_rate <= MAX_LR:
            raise ValueError(f"learning_rate must be between {MIN_LR:g} and {MAX_LR:g}, not {self.learning_rate!r}")
        if not 0.0 <= self.momentum < 1.0:
            raise ValueError(f"momentum must be in [0, 1), not {self.momentum!r}")
        rate = self.regularization_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= MAX_REGULARIZATION_RATE:
            raise ValueError(f"regularization_rate must be between 0 and {MAX_REGULARIZATION_RATE:g}, not {rate!r}")
        object.__setattr__(self, "regularization_rate", float(rate))
        if self.batch_size is not None and (not isinstance(self.batch_size, int) or self.batch_size < 1):
            raise ValueError(f"batch_size must be a positive int or None (full batch), not {self.batch_size!r}")
        if self.init_seed is not None and (not isinstance(self.init_seed, int) or isinstance(self.init_seed, bool)
                                           or not 0 <= self.init_seed < 2**32):
            raise ValueError(f"init_seed must be a whole number from 0 to {2**32 - 1}, or None, not {self.init_seed!r}")
        if not isinstance(self.tf_seed, str) or len(self.tf_seed) > 40 or not self.tf_seed.isprintable():
            raise ValueError(f"tf_seed is a TF Playground URL's seed, text of at most 40 characters, not "
                             f"{self.tf_seed!r}")
        if self.tf_seed and not self.tf_playground:
            raise ValueError("tf_seed is the TF Playground's own: it needs tf_playground=True")
        if self.tf_playground:
            self._check_tf_playground()
        if self.steps_per_second is not None and (not isinstance(self.steps_per_second, int)
                                                  or not 1 <= self.steps_per_second <= 100_000):
            raise ValueError("steps_per_second must be an int from 1 to 100000, or None (as fast as it goes), "
                             f"not {self.steps_per_second!r}")

    def _check_tf_playground(self) -> None:
        """The TF Playground setting has its datasets and their points, two classes, its loss, its SGD, its
        initial weights (or zeros), its noise and ratios; a graph drawn in the editor trains on its data too."""
        if not isinstance(self.tf_playground, bool):
            raise ValueError(f"tf_playground is true or false, not {self.tf_playground!r}")
        if self.dataset not in TF_DATASETS:
            own = ", ".join(DATASETS[name] for name in TF_DATASETS)
            raise ValueError(f"the TF Playground has no {DATASETS[self.dataset]} data: choose one of {own}")
        if self.classes != 2:
            raise ValueError(f"the TF Playground's data has two classes, not {self.classes}")
        if self.loss != "tf_square" or self.optimizer != "sgd":
            raise ValueError("the TF Playground trains with its own loss and plain SGD: loss=tf_square, optimizer=sgd")
        if not self.trains_graph and self.init not in TF_INITS:
            raise ValueError(f"the TF Playground starts its weights its own way or at zeros (init={TF_INITS[0]} or "
                             f"{TF_INITS[1]}), not {self.init!r}")
        if self.noise > MAX_TF_NOISE + 1e-12:
            raise ValueError(f"the TF Playground's noise goes up to {round(100 * MAX_TF_NOISE)} (0.8), not "
                             f"{format_number(100 * self.noise)}")
        if not 0.1 - 1e-9 <= self.test_fraction <= 0.9 + 1e-9:
            raise ValueError("the TF Playground trains on 10% to 90% of its points: test_fraction from 0.1 to 0.9")
        object.__setattr__(self, "points", TF_POINTS[self.problem])  # its own count, whatever was set before

    def _normalise_layers(self) -> None:
        """One activation and one dropout rate per hidden layer, or none where every layer has the same: a layer
        the lists do not reach takes ``activation`` and no dropout, and entries past the last layer go (layers
        added or removed at the end; `with_layers` keeps each layer's own when one is inserted or removed
        anywhere). Layers that all share one activation make it ``activation``."""
        n = len(self.hidden)
        activations = tuple(self.activations)
        for name in activations:
            _check_choice("activation", name, ACTIVATIONS)
        activations = (activations + (self.activation,) * n)[:n] if activations else ()
        if activations and len(set(activations)) == 1:
            object.__setattr__(self, "activation", activations[0])
            activations = ()
        object.__setattr__(self, "activations", activations)
        rates = tuple(self.dropout)
        for rate in rates:
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= MAX_DROPOUT:
                raise ValueError(f"dropout rates are shares from 0 to {MAX_DROPOUT:g} (none to 90% of a layer's "
                                 f"units), not {rate!r}")
        rates = tuple(float(rate) for rate in (rates + (0.0,) * n)[:n])
        object.__setattr__(self, "dropout", rates if any(rates) else ())

    def with_layers(self, hidden: tuple[int, ...], origins: tuple[int | None, ...]) -> TrainingSettings:
        """These settings with the hidden layers ``hidden``, new layer i being old layer ``origins[i]`` (from 0;
        None: a new layer): each layer keeps its activation and dropout rate where it moves to, and a new one
        takes the common activation and no dropout."""
        if len(origins) != len(hidden):
            raise ValueError(f"{len(origins)} origins for {len(hidden)} hidden layers")
        activations, rates = self.layer_activations, self.layer_dropout
        return replace(self, hidden=tuple(hidden),
                       activations=tuple(self.activation if o is None else activations[o] for o in origins),
                       dropout=tuple(0.0 if o is None else rates[o] for o in origins))

    @property
    def layer_activations(self) -> tuple[str, ...]:
        """Each hidden layer's activation, first layer first."""
        return self.activations or (self.activation,) * len(self.hidden)

    @property
    def layer_dropout(self) -> tuple[float, ...]:
        """Each hidden layer's dropout rate (0: none), first layer first."""
        return self.dropout or (0.0,) * len(self.hidden)

    @property
    def has_dropout(self) -> bool:
        """Whether the layer form's network drops units while it trains (a graph has no layers to drop)."""
        return bool(self.dropout) and not self.trains_graph

    def activation_words(self) -> str:
        """The hidden layers' activations as a person reads them: "Tanh", or layer by layer "ReLU, Tanh, Tanh"."""
        return ", ".join(ACTIVATIONS[name] for name in (self.activations or (self.activation,)))

    def dropout_words(self) -> str:
        """"no dropout", or the rates layer by layer: "dropout 20%, 0%"."""
        if not self.dropout:
            return "no dropout"
        return "dropout " + ", ".join(f"{format_number(100 * rate)}%" for rate in self.dropout)

    @property
    def regression(self) -> bool:
        return self.problem == "regression"

    @property
    def outputs(self) -> int:
        """One logit for a binary loss, one per class for cross-entropy, one real number for a regression."""
        return 1 if self.regression or self.loss in BINARY_LOSSES else self.classes

    @property
    def trains_graph(self) -> bool:
        return self.network == "graph"

    @property
    def layer_sizes(self) -> tuple[int, ...]:
        """Neurons per layer: inputs, hidden layers, outputs."""
        return (len(self.features), *self.hidden, self.outputs)

    def architecture(self) -> str:
        """``2 → 16 → 16 → 1``: inputs, hidden neurons, outputs (or "the editor's graph")."""
        if self.trains_graph:
            return "the editor's graph"
        return " → ".join(str(n) for n in self.layer_sizes)


def stop_conditions(problem: str) -> dict[str, str]:
    """The conditions ``problem`` can stop at, by name and title, in the order the Stop at box offers them:
    each problem's own figure only (a regression's test R², a classification's test accuracy)."""
    others = {key for owner, key in STOP_FOR_PROBLEM.items() if owner != problem}
    return {key: title for key, title in STOP_CONDITIONS.items() if key not in others}


def stop_refusal(problem: str, when: str) -> str | None:
    """Why ``problem`` cannot stop at ``when``, the other problem's figure ("'test_accuracy' is not for a
    regression: it has no test accuracy to stop at; choose ..."), or None when it can."""
    if when not in _FIGURES or when == STOP_FOR_PROBLEM[problem]:
        return None
    own = [repr(key) for key in stop_conditions(problem)]
    return (f"{when!r} is not for a {problem}: it has no {_FIGURES[when]} to stop at; choose "
            f"{', '.join(own[:-1])} or {own[-1]}")


def carried_stop(problem: str, when: str) -> str:
    """The condition ``when`` becomes on ``problem``: the other problem's figure becomes this one's own (a test
    accuracy a regression's test R²); every other condition applies to both and stays."""
    return STOP_FOR_PROBLEM[problem] if stop_refusal(problem, when) is not None else when


def stop_words(when: str, at: float) -> str:
    """A stop condition as the Stop at box shows it: "Test R² ≥ 0.95", "Test accuracy ≥ 97%", "When learned"."""
    if when in ("learned", "never"):
        return STOP_CONDITIONS[when]
    value = f"{format_number(100 * at)}%" if when == "test_accuracy" else format_number(at)
    return f"{STOP_CONDITIONS[when]} {value}"


def carried_stop_note(problem: str, was: str, when: str, at: float) -> str:
    """What a person is told when the condition ``was`` of the other problem became ``when`` at ``at``:
    "Stop at: a regression has no test accuracy; now 'Test R² ≥ 0.95'"."""
    return f"Stop at: a {problem} has no {_FIGURES[was]}; now '{stop_words(when, at)}'"


def fitting_loss(classes: int, loss: str, replaced: str | None) -> tuple[str, str | None]:
    """The loss for ``classes`` classes when a person's choice was ``loss``, and the binary loss to
    bring back later: more than two classes take cross-entropy (one output per class), remembering
    the binary loss it ``replaced``; back to two classes, that loss returns."""
    if classes > 2 and loss in BINARY_LOSSES:
        return "cross_entropy", loss
    if classes == 2 and loss == "cross_entropy" and replaced is not None:
        return replaced, None
    return loss, replaced


def _check_stop(when: str, at) -> None:
    if when in ("never", "learned"):  # no figure to reach
        return
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
        raise ValueError(f"stop_at must be a number, not {at!r}")
    if when == "test_accuracy" and not 0.0 < at <= 1.0:
        raise ValueError(f"a test accuracy to stop at is a share in (0, 1], not {at!r}")
    if when == "test_r2" and not 0.0 < at <= 1.0:
        raise ValueError(f"a test R² to stop at is in (0, 1], not {at!r}")
    if when == "train_loss" and not at > 0.0:
        raise ValueError(f"a loss to stop at must be above 0, not {at!r}")
    if when == "epochs" and not 0.0 < at <= 1e9:
        raise ValueError(f"a number of epochs to stop at must be above 0, not {at!r}")


def _check_choice(what: str, value, choices) -> None:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}; choose one of {', '.join(map(repr, choices))}")


class Change(enum.IntEnum):
    """What a settings change resets, least to most; `apply` returns the largest one needed."""

    NONE = 0
    PACE = 1            # steps a second, when to stop: nothing in the model
    OPTIMIZER = 2       # learning rate, momentum, schedule, regularisation: the running optimizer goes on
    TRAINING = 3        # loss, batch size or dropout: same weights, same optimizer state
    OPTIMIZER_KIND = 4  # another optimizer: same weights, fresh optimizer state
    MODEL = 5           # features, layers, activations, initialisation, outputs, the network trained: a new network
    DATA = 6            # dataset, points, noise, split, seed: new data and a new network

    @property
    def resets_weights(self) -> bool:
        return self >= Change.MODEL


_FIELD_CHANGE = {
    "dataset": Change.DATA, "points": Change.DATA, "noise": Change.DATA, "test_fraction": Change.DATA,
    "seed": Change.DATA,
    "classes": Change.DATA,
    "features": Change.MODEL, "hidden": Change.MODEL, "activation": Change.MODEL, "init": Change.MODEL,
    "activations": Change.MODEL,
    # Dropout has no weights: another rate trains the same weights on (with the same optimizer state), otherwise.
    "dropout": Change.TRAINING,
    "optimizer": Change.OPTIMIZER_KIND,
    "loss": Change.TRAINING, "batch_size": Change.TRAINING,
    "learning_rate": Change.OPTIMIZER, "momentum": Change.OPTIMIZER,
    "regularization": Change.OPTIMIZER, "regularization_rate": Change.OPTIMIZER,
    "schedule": Change.OPTIMIZER, "schedule_steps": Change.OPTIMIZER, "schedule_gamma": Change.OPTIMIZER,
    "problem": Change.DATA,
    "network": Change.MODEL, "init_seed": Change.MODEL, "tf_playground": Change.DATA,
    "tf_seed": Change.DATA,
    "steps_per_second": Change.PACE, "stop_when": Change.PACE, "stop_at": Change.PACE,
}
assert set(_FIELD_CHANGE) == {f.name for f in fields(TrainingSettings)}


# What a person is told a change that starts over is ("Another activation starts over from the initial weights").
_STARTS_OVER = {  # the first that changed names the change: the problem brings its own data
    "tf_playground": "The TF Playground setting", "problem": "Another problem", "dataset": "Other data",
    "points": "Another number of points",
    "noise": "Another noise",
    "test_fraction": "Another test split", "seed": "New data", "tf_seed": "New data",
    "classes": "Another number of classes",
    "features": "Other input features", "hidden": "Another network shape",
    "activation": "Another activation", "activations": "Another activation", "init": "Other initial weights",
    "network": "Another network",
    "init_seed": "Other initial weights",
}


def starts_over_words(old: TrainingSettings, new: TrainingSettings) -> str:
    """What the change from ``old`` to ``new`` that starts over is, in a person's words ("Another activation")."""
    changed = [name for name in _STARTS_OVER if getattr(old, name) != getattr(new, name)]
    if old.trains_graph and new.trains_graph:
        changed = [name for name in changed if name not in LAYER_FIELDS]
    return _STARTS_OVER[changed[0]] if changed else "Another output layer"


def classify_change(old: TrainingSettings, new: TrainingSettings) -> Change:
    changed = [name for name in _FIELD_CHANGE if getattr(old, name) != getattr(new, name)]
    if old.trains_graph and new.trains_graph:  # the layer form's own fields change nothing of a graph
        changed = [name for name in changed if name not in LAYER_FIELDS]
    change = max((_FIELD_CHANGE[name] for name in changed), default=Change.NONE)
    if old.outputs != new.outputs:  # a binary loss and cross-entropy: another output layer
        change = max(change, Change.MODEL)
    return change
