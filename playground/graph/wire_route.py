"""Where a wire runs between two cards: the plain curve where it is clear of the other cards, else round them.

A wire leaves its source's output port to the right and enters its target's input port from the left. Its
plain shape is one cubic bezier (`plain_curve`). Where that curve would cross another card (the
hand-drawn a → L of lesson 2's graph crossed t1), `route` finds a short way round every card in the way:
the shortest path, by networkx, over a visibility graph whose nodes are the corners of the cards padded by a
margin (every pair of corners tested against every card at once, in numpy), from a short stub out of the
output port to one into the input port. `course` turns the plain curve or the route into cubic bezier
segments (the route with its corners rounded), which the canvas draws as they are. Qt-free: rectangles are
``(left, top, right, bottom)`` and points ``(x, y)`` in scene units.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import networkx as nx
import numpy as np

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom
Segment = tuple[Point, Point, Point, Point]  # one cubic bezier: start, two control points, end

CLEARANCE = 8.0  # a routed wire keeps at least this far from any card it passes
STUB = 24.0  # a routed wire leaves its output and enters its input straight for this long
CORNER = 18.0  # the radius a routed wire's corners are rounded with, at most
SAMPLES = 24  # points a curve segment is checked at
# A wire meeting more cards than this keeps its plain curve: the way round them would cost more than a drag can
# wait (the corners' pairs grow as their square), and a wire across a crowd of cards is lost in it anyway.
MAX_OBSTACLES = 8
ROUNDS = 4  # times a wire's way round is searched again for a card it newly meets


def plain_curve(start: Point, end: Point) -> Segment:
    """The wire's plain shape: a bezier leaving ``start`` to the right and entering ``end`` from the left."""
    dx = end[0] - start[0]
    reach = max(abs(dx) * 0.5, 40.0) if dx >= 0 else min(max(abs(dx) * 0.5, 60.0), 160.0)
    return start, (start[0] + reach, start[1]), (end[0] - reach, end[1]), end


def sample(segments: Sequence[Segment], per_segment: int = SAMPLES) -> np.ndarray:
    """Points along ``segments``, ``per_segment`` + 1 on each (both ends included): a (points, 2) array."""
    if not segments:
        return np.zeros((0, 2))
    controls = np.asarray(segments, dtype=float)  # (segments, 4, 2)
    points = np.matmul(_weights(per_segment)[None], controls).reshape(-1, 2)
    return np.vstack([controls[0, :1], points])


@functools.lru_cache(maxsize=8)
def _weights(per_segment: int) -> np.ndarray:
    """The Bernstein weights of a cubic at ``per_segment`` even steps after its start: (per_segment, 4)."""
    t = np.linspace(0.0, 1.0, per_segment + 1)[1:, None]
    u = 1.0 - t
    return np.hstack([u ** 3, 3 * u * u * t, 3 * u * t * t, t ** 3])


def padded(rect: Rect, by: float) -> Rect:
    left, top, right, bottom = rect
    return left - by, top - by, right + by, bottom + by


def segment_meets(a: Point, b: Point, rect: Rect) -> bool:
    """Whether the straight segment from ``a`` to ``b`` meets the inside of ``rect`` (Liang-Barsky clipping)."""
    left, top, right, bottom = rect
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - left), (dx, right - a[0]), (-dy, a[1] - top), (dy, bottom - a[1])):
        if p == 0.0:
            if q <= 0.0:
                return False  # parallel to this side and outside it (or on it)
            continue
        t = q / p
        if p < 0.0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return True


def segments_meet(starts: np.ndarray, ends: np.ndarray, rects: Sequence[Rect]) -> np.ndarray:
    """`segment_meets` for many segments and rectangles at once: (segments,) bool, whether each segment from
    ``starts[i]`` to ``ends[i]`` ((segments, 2) arrays) meets the inside of any of ``rects``."""
    return _meetings(starts, ends, rects).any(axis=1)


def rects_met(points: Sequence[Point] | np.ndarray, rects: Sequence[Rect]) -> list[bool]:
    """For each of ``rects``, whether the polyline through ``points`` meets its inside."""
    array = np.asarray(points, dtype=float)
    if len(array) < 2:
        return [False] * len(rects)
    return _meetings(array[:-1], array[1:], rects).any(axis=0).tolist()


def _meetings(starts: np.ndarray, ends: np.ndarray, rects: Sequence[Rect]) -> np.ndarray:
    """(segments, rects) bool: whether each segment meets each rectangle, by the slab method (a segment along a
    rectangle's side counts as meeting it here: the safe side for a wire keeping clear)."""
    if not len(rects) or not len(starts):
        return np.zeros((len(starts), len(rects)), dtype=bool)
    boxes = np.asarray(rects, dtype=float)
    ax, ay = starts[:, :1], starts[:, 1:2]
    dx, dy = ends[:, :1] - ax, ends[:, 1:2] - ay
    dx = np.where(dx == 0.0, 1e-300, dx)  # a vertical run: its slab times run out to ±inf
    dy = np.where(dy == 0.0, 1e-300, dy)
    with np.errstate(over="ignore"):
        x1, x2 = (boxes[:, 0] - ax) / dx, (boxes[:, 2] - ax) / dx
        y1, y2 = (boxes[:, 1] - ay) / dy, (boxes[:, 3] - ay) / dy
    enter = np.maximum(np.maximum(np.minimum(x1, x2), np.minimum(y1, y2)), 0.0)
    leave = np.minimum(np.minimum(np.maximum(x1, x2), np.maximum(y1, y2)), 1.0)
    return enter < leave


def polyline_meets(points: Sequence[Point] | np.ndarray, rects: Sequence[Rect]) -> bool:
    if len(points) < 2:
        return False
    array = np.asarray(points, dtype=float)
    return bool(segments_meet(array[:-1], array[1:], rects).any())


