"""The numbers a lesson states that are counts or losses, not a node's value: how many paths lead to a node
(``{a.paths}``, lesson 3), how many weights and biases the training network has (``{training.parameters}``,
lesson 8) and the loss of a classifier that gives every point even odds (``{training.even_odds_loss}``, lesson
10), each from the engine, each refused where the lesson does not name what it depends on."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from engine.nn import Linear, Sequential, Tanh
from playground.graph.why_gradient import why_gradient
from playground.learn.model.lesson import LessonFormatError, load_lesson, parse_lesson, with_numbers
from playground.learn.model.training_facts import setup_number

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"
HEAD = "autograd-playground-lesson 1\ntitle: t\n\n"
MOONS = "problem=classification, dataset=moons, loss=bce, features=(\"x1\", \"x2\"), network=layers"


def test_lesson_3_counts_as_many_paths_as_why_this_gradient_lists():
    step = load_lesson(LESSONS / "03-used-twice.lesson").steps[2]
    facts = step.facts
    a = facts.node_id("a")
    listed = why_gradient(facts.document, facts.evaluation, a)
    assert listed.count == 3 and facts.number("a.paths") == "3"  # a*a's two and the direct one
    assert sum(row.product for row in listed.rows) == pytest.approx(facts.grad(a))
    assert "along 3 paths" in with_numbers(step.text, facts)


def test_the_training_networks_size_is_the_engines_and_follows_the_loss():
    def count(hidden, loss):
        return setup_number(dict(problem="classification", dataset="moons", loss=loss, features=("x1", "x2"),
                                 network="layers", hidden=hidden), "training.parameters")
    engine_count = sum(p.size for p in Sequential(Linear(2, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 1))
                       .parameters())
    assert count((8, 8), "bce") == str(engine_count) == "105"
    assert count((8, 8), "cross_entropy") == "114"  # an output per class: 8 * 2 + 2 more than one output
    assert count((16, 16), "bce") == "337"


def test_the_even_odds_loss_is_ln_2_for_two_classes_and_ln_k_for_k():
    moons = dict(problem="classification", dataset="moons", loss="bce")
    assert float(setup_number(moons, "training.even_odds_loss")) == pytest.approx(math.log(2), abs=1e-4)
    spiral = dict(problem="classification", dataset="spiral", classes=3, loss="cross_entropy")
    assert float(setup_number(spiral, "training.even_odds_loss")) == pytest.approx(math.log(3), abs=1e-3)


@pytest.mark.parametrize("settings, name, said", [
    ("problem=classification, dataset=moons, hidden=(8, 8)", "training.parameters", "add loss, features, network"),
    ("dataset=spiral, problem=classification, loss=bce, features=(\"x1\", \"x2\"), network=layers, hidden=(3,)",
     "training.parameters", "add classes"),
    ("problem=classification, dataset=moons", "training.even_odds_loss", "add loss"),
    ("problem=regression, dataset=plane, loss=mse", "training.even_odds_loss", "a regression has no classes"),
    (f"{MOONS}, hidden=(8, 8)", "training.layers", "no node named 'training.layers'"),
])
def test_a_setup_number_the_lesson_does_not_set_up_for_is_refused_with_the_reason(settings, name, said):
    with pytest.raises(LessonFormatError) as refused:
        parse_lesson(f"{HEAD}## s\ngraph: a=1; L=a*a\ntraining: {settings}\n\nIt has {{{name}}}.\n")
    assert refused.value.line == 8 and said in refused.value.reason, refused.value.reason
