"""The training panel's model, free of Qt: settings, data, network, optimizer, boundary, divergence.

`TrainingSession` owns one run: the data split, the input features, the network and its
optimizer, and the step count. `apply()` takes new `TrainingSettings` and resets only what
the change needs: learning rate, momentum and weight decay are set on the running optimizer,
another optimizer kind gets a fresh optimizer on the same weights, a new loss or batch size
keeps both, and new data or a new architecture rebuilds the network from the seed.

The worker thread drives a session; a test drives it directly.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace

import numpy as np

from engine import Tensor, no_grad
from engine.data import (
    load_csv,
    make_blobs,
    make_circles,
    make_moons,
    make_spiral,
    make_xor,
    train_test_split,
)
from engine.nn import LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from engine.optim import SGD, Adam
from engine.train import TrainStep, accuracy, binary_loss, train

# -- vocabularies: internal name -> what a person reads -----------------------------------------

DATASETS = {
    "moons": "Two moons",
    "circles": "Circles",
    "xor": "XOR",
    "spiral": "Spiral",
    "blobs": "Gaussian blobs",
    "csv": "Your CSV",
}
FEATURES = {
    "x1": "x₁",
    "x2": "x₂",
    "x1^2": "x₁²",
    "x2^2": "x₂²",
    "x1*x2": "x₁·x₂",
    "sin x1": "sin(x₁)",
    "sin x2": "sin(x₂)",
}
ACTIVATIONS = {"tanh": "Tanh", "relu": "ReLU", "sigmoid": "Sigmoid", "leaky_relu": "Leaky ReLU"}
LOSSES = {"bce": "Binary cross-entropy", "hinge": "Hinge", "mse": "Mean squared error"}
OPTIMIZERS = {"adam": "Adam", "sgd": "SGD", "momentum": "SGD + momentum"}

_FEATURE_FUNCTIONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "x1": lambda x1, x2: x1,
    "x2": lambda x1, x2: x2,
    "x1^2": lambda x1, x2: x1 * x1,
    "x2^2": lambda x1, x2: x2 * x2,
    "x1*x2": lambda x1, x2: x1 * x2,
    "sin x1": lambda x1, x2: np.sin(x1),
    "sin x2": lambda x1, x2: np.sin(x2),
}
_ACTIVATION_LAYERS = {"tanh": Tanh, "relu": ReLU, "sigmoid": Sigmoid, "leaky_relu": LeakyReLU}

MAX_LAYERS = 6
MAX_NEURONS = 64
MIN_LR, MAX_LR = 1e-5, 10.0
_BLAS_SINGLE_THREAD = 65536 * 4  # OpenBLAS's default GEMM threading threshold (M * N * K)
DIVERGENCE_FACTOR = 1e6  # a loss this many times its starting value counts as exploded
WEIGHTS_FORMAT = "autograd-playground-weights"
WEIGHTS_VERSION = 1


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
    activation: str = "tanh"
    loss: str = "bce"
    optimizer: str = "adam"
    learning_rate: float = 0.01
    momentum: float = 0.9
    weight_decay: float = 0.0
    batch_size: int | None = None  # None: the whole training set every step
    steps_per_frame: int = 10

    def __post_init__(self):
        _check_choice("dataset", self.dataset, DATASETS)
        _check_choice("activation", self.activation, ACTIVATIONS)
        _check_choice("loss", self.loss, LOSSES)
        _check_choice("optimizer", self.optimizer, OPTIMIZERS)
        if not isinstance(self.points, int) or not 4 <= self.points <= 100_000:
            raise ValueError(f"points must be an int from 4 to 100000, not {self.points!r}")
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
        if not MIN_LR <= self.learning_rate <= MAX_LR:
            raise ValueError(f"learning_rate must be between {MIN_LR:g} and {MAX_LR:g}, not {self.learning_rate!r}")
        if not 0.0 <= self.momentum < 1.0:
            raise ValueError(f"momentum must be in [0, 1), not {self.momentum!r}")
        if not 0.0 <= self.weight_decay <= 10.0:
            raise ValueError(f"weight_decay must be between 0 and 10, not {self.weight_decay!r}")
        if self.batch_size is not None and (not isinstance(self.batch_size, int) or self.batch_size < 1):
            raise ValueError(f"batch_size must be a positive int or None (full batch), not {self.batch_size!r}")
        if not isinstance(self.steps_per_frame, int) or not 1 <= self.steps_per_frame <= 10_000:
            raise ValueError(f"steps_per_frame must be an int from 1 to 10000, not {self.steps_per_frame!r}")

    def architecture(self) -> str:
        """``2 → 16 → 16 → 1``: inputs, hidden neurons, one output."""
        return " → ".join(str(n) for n in (len(self.features), *self.hidden, 1))


def _check_choice(what: str, value, choices) -> None:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}; choose one of {', '.join(map(repr, choices))}")


class Change(enum.IntEnum):
    """What a settings change resets, least to most; `apply` returns the largest one needed."""

    NONE = 0
    PACE = 1            # steps per frame: nothing in the model
    OPTIMIZER = 2       # learning rate, momentum, weight decay: set on the running optimizer
    TRAINING = 3        # loss or batch size: same weights, same optimizer state
    OPTIMIZER_KIND = 4  # another optimizer: same weights, fresh optimizer state
    MODEL = 5           # features, layers, activation: a new network from the seed
    DATA = 6            # dataset, points, noise, split, seed: new data and a new network

    @property
    def resets_weights(self) -> bool:
        return self >= Change.MODEL


_FIELD_CHANGE = {
    "dataset": Change.DATA, "points": Change.DATA, "noise": Change.DATA, "test_fraction": Change.DATA,
    "seed": Change.DATA,
    "features": Change.MODEL, "hidden": Change.MODEL, "activation": Change.MODEL,
    "optimizer": Change.OPTIMIZER_KIND,
    "loss": Change.TRAINING, "batch_size": Change.TRAINING,
    "learning_rate": Change.OPTIMIZER, "momentum": Change.OPTIMIZER, "weight_decay": Change.OPTIMIZER,
    "steps_per_frame": Change.PACE,
}
assert set(_FIELD_CHANGE) == {f.name for f in fields(TrainingSettings)}


def classify_change(old: TrainingSettings, new: TrainingSettings) -> Change:
    changed = [name for name in _FIELD_CHANGE if getattr(old, name) != getattr(new, name)]
    return max((_FIELD_CHANGE[name] for name in changed), default=Change.NONE)


# -- data -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitData:
    """Points in the plane (x1, x2) split for training and testing, and the square they are drawn in."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    extent: tuple[float, float, float, float]  # x_min, x_max, y_min, y_max
    name: str = ""

    def copy(self) -> SplitData:
        return replace(self, X_train=self.X_train.copy(), y_train=self.y_train.copy(),
                       X_test=self.X_test.copy(), y_test=self.y_test.copy())

    def all_points(self) -> tuple[np.ndarray, np.ndarray]:
        return np.concatenate([self.X_train, self.X_test]), np.concatenate([self.y_train, self.y_test])


