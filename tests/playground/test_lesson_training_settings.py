"""A lesson's `training:` lines carry every training setting, the problem type among them: a regression with
Huber, L1 at a rate, the linear unit. They are checked at load with the earlier steps' settings, as the app
will hold them, and a bad value is refused naming its line and the setting; in the window they reach the
training panel, whatever the person had set there before."""

from __future__ import annotations

import ast
import math
import tempfile
import types
import typing
from dataclasses import asdict, fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.learn.model.lesson import LessonFormatError, load_lesson, parse_lesson
from playground.learn.model.runner import LessonRun
from playground.learn.model.training_line import rule
from playground.training.model.settings import TrainingSettings
from playground.training.model.setup_schema import SettingsEntry

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
    ("training: problem=regresion, dataset=plane, loss=mse",
     "training: problem must be one of classification, regression, not 'regresion'"),
    ("training: problem=regression", "a regression needs real targets"),
    ("training: problem=regression, dataset=plane", "a regression minimises"),
    ("training: loss=huber", "the Huber loss is for a regression"),
    ("training: dataset=gaussians", "the Multi Gaussian dataset has real targets"),
    ("training: regularization=l3", "training: regularization must be one of none, l1, l2, not 'l3'"),
    ("training: regularization_rate=-1", "training: regularization_rate must be a finite number from 0 to 10, not -1"),
    ("training: activation=softplus", "training: activation must be one of tanh, relu, sigmoid, leaky_relu, linear"),
    ("training: gradient_health=on", "unknown training setting 'gradient_health'"),
    ("training: hidden=8",
     "training: hidden must be a list in brackets of at most 6 items, each a whole number from 1 to 64, not 8"),
    ("training: seed=x", "training: seed must be a whole number from 0 to 4294967295, not 'x'"),
    ("training: seed=-1", "training: seed must be a whole number from 0 to 4294967295, not -1"),
    ("training: seed=4294967296", "training: seed must be a whole number from 0 to 4294967295, not 4294967296"),
    ("training: seed=1.5", "training: seed must be a whole number"),
    ("training: seed=True", "training: seed must be a whole number"),
    ("training: init_seed=x", "training: init_seed must be a whole number from 0 to 4294967295, or None, not 'x'"),
    ("training: points=3", "training: points must be a whole number from 4 to 100000, not 3"),
    ("training: points=200.0", "training: points must be a whole number"),
    ("training: noise=nan", "training: noise must be a finite number from 0 to 10, not 'nan'"),
    ("training: noise=1e999", "training: noise must be a finite number from 0 to 10, not inf"),
    ("training: batch_size=0", "training: batch_size must be a whole number from 1 to 100000, or None, not 0"),
    ("training: hidden=(8, 0)", "training: hidden must be a list in brackets of at most 6 items"),
    ("training: features=()", "training: features must be a list in brackets of 1 to 7 items"),
    ("training: features=(x1, x2)", "each one of 'x1', 'x2'"),  # in a list, names are quoted
    ("training: dropout=(0.95,)", "training: dropout must be a list in brackets of at most 6 items, each a finite "
                                  "number from 0 to 0.9, not (0.95,)"),
    ("training: activations=relu", "training: activations must be a list in brackets"),
    ("training: steps_per_second=0", "training: steps_per_second must be a whole number from 1 to 100000, or None"),
    ("training: learning_rate={[]: 1}", "training: learning_rate must be a finite number"),
    ("training: features=('x1', 'x1')", "the training setup is refused: features must be one or more distinct"),
    ("training: points=4, test_fraction=0.99",
     "the training setup's points cannot be made (4 points of Two moons, test_fraction=0.99): test_size=0.99 with 4 "
     "samples leaves no training samples"),
    ("training: dataset=csv", "a lesson's points are made by a dataset"),
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


# -- every value a training: line may hold (issue 39) ------------------------------------------------------

# A lesson whose numbers build the setup's network (health, size, even odds) and check its trained graph when it
# is read: a value that passes the training: line's checks and fails in the engine shows here.
SETUP = """autograd-playground-lesson 1
title: A setup
summary: Every number of a training setup.

## The setup
graph: x1 = 2; w1 = -3; x2 = 0; w2 = 1; b = 0; o = tanh(x1*w1 + x2*w2 + b)
training: problem=classification, dataset=moons, points=40, noise=0.1, test_fraction=0.3, seed=0
training: features=("x1", "x2"), hidden=(3,), activation=tanh, init=default, loss=bce, network=layers
training: optimizer=sgd, learning_rate=0.1, momentum=0.9, batch_size=None, regularization=none
training: schedule=constant, stop_when=epochs, stop_at=20, steps_per_second=100
"""
NUMBERS = """Layer 1's gradient is {health.ratio} times smaller, of {training.parameters} numbers; even odds lose
{training.even_odds_loss}; the neuron trained gets {trained.test_accuracy}.
"""
CHANGED_LINE = 11
SETTING_NAMES = [f.name for f in fields(TrainingSettings)]  # every setting a training: line takes
HINTS = typing.get_type_hints(TrainingSettings)  # the kind of each, as the settings declare it
ENTRIES = SettingsEntry.model_fields  # the setup file's statement of each: its vocabulary, its range


