"""The graph file's shape, version 1 (scalar graphs), checked whole at the door: Qt-free.

Version 2 (arrays, tensor kinds, parameters, generators) is `graph_file_v2`; `check` reads either. What
both share (the format's name, its limits, a wire's entry) is `file_format`.

A pydantic model in strict mode says what each field must be (types, ranges, limits); what the
model cannot say (ids used twice, wires to nowhere, cycles) `GraphDocument.from_dict` checks
while it builds. Either way the message names the field by its path.

The limits keep a file from hanging or exhausting the app: a graph of `MAX_NODES` opens and
evaluates in about a second here (tests/playground/test_graph_file.py measures it).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from ..files.validation import describe, shown
from .catalog import SCALAR_KINDS, kind  # all that version 1 holds
from .file_format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_EDGES,
    MAX_NODES,
    MAX_SUM_INPUTS,
    MAX_TEXT,
    DocumentFormatError,
    EdgeEntry,
    StrictEntry,
)
from .graph_file_v2 import GraphFileV2

KindName = Literal[tuple(SCALAR_KINDS)]  # type: ignore[valid-type]


class NodeEntry(StrictEntry):
    id: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    kind: KindName
    x: float
    y: float
    label: Annotated[str, Field(max_length=MAX_TEXT)]
    value: float | None = None  # a leaf's value: NaN and ±Infinity are allowed, as the app shows them
    inputs: Annotated[int, Field(ge=1, le=MAX_SUM_INPUTS)] | None = None  # a Sum's number of ports

    @field_validator("x", "y")
    @classmethod
    def _finite(cls, number: float) -> float:
        if not math.isfinite(number):
            raise ValueError(f"expected a finite number, got {number!r}")
        return number

    @model_validator(mode="after")
    def _fields_of_its_kind(self):
        node_kind = kind(self.kind)
        if node_kind.is_leaf and self.value is None:
            raise ValueError(f"a {self.kind} needs its 'value'")
        if not node_kind.is_leaf and self.value is not None:
            raise ValueError(f"a {self.kind} node has no 'value' (it is computed)")
        if node_kind.is_variadic and self.inputs is None:
            raise ValueError(f"a {self.kind} needs its number of 'inputs'")
        if not node_kind.is_variadic and self.inputs is not None:
            raise ValueError(f"a {self.kind} node has a fixed number of inputs: no 'inputs'")
        return self


class GraphFileV1(StrictEntry):
    format: Literal["autograd-playground-graph"]
    version: Literal[1]
    nodes: Annotated[list[NodeEntry], Field(max_length=MAX_NODES)]
    edges: Annotated[list[EdgeEntry], Field(max_length=MAX_EDGES)]
    output: Annotated[str, Field(max_length=MAX_TEXT)] | None


def check(data: Any):
    """``data`` (a file's parsed JSON) checked whole, as a `GraphFileV1` or `GraphFileV2`; raises
    `DocumentFormatError` naming the first bad field."""
    if not isinstance(data, dict):
        raise DocumentFormatError("this is not an Autograd Playground graph: the file holds no JSON object")
    name = data.get("format")
    if name != FORMAT_NAME:
        if name is None:
            raise DocumentFormatError("this is not an Autograd Playground graph: 'format' is missing")
        raise DocumentFormatError(f"format: expected '{FORMAT_NAME}', got {shown(name, 60)}")
    version = data.get("version")
    if version is None:
        raise DocumentFormatError("version: missing")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= 10**6:
        raise DocumentFormatError(f"version: expected a whole number ≥ 1, got {shown(version)}")
    if version > FORMAT_VERSION:
        raise DocumentFormatError(f"the file uses format version {shown(version)}, written by a newer "
                                  f"Autograd Playground; this one reads version {FORMAT_VERSION}")
    try:
        return (GraphFileV1 if version == 1 else GraphFileV2).model_validate(data)
    except ValidationError as error:
        raise DocumentFormatError(_with_limits(describe(error))) from None


def _with_limits(message: str) -> str:
    """Say which limit a too-long list broke, in the README's words."""
    for field, what in (("nodes", "nodes"), ("edges", "edges")):
        if message.startswith(f"{field}: at most"):
            return message.replace("items are allowed", f"{what} are allowed in a graph file")
    return message
