"""The automatic layout: layers left to right, leaves next to their consumers, few crossings. No Qt."""

import random
from collections import defaultdict

import pytest

from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.expression import parse_expression
from playground.graph.layout import X_SPACING as X
from playground.graph.layout import Y_SPACING as Y
from playground.graph.layout import count_crossings, layered_layout


def random_document(size: int, seed: int, leaf_share: float = 0.3, reach: int | None = None) -> GraphDocument:
    """A random graph as a person might build one: leaves, and operations wired to earlier nodes.

    ``reach`` limits how far back an operand may be (None: anywhere), which makes wires shorter.
    """
    rng = random.Random(seed)
    document = GraphDocument()
    for i in range(size):
        if i < 2 or rng.random() < leaf_share:
            document.add_node(Node(document.new_id(), rng.choice(["input", "parameter", "constant"])))
            continue
        earlier = [node.id for node in document.nodes]
        if reach:
            earlier = earlier[-reach:]
        kind = rng.choice(["add", "mul", "exp", "tanh", "sum", "pow"])
        node = document.add_node(Node(document.new_id(), kind, inputs=rng.randint(1, 4)))
        for port in range(node.port_count):
            document.add_edge(Edge(rng.choice(earlier), node.id, port))
    return document


def chain(labels_and_kinds, edges) -> GraphDocument:
    document = GraphDocument()
    for node_id, kind in labels_and_kinds:
        document.add_node(Node(node_id, kind, label=node_id))
    for source, target, port in edges:
        document.add_edge(Edge(source, target, port))
    return document


EXPRESSIONS = [
    "tanh(x1*w1 + x2*w2 + b)",
    "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)",
    "a=2; L=exp(exp(exp(a)))*b",
    "(a+b)*(b+c)*(c+a)",
    "x*w + x",
    "e = x*w; sum(e, exp(e), tanh(exp(e)), x)",
    "tanh(x1*w1 + x2*w2 + b)*x1 + relu(x2*w3 + b2)*w1",
]
DOCUMENTS = [*(parse_expression(text) for text in EXPRESSIONS),
             *(random_document(60, seed) for seed in range(4)),
             *(random_document(80, seed, 0.4, reach=6) for seed in range(4))]


def check_no_overlap(positions, x_spacing=X, y_spacing=Y):
    columns = defaultdict(list)
    for x, y in positions.values():
        columns[x].append(y)
    for ys in columns.values():
        ys.sort()
        assert all(b - a >= y_spacing - 1e-9 for a, b in zip(ys, ys[1:]))
    xs = sorted(columns)
    assert all(b - a >= x_spacing - 1e-9 for a, b in zip(xs, xs[1:]))


def test_a_leaf_sits_in_the_layer_just_before_its_first_consumer():
    document = parse_expression("a=2; L=exp(exp(exp(a)))*b")
    positions = layered_layout(document)
    x = {node.label or node.id: positions[node.id][0] for node in document.nodes}
    assert x["a"] == 0.0
    assert x["L"] == 4 * X  # a, exp, exp, exp, mul
    assert x["b"] == 3 * X  # next to the mul, not beside `a`


@pytest.mark.parametrize("document", DOCUMENTS)
def test_layers_follow_the_longest_path_and_leaves_come_late(document):
    positions = layered_layout(document)
    operands, consumers = defaultdict(list), defaultdict(list)
    for edge in document.edges:
        operands[edge.target].append(positions[edge.source][0])
        consumers[edge.source].append(positions[edge.target][0])
    for node in document.nodes:
        x = positions[node.id][0]
        if operands[node.id]:
            assert x == max(operands[node.id]) + X
        elif consumers[node.id]:
            assert x == min(consumers[node.id]) - X


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_wire_runs_left_to_right_and_nodes_do_not_overlap(document):
    positions = layered_layout(document)
    assert set(positions) == {node.id for node in document.nodes}
    for edge in document.edges:
        assert positions[edge.source][0] < positions[edge.target][0]
    check_no_overlap(positions)


def test_spacing_is_respected():
    document = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    positions = layered_layout(document, x_spacing=250.0, y_spacing=70.0)
    assert sorted({x for x, _ in positions.values()}) == [0.0, 250.0, 500.0, 750.0]
    check_no_overlap(positions, 250.0, 70.0)


def test_a_tree_is_drawn_without_crossings_and_each_layer_centred():
    document = parse_expression("tanh(x1*w1 + x2*w2 + b)")
    positions = layered_layout(document)
    assert count_crossings(document, positions) == 0
    columns = defaultdict(list)
    for x, y in positions.values():
        columns[x].append(y)
    assert all(sum(ys) == 0.0 for ys in columns.values())
    y = {node.label: positions[node.id][1] for node in document.nodes if node.label}
    assert y["x1"] < y["w1"] < y["x2"] < y["w2"]  # operands in port order, top to bottom


