"""The editor scene's parts (wire drag, inline editor, move animation, drops, menus): owned by the
scene without keeping it alive, and an error in one of their slots puts the scene right."""

from __future__ import annotations

import gc
import weakref

import pytest
from PySide6.QtWidgets import QMessageBox

from playground.canvas.view import GraphView
from playground.editor.scene import GraphScene
from playground.graph.document import Edge, GraphDocument, Node
from playground.widgets.errors import ExceptionReporter


def small_document() -> GraphDocument:
    doc = GraphDocument()
    doc.add_node(Node("a", "input", 0, 0, "a", 2.0))
    doc.add_node(Node("n", "neg", 250, 0))
    doc.add_edge(Edge("a", "n", 0))
    return doc


def test_a_scene_nobody_holds_is_freed_at_once_and_stops_following_its_document(qtbot):
    doc = small_document()
    scene = GraphScene(doc)
    assert scene.edit_value("a") is not None  # a part in use: the inline editor is open
    freed = weakref.ref(scene)
    gc.disable()  # freed by reference counting alone: no cycle through the parts keeps it
    try:
        del scene
        assert freed() is None
    finally:
        gc.enable()
    doc.set_value("a", 5.0)  # the document goes on without it
    assert doc.node("a").value == 5.0


@pytest.mark.qt_no_exception_capture
def test_an_error_in_a_parts_slot_is_reported_and_the_scene_redrawn(qtbot, monkeypatch):
    doc = small_document()
    scene = GraphScene(doc)
    view = GraphView(scene)
    qtbot.addWidget(view)
    messages: list[str] = []
    scene.status_message.connect(messages.append)
    reporter = ExceptionReporter(view)
    reporter.install()

    def broken(*args):
        raise RuntimeError("boom")

    editor = scene.edit_value("a")
    editor.setText("3")
    monkeypatch.setattr(scene.undo_stack, "push", broken)
    try:
        editor.returnPressed.emit()  # the inline editor's own slot sets the value, and fails
    finally:
        reporter.uninstall()
    dialog = view.findChild(QMessageBox, "exceptionDialog")
    assert dialog is not None and "boom" in dialog.text()
    dialog.close()
    assert messages[-1] == "Something went wrong (RuntimeError: boom); the view was redrawn"
    assert doc.node("a").value == 2.0 and scene.inline_editor is None
    assert len(scene.node_items()) == 2 and len(scene.wire_items()) == 1