def route(start: Point, end: Point, obstacles: Sequence[Rect], ends: Sequence[Rect] = ()) -> list[Point]:
    """The corners a wire from ``start`` to ``end`` turns at to keep `CLEARANCE` from every card of ``obstacles``
    (the cards it does not join); [] when its plain curve is clear already, or when no way round is found.
    ``ends``: the cards it joins, which a route keeps clear of too (the plain curve may loop round them)."""
    margins = [padded(rect, CLEARANCE) for rect in obstacles]
    if not obstacles or not polyline_meets(sample([plain_curve(start, end)]), margins):
        return []
    return _way_round(start, end, obstacles, ends)


def _way_round(start: Point, end: Point, obstacles: Sequence[Rect], ends: Sequence[Rect]) -> list[Point]:
    """`route`'s corners, asked only when the plain curve meets ``obstacles``."""
    walls = [padded(rect, 2 * CLEARANCE) for rect in (*obstacles, *ends)]
    # Corners sit on the walls; whether a straight run is clear is asked of walls a hair smaller, so a run
    # along a wall's side, or from one of its corners, is not counted as going through it.
    tests = [padded(wall, -0.5) for wall in walls]
    out, into = (start[0] + STUB, start[1]), (end[0] - STUB, end[1])
    corners = {(x, y) for left, top, right, bottom in walls for x in (left, right) for y in (top, bottom)}
    nodes = [out, into, *(c for c in corners if not any(_inside(c, wall) for wall in tests))]
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    points = np.asarray(nodes, dtype=float)
    first, second = np.triu_indices(len(nodes), k=1)  # every pair of corners, tested at once
    blocked = segments_meet(points[first], points[second], tests)
    lengths = np.hypot(*(points[second] - points[first]).T)
    graph.add_weighted_edges_from((nodes[i], nodes[j], length) for i, j, length, shut
                                  in zip(first.tolist(), second.tolist(), lengths.tolist(), blocked.tolist())
                                  if not shut)
    try:
        path = nx.shortest_path(graph, out, into, weight="weight")
    except nx.NetworkXNoPath:
        return []
    return list(path)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(point: Point, rect: Rect) -> bool:
    left, top, right, bottom = rect
    return left < point[0] < right and top < point[1] < bottom


def _line(a: Point, b: Point) -> Segment:
    return a, _lerp(a, b, 1 / 3), _lerp(a, b, 2 / 3), b


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def rounded(points: Sequence[Point], radius: float = CORNER) -> list[Segment]:
    """The polyline through ``points`` as bezier segments: straight runs, each corner rounded off by a curve
    that starts and ends at most ``radius`` from it (and at most half way along either run)."""
    if len(points) < 3 or radius <= 0:
        return [_line(a, b) for a, b in zip(points, points[1:]) if a != b]
    segments, here = [], points[0]
    for before, corner, after in zip(points, points[1:], points[2:]):
        cut = min(radius, math.dist(before, corner) / 2, math.dist(corner, after) / 2)
        enter = _lerp(corner, before, cut / math.dist(before, corner)) if cut else corner
        leave = _lerp(corner, after, cut / math.dist(corner, after)) if cut else corner
        if here != enter:
            segments.append(_line(here, enter))
        if enter != leave:  # a quadratic curve with its control point at the corner, as a cubic
            segments.append((enter, _lerp(enter, corner, 2 / 3), _lerp(leave, corner, 2 / 3), leave))
        here = leave
    if here != points[-1]:
        segments.append(_line(here, points[-1]))
    return segments


def curve(start: Point, end: Point, cards: Sequence[Rect] = (), ends: Sequence[Rect] = ()) -> list[Segment]:
    """The bezier segments of a wire from ``start`` to ``end`` among ``cards``: `course`'s, without the cards."""
    return course(start, end, cards, ends)[0]


def course(start: Point, end: Point, cards: Sequence[Rect] = (),
           ends: Sequence[Rect] = ()) -> tuple[list[Segment], list[int]]:
    """The bezier segments of a wire from ``start`` to ``end`` among ``cards`` (those it does not join, near it),
    and which of ``cards`` it goes round (their indices): its plain curve where that misses them all, else
    `route`'s way round the cards in its way with rounded corners (sharp ones if rounding would touch a card).
    A way round one card may run into another: that one is gone round too, a few times at most (each time only
    the cards met so far are routed round, so the visibility graph stays small). A wire that meets more than
    `MAX_OBSTACLES` cards keeps its plain curve: it runs across a crowd of cards, and a way round them all
    would cost more than a drag can wait."""
    plain = [plain_curve(start, end)]
    segments = plain
    # Only the cards about the plain curve's control points can meet it: most wires are done here, in Python.
    xs, ys = [x for x, _ in plain[0]], [y for _, y in plain[0]]
    reach = (min(xs), min(ys), max(xs), max(ys))
    margins = [padded(card, CLEARANCE) for card in cards]
    if not any(_overlap(margin, reach) for margin in margins):
        return plain, []
    met: list[int] = []
    for _ in range(ROUNDS):
        fresh = [i for i, hit in enumerate(rects_met(sample(segments), margins)) if hit and i not in met]
        if not fresh:
            return segments, met
        met += fresh
        if len(met) > MAX_OBSTACLES:
            break
        obstacles = [cards[i] for i in met]
        corners = _way_round(start, end, obstacles, ends)
        if not corners:
            break
        points = [start, *corners, end]
        segments = rounded(points)
        if polyline_meets(sample(segments, 8), [padded(r, CLEARANCE / 2) for r in obstacles]):
            segments = rounded(points, 0.0)
    return plain, []  # no way round found: the plain curve, which a person can see through
