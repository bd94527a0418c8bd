"""Which inputs the training points feed when a graph is trained. Qt-free.

An input is fed by its name unless it says otherwise (`Node.feed`): a number named ``x1`` or ``x2`` becomes
the points' first or second coordinate (a vector, one number a point), and an array named ``X`` or made by
``points()`` becomes the points themselves, (n, 2) (an X of another width is fed too, and the shape check
then says where the points do not fit). Until the graph is trained, every input
keeps the value it shows in the editor. Another feed can be chosen for any input ("x1", "x2", "points"), or
none at all ("none"): then it keeps its own value while the graph trains too.
"""

from __future__ import annotations

import numpy as np

# Node.feed: None (by its name), or one of these; what a person reads for each.
FEEDS: dict[str | None, str] = {
    None: "by its name",
    "x1": "x₁ of each point",
    "x2": "x₂ of each point",
    "points": "the points, one row each (n, 2)",
    "none": "nothing: it keeps its value",
}
STORED_FEEDS = tuple(feed for feed in FEEDS if feed is not None)  # what a graph file may say
DATA_FEEDS = ("x1", "x2", "points")  # what training puts in an input
_NAMED = {"x1": "x1", "x₁": "x1", "x2": "x2", "x₂": "x2"}


def check_feed(kind_name: str, feed: str | None) -> None:
    """Raise ``ValueError`` unless an input of kind ``kind_name`` may be fed ``feed``."""
    if feed not in FEEDS:
        raise ValueError(f"an input is fed {', '.join(repr(f) for f in STORED_FEEDS)} or by its name, not {feed!r}")
    if feed is not None and kind_name != "input":
        raise ValueError(f"only an input is fed by the training points, not a {kind_name}")


def fed_by_name(name: str, value, made_by_points: bool = False) -> str | None:
    """What an input called ``name`` holding ``value`` is fed by its name: "x1", "x2", "points" or None."""
    if np.ndim(value) == 0:
        return _NAMED.get(name.strip())
    if np.ndim(value) == 2 and (name.strip() == "X" or made_by_points):
        return "points"
    return None


def feed_of(document, node_id: str) -> str | None:
    """What training feeds node ``node_id``: "x1", "x2", "points", or None (nothing: it keeps its value)."""
    node = document.node(node_id)
    if node.kind != "input":
        return None
    if node.feed is not None:
        return node.feed if node.feed in DATA_FEEDS else None
    made_by_points = node.generator is not None and node.generator.name == "points"
    return fed_by_name(document.name(node_id), node.value, made_by_points)


def data_inputs(document) -> dict[str, str]:
    """Every input training feeds, by node id: {"n1": "x1", "n2": "x2"} or {"X": "points"}."""
    fed = {}
    for node in document.nodes:
        feed = feed_of(document, node.id)
        if feed is not None:
            fed[node.id] = feed
    return fed


def feed_text(document, node_id: str) -> str:
    """What the properties panel says of an input: ``Fed by the training points: x₁ of each point (by its name)``."""
    feed = feed_of(document, node_id)
    explicit = document.node(node_id).feed is not None
    if feed is None:
        return "Not fed by the training points: it keeps its value" + ("" if explicit else " (by its name)")
    return f"Fed by the training points: {FEEDS[feed]}" + ("" if explicit else " (by its name)")
