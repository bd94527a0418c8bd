"""Training setups as files and as text to paste: the data, the network, every control, and (if asked)
the trained weights, the optimizer's running state and the step, so that a run opens where it was saved
and goes on taking the very steps it would have taken. Qt-free.

The file is versioned JSON (``"format": "autograd-playground-training-setup"``), written atomically.
A generated dataset is kept as its generator and seed (the settings say which); points a person
added, or a CSV, are kept as the points themselves. The text form for a chat message is the same
JSON, compressed and base64-encoded behind the prefix ``agp-setup:``. Anything that cannot be read
is refused with a `SetupFormatError` that says what is wrong; nothing is half-applied.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import zlib
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from engine import Tensor

from ...files.disk import read_json, read_text, write_atomic
from ...files.validation import parse_json
from ...graph.document import DocumentFormatError, GraphDocument
from ...graph.network import GraphProblem
from .network import make_optimizer, model_for
from .points import SplitData
from .run_history import RunHistory
from .session import TrainingSession
from .settings import MAX_CLASSES, TrainingSettings, stop_refusal
from .setup_schema import (  # noqa: F401 - the file's names
    FORMAT_NAME,
    FORMAT_VERSION,
    LAYERS_FORMAT_VERSION,
    MAX_POINTS,
    MAX_STEP,
    check,
)
from .tf_setting import data_for

TEXT_PREFIX = "agp-setup:"


class SetupFormatError(ValueError):
    """A setup that cannot be used; the message says what and where."""


@dataclass(frozen=True)
class TrainingSetup:
    """A training tab as it stands: its settings, its points (None: the settings' generator makes them),
    and, for a trained network, the step, the weights and the optimizer's running state."""

    settings: TrainingSettings
    data: SplitData | None = None
    step: int = 0
    weights: dict[str, np.ndarray] | None = None
    optimizer: dict | None = None
    graph: GraphDocument | None = None  # the graph trained, for settings.network == "graph"
    history: RunHistory | None = None  # the curves as the tab showed them (a trained run's)

    @property
    def has_weights(self) -> bool:
        return self.weights is not None


# -- from and to a session ---------------------------------------------------------------------------


BOOLEAN_SETTINGS = ("tf_playground",)  # the settings that are true or false (every other is not)


def capture(session: TrainingSession, with_weights: bool = True, anchor: bool = True) -> TrainingSetup:
    """The setup of ``session``; with ``with_weights``, its network as trained so far.

    With ``anchor``, the session's minibatch order restarts from this step, as the order of a session opened
    from the setup does, so that both go on alike step for step. The autosave does not anchor: a run takes
    the same steps whether or not it was autosaved on the way.
    """
    data = None if _regenerates(session.settings, session.data) else session.data.copy()
    graph = session.graph.copy() if session.settings.trains_graph and session.graph is not None else None
    if not with_weights:
        return TrainingSetup(session.settings, data, graph=graph)
    if anchor:
        session.anchor_batches()
    return TrainingSetup(session.settings, data, session.step, session.state_dict(), session.optimizer.state_dict(),
                         graph)


def restore(setup: TrainingSetup, resolution: int = 150, aspect: float = 1.0) -> TrainingSession:
    """A session in the state ``setup`` describes, drawing the plane for a plot of ``aspect`` (width / height)
    (raises `SetupFormatError` if its parts do not fit)."""
    settings, data = setup.settings, setup.data
    custom = None
    if data is not None:
        X, y = data.all_points()
        custom = (X, y, data.name, data.classes)
    elif settings.dataset == "csv":
        raise SetupFormatError("a setup on a CSV's points must carry the points")
    try:
        session = TrainingSession(settings, data=data, custom=custom, resolution=resolution, aspect=aspect,
                                  graph=setup.graph)
        if setup.weights is not None:
            session.model.load_state_dict(setup.weights)
            session.step = setup.step
            if setup.optimizer is not None:
                session.optimizer.load_state_dict(setup.optimizer)
            session.resume_schedule()
    except GraphProblem as problem:
        raise SetupFormatError(f"graph: it cannot be trained: {problem}") from None
    except (KeyError, ValueError) as error:
        raise SetupFormatError(f"the setup's parts do not fit together: {error}") from None
    return session


def points_of(setup: TrainingSetup) -> SplitData:
    """The setup's points: its own, or those its settings' generator makes."""
    if setup.data is not None:
        return setup.data
    return data_for(setup.settings)


def _regenerates(settings: TrainingSettings, data: SplitData) -> bool:
    """Whether the settings' generator and seed make exactly ``data`` (no point added, not a CSV)."""
    if settings.dataset == "csv":
        return False
    made = data_for(settings)
    return all(np.array_equal(a, b) for a, b in ((made.X_train, data.X_train), (made.y_train, data.y_train),
                                                  (made.X_test, data.X_test), (made.y_test, data.y_test)))


# -- to and from JSON ----------------------------------------------------------------------------------


def to_dict(setup: TrainingSetup) -> dict:
    settings = {f.name: getattr(setup.settings, f.name) for f in fields(TrainingSettings)}
    settings["features"], settings["hidden"] = list(settings["features"]), list(settings["hidden"])
    if settings["network"] == "layers":  # the layer form's setup reads as every version-1 file
        del settings["network"]
    if settings["init_seed"] is None:  # the data's seed draws the weights, as in every file before Repeat
        del settings["init_seed"]
    if not settings["tf_playground"]:  # as every file before the setting
        del settings["tf_playground"]
    if not settings["tf_seed"]:
        del settings["tf_seed"]
    for name in ("activations", "dropout"):  # one per layer where they differ, as the settings keep them
        if settings[name]:
            settings[name] = list(settings[name])
        else:  # every layer the same activation, no dropout: as every file before there was a choice
            del settings[name]
    version = FORMAT_VERSION if setup.graph is not None or setup.history is not None else LAYERS_FORMAT_VERSION
    out = {"format": FORMAT_NAME, "version": version, "settings": settings, "data": None}
    if setup.graph is not None:
        out["graph"] = setup.graph.to_dict()
    if setup.data is not None:
        d = setup.data
        out["data"] = {"name": d.name, "classes": list(d.classes), "extent": list(d.extent),
                       "x_train": d.X_train.tolist(), "y_train": d.y_train.tolist(),
                       "x_test": d.X_test.tolist(), "y_test": d.y_test.tolist()}
    if setup.weights is not None and setup.history is not None:
        out["history"] = setup.history.to_dict()
    if setup.weights is not None:
        out["step"] = setup.step
        out["weights"] = {name: np.asarray(value).tolist() for name, value in setup.weights.items()}
        if setup.optimizer is not None:
            out["optimizer"] = {
                "lr": setup.optimizer["lr"],
                "state": {str(index): {name: (value.tolist() if isinstance(value, np.ndarray) else value)
                                       for name, value in entry.items()}
                          for index, entry in setup.optimizer["state"].items()},
            }
    return out


def from_dict(data) -> TrainingSetup:
    """A setup from its JSON form, checked whole (every field, then how the parts fit, then a trial run of
    building the session it describes); `SetupFormatError` names the first thing wrong."""
    checked = check(data, SetupFormatError)
    settings = _settings(checked.settings.model_dump(exclude_unset=True))
    if settings.dataset == "csv" and data.get("data") is None:
        raise SetupFormatError("data: missing (a setup on a CSV's points carries the points)")
    points = None if data.get("data") is None else _points(data["data"], settings)
    graph = None if checked.graph is None else _graph(data["graph"], settings)
    if "weights" not in data or data["weights"] is None:
        setup = TrainingSetup(settings, points, graph=graph)
    else:
        weights = _weights(data["weights"], settings, graph)
        optimizer = None if data.get("optimizer") is None else _optimizer(data["optimizer"], settings, weights)
        history = None if checked.history is None else RunHistory.from_dict(checked.history.model_dump())
        setup = TrainingSetup(settings, points, checked.step, weights, optimizer, graph, history)
    restore(setup, resolution=4)  # what the tab will do with it: fails here, before anything on screen changes
    return setup


def _settings(data) -> TrainingSettings:
    if not isinstance(data, dict):
        raise SetupFormatError("'settings' must be an object of the training panel's settings")
    known = {f.name for f in fields(TrainingSettings)}
    unknown = sorted(set(data) - known - {"steps_per_frame", "weight_decay"})
    if unknown:
        raise SetupFormatError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(known))})")
    values = dict(data)
    if "steps_per_frame" in values and "steps_per_second" not in values:
        # The first setups kept the pace as steps per frame, at the worker's 50 frames a second.
        frames = values.pop("steps_per_frame")
        if isinstance(frames, int) and not isinstance(frames, bool):
            values["steps_per_second"] = min(50 * frames, 100_000)
    decay = values.pop("weight_decay", 0.0)
    if decay and "regularization" not in values and "regularization_rate" not in values:
        # The first setups had only L2, as the optimizer's weight decay: the same pull, at that rate.
        values["regularization"], values["regularization_rate"] = "l2", decay
    for name in ("features", "hidden", "activations", "dropout"):
        if name in values:
            if not isinstance(values[name], list):
                raise SetupFormatError(f"setting {name!r} must be a list, not {values[name]!r}")
            values[name] = tuple(values[name])
    layers = len(values.get("hidden", TrainingSettings.hidden))
    for name, what in (("activations", "activations"), ("dropout", "dropout rates")):
        count = len(values.get(name, ()))
        if count not in (0, layers):  # a file is read as written: never padded or cut as an edit of the layers is
            raise SetupFormatError(f"settings.{name}: {count} {what} for {layers} hidden "
                                   f"layer{'s' if layers != 1 else ''} (one per hidden layer, or none)")
    for name, value in values.items():
        if isinstance(value, bool) and name not in BOOLEAN_SETTINGS:
            raise SetupFormatError(f"setting {name!r} must not be true/false")
        if isinstance(value, float) and not math.isfinite(value):
            raise SetupFormatError(f"setting {name!r} must be a finite number, not {value!r}")
    # The other problem's figure (a regression told to stop at a test accuracy) is refused, not swapped.
    refusal = stop_refusal(values.get("problem", "classification"), values.get("stop_when", "learned"))
    if refusal is not None:
        raise SetupFormatError(f"settings.stop_when: {refusal}")
    try:
        return TrainingSettings(**values)
    except (TypeError, ValueError) as error:
        raise SetupFormatError(f"bad settings: {error}") from None


