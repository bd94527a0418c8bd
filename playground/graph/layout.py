"""Automatic left-to-right placement of a graph document's nodes (a small Sugiyama-style layout).

Qt-free. Steps, each per connected piece of the graph:

1. layers: a node sits one layer right of its furthest operand (longest path from the inputs), but a
   node with no operands (an input, parameter or constant) moves right to the layer just before its
   earliest consumer, so ``b`` in ``exp(exp(exp(a))) * b`` sits next to the ``*`` and not next to ``a``;
2. order within each layer: start in document order, then sweep right and left, sorting each layer by
   the mean height of its neighbours (the barycenter heuristic; a wire into input port 0 counts a little
   higher than one into port 1, so ``x * w`` puts ``x`` above ``w``). After each sweep the wire crossings
   are counted, each wire ending at its input port as drawn, and the best ordering seen is kept, so
   sweeping never makes a layout worse; then, in a small graph, neighbours out of document order swap
   back where that adds no crossing (a above b, as the expression names them);
   A wire that skips layers holds a slot in each layer it passes, sorted by where the straight wire
   runs, so it does not run through the nodes there;
3. coordinates: layer k at x = k * x_spacing, each layer's slots y_spacing apart and centred on y = 0.

Pieces of a disconnected graph are stacked top to bottom in document order.

`layered_layout` lays out a graph document; `layered_positions` any graph given as node ids,
edges and port counts (the animator's tensor graphs).
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import networkx as nx
import numpy as np

from .document import Edge, GraphDocument
from .tensor_layout import spread

Position = tuple[float, float]
# Columns far enough apart that a wire between neighbours has room for its gradient label
# ("grad -0.3412", about 75 units) between the cards (130 wide), clear of both; a longer one slides
# along its wire (wires.LABEL_SPOTS).
X_SPACING = 230.0
Y_SPACING = 110.0
_PORT_SHIFT = 0.5  # the height of a node's column of input ports, in slots (a slot is y_spacing)
# Above this many (wire, layer it spans) pairs, crossings are counted along the slots, not the straight wires.
_STRAIGHT_COUNT_LIMIT = 40_000
_TIDY_LIMIT = 150  # slots in a piece up to which the ordering is tidied back towards the document's (`_tidy`)


def layered_layout(document: GraphDocument, x_spacing: float = X_SPACING, y_spacing: float = Y_SPACING,
                   sweeps: int = 4) -> dict[str, Position]:
    """A position for every node of ``document``: wires run left to right, with few crossings."""
    port_counts = {node.id: node.port_count for node in document.nodes}
    positions = layered_positions(port_counts, document.edges, x_spacing, y_spacing, sweeps)
    if document.is_tensor_graph and positions:  # array cards are wider and taller than scalar ones
        positions = spread(positions, document.shapes(), y_spacing)
    return positions


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

    A sweep costs time in proportion to the wires and slots (no step looks at all wires of a layer
    for each slot in it), so a graph of thousands of nodes is laid out in a fraction of a second.
    """
    layer_of = {node_id: k for k, layer in enumerate(layers) for node_id in layer}
    piece_edges = [e for node_id in sorted(layer_of, key=index.__getitem__) for e in edges[node_id]]
    operands: dict[str, list[tuple[str, float]]] = defaultdict(list)  # (neighbour, shift) pairs
    consumers: dict[str, list[tuple[str, float]]] = defaultdict(list)
    last_layer: dict[str, int] = {}  # of the consumers of a source whose wires skip layers
    ending: dict[tuple[str, int], list[str]] = defaultdict(list)  # (source, k): targets of its wires ending at k + 1
    for edge in piece_edges:
        operands[edge.target].append((edge.source, 0.0))
        consumers[edge.source].append((edge.target, _port_shift(port_counts, edge)))
        start, end = layer_of[edge.source], layer_of[edge.target]
        if end - start > 1:
            ending[edge.source, end - 1].append(edge.target)
            last_layer[edge.source] = max(end, last_layer.get(edge.source, end))
    placeholders: list[list[_Placeholder]] = [[] for _ in layers]  # a source's slots: every layer its wires pass
    for source in sorted(last_layer, key=index.__getitem__):
        for k in range(layer_of[source] + 1, last_layer[source]):
            placeholders[k].append(_Placeholder(source, k))

    current = [list(layer) for layer in layers]
    if last_layer:  # the starting order: nodes as added, a placeholder after its source
        def document_order(item) -> tuple:
            return (index[item.source], 1) if isinstance(item, _Placeholder) else (index[item], 0)
        current = [sorted(layer + extra, key=document_order) for layer, extra in zip(current, placeholders)]
    if sweeps <= 0 or len(current) < 2:
        return current
    source_layers = [layer_of[e.source] for e in piece_edges]
    target_layers = [layer_of[e.target] for e in piece_edges]
    port_shifts = [_port_shift(port_counts, e) for e in piece_edges]
    # Straight wires are compared where counting them costs little; in a big graph whose wires skip many
    # layers (thousands of wires times hundreds of layers) each wire is followed through its slots instead.
    straight = sum(end - start for start, end in zip(source_layers, target_layers)) <= _STRAIGHT_COUNT_LIMIT
    bundle_sizes = _bundle_sizes(placeholders, ending, last_layer)

    def port_crossings(layers) -> int:
        """Crossings of the wires as drawn: each ends at its input port, not at its node's centre."""
        y = _heights(layers)
        if not straight:
            return _slot_crossings(_legs(piece_edges, layer_of, bundle_sizes, y, port_shifts))
        return _layered_crossings(source_layers, [y[e.source] for e in piece_edges], target_layers,
                                  [y[e.target] + shift for e, shift in zip(piece_edges, port_shifts)])

    # Where a placeholder's wires pass layer k, on average: y_s + sum((k - start) / (end - start) * (y_t - y_s)) / n
    # over its n wires that pass k (start: its source's layer, end: the target's). Kept as running sums
    # (sum y_t / (end - start), sum 1 / (end - start), n) per source, layer by layer from the right: a wire
    # joins its source's sums at the last layer it passes, so every slot costs O(1).
    passing: dict[_Placeholder, tuple[float, float, int]] = {}

    def sum_passing(k: int, y: dict, running: dict) -> None:
        for placeholder in placeholders[k]:
            sums = running.setdefault(placeholder.source, [0.0, 0.0, 0])
            start = layer_of[placeholder.source]
            for target in ending.get((placeholder.source, k), ()):
                weight = 1 / (layer_of[target] - start)
                sums[0] += y[target] * weight
                sums[1] += weight
                sums[2] += 1
            passing[placeholder] = (sums[0], sums[1], sums[2])

    def sort_layer(k: int, y: dict, first: dict, second: dict) -> None:
        def key(item) -> float:
            if isinstance(item, _Placeholder):  # where its wires pass
                along, weights, count = passing[item]
                source_y = y[item.source]
                return (k - layer_of[item.source]) * (along - source_y * weights) / count + source_y
            neighbours = first[item] or second[item]  # a leaf has no operands: it follows its consumers
            if not neighbours:
                return y[item]
            return sum(y[n] + shift for n, shift in neighbours) / len(neighbours)
        # Rounded: a placeholder's key, summed in another order, must tie with a node's where the two are equal.
        current[k] = sorted(current[k], key=lambda item: (round(key(item), 9), y[item]))
        y.update(_heights([current[k]]))

    # The drawing's wires end at their input ports, so crossings are counted there: counted at the nodes'
    # centres, "b above a" into a * b looked better than "a above b" although its wires cross at the card.
    # A tie keeps the earlier ordering, the document's first (a above b, as the expression names them).
    best, fewest = [list(layer) for layer in current], port_crossings(current)
    for _ in range(sweeps):
        if fewest == 0:
            break
        previous = [list(layer) for layer in current]
        y = _heights(current)
        running: dict = {}
        for k in range(len(current) - 1, 0, -1):  # the layers right of k keep their order while k is sorted
            sum_passing(k, y, running)
        for k in range(1, len(current)):  # rightwards: by operands
            sort_layer(k, y, operands, consumers)
        running = {}
        for k in range(len(current) - 2, -1, -1):  # leftwards: by consumers
            sum_passing(k, y, running)  # the layers right of k are sorted already
            sort_layer(k, y, consumers, operands)
        if current == previous:
            break
        count = port_crossings(current)
        if count < fewest:
            best, fewest = [list(layer) for layer in current], count
    if sum(len(layer) for layer in best) <= _TIDY_LIMIT:
        best = _tidy(best, index, port_crossings)
    return best


