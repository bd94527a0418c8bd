"""Checking a file at the door: its content against a pydantic model, and what is wrong as one line.

Every file kind is read whole and checked whole before anything on screen changes. The shape of
each kind (fields, types, ranges, limits) is a pydantic model in strict mode; this module turns
the first thing pydantic finds into the kind's message, naming the field by its path, what was
expected and what came: ``nodes[3].value: expected a number, got 'x'``.

Qt-free.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError


def field_path(location: tuple) -> str:
    """``("nodes", 3, "value")`` as ``nodes[3].value``, the way the file reads."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += ("." if path else "") + str(part)
    return path or "the file"


def shown(value: Any, width: int = 40) -> str:
    """A value as the message quotes it: short, one line."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, int) and abs(value) >= 10**15:  # repr of a huge int may exceed Python's digit limit
        return f"a number of about {round(value.bit_length() * 0.30103)} digits"
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


_EXPECTED = {
    "int_type": "a whole number", "int_from_float": "a whole number", "int_parsing": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "finite_number": "a finite number",
    "string_type": "text", "bool_type": "true or false", "list_type": "a list",
    "dict_type": "an object", "model_type": "an object", "model_attributes_type": "an object",
    "none_required": "null",
}


def describe(error: ValidationError) -> str:
    """The first problem pydantic found, as ``path: expected …, got …``."""
    first = error.errors(include_url=False)[0]
    kind, context = first["type"], first.get("ctx") or {}
    where = field_path(tuple(first["loc"]))
    got = first.get("input")
    if kind == "missing":
        return f"{where}: missing"
    if kind == "extra_forbidden":
        return f"{where}: not a field of this file"
    if kind in _EXPECTED:
        return f"{where}: expected {_EXPECTED[kind]}, got {shown(got)}"
    if kind == "literal_error":
        return f"{where}: expected {context.get('expected')}, got {shown(got)}"
    bounds = {"greater_than_equal": ("≥", "ge"), "greater_than": (">", "gt"),
              "less_than_equal": ("≤", "le"), "less_than": ("<", "lt")}
    if kind in bounds:
        sign, key = bounds[kind]
        return f"{where}: expected a number {sign} {context.get(key)}, got {shown(got)}"
    if kind == "too_long":
        return (f"{where}: at most {context.get('max_length'):,} {'characters' if isinstance(got, str) else 'items'}"
                f" are allowed, got {context.get('actual_length'):,}")
    if kind == "string_too_short":
        return f"{where}: expected text of at least {context.get('min_length')} character(s), got {shown(got)}"
    if kind == "string_too_long":
        return f"{where}: at most {context.get('max_length'):,} characters are allowed, got {len(got):,}"
    if kind == "too_short":
        return f"{where}: at least {context.get('min_length')} needed, got {context.get('actual_length')}"
    if kind in ("value_error", "assertion_error"):
        message = str(context.get("error", first["msg"]))
        return f"{where}: {message}"
    return f"{where}: {first['msg'][:1].lower()}{first['msg'][1:]}"


def parse_json(text: str) -> Any:
    """``json.loads`` whose every failure is a ``ValueError`` with a message a person can act on:
    broken JSON (with line and column), nesting too deep for the parser, a number too long."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise ValueError(f"not valid JSON (line {problem.lineno}, column {problem.colno}: {problem.msg})") from None
    except RecursionError:
        raise ValueError("not a file of this app: its JSON is nested too deeply") from None
    except MemoryError:
        raise ValueError("too large to read") from None
    except ValueError as problem:  # e.g. an integer of more than 4,300 digits
        raise ValueError(f"not a file of this app: {problem}") from None