def test_operands_are_stacked_in_port_order_whatever_order_they_were_added_in():
    document = chain([("w", "parameter"), ("x", "input"), ("m", "mul")], [("x", "m", 0), ("w", "m", 1)])
    positions = layered_layout(document)
    assert positions["x"][1] < positions["w"][1]
    assert layered_layout(document, sweeps=0)["w"][1] < layered_layout(document, sweeps=0)["x"][1]


def test_a_wire_that_skips_layers_keeps_clear_of_the_nodes_it_passes():
    # `x` feeds the first mul and also the last add, three layers further: its wire passes the two exps.
    document = parse_expression("e = x*w; L = exp(exp(e)) + x")
    positions = layered_layout(document)
    x_id = next(node.id for node in document.nodes if node.label == "x")
    (x0, y0), (x1, y1) = positions[x_id], positions[document.output]
    for node in document.nodes:
        nx_, ny_ = positions[node.id]
        if x0 < nx_ < x1:
            wire_y = y0 + (y1 - y0) * (nx_ - x0) / (x1 - x0)
            assert abs(wire_y - ny_) >= Y / 4, node


def test_count_crossings_counts_proper_crossings_only():
    document = chain([("a", "input"), ("b", "input"), ("c", "exp"), ("d", "exp")], [("a", "d", 0), ("b", "c", 0)])
    crossed = {"a": (0.0, 0.0), "b": (0.0, 100.0), "c": (100.0, 0.0), "d": (100.0, 100.0)}
    parallel = {"a": (0.0, 0.0), "b": (0.0, 100.0), "c": (100.0, 100.0), "d": (100.0, 0.0)}
    assert count_crossings(document, crossed) == 1
    assert count_crossings(document, parallel) == 0
    fan = chain([("a", "input"), ("m", "mul"), ("n", "mul")], [("a", "m", 0), ("a", "m", 1), ("a", "n", 0)])
    assert count_crossings(fan, {"a": (0, 0), "m": (100, -50), "n": (100, 50)}) == 0  # wires meeting at a node
    assert count_crossings(GraphDocument(), {}) == 0


def test_sweeps_remove_crossings_from_a_badly_ordered_ladder():
    # inputs x0..x5 added top to bottom, their exps added bottom to top: every pair of wires crosses.
    size = 6
    document = chain([*((f"x{i}", "input") for i in range(size)), *((f"e{i}", "exp") for i in reversed(range(size)))],
                     [(f"x{i}", f"e{i}", 0) for i in range(size)])
    document.add_node(Node("s", "sum", inputs=size))
    for i in range(size):
        document.add_edge(Edge(f"e{i}", "s", i))
    assert count_crossings(document, layered_layout(document, sweeps=0)) == size * (size - 1) // 2
    assert count_crossings(document, layered_layout(document)) == 0


def test_sweeps_fix_crossings_with_a_shared_consumer():
    document = chain([("x", "input"), ("y", "input"), ("ey", "exp"), ("ex", "exp"), ("s", "add")],
                     [("y", "ey", 0), ("x", "ex", 0), ("ey", "s", 0), ("ex", "s", 1)])
    before = count_crossings(document, layered_layout(document, sweeps=0))
    after = count_crossings(document, layered_layout(document))
    assert (before, after) == (1, 0)


@pytest.mark.parametrize("seed", range(8))
def test_sweeps_never_add_crossings(seed):
    document = random_document(50, seed, reach=None if seed % 2 else 8)
    unswept = count_crossings(document, layered_layout(document, sweeps=0))
    for sweeps in (1, 2, 4, 8):
        assert count_crossings(document, layered_layout(document, sweeps=sweeps)) <= unswept


def test_sweeps_help_on_random_graphs_overall():
    documents = [random_document(50, seed, reach=8) for seed in range(100, 106)]
    unswept = sum(count_crossings(d, layered_layout(d, sweeps=0)) for d in documents)
    swept = sum(count_crossings(d, layered_layout(d)) for d in documents)
    assert swept < unswept


