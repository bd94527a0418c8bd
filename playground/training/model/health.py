"""Is the run going anywhere? Two watches over a training run, free of Qt, that notice what a nan never shows.

`DivergenceWatch` looks at every step's loss and pauses the run (`Blowup`) when it turns nan or
infinite, explodes, or stays far above its best for `FAR_WINDOW` steps: Adam at a learning rate of 10
on two moons never makes a nan, its loss jumps between 1 and 30 with dips below its start, and
it is paused at step 20, with the learning rate named.

`RunWatch` reports a run that goes nowhere without diverging, and lets it go on. Every
`CHECK_EVERY` steps the session shows it one forward pass over the training set: the loss,
the predicted classes and every hidden layer's outputs. It reports a `Stall` when, for
`PATIENCE` steps,

- the network predicts one class for every training point (the data has several) and the loss
  has not improved ("collapsed"), or
- the loss has not improved and stays far above its best (`FAR_ABOVE_RATIO` times it and
  `FAR_ABOVE_MARGIN` more: a loss at 1e-4 that wanders to 3e-4 is no alarm) ("stuck").

A healthy run, however slow, keeps setting new bests, and is never reported. A plateau at the best
loss (a linear model on moons, a converged network) is no stall either: the run is as good as that
model gets. The share of saturated (tanh or sigmoid at its limits) or dead (ReLU zero everywhere)
hidden neurons is no alarm on its own (Adam at 1 saturates half of them and still solves the moons)
but, with a stall, it names the likely cause. Each stall is reported once; `rearm` (a change of
settings, a reset, a typed weight) lets the next one be reported.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

import numpy as np

from ...common.numbers import format_number

CHECK_EVERY = 10            # steps between two looks
PATIENCE = 200              # steps a stall lasts before it is reported
PROGRESS = 1e-3             # a loss this much (relatively) below the last progress counts as progress
FAR_ABOVE_RATIO = 2.0
FAR_ABOVE_MARGIN = 0.2      # in loss units: all the losses here start near 0.7 (ln 2) or 1
SATURATED_SHARE = 0.9       # a neuron at its limits for this share of the points is saturated
SATURATION = {"tanh": (-0.99, 0.99), "sigmoid": (0.01, 0.99)}
# Learning rates a person can start from, by optimizer (the race and the defaults use them too).
TYPICAL_LEARNING_RATE = {"adam": 0.01, "momentum": 0.03, "sgd": 0.1}
STRONG_REGULARIZATION = 0.1
# The output layer's weight gradient this many times the first layer's: the gradient has vanished on its
# way back (six sigmoid layers of 8 start at 10^4 to 10^5, six tanh layers at 2 to 70), and no learning
# rate the first layers can take is right for the last.
VANISHED_RATIO = 1e3
ALTERNATIVES = {"sigmoid": "tanh or ReLU", "tanh": "ReLU"}  # activations whose slope does not shrink it as much


@dataclass(frozen=True)
class Stall:
    """A run that goes nowhere, and what it looks like."""

    kind: str                 # "collapsed": one class everywhere; "stuck": the loss far above its best
    since: int                # the step it began
    step: int                 # the step it was noticed
    loss: float
    best_loss: float
    best_step: int
    predicted: str            # "collapsed": the class predicted everywhere
    limited: int              # hidden neurons saturated or dead
    hidden: int               # hidden neurons in all
    activation: str           # the hidden layers': "tanh", or where they differ "relu and tanh"
    optimizer: str
    learning_rate: float
    init: str
    regularization: str       # settings.REGULARIZATIONS
    regularization_rate: float
    layers: int = 0           # hidden layers
    gradient_ratio: float = math.nan  # the output layer's weight-gradient norm over the first layer's, first step
    saturated_nodes: tuple[str, ...] = ()  # a graph's: the tanh and sigmoid nodes saturated on most points

    def message(self) -> str:
        if self.kind == "collapsed":
            what = (f"The network predicts one class ({self.predicted}) everywhere since step "
                    f"{format_number(self.since)}")
        else:
            what = (f"Training is stuck since step {format_number(self.since)}: the loss "
                    f"({format_number(self.loss)}) stays far above its best ({format_number(self.best_loss)} "
                    f"at step {format_number(self.best_step)})")
        limited = ""
        if self.saturated_nodes:
            joint = ", and" if self.kind == "stuck" else ";"
            nodes = _listed(self.saturated_nodes)
            limited = (f"{joint} {nodes} {'is' if len(self.saturated_nodes) == 1 else 'are'} saturated (at the flat "
                       "ends of its curve on most points)")
        elif self.hidden and self.limited * 2 >= self.hidden:
            rectified = {name in ("relu", "leaky_relu") for name in self.activation.split(" and ")}
            state = {frozenset({True}): "dead (zero on every point)", frozenset({False}): "saturated"}.get(
                frozenset(rectified), "saturated or dead")
            joint = ", and" if self.kind == "stuck" else ";"
            limited = f"{joint} {self.limited} of {self.hidden} hidden neurons are {state}"
        advice = self.advice()
        return f"{what}{limited}. {advice[0].upper()}{advice[1:]}."

    def advice(self) -> str:
        typical = TYPICAL_LEARNING_RATE[self.optimizer]
        if self.saturated_nodes:  # a drawn graph starts where it was drawn: its parameters may start too large
            return ("almost no gradient passes back through a saturated node: set the parameters before it nearer "
                    "0 in the editor (a bias of 0, small weights) and train the graph again, or raise the learning "
                    "rate")
        if self.init == "zeros":
            return ("every weight started at zero, so the neurons of a layer stay alike: choose other "
                    "initial weights")
        if self.learning_rate > typical or (self.limited * 2 >= self.hidden > 0 and self.kind == "stuck"):
            suggestion = typical if self.learning_rate > typical else self.learning_rate / 10
            return (f"the learning rate {format_number(self.learning_rate)} is probably too large: try "
                    f"{format_number(suggestion)}, or Reset")
        if self.gradient_ratio >= VANISHED_RATIO:
            # Named without its number and without the layer it fades at: a lesson asks for both (lesson 10
            # asks which layer's gradient is smallest while this line is on screen).
            others = ALTERNATIVES.get(self.activation, "another activation")
            adam = "" if self.optimizer == "adam" else ", or Adam"
            return (f"the weight gradients of the {self.layers} {self.activation} layers are more than "
                    f"{VANISHED_RATIO:,.0f} times apart: tick Gradient health to see which layer's is smallest, "
                    f"and try {others}, fewer layers{adam}")
        if self.regularization != "none" and self.regularization_rate >= STRONG_REGULARIZATION:
            return (f"the {self.regularization.upper()} regularisation rate {format_number(self.regularization_rate)} "
                    "probably pulls every weight to zero: lower it")
        return "try a smaller learning rate, other initial weights, or Reset"


def _listed(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def saturated(values: np.ndarray, activation: str) -> bool:
    """Whether a node's values over the points (a row a point) sit at the flat ends of a tanh or sigmoid for
    most of them, unit by unit: at least half of its units saturated on `SATURATED_SHARE` of the points."""
    if activation not in SATURATION:
        return False
    low, high = SATURATION[activation]
    columns = values.reshape(len(values), -1)
    at_limit = np.mean((columns <= low) | (columns >= high), axis=0) >= SATURATED_SHARE
    return bool(2 * np.count_nonzero(at_limit) >= columns.shape[1])


def limited_neurons(hidden_outputs: list[np.ndarray], activation: str | tuple[str, ...]) -> tuple[int, int]:
    """(saturated or dead neurons, hidden neurons) from each hidden layer's outputs over the points, the layers'
    ``activation`` (one for all, or one per layer)."""
    limited = total = 0
    activations = (activation,) * len(hidden_outputs) if isinstance(activation, str) else activation
    for values, activation in zip(hidden_outputs, activations):  # a graph's: no layers, no outputs
        total += values.shape[1]
        if activation in SATURATION:
            low, high = SATURATION[activation]
            at_limit = np.mean((values <= low) | (values >= high), axis=0) >= SATURATED_SHARE
        else:  # ReLU zero, or leaky ReLU negative, on every point: no gradient flows through it
            at_limit = np.all(values <= 0, axis=0)
        limited += int(np.count_nonzero(at_limit))
    return limited, total


class RunWatch:
    """Fed one look every `CHECK_EVERY` steps (`observe`); returns a `Stall` the first time one lasts."""

    def __init__(self):
        self.best_loss = math.inf
        self.best_step = 0
        self._losses: deque[float] = deque(maxlen=PATIENCE // CHECK_EVERY)
        self.rearm()

    def rearm(self) -> None:
        """Start watching afresh: progress is measured from the next look on (a run set right after a
        stall climbs down from where it was); the best loss stays, the weights being the same."""
        self._progress_loss = math.inf
        self._progress_step: int | None = None
        self._one_class_since: int | None = None
        self._far_since: int | None = None  # the first look since the last progress with the loss far above its best
        self._losses.clear()
        self.reported = False

    def observe(self, step: int, loss: float, predicted: np.ndarray, labels: np.ndarray,
                hidden_outputs: list[np.ndarray], settings, class_names: tuple[str, ...],
                gradient_norms: np.ndarray | None = None, saturated_nodes: tuple[str, ...] = ()) -> Stall | None:
        """``gradient_norms``: each layer's weight-gradient norm at the network's first step, first layer first
        (to tell a vanished gradient); ``saturated_nodes``: a graph's saturated nodes, by name."""
        if not math.isfinite(loss):
            return None  # the divergence check's business
        if self._progress_step is None:
            self._progress_step = step
        if loss < self.best_loss:
            self.best_loss, self.best_step = loss, step
        if loss < self._progress_loss * (1 - PROGRESS):
            self._progress_loss, self._progress_step, self._far_since = loss, step, None
        self._losses.append(loss)
        far_above = max(FAR_ABOVE_RATIO * self.best_loss, self.best_loss + FAR_ABOVE_MARGIN)
        if self._far_since is None and loss > far_above:
            self._far_since = step
        one_class = len(np.unique(labels)) > 1 and len(predicted) > 0 and np.all(predicted == predicted[0])
        if not one_class:
            self._one_class_since = None
        elif self._one_class_since is None:
            self._one_class_since = step
        if self.reported or step - self._progress_step < PATIENCE:
            return None
        kind = since = None
        if self._one_class_since is not None and step - self._one_class_since >= PATIENCE:
            kind, since = "collapsed", self._one_class_since
        elif float(np.median(self._losses)) > far_above and self._far_since is not None:
            kind, since = "stuck", self._far_since
        if kind is None:
            return None
        self.reported = True
        limited, hidden = limited_neurons(hidden_outputs, settings.layer_activations)
        predicted_class = class_names[int(predicted[0])] if kind == "collapsed" else ""
        return Stall(kind, since, step, loss, self.best_loss, self.best_step, predicted_class, limited, hidden,
                     " and ".join(dict.fromkeys(settings.layer_activations)) or settings.activation,
                     settings.optimizer, settings.learning_rate, settings.init,
                     settings.regularization, settings.regularization_rate, len(hidden_outputs),
                     _gradient_ratio(gradient_norms), tuple(saturated_nodes))


