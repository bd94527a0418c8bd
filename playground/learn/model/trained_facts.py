"""The numbers a lesson states about its graph trained on the training tab's points, from the engine.

Qt-free. A step whose graph is a network (its inputs fed by the points: ``x1`` and ``x2``, or ``X``) says
``{trained.test_accuracy}`` and `TrainedGraph` reads it from the very run the training tab makes of that graph
with the lesson's setup: a `TrainingSession` of the graph (``network="graph"``), trained until its stop
condition pauses it. So the setup must pause the run at a known step and take the same steps whatever the
machine: a full batch (no random minibatches) and ``stop_when=epochs``; and it names every setting the run
depends on, so the panel trains what the lesson computed whatever the person had set there before.

Names:

- ``trained.test_accuracy``, ``trained.train_accuracy``: the accuracies when the run pauses, as the app
  writes them (``86.67%``);
- ``trained.steps``: the steps taken until it pauses;
- ``trained.parameters``: how many numbers training adjusts (every parameter's size, added up);
- ``trained.value(w1)``: a parameter's value when the run pauses.

Parsing a lesson only checks these (`check_trained_name`); the run is made when a number is first shown or
asked, and kept (`trained_graph`), so opening the app never waits for it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from ...common.numbers import format_number
from ...graph.arrays import format_array
from ...graph.document import GraphDocument, maths_of
from ...graph.network import GraphProblem, plan_training
from ...training.model.learned import percent
from ...training.model.session import TrainingSession, TrainingSettings
from ...training.model.settings import CLASS_COUNTS

PREFIX = "trained."
# The settings a graph's run depends on (the layer form's hidden, activation, features and init do not touch a
# graph): a lesson that states a trained number names each.
DEPENDS_ON = ("problem", "dataset", "points", "noise", "test_fraction", "seed", "loss", "optimizer", "learning_rate",
              "batch_size", "regularization", "schedule", "stop_when", "stop_at")
# A lesson's run is made when its step is shown (the window waits for it): it stays short, a fraction of a second.
MAX_STEPS = 500
MAX_POINT_STEPS = 150_000  # points × steps: 300 steps of 200 points take about 0.1 s (a neuron) to 0.4 s
FIXED = ("trained.test_accuracy", "trained.train_accuracy", "trained.steps", "trained.parameters")
ASKABLE = ("trained.test_accuracy", "trained.parameters")  # the names an `ask:` line may ask about
_VALUE = re.compile(r"trained\.value\(\s*([A-Za-z_]\w*)\s*\)")


def is_trained_name(name: str) -> bool:
    return name.startswith(PREFIX)


def settings_of(training: dict) -> TrainingSettings:
    """The graph's run the lesson's training lines so far describe; KeyError (the reason) when they leave out a
    setting it depends on, or describe a run that does not pause by itself at a known step."""
    missing = [name for name in DEPENDS_ON if name not in training]
    if training.get("dataset") in CLASS_COUNTS and "classes" not in training:
        missing.append("classes")
    if training.get("optimizer") == "momentum" and "momentum" not in training:
        missing.append("momentum")
    if training.get("regularization", "none") != "none" and "regularization_rate" not in training:
        missing.append("regularization_rate")
    if training.get("schedule", "constant") != "constant":
        missing += [name for name in ("schedule_steps", "schedule_gamma") if name not in training]
    if missing:
        raise KeyError(f"the trained graph's numbers need the training setup named in full: add {', '.join(missing)} "
                       "to a 'training:' line (so the panel trains the same run)")
    settings = replace(TrainingSettings(), **{**training, "network": "graph"})  # the graph, whatever the panel trains
    if settings.batch_size is not None or settings.stop_when != "epochs":
        raise KeyError("the trained graph's numbers are those of a run that pauses at a known step: set "
                       "batch_size=None and stop_when=epochs")
    if not 1 <= settings.stop_at <= MAX_STEPS or settings.stop_at != int(settings.stop_at):
        raise KeyError(f"the trained graph's run stops at a whole number of epochs from 1 to {MAX_STEPS}, not "
                       f"{format_number(settings.stop_at)}")
    if settings.points * settings.stop_at > MAX_POINT_STEPS:
        raise KeyError(f"the trained graph's run is made when its step is shown, so it stays short: {settings.points} "
                       f"points for {int(settings.stop_at)} epochs is more than {MAX_POINT_STEPS:,} points × epochs")
    return settings


@dataclass(frozen=True)
class TrainedGraph:
    """A graph's run with a lesson's setup, once it has paused by itself."""

    test_accuracy: float
    train_accuracy: float
    steps: int
    parameters: int                 # how many numbers training adjusts
    values: dict[str, np.ndarray]   # each parameter's trained value, by its name

    def value(self, name: str) -> float | np.ndarray:
        """The number ``name`` (`trained_facts` names) stands for; KeyError naming what is wrong."""
        fixed = {"trained.test_accuracy": self.test_accuracy, "trained.train_accuracy": self.train_accuracy,
                 "trained.steps": self.steps, "trained.parameters": self.parameters}
        if name in fixed:
            return fixed[name]
        return self.values[_parameter(name, self.values)]

    def number(self, name: str) -> str:
        """``name`` written as the app writes it: accuracies in %, a parameter as its card writes it."""
        value = self.value(name)
        if name in ("trained.test_accuracy", "trained.train_accuracy"):
            return percent(value)
        if isinstance(value, np.ndarray) and value.ndim:
            return format_array(value)
        return format_number(float(value))


def _parameter(name: str, parameters) -> str:
    match = _VALUE.fullmatch(name)
    if match is None:
        raise KeyError(f"unknown trained-graph number '{name}' (known: {', '.join(FIXED)}, trained.value(<parameter>))")
    if match.group(1) not in parameters:
        raise KeyError(f"the graph has no parameter named '{match.group(1)}' (it trains {', '.join(parameters)})")
    return match.group(1)


def check_trained_name(document: GraphDocument | None, training: dict, name: str) -> None:
    """Whether ``{name}`` can be given for ``document`` trained with the lesson's ``training`` lines, without
    training it; KeyError naming what is wrong."""
    if document is None:
        raise KeyError("the trained graph's numbers need a graph: put a 'graph:' or 'build:' line in this step or "
                       "an earlier one")
    settings = settings_of(training)
    try:
        plan = plan_training(document, settings.outputs)
    except GraphProblem as problem:
        raise KeyError(f"the graph cannot be trained: {problem}") from None
    if name not in FIXED:
        _parameter(name, plan.parameter_names.values())


def train(document: GraphDocument, settings: TrainingSettings) -> TrainedGraph:
    """Train ``document`` as the training tab does with ``settings`` (`settings_of`) until the run pauses."""
    session = TrainingSession(settings, graph=document, resolution=8)  # the plane is not drawn: a tiny grid
    with np.errstate(all="ignore"):
        # It pauses at the setup's epochs (at most MAX_STEPS), or earlier where the tab pauses a run that diverges
        # (its weights put back): the numbers are the tab's at that pause either way.
        session.train_steps(MAX_STEPS, stop_condition=True)
    metrics = session.evaluate()
    values = {name: np.array(tensor.data) for name, tensor in session.model.named_parameters()}
    count = sum(int(np.size(value)) for value in values.values())
    return TrainedGraph(metrics.test_accuracy, metrics.train_accuracy, session.step, count, values)


_RUNS: dict[tuple, TrainedGraph] = {}
MAX_KEPT = 16


def trained_graph(document: GraphDocument, training: dict) -> TrainedGraph:
    """The run of ``document`` with a lesson's ``training`` lines (made once, then kept); KeyError as
    `settings_of`."""
    settings = settings_of(training)
    key = (maths_of(document), settings)
    if key not in _RUNS:
        if len(_RUNS) >= MAX_KEPT:
            _RUNS.pop(next(iter(_RUNS)))
        _RUNS[key] = train(document, settings)
    return _RUNS[key]


def trained_number(document: GraphDocument, training: dict, name: str) -> str:
    return trained_graph(document, training).number(name)
