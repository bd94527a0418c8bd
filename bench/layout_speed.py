"""Speed of the editor's automatic layout (`layered_layout`) on big graphs, chain- and MLP-shaped.

What `playground.show(loss)` lays out before its window opens. Target: 2,000 nodes well under 0.5 s,
time growing in proportion to the graph (doubling the nodes about doubles the time; a quadratic
layout would take four times as long). Printed next to it, as a floor measured in the same run:
networkx's `multipartite_layout` placing the very same layers (no crossing reduction at all).
Printed, not asserted: timings belong here, not in the test suite.

Run: .venv/bin/python bench/layout_speed.py [repeats]
"""

from __future__ import annotations

import sys
import time

import networkx as nx

import engine
from engine import Value
from engine.nn import MLP
from playground.graph import from_engine
from playground.graph.layout import layered_layout

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
SIZES = (500, 1_000, 2_000, 5_000)


def chain(nodes: int) -> Value:
    """A long chain that keeps reusing ten inputs: wires from each input skip many layers."""
    xs = [Value(0.01 * i, label=f"x{i}") for i in range(10)]
    acc, count, i = xs[0], 10, 0
    while count < nodes - 1:
        acc = (acc * xs[i % 10]).tanh() if i % 2 else acc + xs[(i + 3) % 10]
        count += 2 if i % 2 else 1
        i += 1
    return acc


def mlp_loss(nodes: int) -> Value:
    """micrograd's MLP(3, [8, 8, 1]) squared-error loss over as many samples as make about ``nodes`` nodes."""
    engine.manual_seed(0)
    model = MLP(3, [8, 8, 1])
    samples = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    per_sample = len(unlaid([(model(samples[0]) - 1.0) ** 2]).nodes) - len(model.parameters())
    count = max(1, round((nodes - len(model.parameters())) / per_sample))
    xs = [samples[i % 4] for i in range(count)]
    ys = [(1.0, -1.0, -1.0, 1.0)[i % 4] for i in range(count)]
    return sum(((model(x) - y) ** 2 for x, y in zip(xs, ys)), Value(0.0))


def unlaid(roots):
    """The editor document of ``roots`` without the layout (timed apart)."""
    layout = from_engine.layered_layout
    from_engine.layered_layout = lambda document: {}
    try:
        return from_engine.document_from_values(roots)
    finally:
        from_engine.layered_layout = layout


def best_of(function) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def networkx_floor(document) -> float:
    """networkx placing the same layers (longest path), without any crossing reduction."""
    graph = document.to_networkx()
    for layer, nodes in enumerate(nx.topological_generations(graph)):
        for node in nodes:
            graph.nodes[node]["layer"] = layer
    return best_of(lambda: nx.multipartite_layout(graph, subset_key="layer"))


def main() -> None:
    print(f"layered_layout, best of {REPEATS} (seconds); x growth: time over the previous size's time")
    print(f"{'graph':<6} {'nodes':>6} {'ours s':>8} {'growth':>7} {'per 1k nodes':>13} {'networkx floor s':>17}")
    for shape, build in (("chain", chain), ("MLP", mlp_loss)):
        previous = None
        for size in SIZES:
            document = unlaid([build(size)])
            ours = best_of(lambda document=document: layered_layout(document))
            growth = f"x{ours / previous:.2f}" if previous else ""
            print(f"{shape:<6} {len(document.nodes):>6} {ours:>8.3f} {growth:>7} "
                  f"{1000 * ours / len(document.nodes):>13.3f} {networkx_floor(document):>17.3f}")
            previous = ours
    print("(measured on a shared machine: compare the growth and per-1k columns, re-measure quietly for the README)")


if __name__ == "__main__":
    main()
