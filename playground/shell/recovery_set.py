"""What a recovery set holds, Qt-free: everything of a session that is in no file, as one JSON document.

- ``editor``: the editor's graph as it stands (a graph file's content), the file it came from (or null),
  its name in the title, and whether it had changes not saved;
- ``training``: the training tab's setup with its trained weights, the optimizer's state, the step and the
  curves (a training setup file's content), and the setup file it came from, if any, with whether it had
  changes not saved;
- ``animator``: its place (the step shown) when it showed the editor's graph;
- ``lesson``: the lesson running, its step and its answers;
- ``window``: its geometry, its docks, the tab on show.

Each part is written and read by its own file kind's code (`GraphDocument.to_dict`, `setup_file.to_dict`),
so a set is checked at the door as those files are: a part that does not read whole makes the whole set
refused (`RecoveryError`), before anything on screen changes.

The text is made by the pure-Python JSON encoder, in small pieces: written in a background thread, it lets
the event loop in between (the C encoder holds the interpreter for a whole training setup at once).
"""

from __future__ import annotations

import copy
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..files.recovery import RecoveryError
from ..files.validation import parse_json
from ..graph.document import DocumentFormatError, GraphDocument
from ..graph.graph_file_v2 import document_dict
from ..training.model.setup_file import SetupFormatError, TrainingSetup
from ..training.model.setup_file import from_dict as setup_from_dict
from ..training.model.setup_file import to_dict as setup_to_dict

FORMAT_NAME = "autograd-playground-recovery"
FORMAT_VERSION = 1
MAX_ATTEMPTS = 2  # a set whose restoring was started this often without the app living on is put aside


@dataclass
class GraphShot:
    """The editor's graph at one moment, cheap to take in the GUI thread: shallow copies of its nodes (their
    values are read-only arrays or floats, so nothing is shared that an edit could change)."""

    nodes: list
    edges: list
    output: str | None

    @classmethod
    def of(cls, document: GraphDocument) -> GraphShot:
        return cls([copy.copy(node) for node in document.nodes], list(document.edges), document.output)

    def to_dict(self) -> dict:
        return document_dict(self.nodes, self.edges, self.output)


@dataclass
class EditorPart:
    graph: GraphDocument | GraphShot
    path: str | None = None
    name: str = "Untitled"
    modified: bool = False


@dataclass
class TrainingPart:
    setup: TrainingSetup
    path: str | None = None  # the setup file it was opened from or saved to
    with_weights: bool = True  # that file's kind: with its trained weights, or untrained
    modified: bool = False


@dataclass
class Snapshot:
    """One recovery set's content."""

    pid: int
    started: float
    saved: float = field(default_factory=time.time)
    editor: EditorPart | None = None
    training: TrainingPart | None = None
    animator: dict | None = None  # {"position": int}: the step shown on the editor's graph
    lesson: dict | None = None  # {"id": str, "state": {...}}: `LessonRun.state`
    window: dict | None = None  # {"geometry": str, "state": str, "tab": int, "learn_visible": bool}
    attempts: int = 0  # how often a start began restoring it


def to_dict(snapshot: Snapshot) -> dict:
    out = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "pid": snapshot.pid, "started": snapshot.started,
           "saved": snapshot.saved, "attempts": snapshot.attempts, "editor": None, "training": None,
           "animator": snapshot.animator, "lesson": snapshot.lesson, "window": snapshot.window}
    if snapshot.editor is not None:
        e = snapshot.editor
        out["editor"] = {"graph": e.graph.to_dict(), "path": e.path, "name": e.name, "modified": e.modified}
    if snapshot.training is not None:
        t = snapshot.training
        out["training"] = {"setup": setup_to_dict(t.setup), "path": t.path, "with_weights": t.with_weights,
                           "modified": t.modified}
    return out


def encode(snapshot: Snapshot) -> str:
    """The set's text, made in small pieces (see the module's docstring)."""
    encoder = json.JSONEncoder(separators=(",", ":"))
    return "".join(encoder.iterencode(to_dict(snapshot)))  # iterencode: the pure-Python encoder


