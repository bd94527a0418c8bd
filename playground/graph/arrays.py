"""A leaf's value in the graph editor: a number or a small numpy array, and the generators that fill one.

Qt-free. A value has at most `MAX_DIMS` dimensions and `MAX_ELEMENTS` elements. A scalar (shape ``()``)
is kept as a Python float, exactly as scalar graphs have always stored it; anything with a shape is a
read-only float64 array, so a node's value can be shared (undo, copies) without being changed behind
anyone's back. `as_array` gives either as an array.

A generator (zeros, ones, arange, eye, randn, rand, points) is remembered beside the values it made, so the
UI can say how a table was filled; the values themselves are what the graph computes with. ``points()`` makes
a preview of the training points, (8, 2) by default: a leaf made by it is fed the points themselves when the
graph is trained (`feeding`), and shows these 8 in the editor meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.data import make_moons

from ..common.numbers import format_number

MAX_DIMS = 2
MAX_ELEMENTS = 4_096
GENERATORS = ("zeros", "ones", "arange", "eye", "randn", "rand", "points")
RANDOM_GENERATORS = ("randn", "rand")
PREVIEW_POINTS = 8  # the points ``points()`` shows in the editor, before training feeds every one

Shape = tuple[int, ...]


class ValueProblem(ValueError):
    """A value or a generator the editor refuses, with the reason in words."""


def shape_text(shape: Shape) -> str:
    """``(3, 2)``, ``(2,)``, ``()``: the way numpy and PyTorch print a shape."""
    return str(tuple(int(n) for n in shape))


def check_shape(shape) -> Shape:
    """``shape`` as a tuple of sizes, or `ValueProblem` if it has too many dimensions or elements."""
    try:
        shape = tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise ValueProblem(f"a shape is a list of sizes, not {shape!r}") from None
    if len(shape) > MAX_DIMS:
        raise ValueProblem(f"shape {shape_text(shape)} has {len(shape)} dimensions; at most {MAX_DIMS} are allowed")
    if any(n < 1 for n in shape):
        raise ValueProblem(f"shape {shape_text(shape)}: every size must be at least 1")
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if size > MAX_ELEMENTS:
        raise ValueProblem(f"shape {shape_text(shape)} holds {size:,} elements; at most {MAX_ELEMENTS:,} are allowed")
    return shape


def as_leaf_value(value) -> float | np.ndarray:
    """A leaf's value as stored: a float for a scalar, else a read-only float64 array within the limits.

    Raises `ValueProblem` for ragged lists, non-numbers, too many dimensions or elements.
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueProblem(f"a value must be a number or a rectangular list of numbers ({error})") from None
    if array.ndim == 0:
        return float(array)
    check_shape(array.shape)
    array.setflags(write=False)
    return array


def as_array(value) -> np.ndarray:
    """Any leaf value (float or array) as a float64 array; a scalar is shape ``()``."""
    return np.asarray(value, dtype=np.float64)


def shape_of(value) -> Shape:
    return tuple(np.shape(value))


def same_value(a, b) -> bool:
    """Equal shapes and elements, nan equal to nan."""
    if a is None or b is None:
        return a is b
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))


@dataclass(frozen=True)
class Generator:
    """How a leaf's values were made: ``randn(2, 3, seed=0)``."""

    name: str
    shape: Shape
    seed: int | None = None  # the random generators only

    def __post_init__(self):
        if self.name not in GENERATORS:
            raise ValueProblem(f"unknown generator {self.name!r}; the generators are {', '.join(GENERATORS)}")
        if self.name == "points":  # points() is (8, 2), points(20) is (20, 2): two coordinates a point
            sizes = tuple(self.shape)
            if len(sizes) <= 1:
                sizes = (sizes[0] if sizes else PREVIEW_POINTS, 2)
            if len(sizes) != 2 or int(sizes[1]) != 2:
                raise ValueProblem(f"points makes a row of two coordinates a point, (n, 2), not shape "
                                   f"{shape_text(sizes)}")
            object.__setattr__(self, "shape", sizes)
        object.__setattr__(self, "shape", check_shape(self.shape))
        if self.name == "eye" and len(self.shape) != 2:
            raise ValueProblem(f"eye makes a matrix: give it 2 sizes, not shape {shape_text(self.shape)}")
        if self.name in RANDOM_GENERATORS:
            if self.seed is None:
                object.__setattr__(self, "seed", 0)
            if not 0 <= int(self.seed) < 2**32:
                raise ValueProblem(f"a seed is a whole number from 0 to 2**32 - 1, not {self.seed}")
            object.__setattr__(self, "seed", int(self.seed))
        elif self.seed is not None:
            raise ValueProblem(f"{self.name} is not random: it takes no seed")

    def values(self) -> float | np.ndarray:
        """The values this generator makes, as a leaf stores them (always the same for the same seed)."""
        shape = self.shape
        if self.name == "zeros":
            data = np.zeros(shape)
        elif self.name == "ones":
            data = np.ones(shape)
        elif self.name == "arange":
            data = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.float64).reshape(shape)
        elif self.name == "eye":
            data = np.eye(*shape)
        elif self.name == "points":
            data = preview_points(shape[0])
        else:
            rng = np.random.default_rng(self.seed)
            data = rng.standard_normal(shape) if self.name == "randn" else rng.random(shape)
        return as_leaf_value(data)

    def call_text(self) -> str:
        """How the expression box writes it: ``randn(2, 3, seed=0)``, ``zeros(4)``, ``eye(2, 2)``, ``points()``."""
        if self.name == "points":
            return "points()" if self.shape[0] == PREVIEW_POINTS else f"points({self.shape[0]})"
        sizes = ", ".join(str(n) for n in self.shape)
        seed = f", seed={self.seed}" if self.seed is not None else ""
        return f"{self.name}({sizes}{seed})" if sizes else f"{self.name}({seed.lstrip(', ')})"

    def to_dict(self) -> dict:
        entry = {"name": self.name, "shape": list(self.shape)}
        if self.seed is not None:
            entry["seed"] = self.seed
        return entry


def preview_points(count: int) -> np.ndarray:
    """The first ``count`` points of the training tab's first data, two moons (200 points, noise 0.1, seed 0):
    what a data input shows in the editor until training feeds it every point."""
    X, _labels = make_moons(n_samples=max(count, 200), noise=0.1, random_state=0)
    return X[:count]


def format_array(value, digits: int | None = None, limit: int = 64) -> str:
    """``[[1, 2], [3, 4]]`` with each element as the app writes numbers; a scalar as its number.

    Past ``limit`` elements the text ends in ``…`` (a tooltip shows at most 64, as issue 19 asks).
    """
    array = np.asarray(value, dtype=np.float64)
    number = format_number if digits is None else (lambda x: format_number(x, digits))
    if array.ndim == 0:
        return number(float(array))
    shown = 0

    def rows(part) -> str:
        nonlocal shown
        if part.ndim == 1:
            items = []
            for x in part:
                if shown >= limit:
                    items.append("…")
                    break
                items.append(number(float(x)))
                shown += 1
            return "[" + ", ".join(items) + "]"
        inner = []
        for row in part:
            if shown >= limit:
                inner.append("…")
                break
            inner.append(rows(row))
        return "[" + ", ".join(inner) + "]"

    return rows(array)