def _tidy(layers: list[list], index: Mapping[str, int], count) -> list[list]:
    """Two neighbours in a layer out of document order swap back wherever that crosses no more wires: the
    sweeps sort by barycenters, which put b above a in ``(a*b + c) * (a + d)`` for no fewer crossings."""
    layers = [list(layer) for layer in layers]
    fewest = count(layers)
    swapped = True
    while swapped:  # each swap puts one pair back in order, so this ends
        swapped = False
        for layer in layers:
            for i in range(len(layer) - 1):
                upper, lower = layer[i], layer[i + 1]
                if isinstance(upper, _Placeholder) or isinstance(lower, _Placeholder) or index[upper] < index[lower]:
                    continue
                layer[i], layer[i + 1] = lower, upper
                crossing = count(layers)
                if crossing <= fewest:
                    fewest, swapped = crossing, True
                else:
                    layer[i], layer[i + 1] = upper, lower
    return layers


def _layered_crossings(start_layers: Sequence[int], start_ys: Sequence, end_layers: Sequence[int],
                       end_ys: Sequence) -> int:
    """Proper crossings among straight wires from ``(start_layers[i], start_ys[i])`` to the end, each running
    rightwards (start layer < end layer): what `_crossings` counts, in time near-linear in the wires times
    the layers they span, not quadratic in the wires.

    Two straight wires cross at most once: strictly between two neighbouring layers k and k + 1 (the
    pair is ordered one way just right of k, the other way just left of k + 1), or exactly on a layer
    both pass without ending there (equal heights, different slopes). Just right of a layer, wires are
    ordered by height, then slope; just left of one by height, then minus slope, so wires meeting at a
    node, or touching another one there, are never counted. Integer heights give exact ties.
    """
    gaps: dict[int, list[tuple]] = defaultdict(list)  # k -> (key just right of k, key just left of k + 1)
    on_layer: dict[tuple[int, object], Counter] = defaultdict(Counter)  # (k, height) -> slopes passing
    for x1, y1, x2, y2 in zip(start_layers, start_ys, end_layers, end_ys):
        span, rise = x2 - x1, y2 - y1
        slope = rise / span
        # The height at layer k, as one division (so equal heights of different wires are equal floats).
        left = y1
        for k in range(x1, x2):
            right = (y1 * span + rise * (k + 1 - x1)) / span if k + 1 < x2 else y2
            gaps[k].append(((left, slope), (right, -slope)))
            if k + 1 < x2:
                on_layer[k + 1, right][slope] += 1
            left = right
    count = 0
    for entries in gaps.values():
        if len(entries) < 2:
            continue
        entries.sort()
        seen: list = []  # keys just left of k + 1 of the wires below, sorted
        for _, right in entries:
            count += len(seen) - bisect_right(seen, right)
            insort(seen, right)
    for slopes in on_layer.values():
        total = sum(slopes.values())
        count += (total * (total - 1) - sum(n * (n - 1) for n in slopes.values())) // 2
    return count


