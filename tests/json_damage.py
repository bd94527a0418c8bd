"""Hypothesis strategies that damage a JSON file as a careless or hostile person would: replace, delete
or duplicate values anywhere in it (with wrong types, huge or non-finite numbers, non-ASCII digits,
nested junk), then perhaps cut the text short or change one character. Shared by the loaders' fuzz tests."""

from __future__ import annotations

import copy
import json
import math

from hypothesis import strategies as st

JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 10**9, 10**400, 1.0, math.nan, math.inf, -math.inf, 1e308, 0.5]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8), st.sampled_from(["²", "١", "", "n1"]),
)
JSON_VALUES = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:20]):  # a long list of points: its first items stand for the rest
            yield from _paths(item, (*prefix, index))


@st.composite
def damaged(draw, originals: list[dict]) -> str:
    """The JSON text of one of ``originals`` after one to three random changes and perhaps a cut or a flip."""
    document = copy.deepcopy(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(document) if p]
        if not paths:
            break
        where = draw(st.sampled_from(paths))
        parent = document
        for key in where[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
        if action == "replace":
            parent[where[-1]] = draw(JSON_VALUES)
        elif action == "delete":
            del parent[where[-1]]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[where[-1]]))
    text = json.dumps(document)
    damage = draw(st.sampled_from(["none", "none", "truncate", "flip"]))
    if damage == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "flip":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.characters(codec="utf-8")) + text[at + 1:]
    return text
