"""Building tensor graphs by hand (issue 19): tensor kinds in the palette, shape refusals while a wire is
dragged, and the properties panel's table, generator and parameter editors, each one undo step."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QUndoStack
from PySide6.QtWidgets import QApplication

from playground.canvas.view import GraphView
from playground.editor.properties import PropertiesPanel
from playground.editor.scene import GraphScene
from playground.graph.arrays import Generator
from playground.graph.catalog import KINDS, TENSOR_GROUP
from playground.graph.document import Edge, GraphDocument, Node

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton


def _mouse(view, kind, scene_point, button=LEFT, buttons=LEFT):
    pos = QPointF(view.mapFromScene(scene_point))
    event = QMouseEvent(kind, pos, QPointF(view.viewport().mapToGlobal(pos.toPoint())), button, buttons,
                        Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def _document() -> GraphDocument:
    doc = GraphDocument()
    doc.add_node(Node("X", "input", 0, 0, "X", np.arange(12.0).reshape(4, 3)))
    doc.add_node(Node("W", "parameter", 0, 220, "W", np.ones((2, 2))))
    doc.add_node(Node("m", "matmul", 420, 60))
    doc.add_node(Node("s", "reduce_sum", 760, 60))
    doc.add_edge(Edge("X", "m", 0))
    doc.add_edge(Edge("m", "s", 0))
    return doc


@pytest.fixture
def canvas(qtbot):
    doc = _document()
    stack = QUndoStack()
    scene = GraphScene(doc, stack)
    view = GraphView(scene)
    view.resize(1100, 700)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.centerOn(450, 150)
    messages: list[str] = []
    scene.status_message.connect(messages.append)
    return doc, stack, scene, view, messages


def test_the_palette_offers_the_tensor_kinds_in_their_own_group(qtbot):
    from playground.editor.palette import NodePalette

    assert {"matmul", "reduce_sum", "reshape", "softmax", "mse"} <= set(KINDS)
    palette = NodePalette()
    qtbot.addWidget(palette)
    tree = palette.tree
    groups = {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    assert TENSOR_GROUP in groups
    group = groups[TENSOR_GROUP]
    names = {group.child(i).text(0) for i in range(group.childCount())}
    assert "matmul" in names


def test_a_wire_whose_shapes_do_not_fit_is_drawn_red_and_refused_with_both_shapes(canvas):
    doc, stack, scene, view, messages = canvas
    start = scene.node_item("W").output_port_scene_pos()
    end = scene.node_item("m").input_port_scene_pos(1)
    _mouse(view, QEvent.Type.MouseButtonPress, start)
    for i in range(1, 7):
        _mouse(view, QEvent.Type.MouseMove, start + (end - start) * (i / 6), NONE, LEFT)
    assert scene.pending_wire.state is False
    assert messages[-1].endswith("(4, 3) @ (2, 2): the inner sizes 3 and 2 differ")
    _mouse(view, QEvent.Type.MouseButtonRelease, end, LEFT, NONE)
    assert Edge("W", "m", 1) not in doc.edges and stack.count() == 0


def test_dropping_a_tensor_kind_adds_its_card(canvas):
    doc, stack, scene, view, messages = canvas
    node_id = scene.add_node_at("softmax", QPointF(300, 400))
    assert node_id is not None and doc.node(node_id).kind == "softmax" and stack.count() == 1
    assert scene.node_item(node_id).kind_title() == "softmax"


@pytest.fixture
def panel(qtbot):
    doc = _document()
    stack = QUndoStack()
    properties = PropertiesPanel(doc, stack)
    qtbot.addWidget(properties)
    properties.show()
    messages: list[str] = []
    properties.status_message.connect(messages.append)
    return doc, stack, properties, messages


def test_a_tensor_leafs_table_sets_its_values_in_one_undoable_edit(panel):
    doc, stack, properties, messages = panel
    properties.show_node("W")
    part = properties.tensor_part
    assert part.isVisible() and not properties.value_edit.isVisible()
    assert (part.table.rowCount(), part.table.columnCount()) == (2, 2)
    part.table.item(1, 0).setText("-2.5")
    part.set_values_button.click()
    assert doc.node("W").array.tolist() == [[1, 1], [-2.5, 1]]
    assert stack.count() == 1
    stack.undo()
    assert doc.node("W").array.tolist() == [[1, 1], [1, 1]]


def test_changing_the_shape_resizes_the_table_and_a_refused_shape_changes_nothing(panel):
    doc, stack, properties, messages = panel
    properties.show_node("X")
    part = properties.tensor_part
    part.shape_edit.setText("4, 2")
    part._on_shape_edited()
    assert (part.table.rowCount(), part.table.columnCount()) == (4, 2)
    part.set_values_button.click()  # X feeds a matmul: any (4, k) fits while nothing is on its other input
    assert doc.node("X").shape == (4, 2) and doc.node("X").array[3].tolist() == [9, 10]
    part.shape_edit.setText("65")
    part.set_values_button.click()
    assert doc.node("X").shape == (4, 2) and "from 1 to 64" in messages[-1]
    assert stack.count() == 1


def test_a_generator_fills_the_leaf_and_is_remembered(panel):
    doc, stack, properties, messages = panel
    properties.show_node("W")
    part = properties.tensor_part
    part.generator_combo.setCurrentText("randn")
    part.seed_spin.setValue(7)
    part.shape_edit.setText("2, 2")
    part.fill_button.click()
    expected = Generator("randn", (2, 2), 7)
    assert np.array_equal(doc.node("W").array, expected.values()) and doc.node("W").generator == expected
    part.generator_combo.setCurrentText("eye")
    assert not part.seed_spin.isEnabled()
    part.fill_button.click()
    assert doc.node("W").array.tolist() == [[1, 0], [0, 1]]
    assert stack.count() == 2


def test_a_tensor_nodes_parameters_are_edited_in_the_panel(panel):
    doc, stack, properties, messages = panel
    doc.remove_edge(Edge("m", "s", 0))
    doc.add_edge(Edge("X", "s", 0))  # X (4, 3) summed
    assert doc.shape_of("s") == ()
    properties.show_node("s")
    part = properties.tensor_part
    assert part.isVisible() and part.axis_combo.isVisible() and not part.table.isVisible()
    part.axis_combo.setCurrentIndex(part.axis_combo.findData(0))
    part._on_params_edited()
    assert doc.node("s").params["axis"] == 0 and doc.shape_of("s") == (3,)
    part.keepdims_check.setChecked(True)
    assert doc.node("s").params["keepdims"] is True and doc.shape_of("s") == (1, 3)
    assert stack.count() == 2
    stack.undo()
    stack.undo()
    assert doc.node("s").params == {"axis": None, "keepdims": False}


def test_double_clicking_an_array_leaf_opens_no_inline_editor(canvas):
    doc, stack, scene, view, messages = canvas
    asked = []
    scene.edit_requested.connect(asked.append)
    point = scene.node_item("W").mapToScene(QPointF(60, 50))
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
                 QEvent.Type.MouseButtonRelease):
        pressed = kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick)
        _mouse(view, kind, point, LEFT, LEFT if pressed else NONE)
    assert asked == ["W"] and scene.inline_editor is None