def _bundle_sizes(placeholders: list[list], ending: Mapping, last_layer: Mapping) -> dict:
    """How many wires pass through each placeholder (those of its source that end further right)."""
    sizes: dict = {}
    for layer in reversed(placeholders):
        for placeholder in layer:
            source, k = placeholder
            further = sizes.get(_Placeholder(source, k + 1), 0) if k + 1 < last_layer[source] else 0
            sizes[placeholder] = further + len(ending.get((source, k), ()))
    return sizes


def _legs(edges: list, layer_of: Mapping, bundle_sizes: Mapping, y: Mapping, shifts: Sequence) -> dict:
    """The wires routed through their sources' slots, as legs between neighbouring layers:
    ``{k: [(height at k, height at k + 1, how many wires run along it)]}``."""
    legs: dict[int, list[tuple]] = defaultdict(list)
    for edge, shift in zip(edges, shifts):
        start, end = layer_of[edge.source], layer_of[edge.target]
        first = edge.source if end - start == 1 else _Placeholder(edge.source, end - 1)
        legs[end - 1].append((y[first], y[edge.target] + shift, 1))
    for placeholder, size in bundle_sizes.items():
        source, k = placeholder
        before = source if k - 1 == layer_of[source] else _Placeholder(source, k - 1)
        legs[k - 1].append((y[before], y[placeholder], size))
    return legs


def _slot_crossings(legs: Mapping[int, list[tuple]]) -> int:
    """Crossings of the wires routed through their slots: between each pair of neighbouring layers, the
    pairs of legs in one order on the left and the other on the right, counted once per pair of wires
    (a leg carries ``size`` wires); legs meeting at a node or a slot do not cross there."""
    count = 0
    for entries in legs.values():
        if len(entries) < 2:
            continue
        # Just right of the left layer: by height, then slope; just left of the right one: by height, then -slope.
        entries = sorted(entries, key=lambda leg: (leg[0], leg[1] - leg[0]))
        rights = sorted({(right, left - right) for left, right, _ in entries})
        rank = {key: i + 1 for i, key in enumerate(rights)}
        tree = [0] * (len(rights) + 1)  # a Fenwick tree of the wires seen so far, by their rank on the right
        seen = 0
        for left, right, size in entries:
            r = rank[right, left - right]
            at_most = 0  # the wires seen whose right end is not above this one's
            i = r
            while i:
                at_most += tree[i]
                i -= i & -i
            count += size * (seen - at_most)
            seen += size
            i = r
            while i <= len(rights):
                tree[i] += size
                i += i & -i
    return count


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
