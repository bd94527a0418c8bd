"""The training panel's model, free of Qt: settings, data, network, optimizer, boundary, divergence,
stalls and the stop condition.

`TrainingSession` owns one run: the data split, the input features, the network and its
optimizer, the step and epoch counts. `apply()` takes new `TrainingSettings` and resets only what
the change needs: learning rate, momentum and regularisation go on with the running optimizer,
another optimizer kind gets a fresh optimizer on the same weights, a new loss, batch size or
dropout rate keeps both, and new data or a new architecture rebuilds the network from the seed.
Dropout drops units in the training steps alone (`network.learner`); every figure shown is without it.
`train_steps` stops early on a divergence (`health.DivergenceWatch`: the weights go back) or at
the stop condition (by default once the run has learned: `learned.LearnedWatch`), and reports a run
that goes nowhere (`health.RunWatch`).

The network is the layer form's, or the graph drawn in the editor (``settings.network == "graph"``): the
session keeps its own copy of that graph document (`set_graph` gives it another).

The worker thread drives a session; a test drives it directly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from engine import Tensor, no_grad
from engine.train import (
    confusion_matrix,
    mean_absolute_error,
    predict,
    r2_score,
    train,
)

from ...graph.network import plan_training
from ...graph.trained import TrainedNumbers, trained_numbers
from .contour import contour_segments
from .gradient_log import GradientLog, HealthFrame
from .grid import PlaneDrawing, PlaneGrid
from .health import CHECK_EVERY, DivergenceWatch, RunWatch, Stall, median, saturated
from .learned import Learned, LearnedWatch, percent  # noqa: F401 - (percent: a name of the session's)
from .network import (
    NetworkSnapshot,
    input_features,
    layer_outputs,
    learner,
    make_optimizer,
    make_scheduler,
    model_for,
    network_snapshot,
    set_optimizer_settings,
)
from .points import SplitData, check_points, check_values, expand_features, load_points, split
from .reports import Divergence, Metrics, StepsResult, StopReached, epoch_text  # noqa: F401 - the session's names
from .run_history import StepLosses
from .settings import BINARY_LOSSES, REGRESSION_LOSSES, Change, TrainingSettings, classify_change
from .tf_setting import data_for, loss_for, tf_optimizer, tf_steps

# The names other rooms and tests know this module by: the panel's model, with its parts.
__all__ = [
    "Change",
    "Divergence",
    "Learned",
    "Metrics",
    "NetworkSnapshot",
    "SplitData",
    "Stall",
    "StepsResult",
    "StopReached",
    "TrainingSession",
    "TrainingSettings",
    "contour_segments",
    "load_points",
    "network_snapshot",
]

def checked_aspect(aspect: float) -> float:
    if not math.isfinite(aspect) or aspect <= 0:
        raise ValueError(f"an aspect ratio is a positive number, not {aspect!r}")
    return float(aspect)


# -- the session ----------------------------------------------------------------------------------


class TrainingSession:
    """One training run: data, features, network, optimizer, step count; no Qt."""

    def __init__(self, settings: TrainingSettings | None = None, *, data: SplitData | None = None,
                 custom: tuple | None = None, resolution: int = 150, aspect: float = 1.0, graph=None):
        """``data`` fixes the split (the optimizer race uses the panel's); ``custom`` is a person's CSV
        ``(X, y, name)`` or ``(X, y, name, class names)``, used when ``settings.dataset == 'csv'``;
        ``aspect``: the plot's shape, as in `set_aspect`; ``graph``: the graph document a session with
        ``settings.network == "graph"`` trains (copied; raises `GraphProblem` if it cannot be trained)."""
        self.settings = settings or TrainingSettings()
        self.graph = graph.copy() if graph is not None else None
        self.resolution = resolution
        self.aspect = checked_aspect(aspect)  # width / height of the plot the plane is drawn for (`grid.PlaneGrid`)
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
            self.data = split(X, y, s.test_fraction, s.seed, name, classes[0] if classes else None, s.regression)
        else:
            self.data = data_for(s)

    def _build_features(self) -> None:
        features = input_features(self.settings)
        self.F_train = expand_features(self.data.X_train, features)
        self.F_test = expand_features(self.data.X_test, features)
        self.grid = PlaneGrid(self.settings, self.data.extent, self.resolution, self.aspect, self.graph)

    def _build_model(self) -> None:
        self.model = model_for(self.settings, self.graph)  # first: a graph that cannot be trained changes nothing
        self._build_features()
        self.gradient_log = GradientLog(self.model)  # each layer's (a graph's: parameter's) gradient norm
        self.step = 0
        self._epochs_before = 0.0  # epochs done on training sets of other sizes (before points were added)
        self._points_seen = 0      # points seen since the training set last changed size
        self._new_optimizer()
        self._new_watches()

    def _new_watches(self) -> None:
        """Watch these weights from scratch: for a stall, a divergence and whether they have learned."""
        self.watch = RunWatch()
        self.guard = DivergenceWatch()
        self._parameters = list(self.model.named_parameters())
        self._best_weights = (self._weights(), self.step, self._points_seen)  # those of the best loss
        self.learned = LearnedWatch(self.settings.regression)
        self._look()
        self.arm_stop()

    def _new_optimizer(self) -> None:
        s = self.settings
        self.optimizer = tf_optimizer(s, self.model) if s.tf_playground else make_optimizer(s, self.model.parameters())
        self._new_schedule()

    def _new_schedule(self) -> None:
        """The learning-rate schedule where it stands at this step (and the steps that follow it)."""
        self.scheduler = make_scheduler(self.settings, self.optimizer, self.step)
        self._new_steps()

    def _new_steps(self) -> None:
        s = self.settings
        self.loss_fn = loss_for(s)
        if s.tf_playground:  # its updates, its batches in the order its data came (`tf_setting`)
            self._steps = tf_steps(learner(self.model, s, self.step), self.optimizer, self.F_train,
                                   self.data.y_train, s, self.scheduler, self.step)
            return
        self._steps = train(learner(self.model, s, self.step), self.optimizer, self.loss_fn, self.F_train,
                            self.data.y_train, batch_size=s.batch_size,
                            random_state=np.random.default_rng([s.seed, self.step, 104729]),
                            scheduler=self.scheduler, regularization=s.regularization,
                            rate=s.regularization_rate, problem=s.problem)

    # -- changes --

    def apply(self, settings: TrainingSettings) -> Change:
        """Switch to ``settings``, resetting only what the change requires; returns what was reset (raises
        `GraphProblem`, changing nothing, when the graph cannot be trained with them: another class count)."""
        if settings.trains_graph:
            model_for(settings, self.graph)
        change = classify_change(self.settings, settings)
        before, self.settings = self.settings, settings
        if change == Change.DATA:
            self._build_data()
            self._build_model()
        elif change == Change.MODEL:
            self._build_model()
        elif change == Change.OPTIMIZER_KIND:
            self._new_optimizer()
        elif change == Change.OPTIMIZER and settings.tf_playground and (
                (settings.regularization, settings.regularization_rate)
                != (before.regularization, before.regularization_rate)):
            self._new_optimizer()  # its L1 and L2 live in its SGD (and its dead links with them)
        elif change in (Change.TRAINING, Change.OPTIMIZER):
            set_optimizer_settings(self.optimizer, settings)
            self._new_schedule()
        if Change.OPTIMIZER <= change < Change.MODEL:  # the same weights, trained otherwise: watch afresh
            self._rewatch()
            self.guard.rearm()
        self.arm_stop()
        return change

    def set_graph(self, graph) -> Change:
        """Train ``graph`` (a graph document, copied) from now on, when the session trains a graph: a new
        network at its drawn values (raises `GraphProblem`, changing nothing, if it cannot be trained)."""
        if self.settings.trains_graph:
            plan_training(graph, self.settings.outputs)
        self.graph = graph.copy()
        if not self.settings.trains_graph:
            return Change.NONE
        self._build_model()
        return Change.MODEL

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

    def set_values(self, X: np.ndarray, y: np.ndarray, name: str) -> Change:
        """A regression on a person's points (already read and checked, `points.load_values`): the 'csv'
        dataset, a real value per point, a new network. A run set to stop at a test accuracy is refused (a
        ValueError naming stop_when), nothing changed: the panel has made it a test R², and said so."""
        X, y = np.asarray(X, dtype=np.float64).reshape(-1, 2), np.asarray(y, dtype=np.float64).reshape(-1)
        check_values(X, y)
        loss = self.settings.loss if self.settings.loss in REGRESSION_LOSSES else "mse"
        settings = replace(self.settings, problem="regression", dataset="csv", loss=loss)
        self._custom = (X.copy(), y.copy(), name)
        self.settings = settings
        self._build_data()
        self._build_model()
        return Change.DATA

    @property
    def n_classes(self) -> int:
        return self.settings.classes

    def add_point(self, x1: float, x2: float, label: int) -> None:
        """A training point where a person clicked; the network keeps its weights and learns it."""
        if self.settings.regression:
            raise ValueError("a regression's points come with their values: a click adds no point to it")
        if not isinstance(label, (int, np.integer)) or not 0 <= label < self.n_classes:
            raise ValueError(f"label must be a class from 0 to {self.n_classes - 1}, not {label!r}")
        d = self.data
        self._epochs_before, self._points_seen = self.epoch, 0
        self.data = replace(d, X_train=np.vstack([d.X_train, [[float(x1), float(x2)]]]),
                            y_train=np.append(d.y_train, np.int64(label)))
        self.F_train = expand_features(self.data.X_train, input_features(self.settings))
        self._new_steps()
        self._rewatch()
        self.learned = LearnedWatch(self.settings.regression)  # a new point to learn: the figures start over
        self.arm_stop()

    def anchor_batches(self) -> None:
        """Restart the minibatch order from this step, as a session resumed at this step starts it."""
        self._new_steps()

    def resume_schedule(self) -> None:
        """Put the learning-rate schedule and the minibatch order where they stand at `step` (after the
        step and the optimizer's state were set from a saved setup); the epochs as that many steps of
        this batch make, and the watch and the stop condition start afresh on these weights."""
        self._new_schedule()
        self._epochs_before, self._points_seen = 0.0, self.step * self.batch
        self._new_watches()

    def reset(self) -> None:
        """Start over: the network's initial weights for the seed, a fresh optimizer, step 0."""
        self._build_model()

    # -- training --

    def train_steps(self, count: int, should_stop: Callable[[], bool] | None = None,
                    stop_condition: bool = False) -> StepsResult:
        """Take up to ``count`` steps (fewer if ``should_stop()`` turns true, checked before every step).

        A loss gone wrong (`health.DivergenceWatch`: nan, infinite, exploded, or far above its best for
        `health.FAR_WINDOW` steps) stops the run: the weights go back, with a fresh optimizer (its
        moments may be poisoned too), and the result carries a `Divergence`. A loss that became nan
        or exploded takes the weights back to where they were at the start of this call; one that
        stayed far above its best, to the weights of that best loss. With ``stop_condition``, the
        settings' stop condition (once armed: `arm_stop`) ends the call at the step that meets it
        (`StopReached`, or `Learned`). A stall is reported in passing: training goes on.
        """
        snapshot = (self.model.state_dict(), self.step, self._points_seen)
        last = stall = None
        taken = 0
        per_step = self.batch
        # Every step's loss for the curves, with the weights of the step it was computed at (`StepLosses`): the
        # batch's loss is the train loss when the batch is the whole set and no unit is dropped; a regression's
        # step has the train loss too, but with a full batch that is its loss with the step's dropout.
        # (The TF Playground setting's steps are its updates, a batch's loss each, a regression's too.)
        regression = self.settings.regression and not self.settings.tf_playground
        full = per_step >= len(self.data.y_train)
        whole = not (full and self.settings.has_dropout) if regression else full and not self.settings.has_dropout
        losses: list[float] = []
        traced = lambda: StepLosses(snapshot[1], np.array(losses), whole)  # noqa: E731
        with np.errstate(all="ignore"):  # an overflow is the divergence reported below, not a warning
            while taken < count and not (should_stop and should_stop()):
                # The weights this step's loss is computed with: kept if that loss is the best so far.
                before = (self._weights(), self.step, self._points_seen)
                last = next(self._steps)
                losses.append(last.train_loss if regression else last.loss)
                taken += 1
                self.step += 1
                self.gradient_log.record(self.step)
                self._points_seen += per_step
                kind = self.guard.observe(self.step, last.loss)
                if self.guard.kept:
                    self._best_weights = before
                if kind is not None:
                    return StepsResult(taken, last, self._diverge(kind, last.loss, snapshot), stall, losses=traced())
                if self.step % CHECK_EVERY == 0 and not self.watch.reported:
                    stall = self._look() or stall
                if stop_condition and self._stop_armed:
                    reached = self._stop_reached()
                    if reached is not None:
                        self._stop_armed = False
                        return StepsResult(taken, last, stall=stall, stopped=reached, losses=traced())
        return StepsResult(taken, last, stall=stall, losses=traced())

    def _weights(self) -> dict[str, np.ndarray]:
        """A copy of the weights, as `state_dict` has them, at a fifth of its cost (it is taken every step)."""
        return {name: parameter.data.copy() for name, parameter in self._parameters}

    def _diverge(self, kind: str, loss: float, snapshot) -> Divergence:
        """Put the weights back (see `train_steps`) and say what happened."""
        step, level = self.step, median(self.guard.window)
        weights, self.step, self._points_seen = self._best_weights if kind == "far" else snapshot
        self.model.load_state_dict(weights)
        self._new_optimizer()
        self.guard.rearm()
        self._rewatch()
        s = self.settings
        return Divergence(kind, step, loss, level, self.guard.best_loss, self.guard.best_step, self.step,
                          s.optimizer, s.learning_rate)

    # -- epochs, the stop condition, the watch --

    @property
    def batch(self) -> int:
        """Training points one step sees (the whole set with a full batch, or a batch larger than it)."""
        n, size = len(self.data.y_train), self.settings.batch_size
        return n if size is None or size >= n else size

    @property
    def epoch(self) -> float:
        """Training points seen / training points: how many times the network has seen the data."""
        return self._epochs_before + self._points_seen / max(len(self.data.y_train), 1)

    def arm_stop(self) -> None:
        """Let the stop condition fire once it becomes true: a condition already met when Play is
        pressed (training on past 97%) waits until the figure crosses it again."""
        when = self.settings.stop_when
        if when == "learned":  # the watch goes on until its figure beats the best it has paused at
            self._observe_learned()
            self.learned.arm()
        self._stop_armed = when == "learned" or (when != "never" and self._stop_figure()[0] is False)

    def _stop_figure(self) -> tuple[bool, float]:
        """(whether the stop condition holds now, the figure it looks at)."""
        s = self.settings
        if s.stop_when == "epochs":
            value = self.epoch
            return value >= s.stop_at - 1e-9, value
        with no_grad():
            if s.stop_when == "test_accuracy":
                if not len(self.data.y_test):
                    return False, math.nan
                value = float(np.mean(predict(self.model(Tensor(self.F_test)).data) == self.data.y_test))
                return value >= s.stop_at, value
            if s.stop_when == "test_r2":  # the training points' R² when there are no test points
                F, y = (self.F_test, self.data.y_test) if len(self.data.y_test) else (self.F_train, self.data.y_train)
                with np.errstate(all="ignore"):
                    value = r2_score(y, self.model(Tensor(F)).data)
                return value >= s.stop_at, value
            if s.stop_when == "train_loss":
                value = self.loss_fn(self.model(Tensor(self.F_train)), self.data.y_train).item()
                return value <= s.stop_at, value
        return False, math.nan

    def _observe_learned(self) -> Learned | None:
        """Show `learned` the accuracies (a regression: R²) over the whole training and test sets: two
        forward passes."""
        if self.settings.regression:
            with no_grad(), np.errstate(all="ignore"):
                train = r2_score(self.data.y_train, self.model(Tensor(self.F_train)).data)
                test = r2_score(self.data.y_test, self.model(Tensor(self.F_test)).data) if len(self.data.y_test) \
                    else math.nan
            return self.learned.observe(self.step, train, test)
        with no_grad(), np.errstate(all="ignore"):
            train = float(np.mean(predict(self.model(Tensor(self.F_train)).data) == self.data.y_train))
            test = (float(np.mean(predict(self.model(Tensor(self.F_test)).data) == self.data.y_test))
                    if len(self.data.y_test) else math.nan)
        return self.learned.observe(self.step, train, test)

    def _stop_reached(self) -> StopReached | Learned | None:
        if self.settings.stop_when == "learned":  # looked at as often as the stall watch looks
            return self._observe_learned() if self.step % CHECK_EVERY == 0 else None
        met, value = self._stop_figure()
        if not met:
            return None
        return StopReached(self.step, self.epoch, self.settings.stop_when, self.settings.stop_at, value)

    def _rewatch(self) -> None:
        """Watch afresh from the weights as they are now: their loss is where progress is measured from
        (a learning rate set too large at step 0 must not count its first spikes down as progress)."""
        self.watch.rearm()
        self._look()

    def _look(self) -> Stall | None:
        """Show the watch the network over the training set: one forward pass. It looks for a
        classification's collapse to one class and its stuck loss; a regression has no class to
        collapse to, and is not watched."""
        if self.settings.regression:
            return None
        saturated_nodes = ()
        with no_grad(), np.errstate(all="ignore"):
            if self.settings.trains_graph:  # no layers: its tanh and sigmoid nodes are watched one by one
                outputs = [self.model(Tensor(self.F_train)).data]
                saturated_nodes = self._saturated_nodes()
            else:
                outputs = layer_outputs(self.model, Tensor(self.F_train))
            loss = self.loss_fn(Tensor(outputs[-1]), self.data.y_train).item()
        # The gradient at the network's first step: how far it vanishes through the layers before the output
        # layer's own gradient dies down (six sigmoid layers: 10^4 times at first, about 2 by step 200).
        norms = self.gradient_log.norms[0] if self.gradient_log.size and not self.settings.trains_graph else None
        settings = replace(self.settings, init="default") if self.settings.trains_graph else self.settings
        return self.watch.observe(self.step, loss, predict(outputs[-1]), self.data.y_train, outputs[:-1],
                                  settings, self.data.classes, norms, saturated_nodes)

    def _saturated_nodes(self) -> tuple[str, ...]:
        """A graph's tanh and sigmoid nodes that sit at the flat ends of their curves on most training points."""
        plan, document = self.model.plan, self.model.document
        squashing = [node_id for node_id in plan.per_point if document.node(node_id).kind in ("tanh", "sigmoid")]
        if not squashing:
            return ()
        values = self.model.node_values(Tensor(self.F_train), squashing)
        return tuple(plan.names[node_id] for node_id in squashing
                     if saturated(values[node_id], document.node(node_id).kind))

    def evaluate(self) -> Metrics:
        """Loss, accuracy and confusion matrices of the current weights on the whole training and test sets
        (a regression: loss, R² and mean absolute error, the accuracies nan)."""
        if self.settings.regression:
            return self._evaluate_regression()
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
            self.optimizer.lr, self.epoch, self.batch, len(y_train),
        )

    def _evaluate_regression(self) -> Metrics:
        with no_grad(), np.errstate(all="ignore"):
            train_out = self.model(Tensor(self.F_train))
            test_out = self.model(Tensor(self.F_test))
            train_loss = self.loss_fn(train_out, self.data.y_train).item()
            test_loss = self.loss_fn(test_out, self.data.y_test).item() if len(self.data.y_test) else math.nan
        y_train, y_test = self.data.y_train, self.data.y_test
        has_test = len(y_test) > 0
        return Metrics(
            self.step, train_loss, test_loss, math.nan, math.nan,
            learning_rate=self.optimizer.lr, epoch=self.epoch, batch=self.batch, train_points=len(y_train),
            train_r2=r2_score(y_train, train_out.data),
            test_r2=r2_score(y_test, test_out.data) if has_test else math.nan,
            train_mae=mean_absolute_error(y_train, train_out.data),
            test_mae=mean_absolute_error(y_test, test_out.data) if has_test else math.nan,
        )

    def health(self) -> HealthFrame:
        """Each layer's weight-gradient norm per step so far, and its saturated and dead shares now (copies)."""
        return self.gradient_log.frame(self.model, self.F_train)

    def set_aspect(self, aspect: float) -> bool:
        """Draw the plane for a plot of ``aspect`` (width / height) from now on; True if the grid changed."""
        aspect = checked_aspect(aspect)
        if abs(aspect - self.aspect) < 0.01:
            return False
        self.aspect = aspect
        self.grid = PlaneGrid(self.settings, self.data.extent, self.resolution, self.aspect, self.graph)
        return True

    def draw(self, focus: tuple | None = None) -> PlaneDrawing:
        """The plane through the current weights: one batched float32 pass over the grid gives the
        boundary and every neuron's map (`grid.PlaneGrid`); ``focus`` = (layer, neuron) adds that
        neuron at full resolution (a graph's: (node id, column))."""
        return self.grid.draw(self.model, focus)

    def boundary(self) -> np.ndarray:
        """P(class 1) over the plane, a float32 (resolution, resolution) image with row i at the i-th y;
        for k classes the softmax probabilities, (k, resolution, resolution)."""
        return self.draw().probability

    def misclassified(self) -> np.ndarray:
        """Coordinates (k, 2) of the training and test points the network gets wrong (a regression: none)."""
        if self.settings.regression:
            return np.zeros((0, 2))
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

    def trained_numbers(self) -> TrainedNumbers:
        """A trained graph's every node and wire at the current weights, over the training set (`graph.trained`):
        the gradients are those `gradients` gives."""
        return trained_numbers(self.model, self.loss_fn, self.F_train, self.data.y_train, self.step)

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
        self._rewatch()
        return old

    def state_dict(self) -> dict[str, np.ndarray]:
        return self.model.state_dict()

    def fork(self, **changes) -> TrainingSession:
        """A session on the same data with some settings changed and the same initial weights."""
        return TrainingSession(replace(self.settings, **changes), data=self.data, resolution=self.resolution,
                               graph=self.graph)