def test_disconnected_pieces_are_stacked_in_document_order_and_centred():
    document = chain([("x", "input"), ("w", "parameter"), ("m", "mul"), ("lonely", "constant"),
                      ("z", "input"), ("e", "exp"), ("t", "tanh")],
                     [("x", "m", 0), ("w", "m", 1), ("z", "e", 0), ("e", "t", 0)])
    positions = layered_layout(document)
    pieces = [["x", "w", "m"], ["lonely"], ["z", "e", "t"]]
    bands = [(min(positions[n][1] for n in piece), max(positions[n][1] for n in piece)) for piece in pieces]
    for (_, upper_bottom), (lower_top, _) in zip(bands, bands[1:]):
        assert lower_top - upper_bottom >= Y
    assert bands[0][0] + bands[-1][1] == 0.0  # the stack is centred on y = 0
    assert [positions[n][0] for n in ("x", "lonely", "z", "t")] == [0.0, 0.0, 0.0, 2 * X]
    check_no_overlap(positions)


def test_empty_and_single_node_documents():
    assert layered_layout(GraphDocument()) == {}
    document = chain([("a", "input")], [])
    assert layered_layout(document) == {"a": (0.0, 0.0)}


@pytest.mark.parametrize("document", DOCUMENTS[:3] + DOCUMENTS[-2:])
def test_layout_is_deterministic(document):
    first = layered_layout(document)
    assert layered_layout(document) == first
    assert layered_layout(document.copy()) == first
    assert list(layered_layout(GraphDocument.from_dict(document.to_dict())).items()) == list(first.items())


def test_a_500_node_graph_is_laid_out():
    document = random_document(500, seed=7)
    positions = layered_layout(document)
    assert len(positions) == 500
    assert all(positions[e.source][0] < positions[e.target][0] for e in document.edges)
    check_no_overlap(positions)
    assert count_crossings(document, positions) <= count_crossings(document, layered_layout(document, sweeps=0))


def test_counting_crossings_layer_by_layer_gives_the_pairwise_count():
    """The count the sweeps compare (near-linear, by neighbouring layers) is the straight wires' pairwise one,
    ties included: wires meeting at a node, touching one another, running along each other, crossing on a layer."""
    import numpy as np

    from playground.graph.layout import _crossings, _layered_crossings

    rng = random.Random(5)
    for _ in range(2000):
        layers = rng.randint(2, 6)
        wires = []
        for _ in range(rng.randint(1, 25)):
            start = rng.randint(0, layers - 2)
            wires.append((start, rng.randint(-3, 3), rng.randint(start + 1, layers - 1), rng.randint(-3, 3)))
        x1, y1, x2, y2 = (list(column) for column in zip(*wires))
        pairwise = _crossings(np.array([x1, y1]).T, np.array([x2, y2]).T)
        assert _layered_crossings(x1, y1, x2, y2) == pairwise, wires


def test_wires_followed_through_their_slots_cross_once_per_pair_of_wires():
    from playground.graph.layout import _slot_crossings

    assert _slot_crossings({0: [(0, 4, 3), (4, 0, 2)]}) == 6  # a leg of 3 wires across one of 2
    assert _slot_crossings({0: [(0, 0, 1), (0, 4, 1), (4, 4, 1)]}) == 0  # meeting at a node, side by side
    assert _slot_crossings({0: [(0, 4, 1), (4, 0, 1)], 1: [(4, 0, 1), (0, 4, 1), (5, 5, 5)]}) == 2  # gap by gap
    assert _slot_crossings({0: [(0, 4, 1), (4, 0, 1), (2, 2, 5)]}) == 11  # three legs through one point


def test_a_big_graph_whose_wires_skip_many_layers_is_laid_out_along_its_slots(monkeypatch):
    """Above a size, crossings are counted along the slots (linear time): the layout stays sound and the
    sweeps still remove most crossings."""
    from playground.graph import layout

    monkeypatch.setattr(layout, "_STRAIGHT_COUNT_LIMIT", 0)
    unswept = swept = 0
    for document in DOCUMENTS:
        positions = layered_layout(document)
        check_no_overlap(positions)
        assert all(positions[e.source][0] < positions[e.target][0] for e in document.edges)
        unswept += count_crossings(document, layered_layout(document, sweeps=0))
        swept += count_crossings(document, positions)
    assert swept < 0.7 * unswept


def test_a_long_chain_reusing_its_inputs_is_laid_out_with_every_wire_rightwards():
    """The shape that made the layout quadratic (the user test's big2.py): ten inputs reused along a chain."""
    document = GraphDocument()
    inputs = [document.add_node(Node(f"x{i}", "input", label=f"x{i}")).id for i in range(10)]
    last = inputs[0]
    for i in range(1500):
        node = document.add_node(Node(f"n{i}", "mul" if i % 2 else "add"))
        document.add_edge(Edge(last, node.id, 0))
        document.add_edge(Edge(inputs[(i * 3) % 10], node.id, 1))
        last = node.id
    positions = layered_layout(document)
    assert len(positions) == 1510
    assert all(positions[e.source][0] < positions[e.target][0] for e in document.edges)
    check_no_overlap(positions)
