"""Training pauses by itself, Qt-free: once it has learned (Stop at "When learned", the default), and at
once when the loss goes wrong (nan, infinite, or far above its best for 20 steps), saying what to try; each
problem stops at its own figure only, and a setup, a lesson or a CSV of values that names the other's is
refused. The GUI side is in test_training_run (and test_training_regression_panel for Stop at's box)."""

from __future__ import annotations

import base64
import json
import math
import zlib
from dataclasses import replace

import numpy as np
import pytest

from playground.learn.model.lesson import LessonFormatError, parse_lesson
from playground.training.model.health import FAR_WINDOW, DivergenceWatch, far_above
from playground.training.model.learned import PATIENCE, LearnedWatch, has_learned, percent
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings, carried_stop, carried_stop_note, stop_conditions
from playground.training.model.setup_file import TEXT_PREFIX, SetupFormatError, from_dict, from_text, load_setup

SEEDS = range(5)


def play(session: TrainingSession, steps: int, chunk: int = 10):
    """Press Play and train up to ``steps`` steps as the worker does; the result that paused it, or None."""
    session.arm_stop()
    taken = 0
    while taken < steps:
        result = session.train_steps(min(chunk, steps - taken), stop_condition=True)
        taken += result.steps
        if result.divergence is not None or result.stopped is not None:
            return result
    return None


# -- the rule, without a network ------------------------------------------------------------------


def test_the_rule_wants_most_training_points_right_and_a_best_that_has_aged():
    assert has_learned(150, 0.99, 100)
    assert not has_learned(149, 1.0, 100)      # the best is not PATIENCE steps old yet
    assert not has_learned(500, 0.985, 100)    # 98.5% of the training points: not learned
    watch = LearnedWatch()
    figures = [(0, 0.5, 0.6), (10, 0.9, 0.95), (20, 1.0, 0.98), (30, 0.99, 0.97), (60, 1.0, 0.98)]
    assert all(watch.observe(*figure) is None for figure in figures)  # the best (98%) is 40 steps old at 60
    learned = watch.observe(80, 1.0, 0.97)
    assert learned is not None and (learned.best, learned.best_step, learned.on_test) == (0.98, 20, True)
    assert learned.message() == ("Learned: 98% test accuracy at step 20 (97% at step 80). "
                                 "Play to go on, or change Stop at.")


def test_play_after_learned_goes_on_until_the_figure_beats_its_best():
    watch = LearnedWatch()
    for step in range(0, 60, 10):
        watch.observe(step, 1.0, 0.9)
    assert watch.observe(60, 1.0, 0.9) is not None
    watch.arm()  # Play
    assert all(watch.observe(step, 1.0, 0.9) is None for step in range(70, 1000, 10))  # never again at 90%
    assert watch.observe(1000, 1.0, 0.95) is None               # a better figure ...
    assert watch.observe(1040, 1.0, 0.95) is None
    assert watch.observe(1050, 1.0, 0.95).best_step == 1000     # ... held PATIENCE steps: learned again


def test_with_no_test_points_the_training_accuracy_is_judged():
    watch = LearnedWatch()
    watch.observe(0, 1.0, math.nan)
    learned = watch.observe(PATIENCE, 1.0, math.nan)
    assert learned is not None and not learned.on_test
    assert learned.message().startswith("Learned: 100% training accuracy at step 0.")


def test_far_above_needs_a_whole_window_and_a_margin():
    assert not far_above([5.0] * (FAR_WINDOW - 1), 0.69, 0.69)   # not 20 steps yet
    assert far_above([5.0] * FAR_WINDOW, 0.69, 0.69)              # above twice the start
    assert far_above([5.0] * 12 + [0.4] * 8, 0.4, 0.69)           # dips below the best do not hide it
    assert not far_above([0.05] * FAR_WINDOW, 1e-4, 0.69)         # 500 times a tiny best, but under the margin
    assert not far_above([1.3] * FAR_WINDOW, 0.69, 0.69)          # under twice the start
    watch = DivergenceWatch()
    assert watch.observe(1, math.nan) == "nan" and watch.observe(1, math.inf) == "inf"
    assert watch.observe(1, 0.7) is None and watch.observe(2, 1e7) == "exploded"


# -- learned, on the real session -----------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_the_default_two_moons_pause_once_learned_and_play_goes_on(seed):
    session = TrainingSession(TrainingSettings(seed=seed))
    assert session.settings.stop_when == "learned"
    result = play(session, 1000)
    assert result is not None and result.stopped is not None
    learned = result.stopped
    assert 100 <= learned.best_step <= 150 and session.step == learned.best_step + PATIENCE
    assert learned.best >= 0.98 and session.evaluate().train_accuracy >= 0.99
    assert learned.message().startswith(f"Learned: {percent(learned.best)} test accuracy at step {learned.best_step}")
    # Play again: it trains on (never at once), pausing only once the test accuracy beats its best.
    step = session.step
    again = play(session, 500)
    if learned.best == 1.0:
        assert again is None and session.step == step + 500
    else:
        assert again is None or (again.stopped.best > learned.best and again.stopped.best_step > step)