class Word(str):
    """A bare word on a training: line (sgd, moons), written without quotes."""


def written(value) -> str:
    """``value`` as a lesson writes it: a Python literal, or a bare word (1e999 is inf; nan has no literal)."""
    if isinstance(value, Word):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else f"{'-' if value < 0 else ''}1e999"
    if isinstance(value, (list, tuple)):
        inside = ", ".join(written(item) for item in value)
        return f"[{inside}]" if isinstance(value, list) else f"({inside}{',' if len(value) == 1 else ''})"
    return repr(value)


def as_read(text: str):
    """What the lesson reads ``text`` as: a Python literal (a list as a tuple), else the bare word."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    return tuple(value) if isinstance(value, list) else value


def of_kind(hint, value) -> bool:
    """Whether ``value`` is of the kind the annotation ``hint`` names (a float setting takes a whole number;
    only a true-or-false setting takes true or false; none takes nan or infinity)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(of_kind(kind, value) for kind in typing.get_args(hint))
    if hint is type(None) or value is None:
        return hint is type(None) and value is None
    if isinstance(value, bool):
        return hint is bool  # only a true-or-false setting (tf_playground) takes one
    if hint is bool:
        return False
    if typing.get_origin(hint) is tuple:
        return isinstance(value, tuple) and all(of_kind(typing.get_args(hint)[0], item) for item in value)
    if hint is float:
        return isinstance(value, (int, float)) and math.isfinite(value)
    return isinstance(value, hint)


def own_kind(annotation, metadata=(), in_list: bool = False) -> st.SearchStrategy:
    """Values a setup file's entry takes: its vocabulary's words, a few items, numbers at the bounds of its
    range and within it (small ones most, so that a run stays short). Most load; some clash with the rest."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return own_kind(args[0], args[1].metadata, in_list)
    if origin is typing.Literal:
        return st.sampled_from(args) if in_list else st.sampled_from(args).map(Word)  # in a list, a word is quoted
    if origin in (typing.Union, types.UnionType):
        (kind,) = [arg for arg in args if arg is not type(None)]
        return st.one_of(st.none(), own_kind(kind, metadata, in_list))
    limits = {key: getattr(m, key) for m in metadata
              for key in ("ge", "gt", "le", "lt", "min_length", "max_length") if getattr(m, key, None) is not None}
    if origin is list:
        least = limits.get("min_length", 0)
        most = max(least, min(limits.get("max_length", 3), 3))
        return st.lists(own_kind(args[0], in_list=True), min_size=least, max_size=most).map(tuple)
    if annotation is int:
        low = limits["ge"] if "ge" in limits else limits.get("gt", -1) + 1
        high = limits["le"] if "le" in limits else limits["lt"] - 1 if "lt" in limits else low + 1000
        return st.one_of(st.sampled_from([low, high]), st.integers(low, min(high, low + 20)))
    if annotation is bool:
        return st.booleans()
    if annotation is str:  # text (a TF Playground seed): quoted in the lesson, at most its length
        return st.text(st.characters(codec="ascii", categories=("L", "N"), include_characters="."),
                       max_size=limits.get("max_length", 10))
    if annotation is float:
        low, high = limits.get("ge", limits.get("gt", 0.0)), limits.get("le", limits.get("lt", 1000.0))
        return st.floats(low, high, exclude_min="gt" in limits, exclude_max="lt" in limits)
    raise AssertionError(f"no values of {annotation!r} to try")


def own_values(name: str) -> st.SearchStrategy:
    return own_kind(ENTRIES[name].annotation, ENTRIES[name].metadata)


# A comma outside brackets ends a setting, so no word or text holds one, and only a whole value an unpaired bracket.
WORDS = st.sampled_from(["x", "", "moons", "sgd", "None", "True", "nan", "inf", "-1", "1e999", "0x10", "1_0", "²",
                         "{}", "{[]: 1}", "{[1]}", "x1", "'x1'", "b'x'", "1j", "...", "None=", "=1"])
TEXT = st.text(st.characters(codec="utf-8", exclude_characters=",()[]"), max_size=4)
SCALARS = st.one_of(st.integers(-3, 2**33), st.sampled_from([-1, 2**32 - 1, 2**32, 10**30, -10**30]),
                    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(), TEXT, WORDS.map(Word))
VALUES = st.one_of(SCALARS, st.sampled_from(["(8, 8", "8)", "[]", "()", "[(8, 8)]"]).map(Word),
                   st.lists(SCALARS, max_size=8), st.lists(SCALARS, max_size=3).map(tuple),
                   st.lists(st.lists(st.integers(0, 9), max_size=2), max_size=2))


def load_changed(changed: str, text: str = NUMBERS):
    """The setup lesson with the line ``changed`` after its training lines (line 11), then ``text``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "setup.lesson"
        path.write_text(f"{SETUP}{changed}\n\n{text}", encoding="utf-8")
        return load_lesson(path)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETTING_NAMES), st.data())
