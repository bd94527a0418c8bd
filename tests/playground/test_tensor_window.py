"""A tensor graph through the whole editor window (issue 19): selecting every node, the gradient check,
copy and paste, exporting code and an image, presentation mode and the dark theme draw it all."""

from __future__ import annotations

import numpy as np
import pytest

ISSUE = "X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))"


@pytest.fixture
def window(qtbot, tmp_path):
    from tests.playground.app_window import open_window

    window = open_window(qtbot, tmp_path, 1280, 720)
    yield window
    window.training.shutdown()


def test_a_gradient_too_small_for_finite_differences_to_see_is_said_unchecked(window):
    editor, said = window.editor, []
    editor.status_message.connect(said.append)
    assert editor.build_from_expression("P = [[1], [1.5]]; L = sum(exp(exp(exp(P))))")
    editor.refresh()
    editor.run_gradient_check()
    table = editor.gradcheck_table
    marks = {table.item(row, 0).text(): table.item(row, 4) for row in range(table.rowCount())}
    assert marks["P[0, 0]"].text() == "?" and "finite differences cannot see" in marks["P[0, 0]"].toolTip()
    assert marks["P[1, 0]"].text() == "✓"
    assert said[-1].startswith("Gradient check: 1 of 2 leaves agree") and "1 cannot be checked that way" in said[-1]


def test_every_node_of_a_tensor_graph_can_be_selected_checked_copied_and_exported(window, tmp_path):
    editor = window.editor
    assert editor.build_from_expression(ISSUE)
    editor.refresh()
    document = window.document
    for node in document.nodes:  # the properties panel shows each, scalar or array
        editor.scene.select_nodes([node.id])
        assert editor.properties.heading.text().startswith(f"<b>{document.name(node.id)}</b>")
    w_id = next(n.id for n in document.nodes if document.name(n.id) == "W")
    editor.scene.select_nodes([w_id])
    assert editor.properties.tensor_part.table.rowCount() == 2
    assert editor.properties.computed_grad.text().startswith("[[0.2497")

    editor.run_gradient_check()
    table = editor.gradcheck_table
    assert table.rowCount() >= 3
    assert all(table.item(row, 4).text() == "✓" for row in range(table.rowCount()))

    before = len(document.nodes)
    editor.scene.select_nodes([w_id])
    assert editor.copy_selection()
    editor.paste()
    assert len(document.nodes) == before + 1
    pasted = document.nodes[-1]
    assert np.array_equal(pasted.array, document.node(w_id).array)

    path = tmp_path / "graph.py"
    window.exports.export_code(path)
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)  # the script runs and computes the same loss
    image = tmp_path / "graph.png"
    window.exports.export_image(image)
    assert image.stat().st_size > 1000


def test_presentation_mode_and_the_dark_theme_draw_array_cards_larger_and_darker(window, qtbot):
    from PySide6.QtCore import QPointF

    editor = window.editor
    assert editor.build_from_expression("A = randn(8, 8, seed=1); L = sum(A * A)")
    editor.refresh()
    document = window.document
    a_id = next(n.id for n in document.nodes if document.name(n.id) == "A")
    card = editor.scene.node_item(a_id)
    view = editor.view

    def on_screen_width() -> float:
        left = view.mapFromScene(card.mapToScene(QPointF(0, 0)))
        right = view.mapFromScene(card.mapToScene(QPointF(card.width, 0)))
        return right.x() - left.x()

    view.set_zoom(0.5)  # the person's zoom: presentation mode scales it
    normal = on_screen_width()
    editor.set_text_scale(1.5)
    assert on_screen_width() == pytest.approx(1.5 * normal, abs=2)  # the card, its heat maps in it, 1.5 times larger
    editor.scene.set_theme(True)
    image = view.grab()  # paints every card, heat maps included, in the dark theme
    assert not image.isNull()


def test_f_on_a_tensor_graph_keeps_its_numbers_11_px_and_shows_its_output_saying_how_to_see_the_rest(window, qtbot):
    """Issue 29, item 2: F fitted README's tensor example whole at 1280x720 at 0.85, its numbers 8.5 px high."""
    from PySide6.QtGui import QAction

    from playground.canvas.array_drawing import NUMBER_FONT_SIZE
    from playground.canvas.view_hint import AFTER_FIT
    from playground.editor.panel import TOO_BIG_AFTER_FIT

    editor = window.editor
    window.learning.dock.setVisible(True)
    assert editor.build_from_expression(ISSUE)
    window.findChild(QAction, "actionFit").trigger()  # F
    view = editor.view
    qtbot.waitUntil(lambda: view.is_kept_fitted)
    assert NUMBER_FONT_SIZE * view.zoom() >= 11.0
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    cards = editor.scene.node_items()
    output = next(card for card in cards if card.is_output)
    assert shown.contains(output.sceneBoundingRect())  # the result, wholly in view
    assert not all(shown.contains(card.sceneBoundingRect()) for card in cards)  # too big for the view at 11 px
    assert view.too_big_hint.isVisible() and view.too_big_hint.text() == AFTER_FIT  # not "F shows it all"
    assert window.statusBar().currentMessage() == TOO_BIG_AFTER_FIT
    window.resize(3000, 1400)  # room enough: F's fit is kept on resize, now whole
    qtbot.waitUntil(lambda: not view.too_big_hint.isVisible(), timeout=3000)
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(shown.contains(card.sceneBoundingRect()) for card in cards)
    assert NUMBER_FONT_SIZE * view.zoom() >= 11.0
