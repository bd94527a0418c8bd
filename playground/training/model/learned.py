"""When a run has learned, free of Qt: the rule behind Stop at "When learned", the default.

Every `CHECK_EVERY` steps the session shows `LearnedWatch` the accuracy on the training points
and the figure it judges by: the test accuracy, or with no test points the training accuracy.
The run has learned (`has_learned`) once it gets at least `TRAIN_ACCURACY` of its training points
right and the figure has not improved for `PATIENCE` steps: the default two moons reach 100% test
accuracy near step 120 and pause near step 170. Accuracies are over the whole sets, so a noisy
minibatch curve does not delay it; a run that never gets 99% of its points right (noisy data,
too small a network) trains on, as "Never" does.

Pressed Play again after the pause, or with the rule already true (`arm`), the run goes on until the
figure beats its best and then stays there `PATIENCE` steps: it never pauses again at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...common.numbers import format_number

TRAIN_ACCURACY = 0.99   # a share of the training points right
TRAIN_R2 = 0.9          # a regression's: R² on the training points (noise keeps it below 1)
PATIENCE = 50           # steps the figure has not improved


def has_learned(step: int, train_accuracy: float, best_step: int, enough: float = TRAIN_ACCURACY) -> bool:
    """The rule: most training points right (a regression: R² of at least `TRAIN_R2`), and the judged
    figure's best is ``PATIENCE`` steps old."""
    return train_accuracy >= enough and step - best_step >= PATIENCE


def percent(share: float) -> str:
    """0.9733 -> "97.33%" (through the app's one number formatter)."""
    return f"{format_number(100 * share)}%"


@dataclass(frozen=True)
class Learned:
    """The run has learned: training pauses, and says so."""

    step: int
    best: float            # the best figure, and the first step it was seen at
    best_step: int
    now: float             # the figure at `step`
    on_test: bool          # the figure is the test accuracy (else the training accuracy: no test points)
    regression: bool = False  # the figure is R², not an accuracy

    def message(self) -> str:
        which = "test" if self.on_test else "training"
        shown = (lambda r2: f"R² {format_number(r2)}") if self.regression else percent
        what = "" if self.regression else " accuracy"
        text = (f"Learned: {which} {shown(self.best)} at step {format_number(self.best_step)}" if self.regression else
                f"Learned: {shown(self.best)} {which}{what} at step {format_number(self.best_step)}")
        if self.now < self.best:
            text += f" ({shown(self.now)} at step {format_number(self.step)})"
        return f"{text}. Play to go on, or change Stop at."


class LearnedWatch:
    """Fed the accuracies now and then (`observe`); returns a `Learned` once `has_learned` holds."""

    def __init__(self, regression: bool = False):
        """A regression is fed R² in place of the accuracies."""
        self.regression = regression
        self.best = -math.inf
        self.best_step = 0
        self._must_beat = -math.inf  # after `arm` with the rule true: the best to beat before pausing again
        self._holds = False

    def observe(self, step: int, train_accuracy: float, test_accuracy: float) -> Learned | None:
        """``test_accuracy`` is nan with no test points: the training accuracy is judged instead."""
        on_test = not math.isnan(test_accuracy)
        figure = test_accuracy if on_test else train_accuracy
        if figure > self.best:
            self.best, self.best_step = figure, step
        self._holds = has_learned(step, train_accuracy, self.best_step, TRAIN_R2 if self.regression else TRAIN_ACCURACY)
        if not self._holds or self.best <= self._must_beat:
            return None
        return Learned(step, self.best, self.best_step, figure, on_test, self.regression)

    def arm(self) -> None:
        """Play (or a change of settings) with the rule already true: go on until the figure beats its best."""
        if self._holds:
            self._must_beat = self.best
