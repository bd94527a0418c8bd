"""The canvas tests' fixture: `make_canvas(document)`, a shown `GraphView` on an editor scene of its own
(its document and undo stack), 1000 x 700, with the status messages it said."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtGui import QUndoStack

from playground.canvas.view import GraphView
from playground.editor.scene import GraphScene
from playground.graph.document import GraphDocument


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
