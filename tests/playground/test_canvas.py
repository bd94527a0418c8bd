"""The graph canvas: palette drops, wiring and moving by mouse, keys, inline editing, zoom, minimap,
quick search and tooltips, driven by real Qt events on a shown GraphView."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QMouseEvent, QUndoStack, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.canvas.view import MAX_ZOOM, MIN_ZOOM, GraphView
from playground.editor.commands import EditCommand
from playground.editor.palette import NodePalette
from playground.editor.scene import GraphScene
from playground.graph import edits
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.widgets.errors import ExceptionReporter

LEFT, NO_BUTTON, NO_MODIFIER = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier


def traced_document() -> GraphDocument:
    """((a*b)+c)*(a+d) at a=2, b=3, c=4, d=5: f = 70, df/da = 31, df/db = 14, df/dc = 7, df/dd = 10."""
    doc = GraphDocument()
    for i, (name, value) in enumerate(zip("abcd", [2, 3, 4, 5])):
        doc.add_node(Node(name, "input", 0, 110 * i, name, value))
    doc.add_node(Node("m", "mul", 220, 0))
    doc.add_node(Node("s", "add", 440, 60))
    doc.add_node(Node("t", "add", 440, 300))
    doc.add_node(Node("f", "mul", 660, 180, "f"))
    for edge in [Edge("a", "m", 0), Edge("b", "m", 1), Edge("m", "s", 0), Edge("c", "s", 1),
                 Edge("a", "t", 0), Edge("d", "t", 1), Edge("s", "f", 0), Edge("t", "f", 1)]:
        doc.add_edge(edge)
    return doc


def wiring_document() -> GraphDocument:
    """a → mul.a, mul → neg; b and the mul's second input free."""
    doc = GraphDocument()
    doc.add_node(Node("a", "input", 0, 0, "a", 2))
    doc.add_node(Node("b", "input", 0, 160, "b", 3))
    doc.add_node(Node("m", "mul", 250, 40))
    doc.add_node(Node("n", "neg", 500, 40))
    doc.add_edge(Edge("a", "m", 0))
    doc.add_edge(Edge("m", "n", 0))
    return doc


@pytest.fixture
def make_canvas(qtbot):
    def make(document: GraphDocument | None = None) -> SimpleNamespace:
        document = document if document is not None else GraphDocument()
        stack = QUndoStack()
        scene = GraphScene(document, stack)
        view = GraphView(scene)
        view.resize(1000, 700)
        qtbot.addWidget(view)
        view.show()
        qtbot.waitExposed(view)
        view.centerOn(350, 200)
        messages: list[str] = []
        scene.status_message.connect(messages.append)
        return SimpleNamespace(doc=document, stack=stack, scene=scene, view=view, messages=messages)

    return make


# -- event helpers ---------------------------------------------------------------------------


def to_view(view: GraphView, scene_point: QPointF) -> QPointF:
    return QPointF(view.mapFromScene(scene_point))


def send_mouse(view: GraphView, kind: QEvent.Type, pos: QPointF, button=LEFT, buttons=LEFT, modifiers=NO_MODIFIER):
    global_pos = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
    event = QMouseEvent(kind, pos, global_pos, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)
    return event


def drag_mouse(view: GraphView, start: QPointF, end: QPointF, steps: int = 6, release: bool = True) -> None:
    """Press at ``start``, move there with the left button held, release (as a person drags)."""
    send_mouse(view, QEvent.Type.MouseButtonPress, start)
    for i in range(1, steps + 1):
        point = start + (end - start) * (i / steps)
        send_mouse(view, QEvent.Type.MouseMove, point, NO_BUTTON, LEFT)
    if release:
        send_mouse(view, QEvent.Type.MouseButtonRelease, end, LEFT, NO_BUTTON)