def test_never_trains_on_and_old_explicit_settings_keep_their_choice():
    session = TrainingSession(TrainingSettings(stop_when="never"))
    assert play(session, 600) is None and session.step == 600
    from playground.training.model.setup_file import capture, from_dict, to_dict
    document = to_dict(capture(session, with_weights=False))
    assert from_dict(document).settings.stop_when == "never"  # a file's explicit "never" stays never
    del document["settings"]["stop_when"], document["settings"]["stop_at"]
    assert from_dict(document).settings.stop_when == "learned"  # a file from before the stop condition


def test_noisy_minibatches_and_several_classes_pause_once_learned_too():
    mini = TrainingSession(TrainingSettings(batch_size=10))
    result = play(mini, 3000)
    assert result is not None and result.stopped is not None
    assert mini.evaluate().train_accuracy >= 0.99 and mini.step >= result.stopped.best_step + PATIENCE
    spiral = TrainingSession(TrainingSettings(dataset="spiral", classes=3, loss="cross_entropy", noise=0.05,
                                              learning_rate=0.03, hidden=(32, 32)))
    result = play(spiral, 4000)
    assert result is not None and result.stopped is not None
    assert spiral.evaluate().train_accuracy >= 0.99


def test_a_run_with_no_test_points_is_judged_on_its_training_points():
    whole = TrainingSession().data
    data = replace(whole, X_test=whole.X_test[:0], y_test=whole.y_test[:0])
    session = TrainingSession(data=data)
    result = play(session, 1000)
    assert result is not None and not result.stopped.on_test and "training accuracy" in result.stopped.message()


def test_an_added_point_is_learned_before_the_run_pauses_again():
    session = TrainingSession()
    first = play(session, 1000).stopped
    for x1 in (1.0, 1.2):  # two orange points deep in the blue moon: 98.6% of the training points right
        session.add_point(x1, -0.4, 0)
    assert session.evaluate().train_accuracy < 0.99
    result = play(session, 3000)
    assert result is not None and result.stopped.step >= first.step + PATIENCE
    assert session.evaluate().train_accuracy >= 0.99  # it paused once it had learned one of them at least


# -- divergence, on the real session --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_adam_at_learning_rate_10_pauses_within_twenty_steps_saying_what_to_try(seed):
    session = TrainingSession(TrainingSettings(seed=seed, learning_rate=10.0))
    result = play(session, 300)
    assert result is not None and result.divergence is not None
    blowup = result.divergence
    assert blowup.kind == "far" and blowup.step == FAR_WINDOW  # paused within those 20 steps
    assert "The learning rate 10 is probably too large for Adam: each step overshoots. Try 0.01." in blowup.message()
    # The weights are back at those of the best loss while the run was sane: full batches, so that loss
    # is theirs exactly (at step 0, or 1 when the first step went down before the loss went up).
    assert session.step == blowup.restored_step == blowup.best_step - 1 <= 1
    assert session.evaluate().train_loss == pytest.approx(blowup.best_loss)
    # Play again as it is: it pauses again; at the rate the message names, it learns.
    assert play(session, 300).divergence is not None
    session.apply(replace(session.settings, learning_rate=0.01))
    result = play(session, 1000)
    assert result is not None and result.divergence is None and result.stopped is not None


def test_a_learning_rate_set_too_large_after_training_pauses_as_soon():
    session = TrainingSession(TrainingSettings(stop_when="never"))
    session.train_steps(200)
    session.apply(replace(session.settings, optimizer="momentum", learning_rate=10.0))
    result = play(session, 300)
    assert result.divergence is not None and result.divergence.step <= 200 + 2 * FAR_WINDOW
    assert "for SGD + momentum: each step overshoots. Try 0.03." in result.divergence.message()


@pytest.mark.parametrize("changes", [
    {},
    {"learning_rate": 1.0},                                 # saturates half its neurons, and solves the moons
    {"optimizer": "sgd", "learning_rate": 3.0},
    {"optimizer": "momentum", "learning_rate": 1.0},
    {"batch_size": 5, "optimizer": "sgd", "learning_rate": 1.0},  # very noisy minibatches
    {"batch_size": 10, "learning_rate": 0.1},
    {"dataset": "spiral", "classes": 3, "loss": "cross_entropy", "learning_rate": 0.3},
    {"loss": "hinge", "learning_rate": 0.1},
    {"activation": "relu", "init": "kaiming", "learning_rate": 0.3},
])
def test_healthy_runs_never_pause_for_divergence(changes):
    session = TrainingSession(TrainingSettings(stop_when="never", **changes))
    for _ in range(8):
        assert session.train_steps(100).divergence is None
    assert np.isfinite(session.evaluate().train_loss)


