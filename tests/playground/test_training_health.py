"""A run that goes nowhere is said, in the Qt-free session: Adam at learning rate 10 on two moons, weights
that start at zero, a weight decay that pulls every weight to zero. The default setup and slow but
healthy runs are never reported."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from playground.training.model.health import PATIENCE, RunWatch, limited_neurons
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings


def first_stall(session: TrainingSession, steps: int, chunk: int = 50):
    """Train up to ``steps`` steps; the first stall reported, or None."""
    while session.step < steps:
        result = session.train_steps(chunk)
        assert result.divergence is None
        if result.stall is not None:
            return result.stall
    return None


def test_a_loss_far_above_its_best_is_reported_as_stuck_with_what_to_try():
    """A run whose loss stays far above its best without diverging outright (the divergence watch pauses
    the usual case, a learning rate far too large, within 20 steps: test_training_divergence)."""
    settings = TrainingSettings(learning_rate=1.0)
    watch = RunWatch()
    labels, predicted = np.array([0, 1, 0, 1]), np.array([0, 1, 1, 1])
    saturated = [np.array([[1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])]
    losses = [0.5] + [1.6] * (PATIENCE // 10)
    reports = [watch.observe(10 * i, loss, predicted, labels, saturated, settings, ("orange", "blue"))
               for i, loss in enumerate(losses)]
    stall = next(r for r in reports if r is not None)
    assert reports.index(stall) == len(losses) - 1 and stall.step == PATIENCE  # not before
    assert stall.kind == "stuck" and stall.since == 10 and stall.best_loss == 0.5
    message = stall.message()
    assert "stays far above its best (0.5 at step 0), and 2 of 2 hidden neurons are saturated" in message
    assert "The learning rate 1 is probably too large: try 0.01, or Reset." in message


def test_a_run_predicting_one_class_everywhere_is_reported_as_collapsed():
    session = TrainingSession(TrainingSettings(init="zeros"))
    stall = first_stall(session, 1000)
    assert stall is not None and stall.kind == "collapsed"
    assert stall.message().startswith("The network predicts one class (orange) everywhere since step 0.")
    assert "choose other initial weights" in stall.message()
    decayed = TrainingSession(TrainingSettings(regularization="l2", regularization_rate=1.0))
    stall = first_stall(decayed, 1000)
    assert stall is not None and stall.kind == "collapsed"
    assert "The L2 regularisation rate 1 probably pulls every weight to zero" in stall.message()


@pytest.mark.parametrize("seed", range(4))
def test_six_sigmoid_layers_stuck_under_gradient_descent_are_told_their_gradient_vanishes(seed):
    """Not a learning rate to blame (0.1 is SGD's usual): at the first step the output layer's gradient is
    10^4 times layer 1's, and then dies down itself once the output predicts 50% everywhere."""
    session = TrainingSession(TrainingSettings(seed=seed, hidden=(8,) * 6, activation="sigmoid", optimizer="sgd",
                                               learning_rate=0.1))
    stall = first_stall(session, 1000, chunk=20)
    norms = session.gradient_log.norms
    print(f"seed {seed}: output / layer 1 gradient {norms[0, -1] / norms[0, 0]:.3g} at step 1, "
          f"{norms[-1, -1] / norms[-1, 0]:.3g} at step {session.step}; {stall and stall.message()}")
    assert stall is not None and stall.kind == "collapsed" and stall.gradient_ratio > 1e3
    assert ("The weight gradients of the 6 sigmoid layers are more than 1,000 times apart: tick Gradient health "
            "to see which layer's is smallest, and try tanh or ReLU, fewer layers, or Adam.") in stall.message()
    assert "layer 1" not in stall.message() and "back" not in stall.message()  # lesson 10 asks which layer
    assert "learning rate" not in stall.message()


def test_a_stall_without_a_vanished_gradient_keeps_its_advice():
    watch = RunWatch()
    labels, predicted = np.array([0, 1, 0, 1]), np.array([0, 0, 0, 0])
    settings = TrainingSettings(activation="tanh", hidden=(2, 2))
    hidden = [np.zeros((4, 2)), np.zeros((4, 2))]
    reports = [watch.observe(10 * i, 0.7, predicted, labels, hidden, settings, ("orange", "blue"),
                             np.array([0.01, 0.05, 0.2])) for i in range(PATIENCE // 10 + 1)]
    stall = next(r for r in reports if r is not None)
    assert stall.gradient_ratio == pytest.approx(20.0) and stall.layers == 2
    assert "vanishes" not in stall.message() and "Try a smaller learning rate" in stall.message()


@pytest.mark.parametrize("changes", [
    {},                                                   # the default setup, trained long past its solution
    {"optimizer": "sgd", "learning_rate": 0.01},          # slow but healthy: the loss falls all the way
    {"optimizer": "sgd", "learning_rate": 0.001},         # slower still
    {"batch_size": 10},                                   # noisy mini-batches
    {"hidden": ()},                                       # a linear model: a plateau at its best is no stall
    {"learning_rate": 1.0},                               # saturates half its neurons, and still solves it
    {"dataset": "spiral", "classes": 3, "loss": "cross_entropy"},
])
def test_no_false_alarm_on_healthy_runs(changes):
    session = TrainingSession(TrainingSettings(**changes))
    assert first_stall(session, 3000, chunk=200) is None


def test_a_stall_is_said_once_and_watched_afresh_after_a_change():
    session = TrainingSession(TrainingSettings(regularization="l2", regularization_rate=1.0))
    assert first_stall(session, 1000) is not None
    assert first_stall(session, session.step + 600) is None  # said once
    session.apply(replace(session.settings, regularization_rate=0.9))  # still too strong: said again
    assert first_stall(session, session.step + 1000) is not None
    session.apply(replace(session.settings, regularization="none", init="xavier"))  # a new network, no pull: it learns
    assert first_stall(session, session.step + 1500, chunk=100) is None


def test_the_watch_needs_patience_and_counts_saturated_and_dead_neurons():
    settings = TrainingSettings()
    watch = RunWatch()
    labels = np.array([0, 1, 0, 1])
    one_class = np.zeros(4, dtype=np.int64)
    reports = [watch.observe(step, 0.69, one_class, labels, [], settings, ("orange", "blue"))
               for step in range(0, PATIENCE + 10, 10)]
    assert all(r is None for r in reports[:-2]) and reports[-1] is not None  # after PATIENCE steps, not before
    saturated = np.array([[0.999, 0.2], [-1.0, 0.1], [1.0, -0.3]])
    assert limited_neurons([saturated], "tanh") == (1, 2)
    dead = np.array([[0.0, 1.0], [0.0, 0.0]])
    assert limited_neurons([dead], "relu") == (1, 2)