def double_click(view: GraphView, pos: QPointF) -> None:
    send_mouse(view, QEvent.Type.MouseButtonPress, pos)
    send_mouse(view, QEvent.Type.MouseButtonRelease, pos, LEFT, NO_BUTTON)
    send_mouse(view, QEvent.Type.MouseButtonDblClick, pos)
    send_mouse(view, QEvent.Type.MouseButtonRelease, pos, LEFT, NO_BUTTON)


def drag_event(event_class, pos: QPoint, mime):
    try:
        return event_class(QPointF(pos), Qt.DropAction.CopyAction, mime, LEFT, NO_MODIFIER)
    except TypeError:  # PySide6 before 6.12 takes a QPoint only
        return event_class(pos, Qt.DropAction.CopyAction, mime, LEFT, NO_MODIFIER)


def drop_kind(view: GraphView, kind_name: str, pos: QPoint) -> tuple[QDragEnterEvent, QDropEvent]:
    """Deliver what a palette drag delivers: enter, move, drop, with the palette's mime data."""
    mime = NodePalette.mime_data_for(kind_name)
    enter = drag_event(QDragEnterEvent, pos, mime)
    QApplication.sendEvent(view.viewport(), enter)
    move = drag_event(QDragMoveEvent, pos, mime)
    QApplication.sendEvent(view.viewport(), move)
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, LEFT, NO_MODIFIER)
    if enter.isAccepted():
        QApplication.sendEvent(view.viewport(), drop)
    return enter, drop


def input_port_pos(canvas, node_id: str, port: int) -> QPointF:
    return to_view(canvas.view, canvas.scene.node_item(node_id).input_port_scene_pos(port))


def output_port_pos(canvas, node_id: str) -> QPointF:
    return to_view(canvas.view, canvas.scene.node_item(node_id).output_port_scene_pos())


def node_body_pos(canvas, node_id: str) -> QPointF:
    item = canvas.scene.node_item(node_id)
    return to_view(canvas.view, item.mapToScene(item.value_rect().center()))


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
    assert set(actions) == {"Make output", "Delete"}
    actions["Make output"].trigger()
    assert canvas.doc.output == "m"
    assert canvas.scene.node_item("m").is_output and not canvas.scene.node_item("n").is_output
    assert canvas.stack.count() == 1


# -- zoom, fit, minimap, quick search --------------------------------------------------------


def test_wheel_zooms_around_the_cursor_within_limits(make_canvas):
    canvas = make_canvas(traced_document())
    view = canvas.view
    view.set_zoom(1.0)
    cursor = QPointF(300, 200)
    under_cursor = view.mapToScene(cursor.toPoint())

    def wheel(notches: int) -> None:
        global_pos = QPointF(view.viewport().mapToGlobal(cursor.toPoint()))
        event = QWheelEvent(cursor, global_pos, QPoint(), QPoint(0, 120 * notches), NO_BUTTON, NO_MODIFIER,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), event)

    wheel(1)
    assert view.transform().m11() > 1.1
    assert (view.mapToScene(cursor.toPoint()) - under_cursor).manhattanLength() < 3  # the point stays put
    for _ in range(30):
        wheel(1)
    assert view.zoom() == pytest.approx(MAX_ZOOM)
    for _ in range(60):
        wheel(-1)
    assert view.zoom() == pytest.approx(MIN_ZOOM)
    view.set_zoom(1.0)
    view.zoom_in()
    assert view.zoom() == pytest.approx(1.25)
    view.zoom_out()
    view.zoom_out()
    assert view.zoom() == pytest.approx(0.8)


def test_fit_shows_every_node(make_canvas):
    canvas = make_canvas(traced_document())
    view = canvas.view
    view.set_zoom(3.0)
    view.centerOn(5000, 5000)
    view.fit()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    for item in canvas.scene.node_items():
        assert visible.contains(item.sceneBoundingRect()), item.node_id
    assert MIN_ZOOM <= view.zoom() <= 1.25