def make_dataset(name: str, points: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One of the built-in datasets, all of them roughly within [-1.5, 2.5]^2."""
    if name == "moons":
        return make_moons(points, noise=noise, random_state=seed)
    if name == "circles":
        return make_circles(points, noise=noise, factor=0.5, random_state=seed)
    if name == "xor":
        return make_xor(points, noise=noise, random_state=seed)
    if name == "spiral":
        return make_spiral(points, noise=noise, random_state=seed)
    if name == "blobs":
        return make_blobs(points, centers=[[-1.0, -1.0], [1.0, 1.0]], cluster_std=0.3 + 2.0 * noise,
                          random_state=seed)
    raise ValueError(f"no built-in dataset {name!r}")


def square_extent(X: np.ndarray) -> tuple[float, float, float, float]:
    """A square around the points with a margin, so the boundary shows a little beyond the data."""
    low, high = X.min(axis=0), X.max(axis=0)
    centre = (low + high) / 2
    half = max(float(np.max(high - low)) / 2, 0.5) * 1.15 + 0.1
    return (float(centre[0] - half), float(centre[0] + half), float(centre[1] - half), float(centre[1] + half))


def split(X: np.ndarray, y: np.ndarray, test_fraction: float, seed: int, name: str = "") -> SplitData:
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_fraction, random_state=seed)
    return SplitData(X_train, y_train, X_test, y_test, square_extent(X), name)


def load_points(path) -> tuple[np.ndarray, np.ndarray]:
    """A person's CSV (``x1,x2,label`` rows) with two classes; ValueError with a message to show."""
    X, y = load_csv(path)  # its ValueError already names the file and the line
    check_points(X, y)
    return X, y


def check_points(X: np.ndarray, y: np.ndarray) -> None:
    classes = len(np.unique(y))
    if classes != 2:
        raise ValueError(f"the data has {classes} class{'es' if classes != 1 else ''}; "
                         "the training panel separates exactly two labels")
    if len(X) < 4:
        raise ValueError(f"the data has {len(X)} points; training and testing need at least 4")


def expand_features(X: np.ndarray, features: tuple[str, ...]) -> np.ndarray:
    """The network's inputs for points (x1, x2): one column per chosen feature."""
    X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([_FEATURE_FUNCTIONS[name](x1, x2) for name in features])


def grid_axes(extent, resolution: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates of a resolution x resolution image covering ``extent``."""
    x_min, x_max, y_min, y_max = extent
    xs = x_min + (np.arange(resolution) + 0.5) * (x_max - x_min) / resolution
    ys = y_min + (np.arange(resolution) + 0.5) * (y_max - y_min) / resolution
    return xs, ys


# -- network and optimizer ------------------------------------------------------------------------


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


def _set_optimizer_settings(optimizer, settings: TrainingSettings) -> None:
    optimizer.lr = settings.learning_rate
    optimizer.weight_decay = settings.weight_decay
    if isinstance(optimizer, SGD) and settings.optimizer == "momentum":
        optimizer.momentum = settings.momentum


# -- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    step: int
    train_loss: float
    test_loss: float
    train_accuracy: float
    test_accuracy: float


@dataclass(frozen=True)
class Divergence:
    step: int
    loss: float
    restored_step: int
    learning_rate: float

    def message(self) -> str:
        what = "became nan" if math.isnan(self.loss) else (
            "became infinite" if math.isinf(self.loss) else f"exploded to {self.loss:.3g}")
        return (f"Training paused: the loss {what} at step {self.step:,} (learning rate {self.learning_rate:g}). "
                f"The weights are back at step {self.restored_step:,}; lower the learning rate and press Play, "
                "or Reset.")


@dataclass(frozen=True)
class StepsResult:
    steps: int                      # steps taken (a diverged step and the ones before it, since restored, count)
    last: TrainStep | None
    divergence: Divergence | None = None


# -- the session ----------------------------------------------------------------------------------


class TrainingSession:
    """One training run: data, features, network, optimizer, step count; no Qt."""

    def __init__(self, settings: TrainingSettings | None = None, *, data: SplitData | None = None,
                 custom: tuple[np.ndarray, np.ndarray, str] | None = None, resolution: int = 150):
        """``data`` fixes the split (the optimizer race uses the panel's); ``custom`` is a person's CSV
        ``(X, y, name)``, used when ``settings.dataset == 'csv'``."""
        self.settings = settings or TrainingSettings()
        self.resolution = resolution
        self._custom = custom
        if self.settings.dataset == "csv" and custom is None and data is None:
            raise ValueError("the 'csv' dataset needs the points: pass custom=(X, y, name)")
        if data is not None:
            self.data = data.copy()
        else:
            self._build_data()
        self._build_model()

    # -- building --

    def _build_data(self) -> None:
        s = self.settings
        if s.dataset == "csv":
            X, y, name = self._custom
        else:
            X, y = make_dataset(s.dataset, s.points, s.noise, s.seed)
            name = DATASETS[s.dataset]
        self.data = split(X, y, s.test_fraction, s.seed, name)

    def _build_features(self) -> None:
        features = self.settings.features
        self.F_train = expand_features(self.data.X_train, features)
        self.F_test = expand_features(self.data.X_test, features)
        xs, ys = grid_axes(self.data.extent, self.resolution)
        gx, gy = np.meshgrid(xs, ys)  # row i is y = ys[i]: row-major image, y up
        grid = expand_features(np.column_stack([gx.ravel(), gy.ravel()]), features)
        # In chunks small enough for OpenBLAS to multiply on this thread: above ~262,144 multiply-adds
        # it wakes its helper threads, which then spin for a while after each call and take a core
        # from the GUI on a small machine.
        widest = max(a * b for a, b in zip((len(features), *self.settings.hidden), (*self.settings.hidden, 1)))
        rows = max(256, _BLAS_SINGLE_THREAD // widest)
        self._grid_chunks = [Tensor(grid[i:i + rows], dtype=np.float32) for i in range(0, len(grid), rows)]

    def _build_model(self) -> None:
        s = self.settings
        self._build_features()
        self.model = build_model(len(s.features), s.hidden, s.activation, s.seed)
        # A float32 twin draws the boundary: four times faster over the grid's 22,500 points, and a
        # picture needs no float64. It takes the weights just before each drawing.
        self._grid_model = build_model(len(s.features), s.hidden, s.activation, s.seed)
        for parameter in self._grid_model.parameters():
            parameter.data = parameter.data.astype(np.float32)
        self.step = 0
        self.start_loss: float | None = None
        self._new_optimizer()

    def _new_optimizer(self) -> None:
        self.optimizer = make_optimizer(self.settings, self.model.parameters())
        self._new_steps()

    def _new_steps(self) -> None:
        s = self.settings
        self.loss_fn = binary_loss(s.loss)
        self._steps = train(self.model, self.optimizer, self.loss_fn, self.F_train, self.data.y_train,
                            batch_size=s.batch_size, random_state=np.random.default_rng([s.seed, self.step, 104729]))

    # -- changes --

    def apply(self, settings: TrainingSettings) -> Change:
        """Switch to ``settings``, resetting only what the change requires; returns what was reset."""
        change = classify_change(self.settings, settings)
        self.settings = settings
        if change == Change.DATA:
            self._build_data()
            self._build_model()
        elif change == Change.MODEL:
            self._build_model()
        elif change == Change.OPTIMIZER_KIND:
            self._new_optimizer()
        elif change == Change.TRAINING:
            _set_optimizer_settings(self.optimizer, settings)
            self._new_steps()
        elif change == Change.OPTIMIZER:
            _set_optimizer_settings(self.optimizer, settings)
        return change

    def set_points(self, X: np.ndarray, y: np.ndarray, name: str) -> Change:
        """Train on a person's points (already read and checked): the 'csv' dataset, a new network."""
        X, y = np.asarray(X, dtype=np.float64).reshape(-1, 2), np.asarray(y, dtype=np.int64)
        check_points(X, y)
        self._custom = (X.copy(), y.copy(), name)
        self.settings = replace(self.settings, dataset="csv")
        self._build_data()
        self._build_model()
        return Change.DATA

    def add_point(self, x1: float, x2: float, label: int) -> None:
        """A training point where a person clicked; the network keeps its weights and learns it."""
        if label not in (0, 1):
            raise ValueError(f"label must be 0 or 1, not {label!r}")
        d = self.data
        self.data = replace(d, X_train=np.vstack([d.X_train, [[float(x1), float(x2)]]]),
                            y_train=np.append(d.y_train, np.int64(label)))
        self.F_train = expand_features(self.data.X_train, self.settings.features)
        self._new_steps()

    def reset(self) -> None:
        """Start over: the network's initial weights for the seed, a fresh optimizer, step 0."""
        self._build_model()

    # -- training --

    def train_steps(self, count: int, should_stop: Callable[[], bool] | None = None) -> StepsResult:
        """Take up to ``count`` steps (fewer if ``should_stop()`` turns true, checked before every step).

        A non-finite loss, or one above `DIVERGENCE_FACTOR` times the first loss of this network,
        stops the run: the weights go back to where they were at the start of this call, with a
        fresh optimizer (its moments may be poisoned too), and the result carries a `Divergence`.
        """
        snapshot, snapshot_step = self.model.state_dict(), self.step
        last = None
        taken = 0
        with np.errstate(all="ignore"):  # an overflow is the divergence reported below, not a warning
            while taken < count and not (should_stop and should_stop()):
                last = next(self._steps)
                taken += 1
                self.step += 1
                if self.start_loss is None and math.isfinite(last.loss):
                    self.start_loss = last.loss
                if self._diverged(last.loss):
                    divergence = Divergence(self.step, last.loss, snapshot_step, self.settings.learning_rate)
                    self.model.load_state_dict(snapshot)
                    self.step = snapshot_step
                    self._new_optimizer()
                    return StepsResult(taken, last, divergence)
        return StepsResult(taken, last)

    def _diverged(self, loss: float) -> bool:
        if not math.isfinite(loss):
            return True
        return self.start_loss is not None and loss > DIVERGENCE_FACTOR * max(self.start_loss, 1e-3)

    def evaluate(self) -> Metrics:
        """Loss and accuracy of the current weights on the whole training and test sets."""
        with no_grad(), np.errstate(all="ignore"):
            train_logits = self.model(Tensor(self.F_train))
            test_logits = self.model(Tensor(self.F_test))
            return Metrics(
                self.step,
                self.loss_fn(train_logits, self.data.y_train).item(),
                self.loss_fn(test_logits, self.data.y_test).item(),
                accuracy(train_logits.data, self.data.y_train),
                accuracy(test_logits.data, self.data.y_test),
            )

    def boundary(self) -> np.ndarray:
        """P(class 1) over the plane: a float32 (resolution, resolution) image, row i at the i-th y.

        One batched forward pass over the grid, in float32, through a twin of the network.
        """
        for twin, parameter in zip(self._grid_model.parameters(), self.model.parameters()):
            twin.data[...] = parameter.data
        with no_grad(), np.errstate(all="ignore"):
            logits = np.concatenate([self._grid_model(chunk).data for chunk in self._grid_chunks])
        logits = logits.reshape(self.resolution, self.resolution)
        probability = 0.5 * (1.0 + np.tanh(0.5 * logits))  # sigmoid without overflow
        return np.nan_to_num(probability, nan=0.5).astype(np.float32, copy=False)

    def misclassified(self) -> np.ndarray:
        """Coordinates (k, 2) of the training and test points the network gets wrong."""
        with no_grad(), np.errstate(all="ignore"):
            wrong_train = (self.model(Tensor(self.F_train)).data.reshape(-1) > 0) != (self.data.y_train == 1)
            wrong_test = (self.model(Tensor(self.F_test)).data.reshape(-1) > 0) != (self.data.y_test == 1)
        return np.concatenate([self.data.X_train[wrong_train], self.data.X_test[wrong_test]])

    def state_dict(self) -> dict[str, np.ndarray]:
        return self.model.state_dict()

    def fork(self, **changes) -> TrainingSession:
        """A session on the same data with some settings changed and the same initial weights."""
        return TrainingSession(replace(self.settings, **changes), data=self.data, resolution=self.resolution)


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


def contour_segments(grid: np.ndarray, level: float, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Marching squares on ``grid[i, j]`` sampled at ``(xs[j], ys[i])``: line segments where it crosses ``level``.

    Returns ``(x, y)`` with two points per segment (draw with ``connect='pairs'``). Vectorised:
    a 150 x 150 grid takes about a millisecond.
    """
    v = np.asarray(grid, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] < 2 or v.shape[1] < 2:
        return np.empty(0), np.empty(0)
    above = v > level
    a, b, c, d = v[:-1, :-1], v[:-1, 1:], v[1:, 1:], v[1:, :-1]  # corners: bottom-left, -right, top-right, -left
    A, B, C, D = above[:-1, :-1], above[:-1, 1:], above[1:, 1:], above[1:, :-1]
    x0, x1 = np.broadcast_to(xs[:-1], a.shape), np.broadcast_to(xs[1:], a.shape)
    y0, y1 = np.broadcast_to(ys[:-1, None], a.shape), np.broadcast_to(ys[1:, None], a.shape)

    def t(p, q):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.clip(np.nan_to_num((level - p) / (q - p), nan=0.5), 0.0, 1.0)

    # Edge crossings in the order bottom, right, top, left.
    crosses = np.stack([A != B, B != C, D != C, A != D], axis=-1)
    px = np.stack([x0 + t(a, b) * (x1 - x0), x1, x0 + t(d, c) * (x1 - x0), x0], axis=-1)
    py = np.stack([y0, y0 + t(b, c) * (y1 - y0), y1, y0 + t(a, d) * (y1 - y0)], axis=-1)

    count = crosses.sum(axis=-1)
    two = count == 2
    sub = crosses[two]
    first = np.argmax(sub, axis=1)
    second = 3 - np.argmax(sub[:, ::-1], axis=1)
    pxs, pys = px[two], py[two]
    rows = np.arange(len(sub))
    seg_x = [np.column_stack([pxs[rows, first], pxs[rows, second]])]
    seg_y = [np.column_stack([pys[rows, first], pys[rows, second]])]

    four = count == 4  # a saddle: the centre decides which corners the level line cuts off
    if np.any(four):
        centre_above = (a[four] + b[four] + c[four] + d[four]) / 4 > level
        same_as_a = centre_above == A[four]
        # a joined to c through the centre: cut off b (bottom-right) and d (top-left); else cut off a and c.
        pairs_1 = np.where(same_as_a[:, None], [0, 1], [3, 0])
        pairs_2 = np.where(same_as_a[:, None], [2, 3], [1, 2])
        pxf, pyf = px[four], py[four]
        rows = np.arange(len(pxf))
        for pairs in (pairs_1, pairs_2):
            seg_x.append(np.column_stack([pxf[rows, pairs[:, 0]], pxf[rows, pairs[:, 1]]]))
            seg_y.append(np.column_stack([pyf[rows, pairs[:, 0]], pyf[rows, pairs[:, 1]]]))
    return np.concatenate(seg_x).ravel(), np.concatenate(seg_y).ravel()
