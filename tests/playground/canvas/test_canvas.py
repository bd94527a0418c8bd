"""The graph canvas, driven by real Qt events on a shown GraphView: palette drops, wiring by mouse, moving,
deleting, inline editing and the context menu. Zoom, fit, minimap, quick search, tooltips and wire labels:
`test_canvas_view.py`."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from playground.editor.palette import NodePalette
from playground.graph.document import Edge, GraphDocument, Node
from tests.playground.canvas_driving import (
    LEFT,
    NO_BUTTON,
    double_click,
    drag_event,
    drag_mouse,
    drop_kind,
    input_port_pos,
    node_body_pos,
    output_port_pos,
    send_mouse,
    wiring_document,
)

# -- palette drops ---------------------------------------------------------------------------


def test_palette_drop_creates_a_node_and_one_undo_removes_it(make_canvas, qtbot):
    canvas = make_canvas()
    palette = NodePalette()
    qtbot.addWidget(palette)
    drop_point = QPoint(400, 300)
    mime = palette.mime_data_for("mul")
    assert bytes(mime.data("application/x-autograd-playground-kind")).decode() == "mul"

    enter, drop = drop_kind(canvas.view, "mul", drop_point)

    assert enter.isAccepted() and drop.isAccepted()
    assert [n.kind for n in canvas.doc.nodes] == ["mul"]
    node = canvas.doc.nodes[0]
    centre = canvas.scene.node_item(node.id).sceneBoundingRect().center()
    assert (centre - canvas.view.mapToScene(drop_point)).manhattanLength() < 12  # card centred on the drop
    assert canvas.scene.selected_node_ids() == [node.id]
    assert canvas.stack.count() == 1

    canvas.stack.undo()
    assert canvas.doc.nodes == []
    assert canvas.scene.node_items() == []


def test_dropping_a_sum_gives_it_the_default_inputs(make_canvas):
    canvas = make_canvas()
    drop_kind(canvas.view, "sum", QPoint(300, 300))
    (node,) = canvas.doc.nodes
    assert node.inputs == 3
    assert len(canvas.scene.node_item(node.id).input_ports) == 3


def test_dropping_on_a_wire_inserts_the_node_into_it(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("a", "input", 0, 0, "a", 2))
    doc.add_node(Node("t", "tanh", 500, 200))
    doc.add_edge(Edge("a", "t", 0))
    canvas = make_canvas(doc)
    midpoint = canvas.scene.wire_item(Edge("a", "t", 0)).midpoint()

    enter, drop = drop_kind(canvas.view, "exp", canvas.view.mapFromScene(midpoint))

    assert drop.isAccepted()
    new_id = next(n.id for n in doc.nodes if n.kind == "exp")
    assert doc.edges == sorted([Edge("a", new_id, 0), Edge(new_id, "t", 0)])
    assert canvas.scene.wire_item(Edge("a", "t", 0)) is None
    assert canvas.scene.wire_item(Edge(new_id, "t", 0)) is not None
    assert canvas.stack.count() == 1
    canvas.stack.undo()
    assert doc.edges == [Edge("a", "t", 0)] and not doc.has_node(new_id)


def test_a_drag_without_a_node_kind_is_refused(make_canvas):
    canvas = make_canvas()
    mime = QMimeData()
    mime.setText("mul")
    enter = drag_event(QDragEnterEvent, QPoint(100, 100), mime)
    QApplication.sendEvent(canvas.view.viewport(), enter)
    assert not enter.isAccepted()
    assert canvas.doc.nodes == []


# -- wiring by mouse -------------------------------------------------------------------------


def test_dragging_from_an_output_to_an_input_connects(make_canvas):
    canvas = make_canvas(wiring_document())
    start, end = output_port_pos(canvas, "b"), input_port_pos(canvas, "m", 1)

    drag_mouse(canvas.view, start, end, release=False)
    assert canvas.scene.pending_wire is not None
    assert canvas.scene.pending_wire.state is True  # green: this port accepts
    assert canvas.scene.pending_wire.pen().style() == Qt.PenStyle.DashLine
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, end, LEFT, NO_BUTTON)

    assert Edge("b", "m", 1) in canvas.doc.edges
    assert canvas.scene.wire_item(Edge("b", "m", 1)) is not None
    assert canvas.scene.pending_wire is None
    assert canvas.stack.count() == 1
    assert canvas.messages[-1].startswith("Connected b → t1")
    canvas.stack.undo()
    assert Edge("b", "m", 1) not in canvas.doc.edges


def test_releasing_a_new_wire_on_empty_space_makes_nothing(make_canvas):
    canvas = make_canvas(wiring_document())
    before = canvas.doc.edges
    drag_mouse(canvas.view, output_port_pos(canvas, "b"), output_port_pos(canvas, "b") + QPointF(60, 140))
    assert canvas.doc.edges == before
    assert canvas.stack.count() == 0
    assert canvas.scene.pending_wire is None


@pytest.mark.parametrize("source, target, port, reason", [
    ("n", "m", 1, "cycle"),  # mul → neg → back into mul
    ("b", "m", 0, "already connected"),  # mul's first input holds a's wire
    ("m", "m", 1, "own input"),  # a node feeding itself
])
def test_refused_wires_leave_the_graph_alone_and_say_why(make_canvas, source, target, port, reason):
    canvas = make_canvas(wiring_document())
    before = canvas.doc.edges
    start, end = output_port_pos(canvas, source), input_port_pos(canvas, target, port)

    drag_mouse(canvas.view, start, end, release=False)
    assert canvas.scene.pending_wire.state is False  # red while hovering
    assert reason in canvas.messages[-1]
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, end, LEFT, NO_BUTTON)

    assert canvas.doc.edges == before
    assert canvas.stack.count() == 0
    assert reason in canvas.messages[-1]
    assert canvas.scene.pending_wire is None


def test_picking_up_a_connected_wire_moves_or_removes_it_in_one_step(make_canvas):
    canvas = make_canvas(wiring_document())
    # Move a's wire from mul's first input to its second: one undo step.
    drag_mouse(canvas.view, input_port_pos(canvas, "m", 0), input_port_pos(canvas, "m", 1))
    assert Edge("a", "m", 1) in canvas.doc.edges and Edge("a", "m", 0) not in canvas.doc.edges
    assert canvas.stack.count() == 1
    # Drop it on empty space: disconnected.
    drag_mouse(canvas.view, input_port_pos(canvas, "m", 1), input_port_pos(canvas, "m", 1) + QPointF(-80, 200))
    assert canvas.doc.edges == [Edge("m", "n", 0)]
    assert canvas.stack.count() == 2
    canvas.stack.undo()
    canvas.stack.undo()
    assert Edge("a", "m", 0) in canvas.doc.edges


def test_dragging_from_a_free_input_to_an_output_connects(make_canvas):
    canvas = make_canvas(wiring_document())
    drag_mouse(canvas.view, input_port_pos(canvas, "m", 1), output_port_pos(canvas, "b"))
    assert Edge("b", "m", 1) in canvas.doc.edges


# -- moving, deleting, editing ---------------------------------------------------------------


def test_moving_two_selected_nodes_is_one_undo_step(make_canvas):
    canvas = make_canvas(wiring_document())
    canvas.scene.select_nodes(["a", "b"])
    start = node_body_pos(canvas, "a")

    drag_mouse(canvas.view, start, start + QPointF(60, 40))

    a, b = canvas.doc.node("a"), canvas.doc.node("b")
    assert (a.x, a.y) == pytest.approx((60, 40), abs=1)
    assert (b.x, b.y) == pytest.approx((60, 200), abs=1)
    assert canvas.doc.node("m").x == 250  # not selected, not moved
    assert canvas.stack.count() == 1
    wire = canvas.scene.wire_item(Edge("a", "m", 0))
    assert wire.path().elementAt(0).x == pytest.approx(canvas.scene.node_item("a").output_port_scene_pos().x())

    canvas.stack.undo()
    assert (a.x, a.y, b.x, b.y) == (0, 0, 0, 160)
    assert canvas.scene.node_item("a").pos() == QPointF(0, 0)
    assert canvas.scene.node_item("b").pos() == QPointF(0, 160)


def test_a_click_without_a_move_pushes_nothing(make_canvas):
    canvas = make_canvas(wiring_document())
    pos = node_body_pos(canvas, "a")
    send_mouse(canvas.view, QEvent.Type.MouseButtonPress, pos)
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, pos, LEFT, NO_BUTTON)
    assert canvas.scene.selected_node_ids() == ["a"]
    assert canvas.stack.count() == 0


def test_delete_removes_the_selected_nodes_and_wires_in_one_step(make_canvas):
    canvas = make_canvas(wiring_document())
    selections = []
    canvas.scene.selection_ids_changed.connect(selections.append)
    canvas.scene.select_nodes(["b"])
    canvas.scene.wire_item(Edge("m", "n", 0)).setSelected(True)
    assert selections[-1] == ["b"]

    QTest.keyClick(canvas.view, Qt.Key.Key_Delete)

    assert not canvas.doc.has_node("b")
    assert canvas.doc.edges == [Edge("a", "m", 0)]
    assert canvas.stack.count() == 1
    canvas.stack.undo()
    assert canvas.doc.has_node("b") and Edge("m", "n", 0) in canvas.doc.edges
    assert canvas.scene.node_item("b") is not None


def test_deleting_a_wired_node_removes_its_wires_and_undo_restores_them(make_canvas):
    canvas = make_canvas(wiring_document())
    canvas.scene.select_nodes(["m"])
    QTest.keyClick(canvas.view, Qt.Key.Key_Backspace)
    assert canvas.doc.edges == [] and canvas.scene.wire_items() == []
    canvas.stack.undo()
    assert canvas.doc.edges == [Edge("a", "m", 0), Edge("m", "n", 0)]
    assert len(canvas.scene.wire_items()) == 2


def test_double_click_on_a_leaf_edits_its_value(make_canvas, qtbot):
    canvas = make_canvas(wiring_document())
    requested = []
    canvas.scene.edit_requested.connect(requested.append)

    double_click(canvas.view, node_body_pos(canvas, "a"))

    assert requested == ["a"]
    editor = canvas.scene.inline_editor
    assert editor is not None and editor.text() == "2"
    editor.selectAll()
    QTest.keyClicks(editor, "abc")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    assert "not a number" in canvas.messages[-1]
    assert canvas.doc.node("a").value == 2 and canvas.stack.count() == 0
    assert canvas.scene.inline_editor is editor  # still open, to fix the text

    editor.selectAll()
    QTest.keyClicks(canvas.view, "-1.5")  # typed into the view, as a person does: the scene routes it
    QTest.keyClick(canvas.view, Qt.Key.Key_Return)
    assert canvas.doc.node("a").value == -1.5
    assert canvas.stack.count() == 1
    assert canvas.scene.inline_editor is None
    assert canvas.scene.node_item("a").title() == "a = -1.5"
    canvas.stack.undo()
    assert canvas.doc.node("a").value == 2


def test_escape_cancels_the_inline_editor(make_canvas):
    canvas = make_canvas(wiring_document())
    double_click(canvas.view, node_body_pos(canvas, "b"))
    editor = canvas.scene.inline_editor
    editor.selectAll()
    QTest.keyClicks(editor, "9")
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    assert canvas.scene.inline_editor is None
    assert canvas.doc.node("b").value == 3 and canvas.stack.count() == 0


def test_double_click_on_an_operation_opens_no_editor(make_canvas):
    canvas = make_canvas(wiring_document())
    double_click(canvas.view, node_body_pos(canvas, "m"))
    assert canvas.scene.inline_editor is None


def test_make_output_from_the_context_menu(make_canvas):
    canvas = make_canvas(wiring_document())
    item = canvas.scene.node_item("m")
    menu = canvas.scene.context_menu_for(item.mapToScene(item.value_rect().center()))
    actions = {a.text(): a for a in menu.actions() if a.text()}
    assert set(actions) == {"Make output", "Connect output to…", "Disconnect…", "Delete"}
    actions["Make output"].trigger()
    assert canvas.doc.output == "m"
    assert canvas.scene.node_item("m").is_output and not canvas.scene.node_item("n").is_output
    assert canvas.stack.count() == 1