def test_minimap_toggles_and_recentres_the_view(make_canvas, qtbot):
    canvas = make_canvas(traced_document())
    view = canvas.view
    assert view.is_minimap_visible() and view.minimap.isVisible()
    view.set_minimap_visible(False)
    assert not view.is_minimap_visible() and not view.minimap.isVisible()
    view.set_minimap_visible(True)
    assert view.minimap.isVisible()
    assert view.viewport().geometry().contains(view.minimap.geometry())  # in the corner, over the canvas

    minimap = view.minimap
    minimap.refit()
    target = QPointF(660, 200)  # the output node f
    pos = QPointF(minimap.mapFromScene(target))
    event = QMouseEvent(QEvent.Type.MouseButtonPress, pos, QPointF(minimap.viewport().mapToGlobal(pos.toPoint())),
                        LEFT, LEFT, NO_MODIFIER)
    QApplication.sendEvent(minimap.viewport(), event)
    centre = view.mapToScene(view.viewport().rect().center())
    assert (centre - target).manhattanLength() < 20


def test_tab_opens_quick_search_and_enter_adds_the_node(make_canvas, qtbot):
    canvas = make_canvas()
    view = canvas.view
    QTest.keyClick(view, Qt.Key.Key_Tab)
    search = view.quick_search
    assert search.isVisible()
    QTest.keyClicks(search.search, "tan")
    assert search.shown_kinds()[0] == "tanh"
    QTest.keyClick(search.search, Qt.Key.Key_Return)
    assert not search.isVisible()
    assert [n.kind for n in canvas.doc.nodes] == ["tanh"]
    assert canvas.stack.count() == 1

    QTest.keyClick(view, Qt.Key.Key_Tab)
    QTest.keyClick(search.search, Qt.Key.Key_Escape)
    assert not search.isVisible()
    assert len(canvas.doc.nodes) == 1


def test_quick_search_ranks_exact_names_first(make_canvas):
    canvas = make_canvas()
    search = canvas.view.quick_search
    search.search.setText("exp")
    assert search.shown_kinds()[0] == "exp"
    search.search.setText("zzz")
    assert search.shown_kinds() == []


# -- drawing the evaluation ------------------------------------------------------------------


def test_tooltips_and_labels_show_the_evaluation(make_canvas):
    doc = traced_document()
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))

    assert canvas.scene.node_item("a").toolTip() == "a (input) = 2, grad = 31"
    assert canvas.scene.node_item("b").toolTip() == "b (input) = 3, grad = 14"
    assert canvas.scene.node_item("m").toolTip() == "t1 (mul) = 6, grad = 7"  # unlabelled: t1
    assert canvas.scene.node_item("f").toolTip() == "f (mul) = 70, grad = 1"
    assert canvas.scene.node_item("m").body_lines() == ["value 6", "grad 7"]
    assert canvas.scene.node_item("f").is_output
    assert canvas.scene.wire_item(Edge("a", "m", 0)).label_text() == "grad 21"
    assert canvas.scene.wire_item(Edge("a", "m", 0)).label_visible

    canvas.scene.set_show_wire_grads(False)
    assert not canvas.scene.wire_item(Edge("a", "m", 0)).label_visible

    canvas.stack.push(EditCommand(doc, edits.set_value(doc, "a", 0.5)))
    canvas.scene.show_evaluation(evaluate(doc))  # df/da = b(a+d) + (ab+c) = 3*5.5 + 5.5
    assert canvas.scene.node_item("a").toolTip() == "a (input) = 0.5, grad = 22"