def _array(value, what: str, shape: tuple, dtype) -> np.ndarray:
    """``value`` (nested lists) as an array of ``shape`` (-1: any length), every number finite."""
    try:
        array = np.array(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise SetupFormatError(f"{what} must hold numbers only") from None
    if array.ndim != len(shape) or any(want not in (-1, got) for want, got in zip(shape, array.shape)):
        raise SetupFormatError(f"{what} has shape {array.shape}, not {tuple('n' if s == -1 else s for s in shape)}")
    if dtype is np.float64 and not np.all(np.isfinite(array)):
        raise SetupFormatError(f"{what} holds a number that is not finite")
    return array


def _flags(value, what: str, shape: tuple) -> np.ndarray:
    """Nested lists of true and false only (never a number for one), as a bool array of ``shape``."""
    def only_flags(item) -> bool:
        return isinstance(item, bool) or (isinstance(item, list) and all(only_flags(inner) for inner in item))

    if not only_flags(value):
        raise SetupFormatError(f"{what} must hold true and false only")
    return _array(value, what, shape, np.bool_)


def _labels(value, what: str) -> np.ndarray:
    """A flat list of whole numbers (not 0.5, not true) as an int64 array."""
    if not isinstance(value, list):
        raise SetupFormatError(f"{what} must hold whole numbers")
    bad = next((index for index, v in enumerate(value) if type(v) is not int), None)
    if bad is not None:
        raise SetupFormatError(f"{what}[{bad}]: expected a whole number, got {value[bad]!r}")
    return np.array(value, dtype=np.int64).reshape(-1)


def _points(data, settings: TrainingSettings) -> SplitData:
    if not isinstance(data, dict):
        raise SetupFormatError("'data' must be null (the settings' generator) or an object with the points")
    for key in ("x_train", "y_train", "x_test", "y_test"):
        if not isinstance(data.get(key), list):
            raise SetupFormatError(f"'data' needs the list {key!r}")
    if len(data["x_train"]) + len(data["x_test"]) > MAX_POINTS:
        raise SetupFormatError(f"the setup has more than {MAX_POINTS:,} points")
    X_train, X_test = (_array(data[k], f"data.{k}", (-1, 2), np.float64) for k in ("x_train", "x_test"))
    if settings.regression:  # a real value per point, no classes
        y_train, y_test = (_array(data[k], f"data.{k}", (-1,), np.float64) for k in ("y_train", "y_test"))
    else:
        y_train, y_test = (_labels(data[k], f"data.{k}") for k in ("y_train", "y_test"))
    if len(X_train) != len(y_train) or len(X_test) != len(y_test):
        raise SetupFormatError("'data' has a different number of points and labels")
    if len(X_train) < 1:
        raise SetupFormatError("'data' has no training points")
    k = 0 if settings.regression else settings.classes
    for labels in () if settings.regression else (y_train, y_test):
        if labels.size and (labels.min() < 0 or labels.max() >= k):
            raise SetupFormatError(f"'data' has labels outside 0..{k - 1} ({k} classes in the settings)")
    classes = data.get("classes")
    if settings.regression and classes in (None, []):
        classes = []
    elif (not isinstance(classes, list) or len(classes) != k or len(classes) > MAX_CLASSES
            or not all(isinstance(c, str) and 0 < len(c) <= 100 for c in classes)):
        raise SetupFormatError(f"'data.classes' must name the {k} classes")
    extent = _array(data.get("extent"), "data.extent", (4,), np.float64)
    if not (extent[0] < extent[1] and extent[2] < extent[3]):
        raise SetupFormatError("'data.extent' must be x_min < x_max, y_min < y_max")
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > 200:
        raise SetupFormatError("'data.name' must be a short text")
    return SplitData(X_train, y_train, X_test, y_test, tuple(float(v) for v in extent), name, tuple(classes))


def _graph(data, settings: TrainingSettings) -> GraphDocument:
    """The graph a setup trains, read as a graph file is (its field named), and one the settings can train."""
    try:
        graph = GraphDocument.from_dict(data)
        model_for(settings, graph)
    except DocumentFormatError as error:
        raise SetupFormatError(f"graph: {error}") from None
    except GraphProblem as problem:
        raise SetupFormatError(f"graph: it cannot be trained: {problem}") from None
    return graph


def _weights(data, settings: TrainingSettings, graph: GraphDocument | None = None) -> dict[str, np.ndarray]:
    if not isinstance(data, dict):
        raise SetupFormatError("'weights' must be an object: parameter name -> numbers")
    expected = model_for(settings, graph).state_dict()
    if set(data) != set(expected):
        missing, extra = sorted(set(expected) - set(data)), sorted(set(data) - set(expected))
        raise SetupFormatError(f"the weights do not fit the network {settings.architecture()}: "
                               f"missing {missing}, unexpected {extra}")
    return {name: _array(data[name], f"weights.{name}", shape.shape, np.float64) for name, shape in expected.items()}


def _optimizer(data, settings: TrainingSettings, weights: dict[str, np.ndarray]) -> dict:
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise SetupFormatError("'optimizer' must be an object with the optimizer's 'state'")
    lr = data.get("lr")
    if not isinstance(lr, (int, float)) or isinstance(lr, bool) or not math.isfinite(lr) or lr < 0:
        raise SetupFormatError(f"'optimizer.lr' must be a finite number, not {lr!r}")
    shapes = [np.shape(w) for w in weights.values()]
    state = {}
    for index, entry in data["state"].items():
        known = isinstance(index, str) and index.isascii() and index.isdigit() and int(index) < len(shapes)
        if not known or not isinstance(entry, dict):
            raise SetupFormatError(f"'optimizer.state' has no parameter {index!r}")
        values = {}
        for name, value in entry.items():
            if name == "step":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise SetupFormatError("'optimizer.state' holds a step that is not a whole number")
                values[name] = value
            elif name in ("exp_avg", "exp_avg_sq", "momentum_buffer"):
                values[name] = _array(value, f"optimizer.state.{index}.{name}", shapes[int(index)], np.float64)
            elif name == "dead" and settings.tf_playground:  # the weights its L1 has set to 0 for good
                values[name] = _flags(value, f"optimizer.state.{index}.{name}", shapes[int(index)])
            else:
                raise SetupFormatError(f"'optimizer.state' holds an unknown entry {name!r}")
        state[int(index)] = values
    optimizer = make_optimizer(settings, [Tensor(w, requires_grad=True) for w in weights.values()])
    try:
        optimizer.load_state_dict({"state": state, "lr": float(lr)})
    except ValueError as error:
        raise SetupFormatError(f"the optimizer's state does not fit: {error}") from None
    return {"state": state, "lr": float(lr)}


# -- files and text ------------------------------------------------------------------------------------


def save_setup(path: str | Path, setup: TrainingSetup) -> None:
    write_atomic(path, json.dumps(to_dict(setup), indent=1) + "\n")


def load_setup(path: str | Path) -> TrainingSetup:
    """Read a setup file; `SetupFormatError` (or OSError) names the file and says what is wrong."""
    path = Path(path)
    try:
        return from_dict(read_json(path, read_text(path, SetupFormatError), SetupFormatError))
    except SetupFormatError as error:
        message = str(error)
        raise SetupFormatError(message if message.startswith(path.name) else f"{path.name}: {message}") from None


def to_text(setup: TrainingSetup) -> str:
    """One line to paste in a chat message."""
    packed = zlib.compress(json.dumps(to_dict(setup), separators=(",", ":")).encode("utf-8"), 9)
    return TEXT_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii")


def from_text(text: str) -> TrainingSetup:
    """A setup from `to_text`'s line, or from its JSON pasted as it is."""
    text = text.strip()
    if text.startswith("{"):
        try:
            data = parse_json(text)
        except ValueError as error:
            raise SetupFormatError(f"the pasted setup is {error}") from None
        return from_dict(data)
    if not text.startswith(TEXT_PREFIX):
        raise SetupFormatError(f"the clipboard holds no training setup (one starts with '{TEXT_PREFIX}' or '{{')")
    try:
        packed = base64.urlsafe_b64decode(text[len(TEXT_PREFIX):].encode("ascii"))
        raw = zlib.decompressobj().decompress(packed, 64 * 1024 * 1024)  # a bomb stops at 64 MB
        data = parse_json(raw.decode("utf-8"))
    except (binascii.Error, ValueError, zlib.error, UnicodeError):
        raise SetupFormatError("the pasted setup is damaged (cut short or changed?)") from None
    return from_dict(data)

