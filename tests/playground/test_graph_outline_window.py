"""The editor's graph outline in the app's window, read as a screen reader reads it: from the QAccessible tree
(issue 32, item 1), and kept in step with the canvas (selection both ways, edits, a quiz's hidden numbers)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest

from playground.canvas import outline_view
from playground.editor.commands import EditCommand
from playground.graph import edits
from playground.graph.concealment import Concealment
from tests.playground.app_window import open_window
from tests.playground.canvas_driving import LEFT, NO_BUTTON, node_body_pos, send_mouse

STARTER_SENTENCES = [  # micrograd's neuron, as the window opens on it
    "x1, input, value 2, gradient -1.5",
    "w1, parameter, value -3, gradient 1",
    "x2, input, value 0, gradient 0.5",
    "w2, parameter, value 1, gradient 0",
    "x1w1 = x1 * w1, value -6, gradient 0.5",
    "wire from x1 into input a of x1w1, carries gradient -1.5",
    "wire from w1 into input b of x1w1, carries gradient 1",
    "x2w2 = x2 * w2, value 0, gradient 0.5",
    "wire from x2 into input a of x2w2, carries gradient 0.5",
    "wire from w2 into input b of x2w2, carries gradient 0",
    "x1w1x2w2 = x1w1 + x2w2, value -6, gradient 0.5",
    "wire from x1w1 into input a of x1w1x2w2, carries gradient 0.5",
    "wire from x2w2 into input b of x1w1x2w2, carries gradient 0.5",
    "b, parameter, value 6.881, gradient 0.5",
    "n = x1w1x2w2 + b, value 0.8814, gradient 0.5",
    "wire from x1w1x2w2 into input a of n, carries gradient 0.5",
    "wire from b into input b of n, carries gradient 0.5",
    "o = tanh(n), the output, value 0.7071, gradient 1",
    "wire from n into input x of o, carries gradient 0.5",
]


def accessible_named(root, name: str):
    """The first element named ``name`` under ``root`` in the QAccessible tree, depth first."""
    stack = [root]
    while stack:
        element = stack.pop()
        if element is None or not element.isValid():
            continue
        if element.text(QAccessible.Text.Name) == name:
            return element
        stack.extend(element.child(i) for i in reversed(range(element.childCount())))
    return None


def read_outline(window) -> list[str]:
    """What a screen reader hears of the outline: its items' names, as the window's QAccessible tree has them."""
    tree = accessible_named(QAccessible.queryAccessibleInterface(window), "Graph outline")
    assert tree is not None and tree.role() == QAccessible.Role.Tree
    items = [tree.child(i) for i in range(tree.childCount())]
    return [item.text(QAccessible.Text.Name) for item in items if item.role() == QAccessible.Role.TreeItem]


@pytest.fixture
def outline(window, qtbot):
    """The outline in sight, as a screen reader finds it: at 1500 x 900 the side panel gives the neuron its room,
    and View > Graph outline opens it with the outline. Accessibility is active, as when Orca runs: Qt then
    tells its accessible tree of every change to the rows (it keeps stale rows otherwise)."""
    QAccessible.setActive(True)
    window.editor.give_way.update()  # as it will once the window's first events are handled
    if not window.editor.outline.widget.isVisible():
        window.editor.outline_action.trigger()
    qtbot.waitUntil(window.editor.outline.widget.isVisible)
    yield window.editor.outline.widget
    QAccessible.setActive(False)


def node_ids(window) -> dict[str, str]:
    return {name: node_id for node_id, name in window.document.names().items()}


def click_row(outline, item) -> None:
    outline.scrollTo(item.index())
    rect = outline.visualRect(item.index())
    assert rect.isValid()
    point = rect.center()
    QTest.mouseClick(outline.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_the_starter_graphs_nodes_values_gradients_and_wires_are_read_from_the_accessible_tree(window, outline):
    assert read_outline(window) == STARTER_SENTENCES
    # Each node of the document is read once, with the numbers its card shows.
    evaluation = window.editor.evaluation
    heard = read_outline(window)
    for node_id, name in window.document.names().items():
        sentence = next(text for text in heard if text.startswith(f"{name},") or text.startswith(f"{name} ="))
        card = window.editor.scene.node_item(node_id)
        assert f"value {card.default_body_lines()[0].removeprefix('value ')}" in sentence
        assert f"gradient {card.default_body_lines()[1].removeprefix('grad ')}" in sentence
        assert evaluation.results[node_id].grad is not None
    # A row wider than the panel is elided on screen: hovering it shows it whole.
    rows = [outline.model_.item(row) for row in range(outline.model_.rowCount())]
    assert all(row.toolTip() == row.text() for row in rows)


def test_the_outline_is_named_and_reached_by_keyboard_from_the_view_menu(window, outline, qtbot):
    assert outline.accessibleName() == "Graph outline"
    action = window.editor.outline_action
    assert action.objectName() == "actionGraphOutline" and action in window.view_menu.actions()
    assert action.isChecked()
    window.editor.expression_input.setFocus()
    action.trigger()  # off
    assert not outline.isVisible() and not action.isChecked()
    qtbot.keyClick(window.editor.expression_input, Qt.Key.Key_O,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert outline.isVisible() and action.isChecked()
    qtbot.waitUntil(outline.hasFocus)
    assert read_outline(window)[0] == STARTER_SENTENCES[0]


def test_the_outline_is_in_the_tab_order_of_the_side_panel(window, outline, qtbot):
    window.editor.paths.list.setFocus()  # "Why this gradient?", under the outline
    qtbot.waitUntil(window.editor.paths.list.hasFocus)
    qtbot.keyClick(window.editor.paths.list, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert outline.hasFocus()
    qtbot.keyClick(outline, Qt.Key.Key_Tab)
    assert window.editor.paths.list.hasFocus()


def test_with_a_screen_reader_running_the_outline_opens_with_its_side_panel(qtbot, tmp_path):
    QAccessible.setActive(True)  # as Qt sets it when AT-SPI says a screen reader runs
    try:
        window = open_window(qtbot, tmp_path)
        editor = window.editor
        qtbot.waitUntil(editor.outline.widget.isVisible)
        editor.give_way.update()  # the graph's room asked again: the side panel stays, the person's choice
        assert editor.side.isVisible() and editor.outline_action.isChecked()
        assert read_outline(window) == STARTER_SENTENCES
        assert not editor.outline.widget.hasFocus()  # opened for the screen reader, not moved to
    finally:
        QAccessible.setActive(False)


def test_without_a_screen_reader_the_outline_starts_closed(window, qtbot):
    qtbot.wait(50)  # the first check has run
    assert not window.editor.outline.widget.isVisible() and not window.editor.outline_action.isChecked()


def test_the_shortcut_opens_the_side_panel_that_gave_way(window, qtbot):
    editor = window.editor
    editor.give_way.update()  # as it will once the window's first events are handled
    assert not editor.side.isVisible()  # at 1500 x 900 the side panel gives the neuron its room
    assert not editor.outline_action.isChecked()  # the outline is out of sight with it
    editor.view.setFocus()
    qtbot.keyClick(editor.view, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert editor.side.isVisible() and editor.outline.widget.isVisible()
    assert editor.outline_action.isChecked() and editor.side_action.isChecked()
    qtbot.waitUntil(editor.outline.widget.hasFocus)
    editor.side_action.trigger()  # the side panel closed by hand: the outline is out of sight
    assert not editor.outline_action.isChecked()


def test_a_row_chosen_by_keyboard_or_mouse_selects_its_node_on_the_canvas(window, outline, qtbot):
    editor, ids = window.editor, node_ids(window)
    click_row(outline, outline.node_row(ids["n"]))
    assert editor.scene.selected_node_ids() == [ids["n"]]
    assert editor.properties.isVisible()
    qtbot.keyClick(outline, Qt.Key.Key_Down)  # to the wire into n from x1w1x2w2
    wire = editor.scene.selected_edges()
    assert editor.scene.selected_node_ids() == [] and len(wire) == 1
    assert (wire[0].source, wire[0].target) == (ids["x1w1x2w2"], ids["n"])
    qtbot.keyClick(outline, Qt.Key.Key_Down)
    qtbot.keyClick(outline, Qt.Key.Key_Down)  # past the wire from b, to o
    assert editor.scene.selected_node_ids() == [ids["o"]]
    assert outline.hasFocus()  # the focus stays where the screen reader is


def test_a_node_clicked_on_the_canvas_selects_its_row(window, outline, qtbot):
    editor, ids = window.editor, node_ids(window)
    position = node_body_pos(editor, ids["b"])
    send_mouse(editor.view, QEvent.Type.MouseButtonPress, position)
    send_mouse(editor.view, QEvent.Type.MouseButtonRelease, position, LEFT, NO_BUTTON)
    assert editor.scene.selected_node_ids() == [ids["b"]]
    assert outline.selected_node_ids() == [ids["b"]]
    assert outline.currentIndex() == outline.node_row(ids["b"]).index()
    editor.select_all()
    assert sorted(outline.selected_node_ids()) == sorted(ids.values())
    editor.scene.clearSelection()
    assert outline.selected_node_ids() == []


def test_an_edit_rewrites_the_rows_it_changes_and_keeps_the_selection(window, outline, qtbot):
    ids = node_ids(window)
    click_row(outline, outline.node_row(ids["w2"]))
    window.undo_stack.push(EditCommand(window.document, edits.set_value(window.document, ids["x2"], 1.0)))
    # n = -6 + 1 + 6.881 = 1.881, o = tanh(n) = 0.9546, do/dn = 1 - o² = 0.08871 (was 0.5)
    qtbot.waitUntil(lambda: "x2, input, value 1, gradient 0.08871" in read_outline(window))
    heard = read_outline(window)
    assert "w2, parameter, value 1, gradient 0.08871" in heard  # w2's gradient is x2 · do/dn now
    assert "o = tanh(n), the output, value 0.9546, gradient 1" in heard
    assert outline.selected_node_ids() == [ids["w2"]]
    # A new structure (a wire gone) builds the rows again; the selection stays.
    window.undo_stack.push(EditCommand(window.document, edits.remove_edges(
        window.document, [window.document.edge_at(ids["o"], 0)])))
    qtbot.waitUntil(lambda: any(text.startswith("o = tanh(nothing), the output, no value yet: input x is not "
                                                "connected") for text in read_outline(window)))
    assert not any(text.startswith("wire from n into") for text in read_outline(window))
    assert outline.selected_node_ids() == [ids["w2"]]
    window.undo_stack.undo()
    qtbot.waitUntil(lambda: "wire from n into input x of o, carries gradient 0.08871" in read_outline(window))


def test_a_quizs_numbers_are_hidden_in_the_outline_as_on_the_cards(window, outline, qtbot):
    editor, ids = window.editor, node_ids(window)
    edge = window.document.edge_at(ids["o"], 0)
    editor.conceal(Concealment(values=frozenset({ids["o"]}), grads=frozenset({ids["w1"]}), wires=frozenset({edge})))
    heard = read_outline(window)
    assert "w1, parameter, value -3, gradient hidden (a quiz asks for it)" in heard
    assert "o = tanh(n), the output, value hidden (a quiz asks for it), gradient 1" in heard
    assert "wire from n into input x of o, carries gradient hidden (a quiz asks for it)" in heard
    assert not any("0.7071" in text for text in heard)


def test_a_new_number_in_the_row_a_screen_reader_is_on_is_announced(window, outline, qtbot, monkeypatch):
    ids = node_ids(window)
    said = []
    monkeypatch.setattr(outline_view, "announce", lambda event: said.append(
        (event.type(), event.accessibleInterface().text(QAccessible.Text.Name))))
    click_row(outline, outline.node_row(ids["x2"]))
    assert outline.hasFocus()
    qtbot.keyClick(outline, Qt.Key.Key_Down)  # on w2: nothing changed, nothing said
    assert said == []
    window.undo_stack.push(EditCommand(window.document, edits.set_value(window.document, ids["x2"], 1.0)))
    qtbot.waitUntil(lambda: said != [])
    assert said == [(QAccessible.Event.NameChanged, "w2, parameter, value 1, gradient 0.08871")]
