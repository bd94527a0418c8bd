"""The training panel's model, free of Qt: settings, data, network, optimizer, boundary, divergence.

`TrainingSession` owns one run: the data split, the input features, the network and its
optimizer, and the step count. `apply()` takes new `TrainingSettings` and resets only what
the change needs: learning rate, momentum and weight decay are set on the running optimizer,
another optimizer kind gets a fresh optimizer on the same weights, a new loss or batch size
keeps both, and new data or a new architecture rebuilds the network from the seed.

The worker thread drives a session; a test drives it directly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from engine import Tensor, no_grad
from engine.train import TrainStep, classification_loss, confusion_matrix, predict, train

from ..numbers import format_number
from .contour import contour_segments
from .grid import PlaneDrawing, PlaneGrid
from .network import (
    NetworkSnapshot,
    make_optimizer,
    make_scheduler,
    model_for,
    network_snapshot,
    set_optimizer_settings,
)
from .points import SplitData, check_points, expand_features, load_points, make_dataset, split
from .settings import BINARY_LOSSES, DATASETS, Change, TrainingSettings, classify_change

# The names other rooms and tests know this module by: the panel's model, with its parts.
__all__ = [
    "Change",
    "Divergence",
    "Metrics",
    "NetworkSnapshot",
    "SplitData",
    "StepsResult",
    "TrainingSession",
    "TrainingSettings",
    "contour_segments",
    "load_points",
    "network_snapshot",
]

DIVERGENCE_FACTOR = 1e6  # a loss this many times its starting value counts as exploded


@dataclass(frozen=True)
class Metrics:
    step: int
    train_loss: float
    test_loss: float
    train_accuracy: float
    test_accuracy: float
    # Counts (k, k), row: the true class, column: the predicted one.
    train_confusion: np.ndarray | None = field(default=None, compare=False)
    test_confusion: np.ndarray | None = field(default=None, compare=False)
    learning_rate: float | None = None  # the optimizer's, where a schedule has taken it

@dataclass(frozen=True)
class Divergence:
    step: int
    loss: float
    restored_step: int
    learning_rate: float

    def message(self) -> str:
        what = "became nan" if math.isnan(self.loss) else (
            "became infinite" if math.isinf(self.loss) else f"exploded to {format_number(self.loss)}")
        return (f"Training paused: the loss {what} at step {format_number(self.step)} "
                f"(learning rate {format_number(self.learning_rate)}). The weights are back at step "
                f"{format_number(self.restored_step)}; lower the learning rate and press Play, "
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
                 custom: tuple | None = None, resolution: int = 150):
        """``data`` fixes the split (the optimizer race uses the panel's); ``custom`` is a person's CSV
        ``(X, y, name)`` or ``(X, y, name, class names)``, used when ``settings.dataset == 'csv'``."""
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
            X, y, name, *classes = self._custom
            self.data = split(X, y, s.test_fraction, s.seed, name, classes[0] if classes else None)
        else:
            X, y = make_dataset(s.dataset, s.points, s.noise, s.seed, s.classes)
            self.data = split(X, y, s.test_fraction, s.seed, DATASETS[s.dataset])

    def _build_features(self) -> None:
        features = self.settings.features
        self.F_train = expand_features(self.data.X_train, features)
        self.F_test = expand_features(self.data.X_test, features)
        self.grid = PlaneGrid(self.settings, self.data.extent, self.resolution)

    def _build_model(self) -> None:
        self._build_features()
        self.model = model_for(self.settings)
        self.step = 0
        self.start_loss: float | None = None
        self._new_optimizer()

    def _new_optimizer(self) -> None:
        self.optimizer = make_optimizer(self.settings, self.model.parameters())
        self._new_schedule()

    def _new_schedule(self) -> None:
        """The learning-rate schedule where it stands at this step (and the steps that follow it)."""
        self.scheduler = make_scheduler(self.settings, self.optimizer, self.step)
        self._new_steps()

    def _new_steps(self) -> None:
        s = self.settings
        self.loss_fn = classification_loss(s.loss)
        self._steps = train(self.model, self.optimizer, self.loss_fn, self.F_train, self.data.y_train,
                            batch_size=s.batch_size, random_state=np.random.default_rng([s.seed, self.step, 104729]),
                            scheduler=self.scheduler)

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
        elif change in (Change.TRAINING, Change.OPTIMIZER):
            set_optimizer_settings(self.optimizer, settings)
            self._new_schedule()
        return change

    def set_points(self, X: np.ndarray, y: np.ndarray, name: str, classes: tuple[str, ...] | None = None) -> Change:
        """Train on a person's points (already read and checked), labels 0..k-1 named ``classes``: the
        'csv' dataset with k classes, a new network. More than two classes need cross-entropy: a
        binary loss gives way to it (`settings` says so)."""
        X, y = np.asarray(X, dtype=np.float64).reshape(-1, 2), np.asarray(y, dtype=np.int64)
        check_points(X, y)
        k = int(y.max()) + 1
        if classes is not None and len(classes) != k:
            raise ValueError(f"{len(classes)} class names for {k} classes")
        self._custom = (X.copy(), y.copy(), name, tuple(classes) if classes is not None else None)
        loss = "cross_entropy" if k > 2 and self.settings.loss in BINARY_LOSSES else self.settings.loss
        self.settings = replace(self.settings, dataset="csv", classes=k, loss=loss)
        self._build_data()
        self._build_model()
        return Change.DATA

    @property
    def n_classes(self) -> int:
        return self.settings.classes

    def add_point(self, x1: float, x2: float, label: int) -> None:
        """A training point where a person clicked; the network keeps its weights and learns it."""
        if not isinstance(label, (int, np.integer)) or not 0 <= label < self.n_classes:
            raise ValueError(f"label must be a class from 0 to {self.n_classes - 1}, not {label!r}")
        d = self.data
        self.data = replace(d, X_train=np.vstack([d.X_train, [[float(x1), float(x2)]]]),
                            y_train=np.append(d.y_train, np.int64(label)))
        self.F_train = expand_features(self.data.X_train, self.settings.features)
        self._new_steps()

    def anchor_batches(self) -> None:
        """Restart the minibatch order from this step, as a session resumed at this step starts it."""
        self._new_steps()

    def resume_schedule(self) -> None:
        """Put the learning-rate schedule and the minibatch order where they stand at `step` (after the
        step and the optimizer's state were set from a saved setup)."""
        self._new_schedule()

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
        """Loss, accuracy and confusion matrices of the current weights on the whole training and test sets."""
        k = self.n_classes
        with no_grad(), np.errstate(all="ignore"):
            train_logits = self.model(Tensor(self.F_train))
            test_logits = self.model(Tensor(self.F_test))
            train_loss = self.loss_fn(train_logits, self.data.y_train).item()
            test_loss = self.loss_fn(test_logits, self.data.y_test).item()
        train_predicted, test_predicted = predict(train_logits.data), predict(test_logits.data)
        y_train, y_test = self.data.y_train, self.data.y_test
        return Metrics(
            self.step, train_loss, test_loss,
            float(np.mean(train_predicted == y_train)) if len(y_train) else math.nan,
            float(np.mean(test_predicted == y_test)) if len(y_test) else math.nan,
            confusion_matrix(y_train, train_predicted, k), confusion_matrix(y_test, test_predicted, k),
            self.optimizer.lr,
        )

    def draw(self, focus: tuple[int, int] | None = None) -> PlaneDrawing:
        """The plane through the current weights: one batched float32 pass over the grid gives the
        boundary and every neuron's map (`grid.PlaneGrid`); ``focus`` = (layer, neuron) adds that
        neuron at full resolution."""
        return self.grid.draw(self.model, focus)

    def boundary(self) -> np.ndarray:
        """P(class 1) over the plane, a float32 (resolution, resolution) image with row i at the i-th y;
        for k classes the softmax probabilities, (k, resolution, resolution)."""
        return self.draw().probability

    def misclassified(self) -> np.ndarray:
        """Coordinates (k, 2) of the training and test points the network gets wrong."""
        with no_grad(), np.errstate(all="ignore"):
            wrong_train = predict(self.model(Tensor(self.F_train)).data) != self.data.y_train
            wrong_test = predict(self.model(Tensor(self.F_test)).data) != self.data.y_test
        return np.concatenate([self.data.X_train[wrong_train], self.data.X_test[wrong_test]])

    def gradients(self) -> dict[str, np.ndarray]:
        """d(loss)/d(parameter) at the current weights over the whole training set, by parameter name:
        the slope each weight sits on now (the optimizer's last step used its own batch)."""
        with np.errstate(all="ignore"):
            for parameter in self.model.parameters():
                parameter.grad = None
            self.loss_fn(self.model(Tensor(self.F_train)), self.data.y_train).backward()
            gradients = {name: (p.grad.copy() if p.grad is not None else np.zeros_like(p.data))
                         for name, p in self.model.named_parameters()}
            for parameter in self.model.parameters():
                parameter.grad = None
        return gradients

    def set_parameter(self, name: str, index: tuple[int, ...], value: float) -> float:
        """Set one number of the weights (``name`` as in `state_dict`, ``index`` into it); returns the
        number it replaces. Training goes on from there, with the optimizer's state as it was."""
        parameters = dict(self.model.named_parameters())
        if name not in parameters:
            raise KeyError(f"the network has no parameter {name!r}")
        data = parameters[name].data
        index = tuple(int(i) for i in index)
        if len(index) != data.ndim or any(not 0 <= i < n for i, n in zip(index, data.shape)):
            raise IndexError(f"{name} has shape {data.shape}; {index} is outside it")
        if not math.isfinite(value):
            raise ValueError(f"a weight must be a finite number, not {value!r}")
        old = float(data[index])
        data[index] = value
        return old

    def state_dict(self) -> dict[str, np.ndarray]:
        return self.model.state_dict()

    def fork(self, **changes) -> TrainingSession:
        """A session on the same data with some settings changed and the same initial weights."""
        return TrainingSession(replace(self.settings, **changes), data=self.data, resolution=self.resolution)
