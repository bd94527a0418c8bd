"""A lesson's ``training:`` line, checked: every setting it names is one of the training panel's, each
value is of its kind and within its range, and the setup it makes with the earlier steps' lines is one the
panel can hold and the engine can make. Qt-free.

Each value is checked as a training setup file checks it at the door, by the file's own statement of
every setting (`setup_schema.SettingsEntry`: its type, its range, its vocabulary), so the two file kinds
take and refuse the same values; the refusal says the whole rule: ``seed must be a whole number from 0 to
4294967295, not 'x'``. Then the setup is built once on trial, as a setup file's is (`setup_file.from_dict`
restores the session it describes): the settings with the earlier lines', their points (`points_of`) and
the session on them, where the engine's own checks would otherwise first meet a bad value when the step's
numbers are computed (issue 39: ``seed=x`` reached `engine.data` and raised a TypeError there).

`check_training` raises `TrainingLineRefused` with the reason; the lesson parser adds the line.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields, replace
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import ValidationError

from ...files.validation import shown
from ...training.model.session import TrainingSession, TrainingSettings
from ...training.model.settings import DATASETS
from ...training.model.setup_file import TrainingSetup, points_of
from ...training.model.setup_schema import SettingsEntry

KNOWN = tuple(f.name for f in fields(TrainingSettings))  # every setting a training: line may name
# The setup file states each of them (a setup saves every setting), so each value is checked by its entry.
assert set(KNOWN) <= set(SettingsEntry.model_fields), set(KNOWN) - set(SettingsEntry.model_fields)


class TrainingLineRefused(ValueError):
    """A training: line the lesson cannot hold; the message is the reason."""


def check_training(settings: dict, earlier: dict) -> None:
    """Whether ``settings`` (one line's, parsed) may follow the ``earlier`` lines' settings; raises
    `TrainingLineRefused`. Checked with the earlier steps' settings, as the app will hold them: ``loss=huber``
    after a step that set up a regression is fine, and ``problem=regression`` needs a regression's dataset
    and loss by then."""
    unknown = [key for key in settings if key not in KNOWN]
    if unknown:
        raise TrainingLineRefused(f"unknown training setting '{unknown[0]}' (known: {', '.join(sorted(KNOWN))})")
    for name, value in settings.items():
        _check_value(name, value)
    if settings.get("dataset") == "csv":  # the panel refuses it until the person loads a CSV
        made = ", ".join(name for name in DATASETS if name != "csv")
        raise TrainingLineRefused(f"training: a lesson's points are made by a dataset ({made}); 'csv' is a person's "
                                  "own file, which a lesson cannot carry")
    try:  # every value is of its kind by now: what is left are the settings' rules across settings
        built = replace(TrainingSettings(), **{**earlier, **settings})
    except ValueError as error:
        raise TrainingLineRefused(f"the training setup is refused: {error}") from None
    refusal = _trial(built)
    if refusal is not None:
        raise TrainingLineRefused(refusal)


def _check_value(name: str, value) -> None:
    try:  # a lesson writes a list as (8, 8) or [8, 8]; the file's entry takes a JSON list
        SettingsEntry.model_validate({name: list(value) if isinstance(value, tuple) else value})
    except ValidationError:
        raise TrainingLineRefused(f"training: {name} must be {rule(name)}, not {shown(value)}") from None


@lru_cache(maxsize=32)
def _trial(settings: TrainingSettings) -> str | None:
    """Why the training tab could not make the session ``settings`` describe, or None: its points made once,
    then its network on them (the layer form's: the graph a setup of ``network=graph`` trains is the editor's,
    checked where it is trained)."""
    try:
        points = points_of(TrainingSetup(settings))
    except ValueError as error:  # engine.data's own checks: a split that leaves no point to train on
        return (f"the training setup's points cannot be made ({settings.points} points of "
                f"{DATASETS[settings.dataset]}, test_fraction={settings.test_fraction!r}): {error}")
    try:
        TrainingSession(replace(settings, network="layers"), data=points, resolution=4)  # the plane is not drawn
    except ValueError as error:
        return f"the training setup's network cannot be made: {error}"
    return None


def rule(name: str) -> str:
    """What setting ``name`` must be, in words: ``a whole number from 0 to 4294967295``."""
    entry = SettingsEntry.model_fields[name]
    return _kind(entry.annotation, entry.metadata)


def _kind(annotation, metadata: list, in_list: bool = False) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Annotated:  # an item's own limits: Annotated[int, Field(ge=1, le=64)]
        return _kind(args[0], args[1].metadata, in_list)
    if origin is Literal:
        return "one of " + ", ".join(repr(word) if in_list else word for word in args)  # in a list, quoted
    if origin in (typing.Union, types.UnionType):  # X | None
        (kind,) = [arg for arg in args if arg is not type(None)]
        return f"{_kind(kind, metadata)}, or None"
    if origin is list:
        return f"{_count(metadata)}, each {_kind(args[0], [], in_list=True)}"
    kind = {int: "a whole number", float: "a finite number", str: "text", bool: "True or False"}.get(
        annotation, f"of type {annotation}")
    return kind + _range(metadata)


def _count(metadata: list) -> str:
    least = _limit(metadata, "min_length") or 0
    most = _limit(metadata, "max_length")
    if most is None:
        return "a list in brackets"
    return f"a list in brackets of {f'{least} to' if least else 'at most'} {most} items"


def _range(metadata: list) -> str:
    """`` from 4 to 100000`` or ``, above 0 and below 1``: the bounds pydantic's Field(ge=..., lt=...) states."""
    ge, gt, le, lt = (_limit(metadata, key) for key in ("ge", "gt", "le", "lt"))
    if ge is not None and le is not None:
        return f" from {_number(ge)} to {_number(le)}"
    words = [f"{word} {_number(bound)}" for word, bound in
             (("at least", ge), ("above", gt), ("at most", le), ("below", lt)) if bound is not None]
    return ", " + " and ".join(words) if words else ""


def _limit(metadata: list, key: str):
    """The bound ``key`` (ge, max_length, ...) among a field's annotated limits, or None."""
    return next((getattr(m, key) for m in metadata if getattr(m, key, None) is not None), None)


def _number(bound) -> str:
    """4294967295, 0, 1e-05: as a lesson writes it."""
    return str(int(bound)) if float(bound).is_integer() else repr(bound)
