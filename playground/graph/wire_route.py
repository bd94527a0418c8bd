"""Where a wire runs between two cards: the plain curve where it is clear of the other cards, else round them.

A wire leaves its source's output port to the right and enters its target's input port from the left. Its
plain shape is one cubic bezier (`plain_curve`). Where that curve would cross another card (the
hand-drawn a → L of the starter neuron crossed t1), `route` finds a short way round every card in the way:
the shortest path, by networkx, over a visibility graph whose nodes are the corners of the cards padded by a
margin, from a short stub out of the output port to one into the input port. `curve` turns the plain
curve or the route into cubic bezier segments (the route with its corners rounded), which the canvas draws
as they are. Qt-free: rectangles are ``(left, top, right, bottom)`` and points ``(x, y)`` in scene units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom
Segment = tuple[Point, Point, Point, Point]  # one cubic bezier: start, two control points, end

CLEARANCE = 8.0  # a routed wire keeps at least this far from any card it passes
STUB = 24.0  # a routed wire leaves its output and enters its input straight for this long
CORNER = 18.0  # the radius a routed wire's corners are rounded with, at most
SAMPLES = 24  # points a curve segment is checked at


def plain_curve(start: Point, end: Point) -> Segment:
    """The wire's plain shape: a bezier leaving ``start`` to the right and entering ``end`` from the left."""
    dx = end[0] - start[0]
    reach = max(abs(dx) * 0.5, 40.0) if dx >= 0 else min(max(abs(dx) * 0.5, 60.0), 160.0)
    return start, (start[0] + reach, start[1]), (end[0] - reach, end[1]), end


def bezier_point(segment: Segment, t: float) -> Point:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = segment
    u = 1.0 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3


def sample(segments: Sequence[Segment], per_segment: int = SAMPLES) -> list[Point]:
    """Points along ``segments``, ``per_segment`` + 1 on each (both ends included)."""
    points = [segments[0][0]] if segments else []
    for segment in segments:
        points.extend(bezier_point(segment, step / per_segment) for step in range(1, per_segment + 1))
    return points


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


def polyline_meets(points: Sequence[Point], rects: Sequence[Rect]) -> bool:
    return any(segment_meets(a, b, rect) for a, b in zip(points, points[1:]) for rect in rects)


def route(start: Point, end: Point, obstacles: Sequence[Rect], ends: Sequence[Rect] = ()) -> list[Point]:
    """The corners a wire from ``start`` to ``end`` turns at to keep `CLEARANCE` from every card of ``obstacles``
    (the cards it does not join); [] when its plain curve is clear already, or when no way round is found.
    ``ends``: the cards it joins, which a route keeps clear of too (the plain curve may loop round them)."""
    margins = [padded(rect, CLEARANCE) for rect in obstacles]
    if not obstacles or not polyline_meets(sample([plain_curve(start, end)]), margins):
        return []
    walls = [padded(rect, 2 * CLEARANCE) for rect in (*obstacles, *ends)]
    # Corners sit on the walls; whether a straight run is clear is asked of walls a hair smaller, so a run
    # along a wall's side, or from one of its corners, is not counted as going through it.
    tests = [padded(wall, -0.5) for wall in walls]
    out, into = (start[0] + STUB, start[1]), (end[0] - STUB, end[1])
    corners = {(x, y) for left, top, right, bottom in walls for x in (left, right) for y in (top, bottom)}
    nodes = [out, into, *(c for c in corners if not any(_inside(c, wall) for wall in tests))]
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if not any(segment_meets(a, b, wall) for wall in tests):
                graph.add_edge(a, b, weight=math.dist(a, b))
    try:
        path = nx.shortest_path(graph, out, into, weight="weight")
    except nx.NetworkXNoPath:
        return []
    return list(path)


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


def curve(start: Point, end: Point, obstacles: Sequence[Rect] = (), ends: Sequence[Rect] = ()) -> list[Segment]:
    """The bezier segments of a wire from ``start`` to ``end``: its plain curve where that misses every card of
    ``obstacles``, else `route`'s way round them with rounded corners (sharp ones if rounding would touch a
    card)."""
    corners = route(start, end, obstacles, ends)
    if not corners:
        return [plain_curve(start, end)]
    points = [start, *corners, end]
    segments = rounded(points)
    if polyline_meets(sample(segments, 8), [padded(r, CLEARANCE / 2) for r in obstacles]):
        segments = rounded(points, 0.0)
    return segments
