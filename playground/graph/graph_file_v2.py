"""The graph file's version 2: array values, tensor kinds, node parameters and generators. Qt-free.

A strict pydantic model beside version 1's (`graph_file`), in the same style: a file is checked whole
and refused with the path of the first bad field (``nodes[2].value: rows 0 and 1 have different
lengths (3 and 2)``). What a field holds is checked by the same code the editor uses
(`arrays.as_leaf_value`, `arrays.Generator`, `shapes.check_params`), so a file can hold nothing the
editor would refuse. `document_dict` writes version 1 for a scalar graph and version 2 otherwise.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, field_validator, model_validator

from ..files.validation import shown
from .arrays import GENERATORS, Generator, ValueProblem, as_leaf_value, shape_of, shape_text
from .catalog import ALL_KINDS, kind
from .feeding import STORED_FEEDS
from .file_format import (
    FORMAT_NAME,
    MAX_EDGES,
    MAX_NODES,
    MAX_SUM_INPUTS,
    MAX_TEXT,
    SCALAR_FORMAT_VERSION,
    EdgeEntry,
    StrictEntry,
)
from .shapes import ShapeError, check_params

TENSOR_FORMAT_VERSION = 2
AllKinds = Literal[tuple(ALL_KINDS)]  # type: ignore[valid-type]


def _nested_numbers(value: Any, depth: int = 0):
    """``value`` as JSON numbers nested at most two lists deep; rows of equal length (or ValueError)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        raise ValueError(f"expected a number or a list of rows of numbers, got {shown(value)}")
    if isinstance(value, list):
        if depth == 2:
            raise ValueError("at most 2 dimensions are allowed: a list of rows of numbers")
        if not value:
            raise ValueError("an empty list has no values: every size must be at least 1")
        for item in value:
            _nested_numbers(item, depth + 1)
        lengths = [len(row) if isinstance(row, list) else None for row in value]
        if len(set(lengths)) > 1:
            first = next(i for i, n in enumerate(lengths) if n != lengths[0])
            def size(n):
                return "a number" if n is None else f"{n} number{'s' if n != 1 else ''}"
            raise ValueError(f"rows 0 and {first} differ: {size(lengths[0])} and {size(lengths[first])}")
    return value


class GeneratorEntry(StrictEntry):
    name: Literal[GENERATORS]  # type: ignore[valid-type]
    shape: Annotated[list[Annotated[int, Field(ge=1, le=4_096)]], Field(max_length=2)]
    seed: Annotated[int, Field(ge=0, lt=2**32)] | None = None

    def generator(self) -> Generator:
        return Generator(self.name, tuple(self.shape), self.seed)

    @model_validator(mode="after")
    def _makes_sense(self):
        try:
            self.generator()
        except ValueProblem as error:
            raise ValueError(str(error)) from None
        return self


class NodeEntryV2(StrictEntry):
    id: Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
    kind: AllKinds
    x: float
    y: float
    label: Annotated[str, Field(max_length=MAX_TEXT)]
    value: Any = None  # a leaf's number, or list of numbers, or list of rows; NaN and ±Infinity allowed
    inputs: Annotated[int, Field(ge=1, le=MAX_SUM_INPUTS)] | None = None
    params: dict[str, Any] | None = None  # a tensor kind's parameters: axis, keepdims, shape
    generator: GeneratorEntry | None = None  # a leaf's generator, remembered
    feed: Literal[tuple(STORED_FEEDS)] | None = None  # type: ignore[valid-type]  # an input's, where not by name

    @field_validator("x", "y")
    @classmethod
    def _finite(cls, number: float) -> float:
        if not math.isfinite(number):
            raise ValueError(f"expected a finite number, got {number!r}")
        return number

    @field_validator("value")
    @classmethod
    def _array(cls, value):
        if value is None:
            return None
        _nested_numbers(value)
        try:
            return as_leaf_value(value)
        except ValueProblem as error:
            raise ValueError(str(error)) from None

    @field_validator("params")
    @classmethod
    def _params_shaped(cls, params):
        if params is not None:
            for name, value in params.items():
                if name == "shape" and isinstance(value, list):
                    params[name] = tuple(value)
        return params

    @model_validator(mode="after")
    def _fields_of_its_kind(self):
        node_kind = kind(self.kind)
        if node_kind.is_leaf and self.value is None:
            raise ValueError(f"a {self.kind} needs its 'value'")
        if not node_kind.is_leaf:
            for name in ("value", "generator"):
                if getattr(self, name) is not None:
                    raise ValueError(f"a {self.kind} node has no '{name}' (it is computed)")
        if node_kind.is_variadic and self.inputs is None:
            raise ValueError(f"a {self.kind} needs its number of 'inputs'")
        if not node_kind.is_variadic and self.inputs is not None:
            raise ValueError(f"a {self.kind} node has a fixed number of inputs: no 'inputs'")
        if self.params is not None:
            try:
                self.params = check_params(self.kind, self.params, node_kind.default_params)
            except ShapeError as error:
                raise ValueError(f"params: {error}") from None
        if self.feed is not None and self.kind != "input":
            raise ValueError(f"feed: only an input is fed by the training points, not a {self.kind}")
        if self.generator is not None and tuple(self.generator.shape) != shape_of(self.value):
            raise ValueError(f"generator: it makes shape {shape_text(tuple(self.generator.shape))}, but the value "
                             f"has shape {shape_text(shape_of(self.value))}")
        return self


class GraphFileV2(StrictEntry):
    format: Literal["autograd-playground-graph"]
    version: Literal[2]
    nodes: Annotated[list[NodeEntryV2], Field(max_length=MAX_NODES)]
    edges: Annotated[list[EdgeEntry], Field(max_length=MAX_EDGES)]
    output: Annotated[str, Field(max_length=MAX_TEXT)] | None


def read_nodes(checked, node_class) -> list:
    """The nodes of a checked file (either version) as ``node_class`` instances."""
    nodes = []
    for entry in checked.nodes:
        extra = {}
        if isinstance(entry, NodeEntryV2):
            extra = {"params": entry.params or {},
                     "generator": entry.generator.generator() if entry.generator else None, "feed": entry.feed}
        nodes.append(node_class(entry.id, entry.kind, entry.x, entry.y, entry.label,
                                0.0 if entry.value is None else entry.value, entry.inputs or 0, **extra))
    return nodes


def _json_value(value):
    return value.tolist() if isinstance(value, np.ndarray) else value


def document_dict(nodes, edges, output) -> dict:
    """A document's file content: version 1 when every node is a scalar one without parameters, generator
    or feed (older versions of the app open it), else version 2."""
    tensor = any(node.is_tensor or node.params or node.generator is not None or node.feed is not None
                 for node in nodes)
    entries = []
    for node in nodes:
        node_kind = kind(node.kind)
        entry = {"id": node.id, "kind": node.kind, "x": node.x, "y": node.y, "label": node.label}
        if node_kind.is_leaf:
            entry["value"] = _json_value(node.value)
            if node.generator is not None:
                entry["generator"] = node.generator.to_dict()
            if node.feed is not None:
                entry["feed"] = node.feed
        if node_kind.is_variadic:
            entry["inputs"] = node.inputs
        if node.params:
            entry["params"] = {name: list(value) if isinstance(value, tuple) else value
                               for name, value in node.params.items()}
        entries.append(entry)
    return {
        "format": FORMAT_NAME,
        "version": TENSOR_FORMAT_VERSION if tensor else SCALAR_FORMAT_VERSION,
        "nodes": entries,
        "edges": [{"from": e.source, "to": e.target, "port": e.port} for e in edges],
        "output": output,
    }
