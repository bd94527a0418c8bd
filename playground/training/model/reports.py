"""What a training session reports, free of Qt: a report's figures (`Metrics`), what a call of `train_steps`
did (`StepsResult`), and the stop condition met (`StopReached`). `session` re-exports them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.train import TrainStep

from ...common.numbers import format_number
from .health import Blowup, Stall
from .learned import Learned, percent
from .run_history import StepLosses


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
    epoch: float = 0.0                  # training points seen / training points
    batch: int = 0                      # training points a step sees
    train_points: int = 0               # training points in all
    # A regression's figures in place of the accuracies (nan there): R² and the mean absolute error.
    train_r2: float | None = None
    test_r2: float | None = None
    train_mae: float | None = None
    test_mae: float | None = None


Divergence = Blowup  # the name the worker and the tests know it by


@dataclass(frozen=True)
class StopReached:
    """The stop condition met: training pauses, and says why."""

    step: int
    epoch: float
    when: str       # settings.STOP_CONDITIONS
    at: float
    value: float    # the figure that reached it

    def message(self) -> str:
        if self.when == "test_accuracy":
            why = f"the test accuracy reached {percent(self.value)} (stop at ≥ {percent(self.at)})"
        elif self.when == "test_r2":
            why = f"the test R² reached {format_number(self.value)} (stop at ≥ {format_number(self.at)})"
        elif self.when == "train_loss":
            why = f"the train loss fell to {format_number(self.value)} (stop at ≤ {format_number(self.at)})"
        else:
            why = f"{format_number(self.at)} epochs are done"
        return (f"Training paused at step {format_number(self.step)}, epoch {epoch_text(self.epoch)}: {why}. "
                "Press Play to go on, or change Stop at.")


def epoch_text(epoch: float) -> str:
    """Epochs as a person counts them: whole with full batches, to a tenth with mini-batches."""
    return format_number(round(epoch, 1) if epoch != round(epoch) else epoch)


@dataclass(frozen=True)
class StepsResult:
    steps: int                      # steps taken (a diverged step and the ones before it, since restored, count)
    last: TrainStep | None
    divergence: Divergence | None = None
    stall: Stall | None = None      # the run goes nowhere (reported once; training goes on)
    stopped: StopReached | Learned | None = None  # the stop condition met (both say why in `message()`)
    losses: StepLosses | None = None  # every step's own loss, as it was computed (the curves keep them all)
