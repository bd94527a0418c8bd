"""Every lesson keeps its claims whatever ran before it (issue 30, item 6): each lesson in resources/lessons
(a lesson added there is taken too) is run, step by step, after every step of every other lesson, and after a
person's own setup unlike any lesson's. The training panel then holds what the driver makes of it
(`driver.lesson_settings`, the rule the window follows), and with it:

- every number a step states about its training setup (``{health.…}``, ``{training.…}``) is computed again by
  the engine from the settings the panel holds, and must read as the text says;
- a lesson that trains (``train:``) builds the same training run as it does from a fresh app: the same data,
  the same first weights, the same first steps' losses. So the claims its own tests check from a fresh app
  (test_lesson_training_claims.py, test_lesson_vanishing_gradients.py) hold after any other lesson. Only the
  person's pace and seed stay theirs (those tests run five seeds).

Driven through the Qt-free models (a lesson's steps, the training session) rather than a window at its pace,
and once in the window for the order that used to break lesson 7: lesson 10, then lesson 7."""

from __future__ import annotations

from dataclasses import asdict, replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QLabel

from engine.nn import Linear
from playground.learn.driver import lesson_settings
from playground.learn.model.lesson import Lesson, load_lesson, placeholder_names
from playground.learn.model.training_facts import is_setup_name, setup_number
from playground.training.model.session import TrainingSession
from playground.training.model.settings import CLASS_COUNTS, LAYER_FIELDS, TrainingSettings

LESSONS = sorted((Path(__file__).resolve().parents[2] / "resources" / "lessons").glob("*.lesson"))
PERSONS_OWN = ("steps_per_second", "seed")  # the person's pace, and the seed the claims are tested over
FIRST_STEPS = 5  # the training steps compared: enough to tell two runs apart (their losses differ by then)
# A setup unlike any lesson's, all of it valid: what a person may have left on the panel before a lesson.
OWN_SETUP = TrainingSettings(dataset="spiral", classes=3, points=120, noise=0.3, test_fraction=0.5, seed=4,
                             features=("x1", "x2", "x1*x2"), hidden=(3,), activation="relu", loss="cross_entropy",
                             optimizer="momentum", learning_rate=0.3, momentum=0.5, regularization="l2",
                             regularization_rate=0.01, batch_size=10, steps_per_second=5, init="xavier",
                             schedule="cosine", schedule_steps=50, stop_when="never")


@cache
def lesson(path: Path) -> Lesson:
    return load_lesson(path)


def states_it_goes_through(before: TrainingSettings, lesson_: Lesson) -> list[TrainingSettings]:
    """The panel's settings at each step of ``lesson_``, started over ``before``, as the driver sets them: first
    the setup the lesson has built up to the step, then the step's own `training:` lines."""
    states, current = [], before
    for step in lesson_.steps:
        if step.training:
            current = lesson_settings(current, step.training)
        for action in step.actions:
            if action.kind == "training":
                current = lesson_settings(current, action.value)
            elif (action.kind, action.value) == ("train", "graph"):  # as Train this graph (lesson 11)
                current = replace(current, network="graph")
        states.append(current)
    return states


def _earlier_states() -> dict[str, TrainingSettings]:
    """A fresh app, a person's own setup, and the panel after every step of every lesson (a student may leave one
    half-way), each lesson run from a fresh app."""
    states = {"a fresh app": TrainingSettings(), "a person's own setup": OWN_SETUP}
    for path in LESSONS:
        for number, state in enumerate(states_it_goes_through(TrainingSettings(), lesson(path)), start=1):
            if state not in states.values():
                states[f"{path.stem} step {number}"] = state
    return states


EARLIER = _earlier_states()


def what_training_does(settings: TrainingSettings) -> dict:
    """The settings a training run follows, without the person's own and those the others make idle (a
    momentum without SGD + momentum, a rate without a regularisation, ...)."""
    idle = set(PERSONS_OWN)
    if settings.optimizer != "momentum":
        idle.add("momentum")
    if settings.regularization == "none":
        idle.add("regularization_rate")
    if settings.schedule == "constant":
        idle |= {"schedule_steps", "schedule_gamma"}
    if settings.stop_when in ("learned", "never"):
        idle.add("stop_at")
    if settings.dataset not in CLASS_COUNTS:
        idle.add("classes")
    if settings.trains_graph:
        idle |= set(LAYER_FIELDS)  # the editor's graph is the network: the layer form's fields are not read
    return {key: value for key, value in asdict(settings).items() if key not in idle}


def pairs(kind: str) -> list:
    """(earlier state's name, lesson path, step index) for every step of every lesson that states a setup number
    (``kind`` "numbers") or trains (``kind`` "training")."""
    found = []
    for path in LESSONS:
        for index, step in enumerate(lesson(path).steps):
            numbers = any(is_setup_name(name) for name in placeholder_names(step.text))
            trains = any(action.kind == "train" for action in step.actions)
            if numbers if kind == "numbers" else trains:
                found += [(name, path, index) for name in EARLIER if not name.startswith(f"{path.stem} ")]
    return found


