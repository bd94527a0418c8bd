"""The editor's cards and wires in a tensor graph: shapes in headers, numbers or a heat map, the element
under the mouse, the shape on each wire; and the automatic layout's room for array cards."""

from __future__ import annotations

import numpy as np
import pytest

from playground.graph.document import GraphDocument
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.graph.tensor_layout import card_size, spread


def _scene(qtbot, text: str):
    from playground.editor.scene import GraphScene

    document = parse_expression(text)
    scene = GraphScene(document)
    scene.show_evaluation(evaluate(document))
    ids = {document.name(node.id): node.id for node in document.nodes}
    return document, scene, ids


def test_an_eight_by_eight_leaf_is_a_heat_map_that_reads_out_the_element_under_the_mouse(qtbot):
    document, scene, ids = _scene(qtbot, "A = randn(8, 8, seed=1); v = ones(8); L = sum(A @ v)")
    card = scene.node_item(ids["A"])
    assert card.title() == "A (8, 8)" and card.is_array_card and not card.grid.inline
    assert card.shown_numbers() is None  # a heat map writes no numbers
    value_corner, grad_corner = card.array_corners()
    cell = card.grid.cell_width
    a = document.node(ids["A"]).array
    which, index = card.element_at(value_corner + type(value_corner)(2.5 * cell, 5.5 * cell))
    assert (which, index) == ("value", (5, 2))
    assert f"value {float(a[5, 2])!r}" in card.element_text(which, index)
    which, index = card.element_at(grad_corner + type(grad_corner)(7.5 * cell, 0.5 * cell))
    assert (which, index) == ("grad", (0, 7))
    assert card.element_text(which, index).endswith("grad 1")  # d sum(A @ ones) / dA = ones
    assert card.element_at(value_corner - type(value_corner)(3, 3)) is None
    assert card.width > 2 * 8 * cell and card.height > 8 * cell  # both drawings fit on the card


def test_broadcast_wires_are_labelled_with_their_shape_and_say_how_the_gradient_was_summed(qtbot):
    document, scene, ids = _scene(qtbot, "X = [[1, 2], [3, 4], [5, 6]]; b = [0.5, -0.5]; L = sum(X + b)")
    b_card = scene.node_item(ids["b"])
    assert b_card.title() == "b (2,)"
    assert b_card.shown_numbers("value") == [["0.5", "-0.5"]] and b_card.shown_numbers("grad") == [["3", "3"]]
    wire = scene.wire_item(next(edge for edge in document.edges if edge.source == ids["b"]))
    assert wire.label_text() == "(2,)"
    assert "its gradient sums over that axis, (3, 2) → (2,)" in wire.toolTip()
    x_card = scene.node_item(ids["X"])
    assert x_card.shown_numbers("value") == [["1", "2"], ["3", "4"], ["5", "6"]]
    assert scene.node_item(ids["L"]).body_lines() == ["value 21", "grad 1"]


def test_a_scalar_graph_keeps_its_scalar_cards_and_gradient_labels(qtbot):
    document, scene, ids = _scene(qtbot, "a = 2; b = 3; L = a * b")
    card = scene.node_item(ids["a"])
    assert not card.is_array_card and card.title() == "a = 2" and card.width == 130
    wire = scene.wire_item(next(edge for edge in document.edges if edge.source == ids["a"]))
    assert wire.label_text() == "grad 3"


def test_a_leaf_turned_into_an_array_grows_its_card_and_its_wire_shows_the_new_shape(qtbot):
    from playground.graph import edits

    document, scene, ids = _scene(qtbot, "x = [1, 2]; L = sum(x * x)")
    card = scene.node_item(ids["x"])
    narrow = card.width
    assert scene.push(edits.set_value(document, ids["x"], np.arange(4.0)))
    scene.show_evaluation(evaluate(document))
    assert card.title() == "x (4,)" and card.width > narrow
    assert card.shown_numbers("grad") == [["0", "2", "4", "6"]]
    assert {scene.wire_item(edge).label_text() for edge in document.edges} == {"(4,)"}


@pytest.mark.parametrize("shape", [(2, 2), (8, 8), (3,)])
def test_the_layout_leaves_room_for_each_array_card(shape):
    width, height = card_size(shape)
    positions = spread({"a": (0.0, 0.0), "b": (0.0, 110.0), "c": (230.0, 55.0)}, {"a": shape, "b": shape}, 110.0)
    assert positions["c"][0] - positions["a"][0] >= width + 40
    assert positions["b"][1] - positions["a"][1] >= height + 20


