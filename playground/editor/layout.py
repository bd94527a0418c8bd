"""Automatic left-to-right placement of a graph document's nodes (a small Sugiyama-style layout).

Qt-free. Steps, each per connected piece of the graph:

1. layers: a node sits one layer right of its furthest operand (longest path from the inputs), but a
   node with no operands (an input, parameter or constant) moves right to the layer just before its
   earliest consumer, so ``b`` in ``exp(exp(exp(a))) * b`` sits next to the ``*`` and not next to ``a``;
2. order within each layer: start in document order, then sweep right and left, sorting each layer by
   the mean height of its neighbours (the barycenter heuristic; a wire into input port 0 counts a little
   higher than one into port 1, so ``x * w`` puts ``x`` above ``w``). After each sweep the wire crossings
   are counted and the best ordering seen is kept, so sweeping never makes a layout worse (ties go to
   the ordering whose wires cross least on the way into their input ports);
   A wire that skips layers holds a slot in each layer it passes, sorted by where the straight wire
   runs, so it does not run through the nodes there;
3. coordinates: layer k at x = k * x_spacing, each layer's slots y_spacing apart and centred on y = 0.

Pieces of a disconnected graph are stacked top to bottom in document order.

`layered_layout` lays out a graph document; `layered_positions` any graph given as node ids,
edges and port counts (the animator's tensor graphs).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import NamedTuple

import networkx as nx
import numpy as np

from .document import Edge, GraphDocument

Position = tuple[float, float]
# Columns far enough apart that a wire between neighbours has room for its gradient label
# ("grad -0.3412", about 75 units) between the cards (130 wide), clear of both; a longer one slides
# along its wire (wires.LABEL_SPOTS).
X_SPACING = 230.0
Y_SPACING = 110.0
_PORT_SHIFT = 0.5  # the height of a node's column of input ports, in slots (a slot is y_spacing)


def layered_layout(document: GraphDocument, x_spacing: float = X_SPACING, y_spacing: float = Y_SPACING,
                   sweeps: int = 4) -> dict[str, Position]:
    """A position for every node of ``document``: wires run left to right, with few crossings."""
    port_counts = {node.id: node.port_count for node in document.nodes}
    return layered_positions(port_counts, document.edges, x_spacing, y_spacing, sweeps)


def layered_positions(port_counts: Mapping[str, int], edges: Iterable[Edge], x_spacing: float = X_SPACING,
                      y_spacing: float = Y_SPACING, sweeps: int = 4) -> dict[str, Position]:
    """A position for every node of a graph given as ``{node id: number of input ports}`` (in the order
    that breaks ties) and its edges; wires run left to right, with few crossings."""
    edges = list(edges)
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(port_counts)
    graph.add_edges_from((e.source, e.target, e.port) for e in edges)
    if not nx.is_directed_acyclic_graph(graph):
        raise ValueError("only a graph without cycles can be laid out in layers")
    index = {node_id: i for i, node_id in enumerate(graph.nodes)}  # the given order breaks every tie
    pieces = sorted(nx.weakly_connected_components(graph), key=lambda piece: min(index[n] for n in piece))
    outgoing = defaultdict(list)
    for edge in edges:
        outgoing[edge.source].append(edge)

    positions: dict[str, Position] = {}
    top = 0.0
    for piece in pieces:
        layers = _order(_layers(piece, index, outgoing), port_counts, outgoing, index, sweeps)
        tallest = max(len(layer) for layer in layers)
        middle = top + (tallest - 1) * y_spacing / 2
        for k, layer in enumerate(layers):
            for rank, node_id in enumerate(layer):
                if isinstance(node_id, _Placeholder):
                    continue
                positions[node_id] = (k * x_spacing, middle + (rank - (len(layer) - 1) / 2) * y_spacing)
        top += tallest * y_spacing
    shift = (top - y_spacing) / 2  # centre the stack on y = 0
    return {node_id: (x, y - shift) for node_id, (x, y) in positions.items()}


def count_crossings(document: GraphDocument, positions: dict[str, Position]) -> int:
    """How many pairs of wires cross, drawing each wire as a straight line between node centres.

    Wires that meet at a node, touch or run along each other do not count; only proper crossings do.
    """
    edges = document.edges
    starts = np.array([positions[e.source] for e in edges], dtype=float).reshape(-1, 2)
    ends = np.array([positions[e.target] for e in edges], dtype=float).reshape(-1, 2)
    return _crossings(starts, ends)


def _crossings(starts: np.ndarray, ends: np.ndarray) -> int:
    """Proper crossings among the segments ``starts[i]`` to ``ends[i]`` (float or, faster, integer arrays)."""
    if len(starts) < 2:
        return 0
    x1, y1 = starts[:, 0], starts[:, 1]
    x2, y2 = ends[:, 0], ends[:, 1]
    dx, dy = (x2 - x1)[:, None], (y2 - y1)[:, None]
    # Which side of segment i's line each end of segment j lies on; a shared end gives exactly 0, so
    # wires meeting at a node never count. Signs are compared, not multiplied, so integers cannot overflow.
    side_start = dx * (y1 - y1[:, None]) - dy * (x1 - x1[:, None])
    side_end = dx * (y2 - y1[:, None]) - dy * (x2 - x1[:, None])
    straddles = ((side_start > 0) & (side_end < 0)) | ((side_start < 0) & (side_end > 0))
    return int(np.count_nonzero(straddles & straddles.T)) // 2


def _layers(piece: set[str], index: dict[str, int], edges) -> list[list[str]]:
    """Nodes of one connected piece in layers, each layer in document order."""
    operands: dict[str, list[str]] = {node_id: [] for node_id in piece}
    for node_id in piece:
        for edge in edges[node_id]:
            operands[edge.target].append(node_id)
    layer: dict[str, int] = {}
    ordered = sorted(piece, key=index.__getitem__)
    pending = [n for n in ordered if not operands[n]]
    waiting = {n: len(set(operands[n])) for n in ordered}
    while pending:  # longest path from the sources, in topological order
        node_id = pending.pop()
        layer[node_id] = max((layer[u] + 1 for u in operands[node_id]), default=0)
        for target in dict.fromkeys(e.target for e in edges[node_id]):
            waiting[target] -= 1
            if not waiting[target]:
                pending.append(target)
    for node_id in ordered:  # sources as late as they can go
        consumers = [layer[e.target] for e in edges[node_id]]
        if not operands[node_id] and consumers:
            layer[node_id] = min(consumers) - 1
    layers: list[list[str]] = [[] for _ in range(max(layer.values()) + 1)]
    for node_id in ordered:
        layers[layer[node_id]].append(node_id)
    return layers


def _order(layers: list[list[str]], port_counts: Mapping[str, int], edges, index: dict[str, int],
           sweeps: int) -> list[list]:
    """Order each layer by barycenter sweeps; the ordering with the fewest crossings wins.

    Wires that skip layers get a `_Placeholder` in each layer they pass, one per source node (wires
    leaving one node start together). The placeholder takes a slot there and is sorted by where its
    straight wires pass, so the gap it leaves keeps them clear of the nodes around them.
    """
    layer_of = {node_id: k for k, layer in enumerate(layers) for node_id in layer}
    piece_edges = [e for node_id in sorted(layer_of, key=index.__getitem__) for e in edges[node_id]]
    operands: dict[str, list[tuple[str, float]]] = defaultdict(list)  # (neighbour, shift) pairs
    consumers: dict[str, list[tuple[str, float]]] = defaultdict(list)
    passing: dict[tuple[str, int], list[tuple[str, float]]] = defaultdict(list)  # (source, layer) -> (target, fraction)
    for edge in piece_edges:
        operands[edge.target].append((edge.source, 0.0))
        consumers[edge.source].append((edge.target, _port_shift(port_counts, edge)))
        start, end = layer_of[edge.source], layer_of[edge.target]
        for k in range(start + 1, end):
            passing[edge.source, k].append((edge.target, (k - start) / (end - start)))
    wires = {_Placeholder(*key): passes for key, passes in passing.items()}

    def document_order(item) -> tuple:  # the starting order: nodes as added, a placeholder after its source
        return (index[item.source], 1) if isinstance(item, _Placeholder) else (index[item], 0)

    current = [list(layer) for layer in layers]
    for placeholder in wires:
        current[placeholder.layer].append(placeholder)
    if wires:
        current = [sorted(layer, key=document_order) for layer in current]
    if sweeps <= 0 or len(current) < 2:
        return current
    # Crossings are counted in slot units: x = layer, y = 2 * height (an integer, as heights step by 1/2),
    # which numpy compares exactly and fast. Straight lines cross or not whatever the spacing.
    source_layers = np.array([layer_of[e.source] for e in piece_edges], dtype=np.int32)
    target_layers = np.array([layer_of[e.target] for e in piece_edges], dtype=np.int32)
    port_shifts = np.array([_port_shift(port_counts, e) for e in piece_edges])

    def crossings(layers) -> int:
        y = _heights(layers)
        starts = np.column_stack([source_layers, [round(2 * y[e.source]) for e in piece_edges]])
        ends = np.column_stack([target_layers, [round(2 * y[e.target]) for e in piece_edges]])
        return _crossings(starts.astype(np.int32), ends.astype(np.int32))

    def port_crossings(layers) -> int:
        """Crossings with each wire ending at its input port instead of the node's centre."""
        y = _heights(layers)
        starts = np.column_stack([source_layers, [y[e.source] for e in piece_edges]])
        ends = np.column_stack([target_layers, [y[e.target] for e in piece_edges] + port_shifts])
        return _crossings(starts, ends)

    def sort_layer(k: int, y: dict, first: dict, second: dict) -> None:
        def key(item) -> float:
            if isinstance(item, _Placeholder):  # where its wires pass
                passes = wires[item]
                return y[item.source] + sum(f * (y[target] - y[item.source]) for target, f in passes) / len(passes)
            neighbours = first[item] or second[item]  # a leaf has no operands: it follows its consumers
            if not neighbours:
                return y[item]
            return sum(y[n] + shift for n, shift in neighbours) / len(neighbours)
        current[k] = sorted(current[k], key=lambda item: (key(item), y[item]))
        y.update(_heights([current[k]]))

    best, fewest, best_at_ports = [list(layer) for layer in current], crossings(current), None
    for _ in range(sweeps):
        if fewest == 0 and best_at_ports is not None and best_at_ports == 0:
            break
        previous = [list(layer) for layer in current]
        y = _heights(current)
        for k in range(1, len(current)):  # rightwards: by operands
            sort_layer(k, y, operands, consumers)
        for k in range(len(current) - 2, -1, -1):  # leftwards: by consumers
            sort_layer(k, y, consumers, operands)
        if current == previous:
            break
        count = crossings(current)
        if count == fewest:  # a tie: the wires into the ports decide (counted only when needed)
            if best_at_ports is None:
                best_at_ports = port_crossings(best)
            at_ports = port_crossings(current)
            if at_ports < best_at_ports:
                best, best_at_ports = [list(layer) for layer in current], at_ports
        elif count < fewest:
            best, fewest, best_at_ports = [list(layer) for layer in current], count, None
    return best


def _port_shift(port_counts: Mapping[str, int], edge) -> float:
    """Where ``edge``'s input port sits on its node, in slots from the centre (port 0 on top)."""
    return _PORT_SHIFT * ((edge.port + 0.5) / port_counts[edge.target] - 0.5)


def _heights(layers: list[list]) -> dict:
    """Each item's height in slots, each layer centred on 0."""
    return {item: rank - (len(layer) - 1) / 2 for layer in layers for rank, item in enumerate(layer)}


class _Placeholder(NamedTuple):
    """A slot in layer ``layer`` for the wires from ``source`` that pass through it."""

    source: str
    layer: int
