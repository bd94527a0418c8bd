"""Every claim lesson 7 ("Training") makes about how training behaves, run on the engine over five seeds:
from a fresh network and from the state a student may have reached (the earlier steps played for a
while), with the settings the lesson file itself gives each step. Driven through the Qt-free session
as the worker drives it (the stop condition on), not at the window's pace."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from playground.learn.model.lesson import load_lesson
from playground.training.compare import starting_rates
from playground.training.model.session import TrainingSession, TrainingSettings

LESSON = load_lesson(Path(__file__).resolve().parents[2] / "resources" / "lessons" / "07-training.lesson")
STEPS = {step.title: step for step in LESSON.steps}
SEEDS = range(5)


def settings(title: str, seed: int) -> TrainingSettings:
    """The training setup the lesson has built by this step (its own settings and the earlier steps')."""
    return replace(TrainingSettings(seed=seed), **STEPS[title].training)


def actions(title: str) -> list[tuple[str, object]]:
    return [(action.kind, action.value) for action in STEPS[title].actions]


def play(session: TrainingSession, steps: int):
    """Play for up to ``steps`` steps; the result that paused the run, or None."""
    session.arm_stop()
    taken = 0
    while taken < steps:
        result = session.train_steps(min(20, steps - taken), stop_condition=True)
        taken += result.steps
        if result.divergence is not None or result.stopped is not None:
            return result
    return None


def enter(session: TrainingSession, title: str) -> None:
    """Go to the step as the lesson's driver does: its settings, then a fresh network if it asks for one."""
    session.apply(replace(session.settings, **STEPS[title].training))
    if ("train", "reset") in actions(title):
        session.reset()


def loss(session: TrainingSession) -> float:
    return session.evaluate().train_loss


@pytest.mark.parametrize("seed", SEEDS)
def test_gradient_descent_the_loss_falls_and_the_boundary_bends_around_the_moons(seed):
    session = TrainingSession(settings("Gradient descent", seed))
    assert ("train", "play") in actions("Gradient descent")
    start = loss(session)
    assert play(session, 100) is None and loss(session) < 0.6 * start     # "watch the loss fall"
    result = play(session, 3000)
    assert result is None or result.divergence is None                    # at most it pauses once learned
    assert session.evaluate().test_accuracy >= 0.95                       # "the boundary bend around the moons"


@pytest.mark.parametrize("seed", SEEDS)
def test_too_small_starts_fresh_and_after_400_steps_the_loss_is_far_above_where_0_1_had_it_after_100(seed):
    """From any point of "Gradient descent" the step starts again from fresh weights (`train: reset`)."""
    at_0_1 = TrainingSession(settings("Gradient descent", seed))
    play(at_0_1, 100)
    session = TrainingSession(settings("Gradient descent", seed))
    play(session, 250 * seed)  # however long the student watched the step before
    enter(session, "Too small")
    assert session.step == 0 and session.settings.learning_rate == 0.001
    start = loss(session)
    assert play(session, 400) is None                         # no pause: neither learned nor diverged
    assert loss(session) < start                              # "the loss creeps down"
    assert loss(session) > loss(at_0_1) + 0.2                 # "still far above where 0.1 had it after 100"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("before", ["fresh", "gradient descent", "too small"])
def test_too_large_pauses_within_a_few_dozen_steps_naming_the_learning_rate_from_any_start(seed, before):
    session = TrainingSession(settings("Gradient descent", seed))
    if before == "gradient descent":
        play(session, 300)
    elif before == "too small":
        enter(session, "Too small")
        play(session, 200)
    enter(session, "Too large")
    for _ in range(2):  # "Press Play again: it pauses again"
        result = play(session, 100)
        assert result is not None and result.divergence is not None
        blowup = result.divergence
        assert blowup.step - blowup.restored_step <= 40       # "within a few dozen steps"
        message = blowup.message()
        assert "the loss stayed far above its best" in message
        assert "The learning rate 10 is probably too large for SGD + momentum" in message


@pytest.mark.parametrize("seed", SEEDS)
def test_adam_gets_further_than_sgd_in_the_race_compare_optimizers_runs(seed):
    """The race: the panel's data and initial weights, each racer at the rate the race opens with (SGD at the 0.1
    the lesson taught for it, not Adam's 0.01: a fair race), 1000 steps."""
    panel = settings("Gradient descent against Adam", seed)
    rates = starting_rates(panel)
    assert rates == {"SGD": 0.1, "Momentum": 0.1, "Adam": panel.learning_rate}
    base = TrainingSession(panel)
    losses = {}
    for optimizer, name in (("sgd", "SGD"), ("adam", "Adam")):
        racer = base.fork(optimizer=optimizer, learning_rate=rates[name], stop_when="never")
        assert racer.train_steps(1000).divergence is None
        losses[optimizer] = loss(racer)
    assert losses["adam"] < 0.5 * losses["sgd"]