def test_a_node_with_a_problem_says_why(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("x", "input", 0, 0, "x", -1))
    doc.add_node(Node("l", "log", 200, 0))
    doc.add_node(Node("d", "div", 200, 150))
    doc.add_edge(Edge("x", "l", 0))
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))

    log_item = canvas.scene.node_item("l")
    assert log_item.toolTip().startswith("t1 (log) = nan")
    assert log_item.toolTip().endswith("\nlog of a negative number is undefined (nan)")
    div_item = canvas.scene.node_item("d")
    assert div_item.problem_text() == "inputs 'a', 'b' are not connected"
    assert div_item.toolTip().endswith("\ninputs 'a', 'b' are not connected")
    assert canvas.scene.node_item("x").problem_text() is None


def test_hooks_for_other_scenes(make_canvas):
    canvas = make_canvas(traced_document())
    item = canvas.scene.node_item("m")
    item.set_body_lines(["local 3", "total 7"])
    assert item.body_lines() == ["local 3", "total 7"]
    item.set_highlight("#ff0000")
    assert item.highlight.name() == "#ff0000"
    item.set_body_lines(None)
    item.set_highlight(None)
    assert item.body_lines()[0].startswith("value")
    canvas.scene.set_theme(True)
    assert canvas.scene.backgroundBrush().color() == canvas.scene.colors["background"]
    canvas.view.grab()  # every item paints in the dark theme without error


# -- following the model ---------------------------------------------------------------------


def test_the_scene_follows_undo_redo_and_reset(make_canvas):
    doc = wiring_document()
    canvas = make_canvas(doc)
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"n": (600.0, 90.0)})))
    assert canvas.scene.node_item("n").pos() == QPointF(600, 90)
    canvas.stack.undo()
    assert canvas.scene.node_item("n").pos() == QPointF(500, 40)

    doc.replace_with(traced_document())
    assert sorted(i.node_id for i in canvas.scene.node_items()) == sorted("abcdmstf")
    assert len(canvas.scene.wire_items()) == 8


def test_animate_next_moves_glides_items_to_the_model_positions(make_canvas, qtbot):
    doc = wiring_document()
    canvas = make_canvas(doc)
    canvas.scene.animate_next_moves()
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"a": (100.0, 300.0), "b": (100.0, 500.0)})))
    assert (doc.node("a").x, doc.node("a").y) == (100, 300)  # the model changed at once
    assert canvas.scene.node_item("a").pos() == QPointF(0, 0)  # the drawing has not jumped
    qtbot.waitUntil(lambda: canvas.scene.node_item("a").pos() == QPointF(100, 300), timeout=2000)
    assert canvas.scene.node_item("b").pos() == QPointF(100, 500)

    canvas.stack.undo()  # not animated: only the next batch was
    assert canvas.scene.node_item("a").pos() == QPointF(0, 0)


@pytest.mark.qt_no_exception_capture
def test_an_error_in_a_handler_is_reported_not_raised(make_canvas, monkeypatch):
    canvas = make_canvas(wiring_document())
    reporter = ExceptionReporter(canvas.view)  # the app's: a dialog with the details
    reporter.install()

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(canvas.doc, "connection_problem", broken)
    try:
        drag_mouse(canvas.view, output_port_pos(canvas, "b"), input_port_pos(canvas, "m", 1))
    finally:
        reporter.uninstall()
    dialog = canvas.view.findChild(QMessageBox, "exceptionDialog")
    assert dialog is not None and "boom" in dialog.text() and "RuntimeError" in dialog.detailedText()
    dialog.close()
    assert any("boom" in m for m in canvas.messages)
    assert canvas.scene.pending_wire is None
    assert len(canvas.scene.node_items()) == 4  # redrawn, still whole


# -- palette ---------------------------------------------------------------------------------


