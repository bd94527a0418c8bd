"""Where each number in a lesson step's text comes from: the step's graph or network (``{L}``, ``{b.grad}``), its
training setup (``{training.parameters}``, ``{health.ratio}``, `training_facts`), or the step's graph trained
with that setup (``{trained.test_accuracy}``, `trained_facts`). Qt-free.

`check_number` says, when the lesson is read, whether a name can be given (without training anything: a
trained graph's run is made when its number is first shown); `step_number` gives it.
"""

from __future__ import annotations

from .facts import Facts, GraphFacts
from .trained_facts import check_trained_name, is_trained_name, trained_number
from .training_facts import is_setup_name, setup_number


def _document(facts: Facts | None):
    return facts.document if isinstance(facts, GraphFacts) else None


def check_number(facts: Facts | None, training: dict, name: str) -> None:
    """KeyError (the reason) unless ``{name}`` can be given for a step with ``facts`` and ``training``."""
    if is_setup_name(name):
        setup_number(training, name)
    elif is_trained_name(name):
        check_trained_name(_document(facts), training, name)
    elif facts is None:
        raise KeyError("it needs a graph or a network in this step or an earlier one")
    else:
        facts.number(name)


def step_number(facts: Facts | None, training: dict | None, name: str) -> str:
    """``{name}`` written as the app writes numbers."""
    if is_setup_name(name):
        return setup_number(training or {}, name)
    if is_trained_name(name):
        return trained_number(_document(facts), training or {}, name)
    return facts.number(name)
