"""Reading a typed shape or array, for a lesson's tensor questions. Qt-free.

``(3,)``, ``3``, ``(4, 3)``, ``4, 3``, ``[4, 3]``, ``4x3``, ``4 × 3`` and ``()`` are shapes;
``[1.2, -0.3, 0.5]``, ``1.2, -0.3, 0.5`` and ``[[1, 2], [3, 4]]`` are arrays, each element read as
the animator's Predict reads a number (``1 - 0.76**2`` works). Both are read with `ast`, never
run, and raise `predict.AnswerError` saying what to type for anything else, whatever the text.
"""

from __future__ import annotations

import ast
import re
import warnings

import numpy as np

from ...animator.model.predict import AnswerError, read_number

MAX_LENGTH = 4_000  # a 4×3 gradient typed in full is about 120 characters
MAX_ELEMENTS = 64
MAX_SIZE = 4_096  # a shape's sizes: as large as the editor's tensors may be
_TIMES = re.compile(r"(?<=\d)\s*[x×*]\s*(?=\d)")  # 4x3, 4 × 3
_SPACED = re.compile(r"\d+(\s+\d+)+")  # 4 3


def _prepare(text: str, what: str) -> str:
    text = text.strip().replace("−", "-")
    if not text:
        raise AnswerError(f"type {what} first")
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"that is too long for {what}")
    return text


def _tree(text: str, example: str) -> ast.expr:
    try:
        with warnings.catch_warnings():  # "1e9x" warns of an invalid literal before it fails: the refusal says it
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise AnswerError(f"'{_short(text)}' cannot be read (type e.g. {example})") from None


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "…"


def read_shape(text: str) -> tuple[int, ...]:
    """The shape typed in ``text``: ``(3,)``, ``3``, ``(4, 3)``, ``4, 3``, ``[4, 3]``, ``4x3``, ``()`` or
    ``scalar``; raises `AnswerError` with what to type."""
    text = _prepare(text, "a shape")
    if text.lower() in ("scalar", "()", "[]"):
        return ()
    example = "(3,) or (4, 3)"
    text = _TIMES.sub(", ", text)
    if _SPACED.fullmatch(text):
        text = ", ".join(text.split())
    node = _tree(text, example)
    parts = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    sizes = []
    for part in parts:
        if not (isinstance(part, ast.Constant) and isinstance(part.value, int) and not isinstance(part.value, bool)):
            raise AnswerError(f"a shape is whole numbers, one size per axis (type e.g. {example}), "
                              f"not '{_short(text)}'")
        if not 0 <= part.value <= MAX_SIZE:
            raise AnswerError(f"{part.value} is not a size of a tensor here (0 to {MAX_SIZE})")
        sizes.append(part.value)
    if len(sizes) > 2:
        raise AnswerError("the tensors here have at most 2 axes: type at most 2 sizes")
    return tuple(sizes)


def read_array(text: str) -> np.ndarray:
    """The numbers typed in ``text`` as an array: ``[1.2, -0.3, 0.5]`` (or without brackets), or rows
    ``[[1, 2], [3, 4]]``; raises `AnswerError` with what to type."""
    text = _prepare(text, "the numbers")
    example = "[1.2, -0.3, 0.5]"
    node = _tree(text, example)

    def number(part: ast.expr) -> float:
        if isinstance(part, (ast.List, ast.Tuple)):
            raise AnswerError("at most 2 levels of brackets: a list of rows of numbers")
        source = ast.get_source_segment(text, part)
        if source is None:
            raise AnswerError(f"'{_short(text)}' cannot be read (type e.g. {example})")
        return read_number(source)

    parts = node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]
    if not parts:
        raise AnswerError(f"the brackets are empty: type the numbers between them, e.g. {example}")
    if len(parts) > MAX_ELEMENTS:
        raise AnswerError(f"that is more numbers than a gradient here has (at most {MAX_ELEMENTS})")
    if all(isinstance(part, (ast.List, ast.Tuple)) for part in parts):
        rows = [[number(item) for item in part.elts] for part in parts]
        if len({len(row) for row in rows}) != 1 or not rows[0]:
            raise AnswerError("every row needs as many numbers as the others: "
                              + ", ".join(str(len(row)) for row in rows))
        if sum(len(row) for row in rows) > MAX_ELEMENTS:
            raise AnswerError(f"that is more numbers than a gradient here has (at most {MAX_ELEMENTS})")
        return np.array(rows, dtype=np.float64)
    if any(isinstance(part, (ast.List, ast.Tuple)) for part in parts):
        raise AnswerError("type either numbers or rows of numbers in brackets, not both")
    return np.array([number(part) for part in parts], dtype=np.float64)