def test_palette_groups_filters_and_activates(qtbot):
    palette = NodePalette()
    qtbot.addWidget(palette)
    assert palette.objectName() == palette.accessibleName() == "nodePalette"
    assert palette.search.placeholderText() == "Search nodes…"
    assert palette.visible_kinds()[:3] == ["input", "parameter", "constant"]
    assert len(palette.visible_kinds()) == 27  # 18 scalar kinds and 9 for tensors (issue 19)
    assert palette.kind_item("sigmoid").toolTip(0).endswith("1 / (1 + e^-x)")

    palette.set_filter("tanh")
    assert palette.visible_kinds() == ["tanh"]
    assert palette.group_item("Inputs").isHidden()
    palette.set_filter("")
    assert len(palette.visible_kinds()) == 27

    with qtbot.waitSignal(palette.kind_activated) as blocker:
        palette.tree.itemDoubleClicked.emit(palette.kind_item("relu"), 0)
    assert blocker.args == ["relu"]


def test_a_card_shows_the_documents_readable_name_and_follows_renumbering(make_canvas):
    doc = traced_document()
    canvas = make_canvas(doc)
    card = canvas.scene.node_item("m")  # unlabelled a*b
    assert card.title() == "t1" and card.kind_title() == "mul"
    canvas.stack.push(EditCommand(doc, edits.set_label(doc, "m", "ab")))
    assert card.title() == "ab" and card.kind_title() == "mul"
    canvas.stack.undo()
    assert card.title() == "t1"


def cards_under(canvas, rect):
    from playground.canvas.cards import CardItem

    return [item for item in canvas.scene.items(rect) if isinstance(item, CardItem)]


def test_wire_labels_keep_clear_of_every_card_as_numbers_widen(make_canvas):
    from playground.graph.expression import parse_expression

    doc = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    canvas.stack.push(EditCommand(doc, edits.set_value(doc, next(n.id for n in doc.nodes if n.label == "a"), 6.08)))
    canvas.scene.show_evaluation(evaluate(doc))  # wider numbers: grad 67.37, grad 33.24, ...
    shown = [wire for wire in canvas.scene.wire_items() if not wire.label_rect().isEmpty()]
    assert len(shown) >= len(canvas.scene.wire_items()) // 2  # most wires still say what they carry
    for wire in canvas.scene.wire_items():
        assert not cards_under(canvas, wire.label_rect()), wire.label_text()


def test_a_card_moved_onto_a_label_pushes_it_along_its_wire_and_back(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("x", "input", 0, 0, "x", 2.0))
    doc.add_node(Node("y", "exp", 600, 0, "y"))
    doc.add_node(Node("z", "input", 0, 300, "z", 1.0))
    doc.add_edge(Edge("x", "y", 0))
    doc.set_output("y")
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    wire = canvas.scene.wire_item(Edge("x", "y", 0))
    middle = wire.label_rect().center()
    assert middle == wire.midpoint()
    z = canvas.scene.node_item("z")
    spot = middle - QPointF(z.boundingRect().width() / 2, 20)  # park z right on the label
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"z": (spot.x(), spot.y())})))
    assert not wire.label_rect().isEmpty() and not cards_under(canvas, wire.label_rect())
    assert wire.label_rect().center() != middle
    canvas.stack.undo()  # z leaves: the label returns to the middle
    assert wire.label_rect().center() == middle


@pytest.mark.parametrize("source", ["a=3; y=a*a", "a=3; y=a*a+a", "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"])
def test_wire_labels_keep_clear_of_each_other(make_canvas, source):
    """a * a: the two wires from a to the product put their "grad 3" labels on top of each other, the
    very picture the lesson on variables used twice is about."""
    from playground.graph.expression import parse_expression

    doc = parse_expression(source)
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    labels = [wire.label_rect() for wire in canvas.scene.wire_items() if not wire.label_rect().isEmpty()]
    assert len(labels) == len(canvas.scene.wire_items())  # every wire says what it carries
    for i, rect in enumerate(labels):
        assert not any(rect.intersects(other) for other in labels[i + 1:])
    canvas.stack.push(EditCommand(doc, edits.remove_nodes(doc, [doc.effective_output()])))
    assert not canvas.scene._label_rects or all(w.scene() is canvas.scene for w in canvas.scene._label_rects)
