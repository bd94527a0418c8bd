"""A lesson's goal for a run the student trains (`learn.model.goals`), without Qt: read, refused in words, and
checked against the training tab's state condition by condition."""

from __future__ import annotations

import pytest

from playground.learn.model.goals import RepeatState, RunState, check_goal, network_words, parse_goal
from playground.learn.model.lesson import LessonFormatError, parse_lesson
from playground.training.model.settings import TrainingSettings

XOR = TrainingSettings(tf_playground=True, dataset="xor", loss="tf_square", optimizer="sgd", init="tf_playground",
                       noise=0.35, test_fraction=0.5, batch_size=10, hidden=(3,), activation="relu")


def state(test_loss=0.1765, epoch=500.0, settings=XOR, repeat=None) -> RunState:
    return RunState(settings, int(epoch * 25), epoch, 0.12, test_loss, 0.9, repeat)


def test_a_goal_is_read_and_said_in_words():
    goal = parse_goal("test_loss <= 0.177, epochs >= 100 keeping dataset noise")
    assert goal.words() == "the test loss at most 0.177, the epochs trained at least 100"
    assert goal.keeping == ("dataset", "noise")


@pytest.mark.parametrize("text, words", [
    ("test_loss < ", "not 'test_loss <'"),
    ("speed >= 3", "unknown figure 'speed'"),
    ("test_loss <= 1e999", "must be finite"),
    ("test_loss <= 0.2 keeping colour", "'colour' is not one"),
])
def test_a_bad_goal_is_refused_naming_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words):
        parse_goal(text)
    lesson = f"autograd-playground-lesson 1\ntitle: T\nsummary: S.\n\n## A\nask: goal {text}\n\nText.\n"
    with pytest.raises(LessonFormatError, match="line 6: 'ask: goal'"):
        parse_lesson(lesson)


def test_a_loss_under_the_tf_setting_is_compared_as_it_shows_it_with_three_decimals():
    goal = parse_goal("test_loss <= 0.177")
    assert check_goal(goal, state(0.1774), {}).met  # shown 0.177
    assert not check_goal(goal, state(0.1776), {}).met  # shown 0.178
    # (0.1775 is the double 0.17749999..., which its toFixed(3) shows as 0.177: so does this)
    assert check_goal(goal, state(0.1775), {}).met
    assert not check_goal(goal, state(0.1774, settings=TrainingSettings()), {}).met  # the tab's own: every digit


def test_a_goal_reached_on_other_data_is_not_the_exercise_s_and_repeat_is_needed_where_asked():
    goal = parse_goal("test_loss <= 0.2 keeping dataset noise")
    said = check_goal(goal, state(0.15), {"dataset": "spiral", "noise": 0.35})
    assert not said.met and said.message.startswith("✗ This run has another dataset")
    repeat_goal = parse_goal("repeat_runs >= 4, repeat_epochs >= 500")
    assert "press Repeat" in check_goal(repeat_goal, state(), {}).message
    done = RepeatState(5, 500.0, 0.171, 0.224, 0.350, XOR)
    said = check_goal(repeat_goal, state(repeat=done), {})
    assert said.met and "between 0.171 and 0.350 (median 0.224)" in said.message


def test_the_network_in_words():
    assert network_words(XOR) == "1 hidden layer of 3 ReLU neurons, inputs x₁, x₂"
    deep = TrainingSettings(hidden=(3, 3, 2), activations=("relu", "tanh", "relu"))
    assert network_words(deep).startswith("3 hidden layers of 3, 3 and 2 ReLU / Tanh / ReLU neurons (8 in all)")
    assert network_words(TrainingSettings(hidden=())).startswith("no hidden layer")
