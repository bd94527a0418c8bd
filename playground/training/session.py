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
from dataclasses import dataclass, replace

import numpy as np

from engine import Tensor, no_grad
from engine.train import TrainStep, accuracy, binary_loss, train

from .contour import contour_segments
from .network import NetworkSnapshot, build_model, make_optimizer, network_snapshot, set_optimizer_settings
from .points import (
    SplitData,
    check_points,
    expand_features,
    grid_axes,
    load_points,
    make_dataset,
    split,
)
from .settings import DATASETS, Change, TrainingSettings, classify_change

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

_BLAS_SINGLE_THREAD = 65536 * 4  # OpenBLAS's default GEMM threading threshold (M * N * K)
DIVERGENCE_FACTOR = 1e6  # a loss this many times its starting value counts as exploded


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
            set_optimizer_settings(self.optimizer, settings)
            self._new_steps()
        elif change == Change.OPTIMIZER:
            set_optimizer_settings(self.optimizer, settings)
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