def _gradient_ratio(norms: np.ndarray | None) -> float:
    """The output layer's weight-gradient norm over the first layer's (nan: unknown, or no hidden layer)."""
    if norms is None or len(norms) < 2 or not norms[0] > 0:
        return math.nan
    with np.errstate(all="ignore"):
        return float(norms[-1] / norms[0])


# -- divergence: checked after every step ---------------------------------------------------------

EXPLODED_FACTOR = 1e6     # a loss this many times its start has exploded: pause at once
FAR_WINDOW = 20           # steps a loss must stay far above its best
FAR_FACTOR = 10.0         # far above: this many times the best loss,
FAR_START_FACTOR = 2.0    # or twice the loss the network started from (worse than knowing nothing),
FAR_MARGIN = 0.5          # and in any case this much above the best (a loss of 1e-3 against 1e-4 is no alarm)
OPTIMIZER_NAMES = {"adam": "Adam", "momentum": "SGD + momentum", "sgd": "SGD"}


def far_above(losses, best: float, start: float) -> bool:
    """Whether a window of step losses stays far above the best: its median (one lucky minibatch does not
    hide a run gone wrong, one unlucky one raises no alarm) above ``FAR_FACTOR`` times the best, or above
    ``FAR_START_FACTOR`` times the starting loss, and at least ``FAR_MARGIN`` above the best.

    Adam at 10 on two moons never stays ten times above its best (0.69): it wanders between 1 and 30,
    with dips under 0.5, so the first test alone would let it run on; it does stay above twice its
    start. A converged run whose minibatch losses spread over 1e-4 .. 1e-1 stays under the margin."""
    return len(losses) >= FAR_WINDOW and above_best(median(losses), best, start)


