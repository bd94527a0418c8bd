"""A computation graph drawn as SVG, with no system dependency: what a notebook shows for a `Value` or `Tensor`.

micrograd's ``draw_dot`` needs graphviz installed; this lays the graph out itself. Nodes stand in
layers, left to right, each one column further than its deepest operand; within a layer they
are ordered by the mean height of their operands (a barycentre sweep, as layered layouts do),
which keeps most wires short and straight. Each node is a card: its label and op, then its data
and grad (for a tensor, its shape and the norms). Pure Python: no Qt, no graphviz, no networkx.
"""

from __future__ import annotations

import math
from html import escape

from .graph import reading_order

CARD_WIDTH, CARD_HEIGHT = 150, 58
COLUMN_GAP, ROW_GAP, MARGIN = 60, 18, 12
COLORS = {"leaf": "#3b78e7", "op": "#e07b1a", "output": "#8a56d6"}


def _number(x) -> str:
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return str(int(x)) if x == int(x) and abs(x) < 1e12 else f"{x:.4g}"


def _lines(node) -> tuple[str, list[str]]:
    """The card's title and its body lines, for a `Value` or a `Tensor`."""
    op = node._op
    # An unlabelled leaf says what it is: a Tensor that requires grad is learned (a parameter), any
    # other leaf is an input (a scalar Value has no such flag: a leaf).
    requires_grad = getattr(node, "requires_grad", None)
    leaf = "leaf" if requires_grad is None else ("parameter" if requires_grad else "input")
    title = node.label or (op if op else leaf)
    if node.label and op:
        title = f"{node.label} ({op})"
    data = getattr(node, "data", None)
    shape = getattr(data, "shape", None)
    if shape is None:  # a scalar Value
        return title, [f"data {_number(data)}", f"grad {_number(node.grad)}"]
    shape_text = "×".join(map(str, shape)) or "scalar"
    if data.size == 1:
        grad = "—" if node.grad is None else _number(node.grad.reshape(()))
        return title, [f"{shape_text}  data {_number(data.reshape(()))}", f"grad {grad}"]
    grad = "—" if node.grad is None else _number(float((node.grad.astype(float) ** 2).sum()) ** 0.5)
    return title, [f"{shape_text}  ‖data‖ {_number(float((data.astype(float) ** 2).sum()) ** 0.5)}", f"‖grad‖ {grad}"]


def layered_positions(order: list) -> dict[int, tuple[float, float]]:
    """``{id(node): (x, y)}`` for nodes given operands first (`graph.reading_order`).

    A result stands one column right of its deepest operand; a leaf stands just left of its first
    user, as a person would draw it. Within a column, nodes are ordered by the mean row of their
    neighbours, sweeping right (by operands) then left (by users) and right again.
    """
    users: dict[int, list] = {id(node): [] for node in order}
    for node in order:
        for parent in node._prev:
            users[id(parent)].append(node)
    depth: dict[int, int] = {}
    for node in order:
        depth[id(node)] = 1 + max((depth[id(parent)] for parent in node._prev), default=-1)
    for node in order:
        if not node._prev and users[id(node)]:
            depth[id(node)] = max(0, min(depth[id(user)] for user in users[id(node)]) - 1)
    columns: dict[int, list] = {}
    for node in order:
        columns.setdefault(depth[id(node)], []).append(node)
    row = {id(node): index for nodes in columns.values() for index, node in enumerate(nodes)}

    def sweep(levels, neighbours):
        for level in levels:
            nodes = columns[level]
            keys = {}
            for node in nodes:
                around = [row[id(other)] for other in neighbours(node)]
                keys[id(node)] = sum(around) / len(around) if around else row[id(node)]
            nodes.sort(key=lambda n: keys[id(n)])  # stable: ties keep the reading order
            for index, node in enumerate(nodes):
                row[id(node)] = index

    levels = sorted(columns)
    sweep(levels, lambda node: node._prev)
    sweep(reversed(levels), lambda node: users[id(node)])
    sweep(levels, lambda node: node._prev)
    return {key: (depth[key] * (CARD_WIDTH + COLUMN_GAP), row[key] * (CARD_HEIGHT + ROW_GAP)) for key in depth}


def to_svg(root) -> str:
    """The graph that ``root`` was computed from, as an SVG document."""
    order = reading_order([root])
    positions = layered_positions(order)
    width = max(x for x, _ in positions.values()) + CARD_WIDTH + 2 * MARGIN
    height = max(y for _, y in positions.values()) + CARD_HEIGHT + 2 * MARGIN
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="11">',
             '<g fill="none" stroke="#8a8f98" stroke-width="1.2">']
    for node in order:  # wires first, under the cards
        x, y = positions[id(node)]
        slots = len(node._prev)
        for index, parent in enumerate(node._prev):
            px, py = positions[id(parent)]
            start = (MARGIN + px + CARD_WIDTH, MARGIN + py + CARD_HEIGHT / 2)
            end = (MARGIN + x, MARGIN + y + CARD_HEIGHT * (index + 1) / (slots + 1))
            bend = (end[0] - start[0]) / 2
            parts.append(f'<path d="M{start[0]:.1f},{start[1]:.1f} C{start[0] + bend:.1f},{start[1]:.1f} '
                         f'{end[0] - bend:.1f},{end[1]:.1f} {end[0]:.1f},{end[1]:.1f}"/>')
    parts.append("</g>")
    for node in order:
        x, y = positions[id(node)]
        x, y = x + MARGIN, y + MARGIN
        color = COLORS["output"] if node is root else COLORS["op"] if node._prev else COLORS["leaf"]
        title, body = _lines(node)
        parts.append(
            f'<g><rect x="{x:.1f}" y="{y:.1f}" width="{CARD_WIDTH}" height="{CARD_HEIGHT}" rx="6" fill="#ffffff" '
            f'stroke="{color}" stroke-width="1.5"/>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_WIDTH}" height="18" rx="6" fill="{color}"/>'
            f'<text x="{x + 7:.1f}" y="{y + 13:.1f}" fill="#ffffff" font-weight="bold">{escape(title[:24])}</text>'
            + "".join(f'<text x="{x + 7:.1f}" y="{y + 34 + 15 * i:.1f}" fill="#222">{escape(line)}</text>'
                      for i, line in enumerate(body))
            + "</g>")
    parts.append("</svg>")
    return "".join(parts)