# -- each problem stops at its own figure (issue 39, item 3) --------------------------------------------------

REGRESSION = {"problem": "regression", "dataset": "plane", "points": 600, "noise": 0.0, "loss": "mse"}


def test_each_problem_offers_its_own_figure_and_converts_the_others_in_words():
    assert list(stop_conditions("regression")) == ["learned", "never", "test_r2", "train_loss", "epochs"]
    assert list(stop_conditions("classification")) == ["learned", "never", "test_accuracy", "train_loss", "epochs"]
    assert carried_stop("regression", "test_accuracy") == "test_r2"
    assert carried_stop("classification", "test_r2") == "test_accuracy"
    assert carried_stop("regression", "epochs") == "epochs" and carried_stop("regression", "test_r2") == "test_r2"
    assert carried_stop_note("regression", "test_accuracy", "test_r2", 0.95) == \
        "Stop at: a regression has no test accuracy; now 'Test R² ≥ 0.95'"
    assert carried_stop_note("classification", "test_r2", "test_accuracy", 0.975) == \
        "Stop at: a classification has no test R²; now 'Test accuracy ≥ 97.5%'"


@pytest.mark.parametrize("problem, when", [("regression", "test_accuracy"), ("classification", "test_r2")])
def test_settings_naming_the_other_problems_figure_are_refused_naming_stop_when(problem, when):
    data = REGRESSION if problem == "regression" else {}
    with pytest.raises(ValueError, match=f"^stop_when: '{when}' is not for a {problem}"):
        TrainingSettings(**data, stop_when=when, stop_at=0.9)


def setup_document(stop_when: str, **settings) -> dict:
    return {"format": "autograd-playground-training-setup", "version": 1,
            "settings": {**settings, "stop_when": stop_when, "stop_at": 0.97}}


@pytest.mark.parametrize("problem, when", [("regression", "test_accuracy"), ("classification", "test_r2")])
def test_a_setup_file_or_text_naming_the_other_problems_figure_is_refused_naming_the_field(tmp_path, problem, when):
    settings = REGRESSION if problem == "regression" else {}
    document = setup_document(when, **settings)
    words = f"settings.stop_when: '{when}' is not for a {problem}"
    path = tmp_path / "setup.json"
    path.write_text(json.dumps(document))
    with pytest.raises(SetupFormatError, match=f"^setup.json: {words}"):
        load_setup(path)
    with pytest.raises(SetupFormatError, match=f"^{words}"):
        from_text(json.dumps(document))  # its JSON pasted as it is
    packed = base64.urlsafe_b64encode(zlib.compress(json.dumps(document).encode("utf-8"))).decode("ascii")
    with pytest.raises(SetupFormatError, match=f"^{words}"):
        from_text(TEXT_PREFIX + packed)  # the line Edit > Copy training setup makes
    own = "test_r2" if problem == "regression" else "test_accuracy"
    assert from_dict(setup_document(own, **settings)).settings.stop_when == own  # its own figure opens


def test_a_lessons_training_line_naming_a_test_accuracy_for_a_regression_is_refused_at_its_line():
    lesson = ("autograd-playground-lesson 1\ntitle: Stop at\nsummary: A regression stopping.\n\n## Train\n"
              "training: problem=regression, dataset=plane, loss=mse, stop_when=test_accuracy, stop_at=0.97\n\n"
              "A regression stops at its test R².\n")
    with pytest.raises(LessonFormatError) as caught:
        parse_lesson(lesson)
    assert caught.value.line == 6 and "stop_when: 'test_accuracy' is not for a regression" in caught.value.reason
    parse_lesson(lesson.replace("stop_when=test_accuracy", "stop_when=test_r2"))  # its own figure is fine


def test_a_csv_of_values_for_a_run_stopping_at_a_test_accuracy_is_refused_and_nothing_changes():
    session = TrainingSession(TrainingSettings(stop_when="test_accuracy", stop_at=0.97))
    session.train_steps(3)
    before, data = session.settings, session.data
    X = np.random.default_rng(0).uniform(-2, 2, size=(50, 2))
    with pytest.raises(ValueError, match="stop_when: 'test_accuracy' is not for a regression"):
        session.set_values(X, X[:, 0] - X[:, 1], "values.csv")
    assert session.settings == before and session.data is data and session.step == 3
    session.apply(replace(before, stop_when="learned"))  # the panel's way: the condition changed first (and said)
    session.set_values(X, X[:, 0] - X[:, 1], "values.csv")
    assert (session.settings.problem, session.settings.stop_when) == ("regression", "learned")
