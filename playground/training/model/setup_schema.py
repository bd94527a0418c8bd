"""The training setup file's shape, checked whole at the door: Qt-free. Version 2 adds what is trained,
``settings.network``, and for the editor's graph the graph itself (``graph``, a graph file's content, checked
as a graph file is), and a trained run's curves (``history``); an untrained setup of the layer form is still
written as version 1.

A strict pydantic model says what every field must be: its type, its range, the vocabulary of
each choice and the limits (points, layers, neurons, classes); the first thing wrong becomes one
message naming the field by its path (``settings.seed: expected a whole number, got 'x'``).
What depends on several fields at once (labels within the classes, weights that fit the network,
an optimizer state that fits the weights) `setup_file.from_dict` checks next, before anything on
screen changes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from ...files.validation import describe, shown
from .settings import (
    ACTIVATIONS,
    DATASETS,
    FEATURES,
    INITS,
    LOSSES,
    MAX_CLASSES,
    MAX_DROPOUT,
    MAX_LAYERS,
    MAX_LR,
    MAX_NEURONS,
    MAX_POINTS,
    MAX_REGULARIZATION_RATE,
    MIN_LR,
    NETWORKS,
    OPTIMIZERS,
    PROBLEMS,
    REGULARIZATIONS,
    SCHEDULES,
    STOP_CONDITIONS,
)

FORMAT_NAME = "autograd-playground-training-setup"
FORMAT_VERSION = 2  # the newest version this app reads; the layer form's setups are still written as version 1
LAYERS_FORMAT_VERSION = 1
MAX_STEP = 10**12
MAX_SEED = 2**32 - 1  # numpy's seeds
MAX_TEXT = 200
MAX_HISTORY_ROWS = 2_000  # `run_history.MAX_SAVED_ROWS`


def _choice(names) -> Any:
    return Literal[tuple(names)]  # type: ignore[valid-type]


Point = Annotated[list[float], Field(min_length=2, max_length=2)]
Points = Annotated[list[Point], Field(max_length=MAX_POINTS)]
Labels = Annotated[list[Annotated[int, Field(ge=0, lt=MAX_CLASSES)]], Field(max_length=MAX_POINTS)]
Values = Annotated[list[Annotated[float, Field(allow_inf_nan=False)]], Field(max_length=MAX_POINTS)]  # a regression's


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SettingsEntry(_Strict):
    """Every control of the Training tab; any may be left out for its default (`TrainingSettings`)."""

    dataset: _choice(DATASETS) = "moons"
    points: Annotated[int, Field(ge=4, le=MAX_POINTS)] = 200
    noise: Annotated[float, Field(ge=0.0, le=10.0)] = 0.1
    test_fraction: Annotated[float, Field(gt=0.0, lt=1.0)] = 0.3
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 0
    features: Annotated[list[_choice(FEATURES)], Field(min_length=1, max_length=len(FEATURES))] = ["x1", "x2"]
    hidden: Annotated[list[Annotated[int, Field(ge=1, le=MAX_NEURONS)]], Field(max_length=MAX_LAYERS)] = [16, 16]
    activation: _choice(ACTIVATIONS) = "tanh"
    # One per hidden layer, or left out: every layer `activation`'s, and no dropout (`setup_file` checks the count).
    activations: Annotated[list[_choice(ACTIVATIONS)], Field(max_length=MAX_LAYERS)] = []
    dropout: Annotated[list[Annotated[float, Field(ge=0.0, le=MAX_DROPOUT, allow_inf_nan=False)]],
                       Field(max_length=MAX_LAYERS)] = []
    loss: _choice(LOSSES) = "bce"
    optimizer: _choice(OPTIMIZERS) = "adam"
    learning_rate: Annotated[float, Field(ge=MIN_LR, le=MAX_LR)] = 0.01
    momentum: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.9
    regularization: _choice(REGULARIZATIONS) = "none"
    regularization_rate: Annotated[float, Field(ge=0.0, le=MAX_REGULARIZATION_RATE)] = 0.0
    weight_decay: Annotated[float, Field(ge=0.0, le=10.0)] = 0.0  # the first files' L2 (read as it)
    batch_size: Annotated[int, Field(ge=1, le=MAX_POINTS)] | None = None
    steps_per_second: Annotated[int, Field(ge=1, le=100_000)] | None = 20
    classes: Annotated[int, Field(ge=2, le=MAX_CLASSES)] = 2
    init: _choice(INITS) = "default"
    schedule: _choice(SCHEDULES) = "constant"
    schedule_steps: Annotated[int, Field(ge=1, le=1_000_000)] = 500
    schedule_gamma: Annotated[float, Field(gt=0.0, le=1.0)] = 0.5
    stop_when: _choice(STOP_CONDITIONS) = "learned"
    stop_at: Annotated[float, Field(allow_inf_nan=False, ge=0.0)] = 0.0
    problem: _choice(PROBLEMS) = "classification"
    network: _choice(NETWORKS) = "layers"  # version 2
    init_seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None  # the weights' own seed (a Repeat's run)
    tf_playground: bool = False  # the TF Playground's data, loss, initial weights and SGD (`tf_setting`)
    tf_seed: Annotated[str, Field(max_length=40)] = ""  # a TF Playground URL's seed, for its very points
    steps_per_frame: Annotated[int, Field(ge=1, le=100_000)] | None = None  # the first files' pace (x 50 a second)

    @field_validator("noise", "test_fraction", "learning_rate", "momentum", "regularization_rate", "weight_decay",
                     "schedule_gamma")
    @classmethod
    def _finite(cls, number: float) -> float:
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError(f"expected a finite number, got {number!r}")
        return number


class DataEntry(_Strict):
    """The points themselves (a CSV's, or points a person added), split as the tab had them."""

    name: Annotated[str, Field(max_length=MAX_TEXT)] = ""
    # a classification's class names (2 or more); a regression has none
    classes: Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]],
                       Field(max_length=MAX_CLASSES)] = []
    extent: Annotated[list[float], Field(min_length=4, max_length=4)]
    x_train: Points
    y_train: Labels | Values
    x_test: Points
    y_test: Labels | Values