def median(values) -> float:
    """The median of a few numbers, sorted in Python: numpy's costs as much as a tenth of a small training
    step, and the watch takes one after every step."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def above_best(level: float, best: float, start: float) -> bool:
    """Whether a loss ``level`` is far above the ``best`` (see `far_above`)."""
    return math.isfinite(best) and level > max(min(FAR_FACTOR * best, FAR_START_FACTOR * start), best + FAR_MARGIN)


@dataclass(frozen=True)
class Blowup:
    """A loss gone wrong: training pauses and the weights go back."""

    kind: str                 # "nan", "inf", "exploded" (at once), "far" (stayed far above its best)
    step: int                 # the step it was noticed
    loss: float               # the loss that step
    level: float              # "far": the median of the last FAR_WINDOW losses
    best_loss: float
    best_step: int
    restored_step: int        # the weights are back where they were after this many steps
    optimizer: str
    learning_rate: float

    def message(self) -> str:
        """What happened, in the steps the curves and the step counter show: a step's loss is computed with the
        weights before its update, so the loss taken at step s is the curve's point at step s - 1, the weights
        of s - 1 updates (the best loss "at step 2" read "at step 1" on the curve, and the weights went back
        to step 1)."""
        step = format_number(self.step - 1)
        if self.kind == "far":
            what = (f"the loss stayed far above its best for {FAR_WINDOW} steps (around "
                    f"{format_number(self.level)} up to step {step}, against {format_number(self.best_loss)} "
                    f"at step {format_number(self.best_step - 1)})")
        else:
            what = {"nan": "the loss became nan", "inf": "the loss became infinite"}.get(
                self.kind, f"the loss exploded to {format_number(self.loss)}")
            what += f" at step {step}"
        return (f"Training paused: {what}. {self.advice()} The weights are back at step "
                f"{format_number(self.restored_step)}: press Play to go on from there, or Reset.")

    def advice(self) -> str:
        typical = TYPICAL_LEARNING_RATE[self.optimizer]
        rate = format_number(self.learning_rate)
        if self.learning_rate > typical:
            return (f"The learning rate {rate} is probably too large for {OPTIMIZER_NAMES[self.optimizer]}: "
                    f"each step overshoots. Try {format_number(typical)}.")
        return f"Try a smaller learning rate than {rate}, or a smaller L2 decay."


class DivergenceWatch:
    """Fed every step's loss (`observe`); says when the run has blown up, and which weights to go back to.

    Those are the weights of the best loss, once it is a trusted best: one that comes while the run
    is still sane (the losses around it not far above it). Adam at 10 may hit a lucky low loss at
    step 20 with every neuron saturated, from which no learning rate gets anywhere; its weights at
    step 0 are the ones to go back to."""

    def __init__(self):
        self.start = math.nan      # the first finite loss of this network
        self.best_loss = math.inf  # the trusted best, and the step it came at
        self.best_step = 0
        self.kept = False          # this step's loss is the new trusted best: keep the weights it was computed with
        self.window: deque[float] = deque(maxlen=FAR_WINDOW)  # the last steps' losses

    def rearm(self) -> None:
        """Watch afresh (a change of settings, weights put back): the window starts empty."""
        self.window.clear()

    def observe(self, step: int, loss: float) -> str | None:
        """The kind of blowup (see `Blowup.kind`) this step's loss shows, or None."""
        if math.isnan(loss):
            return "nan"
        if math.isinf(loss):
            return "inf"
        if math.isnan(self.start):
            self.start = loss
        if loss > EXPLODED_FACTOR * max(self.start, 1e-3):
            return "exploded"
        self.window.append(loss)
        self.kept = loss < self.best_loss and not above_best(median(self.window), loss, self.start)
        if self.kept:
            self.best_loss, self.best_step = loss, step
        return "far" if far_above(self.window, self.best_loss, self.start) else None