def test_every_training_setting_with_any_value_loads_or_is_refused_naming_its_line(name, data):
    """One setting with a value of any kind (of its own half the time), and up to two others of their own kind
    beside it: whatever loads, its numbers are computed and shown; a value of the wrong kind is refused at its line,
    naming the setting; nothing else escapes (issue 39: 'seed=x' raised a TypeError from engine.data)."""
    text = written(data.draw(st.one_of(VALUES, own_values(name)), label="value"))
    paired = sum(map(text.count, "([")) == sum(map(text.count, ")]"))  # else it swallows what follows
    others = data.draw(st.lists(st.sampled_from([n for n in SETTING_NAMES if n != name]), max_size=2 if paired else 0,
                                unique=True), label="others")
    line = ", ".join([f"training: {name}={text}"] + [f"{n}={written(data.draw(own_values(n)))}" for n in others])
    read = as_read(text.strip())
    try:
        lesson = load_changed(line)
    except LessonFormatError as error:
        assert str(error).startswith(f"setup.lesson, line {error.line}: ") and 1 <= error.line <= 14, line
        if text.strip() and not of_kind(HINTS[name], read):  # a word for a number, a number for a word, true...
            assert error.line == CHANGED_LINE and name in error.reason, (line, str(error))
        return
    assert text.strip() and of_kind(HINTS[name], read), f"{line!r} loaded"
    assert lesson.steps[0].training[name] == read
    run = LessonRun(lesson)  # whatever loads can be shown: its numbers, the trained graph's too
    assert "{" not in run.html()


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.sampled_from(SETTING_NAMES), st.data())
def test_a_value_of_the_settings_own_kind_is_never_refused_as_of_the_wrong_kind(name, data):
    """Any value the setup file takes for the setting loads as written, or is refused by a rule across settings
    (Huber for a classification, a regression's dataset), never by its own rule."""
    value = data.draw(own_values(name), label="value")
    assert of_kind(HINTS[name], as_read(written(value))), "the setup file takes what the settings do not"
    try:
        steps = lesson(f"## Setup\ntraining: {name}={written(value)}\n\nText.\n").steps
    except LessonFormatError as error:
        assert error.line == 5 and not error.reason.startswith(f"training: {name} must be"), error.reason
        return
    assert steps[0].training[name] == as_read(written(value))


@pytest.mark.parametrize("name", SETTING_NAMES)
def test_every_training_setting_has_a_rule_in_words_and_loads_with_the_value_the_lesson_holds(name):
    assert "of type" not in rule(name)  # the setup file states its kind, and a refusal says it
    held = {**asdict(TrainingSettings()), **load_changed("").steps[0].training}
    lesson = load_changed(f"training: {name}={written(held[name])}")
    assert lesson.steps[0].training[name] == held[name]


def test_a_seed_that_is_not_a_number_is_refused_with_its_line_and_the_rule():
    with pytest.raises(LessonFormatError) as refused:
        load_changed("training: seed=x")
    assert str(refused.value) == ("setup.lesson, line 11: training: seed must be a whole number from 0 to 4294967295, "
                                  "not 'x'")


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_any_seed_numpy_takes_loads(seed):
    assert load_changed(f"training: seed={seed}").steps[0].training["seed"] == seed


@pytest.mark.parametrize("changed, text, line, said", [
    # The editor's graph has no layers: the layer form's numbers are refused, even odds are the same, the graph's run
    # is the graph's whatever the panel trains.
    ("training: network=graph", "{health.ratio}", 13, "the gradient health numbers are the layer form's network's"),
    ("training: network=graph", "{training.parameters}", 13, "the size of the training network is the layer form's"),
    ("training: network=graph", "Even odds lose {training.even_odds_loss}.", None, "Even odds lose 0.6931."),
    ("training: network=graph", "{trained.steps} steps.", None, "20 steps."),
    # Weights all zero: layer 1 gets no gradient, so no ratio, asked or stated.
    ("training: init=zeros\nask: health.ratio", "Ask.", 12, "there is no ratio to state"),
    ("training: init=zeros", "{health.ratio}", 13, "there is no ratio to state"),
])
def test_the_setups_numbers_are_stated_or_refused_with_their_line_whatever_the_network(changed, text, line, said):
    if line is None:
        assert said in LessonRun(load_changed(changed, text)).html()
        return
    with pytest.raises(LessonFormatError) as refused:
        load_changed(changed, text)
    assert refused.value.line == line and said in refused.value.reason, str(refused.value)