def ids(case) -> str:
    before, path, index = case
    return f"{path.stem} step {index + 1} after {before}"


def test_every_lesson_file_is_taken():
    assert len(LESSONS) >= 10 and {path.stem for path in LESSONS} >= {"07-training", "10-vanishing-gradients"}
    assert pairs("numbers") and pairs("training")


@pytest.mark.parametrize("case", pairs("numbers"), ids=ids)
def test_a_number_a_step_states_about_its_setup_is_the_engines_for_the_setup_the_panel_holds(case):
    before, path, index = case
    step = lesson(path).steps[index]
    panel = states_it_goes_through(EARLIER[before], lesson(path))[index]
    held = {key: value for key, value in asdict(panel).items() if key not in PERSONS_OWN or key in step.training}
    for name in placeholder_names(step.text):
        if is_setup_name(name):
            assert setup_number(held, name) == setup_number(step.training, name), name


def _first_steps(settings: TrainingSettings) -> tuple[np.ndarray, list[np.ndarray], list[float]]:
    """The training set, the first weights and the losses of the first steps of the run ``settings`` builds."""
    session = TrainingSession(replace(settings, stop_when="never"), resolution=8)
    weights = [np.array(parameter.data) for parameter in session.model.parameters()]
    losses = []
    for _ in range(FIRST_STEPS):
        session.train_steps(1)
        losses.append(session.evaluate().train_loss)
    return session.F_train, weights, losses


@pytest.mark.parametrize("case", pairs("training"), ids=ids)
def test_a_lesson_that_trains_builds_the_run_it_builds_in_a_fresh_app(case):
    before, path, index = case
    panel = states_it_goes_through(EARLIER[before], lesson(path))[index]
    fresh = states_it_goes_through(TrainingSettings(), lesson(path))[index]
    named = lesson(path).steps[index].training
    # at the person's own seed and pace, unless the lesson names them (its tests try several seeds)
    fresh = replace(fresh, **{key: getattr(panel, key) for key in PERSONS_OWN if key not in named})
    assert what_training_does(panel) == what_training_does(fresh)
    if panel.trains_graph:  # the network is the graph the lesson has the editor show: the settings are the run's
        return
    data, weights, losses = _first_steps(panel)
    fresh_data, fresh_weights, fresh_losses = _first_steps(fresh)
    assert np.array_equal(data, fresh_data)
    assert all(np.array_equal(a, b) for a, b in zip(weights, fresh_weights, strict=True))
    assert losses == fresh_losses


def test_lesson_7_after_lesson_10_in_the_window_trains_what_it_teaches(window, qtbot):
    """The order that broke lesson 7: lesson 10 left six sigmoid layers (and Adam), and lesson 7's gradient descent
    ran on them. Walked through in the window, each step of lesson 7 holds the settings of a fresh app's."""
    learning, training = window.learning, window.training
    learning.start("10-vanishing-gradients")
    panel = learning.panel
    while True:
        while panel.run.question is not None:
            panel.reveal()
        if not panel.next():
            break
    assert training.settings.activation == "sigmoid" and training.settings.optimizer == "adam"
    learning.start("07-training")
    seven = lesson(next(path for path in LESSONS if path.stem == "07-training"))
    fresh = states_it_goes_through(TrainingSettings(), seven)
    for index in range(len(seven.steps)):
        assert panel.run.index == index
        assert what_training_does(training.settings) == what_training_does(fresh[index]), seven.steps[index].title
        panel.next()


def test_lesson_8_after_lesson_10_counts_the_gradients_its_text_states(window, qtbot):
    """Lesson 8 states how many weights and biases the training panel's network has and sends the student to the
    animator's counter for it; after lesson 10's six layers the counter says the number the text states."""
    learning = window.learning
    learning.start("10-vanishing-gradients")
    learning.start("08-forward-or-reverse")
    panel = learning.panel
    while panel.run.index < len(panel.run.lesson.steps) - 1:
        while panel.run.question is not None:
            panel.reveal()
        assert panel.next()
    step = panel.run.step
    stated = setup_number(step.training, "training.parameters")
    assert f"has {stated} of them" in panel.text.toPlainText()
    training = window.training  # the animator takes the network the training tab last drew: once it has drawn it

    def drawn() -> bool:
        snapshot = training.network_snapshot()
        widths = [m.out_features for m in snapshot.model.modules if isinstance(m, Linear)] if snapshot else []
        return widths == [*step.training["hidden"], 1]

    qtbot.waitUntil(drawn, timeout=20_000)
    combo = window.animator.source_combo
    index = next(i for i in range(combo.count()) if combo.itemText(i).startswith("The training network"))
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    counter = window.findChild(QLabel, "workCounter")  # a student reads it once they have chosen the network
    qtbot.waitUntil(lambda: counter.isVisible() and counter.text().startswith(f"All {stated} gradients"),
                    timeout=20_000)