class OptimizerEntry(_Strict):
    lr: Annotated[float, Field(ge=0.0, allow_inf_nan=False)]
    state: dict[str, dict[str, Any]]


HistoryValue = Annotated[float, Field(allow_inf_nan=True)]  # a blown-up loss is part of the story
HistoryRow = Annotated[list[HistoryValue], Field(min_length=5, max_length=5)]
def _whole_or_batch(row: list[float]) -> list[float]:
    if row[2] not in (0, 1):
        raise ValueError(f"a step's third number is 1 (the whole training set's loss) or 0 (a batch's), not {row[2]!r}")
    return row


# A step's own loss: [step, loss, 1 over the whole training set or 0 over its minibatch] (`run_history`).
TraceRow = Annotated[list[HistoryValue], Field(min_length=3, max_length=3), AfterValidator(_whole_or_batch)]


class HistoryEntry(_Strict):
    """The curves as the tab showed them (version 2): each report's step, train and test loss, train and test
    accuracy (R²); every step's own loss; what a divergence undid; where the weights went back (`run_history`)."""

    rows: Annotated[list[HistoryRow], Field(max_length=MAX_HISTORY_ROWS)]
    abandoned: Annotated[list[Annotated[list[HistoryRow], Field(max_length=MAX_HISTORY_ROWS)]],
                         Field(max_length=50)] = []
    restores: Annotated[list[Annotated[list[HistoryValue], Field(min_length=2, max_length=2)]],
                        Field(max_length=1_000)] = []
    # Every step's own loss (`run_history.StepLosses`), and what a divergence undid of it.
    trace: Annotated[list[TraceRow], Field(max_length=MAX_HISTORY_ROWS)] = []
    abandoned_trace: Annotated[list[Annotated[list[TraceRow], Field(max_length=MAX_HISTORY_ROWS)]],
                               Field(max_length=50)] = []


class SetupFile(_Strict):
    format: Literal["autograd-playground-training-setup"]
    version: Literal[1, 2]
    settings: SettingsEntry
    data: DataEntry | None = None
    step: Annotated[int, Field(ge=0, le=MAX_STEP)] | None = None
    weights: dict[str, Any] | None = None
    optimizer: OptimizerEntry | None = None
    graph: dict[str, Any] | None = None  # version 2: the graph trained (a graph file's content)
    history: HistoryEntry | None = None  # version 2: the curves


def check(data: Any, error: type[ValueError]) -> SetupFile:
    """``data`` (parsed JSON) checked field by field; raises ``error`` naming the first bad field."""
    if not isinstance(data, dict):
        raise error("this is not an Autograd Playground training setup: it holds no JSON object")
    name = data.get("format")
    if name != FORMAT_NAME:
        if name is None:
            raise error("this is not an Autograd Playground training setup: 'format' is missing")
        raise error(f"format: expected '{FORMAT_NAME}', got {shown(name, 60)}")
    version = data.get("version")
    if version is None:
        raise error("version: missing")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= 10**6:
        raise error(f"version: expected a whole number ≥ 1, got {shown(version)}")
    if version > FORMAT_VERSION:
        raise error(f"the setup uses format version {version}, written by a newer Autograd Playground; "
                    f"this one reads version {FORMAT_VERSION}")
    try:
        checked = SetupFile.model_validate(data)
    except ValidationError as problem:
        raise error(_with_limits(describe(problem))) from None
    trains_graph = checked.settings.network == "graph"
    if checked.version == 1 and (trains_graph or checked.graph is not None):
        raise error("version: 1 has no graph to train; a setup that trains the editor's graph is version 2")
    if checked.version == 1 and checked.history is not None:
        raise error("version: 1 has no curves; a setup that keeps them is version 2")
    if checked.history is not None and checked.weights is None:
        raise error("history: curves without the 'weights' they were drawn for")
    if trains_graph and checked.graph is None:
        raise error("graph: missing (a setup that trains the editor's graph carries the graph)")
    if checked.graph is not None and not trains_graph:
        raise error("graph: a graph in a setup whose settings.network is not 'graph'")
    if checked.weights is not None and checked.step is None:
        raise error("step: missing (a setup with weights says at which step they are)")
    if checked.weights is None and checked.optimizer is not None:
        raise error("optimizer: an optimizer's state without 'weights' to go with it")
    return checked


def _with_limits(message: str) -> str:
    for field, what in (("x_train", "training points"), ("x_test", "test points"), ("hidden", "hidden layers")):
        if field + ": at most" in message:
            return message.replace("items are allowed", f"{what} are allowed in a setup")
    return message