def encode_fast(snapshot: Snapshot) -> str:
    """The set's text at once (the C encoder): for the last write before the app ends, when nothing waits."""
    return json.dumps(to_dict(snapshot), separators=(",", ":"))


# -- reading ----------------------------------------------------------------------------------------------


def _text(value, what: str, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > 100_000:
        raise RecoveryError(f"{what}: expected text")
    return value


def _flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecoveryError(f"{what}: expected true or false")
    return value


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RecoveryError(f"{what}: expected a number")
    return float(value)


def _object(value, what: str) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecoveryError(f"{what}: expected an object")
    return value


def from_dict(data) -> Snapshot:
    """A set's content, every part checked whole; raises `RecoveryError` naming the first thing wrong."""
    if not isinstance(data, dict):
        raise RecoveryError("it is not a recovery set")
    if data.get("format") != FORMAT_NAME:
        raise RecoveryError("it is not a recovery set of this app")
    if data.get("version") != FORMAT_VERSION:
        raise RecoveryError(f"it is of version {data.get('version')!r}, which this version of the app cannot read")
    pid = data.get("pid")
    if isinstance(pid, bool) or not isinstance(pid, int):
        raise RecoveryError("pid: expected a whole number")
    attempts = data.get("attempts", 0)
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 0:
        raise RecoveryError("attempts: expected a whole number")
    snapshot = Snapshot(pid, _number(data.get("started"), "started"), _number(data.get("saved"), "saved"),
                        attempts=attempts)
    editor = _object(data.get("editor"), "editor")
    if editor is not None:
        try:
            graph = GraphDocument.from_dict(editor.get("graph"))
        except DocumentFormatError as error:
            raise RecoveryError(f"editor.graph: {error}") from None
        snapshot.editor = EditorPart(graph, _text(editor.get("path"), "editor.path"),
                                     _text(editor.get("name"), "editor.name", optional=False),
                                     _flag(editor.get("modified"), "editor.modified"))
    training = _object(data.get("training"), "training")
    if training is not None:
        try:
            setup = setup_from_dict(training.get("setup"))
        except SetupFormatError as error:
            raise RecoveryError(f"training.setup: {error}") from None
        snapshot.training = TrainingPart(setup, _text(training.get("path"), "training.path"),
                                         _flag(training.get("with_weights"), "training.with_weights"),
                                         _flag(training.get("modified"), "training.modified"))
    animator = _object(data.get("animator"), "animator")
    if animator is not None:
        position = animator.get("position")
        if isinstance(position, bool) or not isinstance(position, int) or position < 0:
            raise RecoveryError("animator.position: expected a whole number ≥ 0")
        snapshot.animator = {"position": position}
    lesson = _object(data.get("lesson"), "lesson")
    if lesson is not None:
        snapshot.lesson = {"id": _text(lesson.get("id"), "lesson.id", optional=False),
                           "state": _object(lesson.get("state"), "lesson.state") or {}}
    window = _object(data.get("window"), "window")
    if window is not None:
        tab = window.get("tab", 0)
        snapshot.window = {"geometry": _text(window.get("geometry"), "window.geometry") or "",
                           "state": _text(window.get("state"), "window.state") or "",
                           "tab": tab if isinstance(tab, int) and not isinstance(tab, bool) else 0,
                           "learn_visible": window.get("learn_visible") is True}
    return snapshot


def decode(text: str) -> Snapshot:
    try:
        data = parse_json(text)
    except ValueError as error:
        raise RecoveryError(f"it is {error}") from None
    return from_dict(data)


def with_attempt(text: str) -> str | None:
    """The set's text with one more restoring attempt counted (None if it cannot be read: left as it is)."""
    try:
        data = parse_json(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    attempts = data.get("attempts", 0)
    data["attempts"] = (attempts if isinstance(attempts, int) and not isinstance(attempts, bool) else 0) + 1
    return json.dumps(data, separators=(",", ":"))


def path_or_none(text: str | None) -> Path | None:
    return Path(text) if text else None
