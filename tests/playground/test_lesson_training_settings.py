"""A lesson's `training:` lines carry every training setting, the problem type among them: a regression with
Huber, L1 at a rate, the linear unit. They are checked at load with the earlier steps' settings, as the app
will hold them, and a bad value is refused naming its line and the setting; in the window they reach the
training panel, whatever the person had set there before."""

from __future__ import annotations

import pytest

from playground.learn.model.lesson import LessonFormatError, parse_lesson
from playground.training.model.settings import TrainingSettings

HEAD = "autograd-playground-lesson 1\ntitle: Regression\n\n"
REGRESSION = ("## A regression\n"
              "training: problem=regression, dataset=gaussians, loss=huber, regularization=l1, "
              "regularization_rate=0.001, activation=linear, points=300, noise=0.0\n\n"
              "Learn a real number.\n\n"
              "## Mean squared error\n"
              "training: loss=mse, activation=tanh\n\n"
              "Another loss, the same problem.\n")


def lesson(text: str):
    return parse_lesson(HEAD + text)


def test_training_lines_carry_the_problem_type_regularisation_and_the_linear_unit():
    steps = lesson(REGRESSION).steps
    first = TrainingSettings(**steps[0].training)
    assert (first.problem, first.dataset, first.loss, first.regularization, first.regularization_rate,
            first.activation) == ("regression", "gaussians", "huber", "l1", 0.001, "linear")
    second = TrainingSettings(**steps[1].training)  # `loss=mse` alone: the regression goes on from step 1
    assert (second.problem, second.loss, second.regularization, second.activation) == \
        ("regression", "mse", "l1", "tanh")


@pytest.mark.parametrize("line, said", [
    ("training: problem=regresion, dataset=plane, loss=mse", "unknown problem 'regresion'"),
    ("training: problem=regression", "a regression needs real targets"),
    ("training: problem=regression, dataset=plane", "a regression minimises"),
    ("training: loss=huber", "the Huber loss is for a regression"),
    ("training: dataset=gaussians", "the Multi Gaussian dataset has real targets"),
    ("training: regularization=l3", "unknown regularization 'l3'"),
    ("training: regularization_rate=-1", "regularization_rate must be between 0 and 10"),
    ("training: activation=softplus", "unknown activation 'softplus'"),
    ("training: gradient_health=on", "unknown training setting 'gradient_health'"),
    ("training: hidden=8", "a setting has the wrong kind of value"),
])
def test_a_bad_training_value_is_refused_at_load_naming_the_line_and_the_setting(line, said):
    with pytest.raises(LessonFormatError) as refused:
        lesson(f"## Setup\n{line}\n\nText.\n")
    assert refused.value.line == 5 and said in refused.value.reason, refused.value.reason


def test_a_later_line_is_checked_with_the_earlier_steps_settings():
    with pytest.raises(LessonFormatError) as refused:  # back to the moons without saying classification
        lesson(REGRESSION + "\n## Moons\ntraining: dataset=moons\n\nBack.\n")
    assert refused.value.line == 15 and "the Two moons dataset has classes" in refused.value.reason
    lesson(REGRESSION + "\n## Moons\ntraining: problem=classification, dataset=moons, loss=bce\n\nBack.\n")


def test_the_lessons_regression_reaches_the_panel_and_lesson_7_takes_it_back_to_the_moons(window, qtbot):
    training = window.training
    window.learning.open_lesson(lesson(REGRESSION))
    s = training.settings
    assert (s.problem, s.dataset, s.loss, s.regularization, s.regularization_rate, s.activation, s.points) == \
        ("regression", "gaussians", "huber", "l1", 0.001, "linear", 300)
    problem = training.findChild(object, "problemCombo")
    assert problem.currentData() == "regression"
    qtbot.waitUntil(lambda: training.worker.session.settings.problem == "regression", timeout=20_000)
    window.learning.panel.next()
    assert (training.settings.loss, training.settings.activation) == ("mse", "tanh")
    # Lesson 7 never names the problem type: over a panel left on a regression it still sets up its moons.
    training.set_settings(TrainingSettings(problem="regression", dataset="plane", loss="mse", steps_per_second=7))
    window.learning.start("07-training")
    s = training.settings
    assert (s.problem, s.dataset, s.loss, s.optimizer, s.learning_rate, s.hidden) == \
        ("classification", "moons", "bce", "sgd", 0.1, (8, 8))
    assert s.steps_per_second == 7 and problem.currentData() == "classification"
