"""The notebook picture of a graph: SVG drawn by our own layout, no graphviz."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from engine import Tensor, Value
from engine.draw import layered_positions
from engine.graph import reading_order

SVG = "{http://www.w3.org/2000/svg}"


def neuron():
    x1, x2 = Value(2.0, label="x1"), Value(0.0, label="x2")
    w1, w2, b = Value(-3.0, label="w1"), Value(1.0, label="w2"), Value(6.8813735870195432, label="b")
    n = x1 * w1 + x2 * w2 + b
    n.label = "n"
    o = n.tanh()
    o.label = "o"
    o.backward()
    return o


def cards(svg: str) -> list[list[str]]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return [[text.text for text in group.iter(f"{SVG}text")] for group in root.iter(f"{SVG}g")
            if group.find(f"{SVG}rect") is not None]


def test_a_value_draws_one_card_per_node_with_its_data_and_grad():
    o = neuron()
    drawn = cards(o._repr_svg_())
    assert len(drawn) == 10
    assert ["o (tanh)", "data 0.7071", "grad 1"] in drawn
    assert ["x1", "data 2", "grad -1.5"] in drawn
    assert ["b", "data 6.881", "grad 0.5"] in drawn


def test_results_stand_right_of_their_operands_and_leaves_beside_their_user():
    o = neuron()
    order = reading_order([o])
    positions = layered_positions(order)
    for node in order:
        for parent in node._prev:
            assert positions[id(parent)][0] < positions[id(node)][0]
    b = next(node for node in order if node.label == "b")
    n = next(node for node in order if node.label == "n")
    assert positions[id(n)][0] - positions[id(b)][0] == positions[id(order[2])][0] - positions[id(order[0])][0]


def test_a_tensor_draws_shapes_and_norms():
    x = Tensor(np.ones((4, 2)), label="X")
    w = Tensor(np.full((2, 3), 0.5), requires_grad=True, label="W")
    loss = (x @ w).tanh().sum()
    loss.backward()
    drawn = cards(loss._repr_svg_())
    assert any(card[0] == "W" and card[1].startswith("2×3  ‖data‖ 1.225") and card[2].startswith("‖grad‖")
               for card in drawn)
    assert any(card[1].startswith("scalar  data") for card in drawn)


def test_a_thousand_node_graph_is_drawn_whole():
    x = Value(0.5, label="x")
    y = x
    for i in range(999):
        y = y * 1.0001 if i % 2 else y + 0.1  # each op adds its constant leaf too
    drawn = cards(y._repr_svg_())
    assert len(drawn) == len(reading_order([y])) >= 1000


def test_labels_are_escaped():
    a = Value(1.0, label="<a & b>")
    assert ["<a & b>", "data 1", "grad 0"] in cards((a * 2)._repr_svg_())


def test_an_unlabelled_tensor_leaf_says_whether_it_is_learned():
    x = Tensor(np.ones((4, 2)))
    w = Tensor(np.full((2, 3), 0.5), requires_grad=True)
    titles = {card[0] for card in cards((x @ w).sum()._repr_svg_())}
    assert {"input", "parameter"} <= titles and "leaf" not in titles
    assert "leaf" in {card[0] for card in cards((Value(2.0) * 3)._repr_svg_())}  # a Value has no such flag
