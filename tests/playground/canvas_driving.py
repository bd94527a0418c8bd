"""Driving the graph canvas in tests with real Qt events: two documents, mouse and drag-and-drop helpers,
and where a card's ports are. The `make_canvas` fixture is in `canvas/conftest.py`."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QMouseEvent
from PySide6.QtWidgets import QApplication

from playground.canvas.view import GraphView
from playground.editor.palette import NodePalette
from playground.graph.document import Edge, GraphDocument, Node

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