def test_the_expression_layout_of_a_tensor_graph_keeps_array_cards_apart():
    document: GraphDocument = parse_expression("X = randn(8, 8, seed=0); W = randn(8, 8, seed=1); L = sum(X @ W)")
    x, w = document.node(document.nodes[0].id), document.node(document.nodes[1].id)
    assert abs(x.y - w.y) >= card_size((8, 8))[1]


def test_a_scalar_graph_turned_tensor_and_back_by_undo_draws_scalars_again(qtbot):
    from playground.graph import edits

    document, scene, ids = _scene(qtbot, "x = 2; L = x * x")
    card = scene.node_item(ids["x"])
    wire = scene.wire_item(document.edges[0])
    assert scene.push(edits.set_value(document, ids["x"], np.array([1.0, 2.0, 3.0])))
    scene.show_evaluation(evaluate(document))
    assert card.title() == "x (3,)" and wire.label_text() == "(3,)" and "shape (3,)" in card.toolTip()
    scene.undo_stack.undo()
    scene.show_evaluation(evaluate(document))
    assert not card.is_array_card and card.title() == "x = 2"
    assert wire.label_text() == "grad 2" and "shape" not in card.toolTip()


def test_a_heat_map_is_made_once_for_the_array_shown_and_again_for_a_new_array_or_theme(qtbot):
    from playground.canvas.array_drawing import HeatImages

    heat, weights = HeatImages(), np.arange(32.0).reshape(2, 16) - 16
    first = heat.image("value", weights, dark=False)
    assert heat.image("value", weights, dark=False) is first  # repainted: the same image
    assert heat.image("grad", weights, dark=False) is not first  # each drawing its own
    assert heat.image("value", weights.copy(), dark=False) is not first  # new numbers (a training frame's copy)
    dark = heat.image("value", weights, dark=True)
    assert dark is not first and dark.pixel(0, 0) != first.pixel(0, 0)
    heat.clear()  # the node was changed: its arrays may be new in place
    assert heat.image("value", weights, dark=True) is not dark
    assert first.size().width() == 16 and first.size().height() == 2  # a pixel an element


def test_finite_values_colour_alike_with_or_without_a_nan_beside_them():
    from playground.canvas.array_drawing import heat_colors

    values = np.array([[-2.0, -0.7, 0.0, 0.3, 2.0]])
    with_nan = np.concatenate([values, [[np.nan]]], axis=1)
    for dark in (False, True):
        assert np.array_equal(heat_colors(values, dark), heat_colors(with_nan, dark)[:, :5])
    white = heat_colors(np.zeros((2, 2)), False)
    assert np.array_equal(white, heat_colors(np.array([[np.nan]]), False).repeat(2, 0).repeat(2, 1))


def test_a_heat_map_card_shows_a_new_value_of_the_same_shape(qtbot):
    from dataclasses import replace

    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    document, scene, ids = _scene(qtbot, "A = randn(8, 8, seed=1); v = ones(8); L = sum(A @ v)")
    card = scene.node_item(ids["A"])

    def picture() -> QImage:
        image = QImage(int(card.width) + 20, int(card.height) + 20, QImage.Format.Format_RGB32)
        image.fill(0)
        painter = QPainter(image)
        card.paint(painter, QStyleOptionGraphicsItem())  # the chrome,
        card.paint_content(painter)  # then what it says (a child item of its own on the canvas)
        painter.end()
        return image

    before = picture()
    assert picture() == before  # repainted unchanged: the same picture
    shown = card.result
    card.set_result(replace(shown, value=-shown.value))  # re-evaluated: the same shape, every colour turned over
    assert picture() != before
    card.set_result(shown)
    assert picture() == before


def test_a_narrow_heat_map_leaves_room_for_the_word_over_it(qtbot):
    from PySide6.QtGui import QFontMetricsF

    from playground.canvas.style import pixel_font

    document, scene, ids = _scene(qtbot, "W = randn(16, 1, seed=1); v = ones(1); L = sum(W @ v)")
    card = scene.node_item(ids["W"])
    assert card.is_array_card and not card.grid.inline and card.grid.size[0] < 20  # one column: a thin drawing
    value_corner, grad_corner = card.array_corners()
    word = QFontMetricsF(pixel_font(9, italic=True)).horizontalAdvance("value")
    assert grad_corner.x() - value_corner.x() > word + 4  # "grad" starts clear of "value"
    assert card.width >= grad_corner.x() + word
    cell = type(grad_corner)(0.5 * card.grid.cell_width, 3.5 * card.grid.cell_height)
    which, index = card.element_at(grad_corner + cell)
    assert (which, index) == ("grad", (3, 0))
