"""The edits a person makes on the canvas, each pushed as one undo step and said in words.

The scene's gestures (wiring, moving, typing a value, dropping from the palette, the context
menu) decide what to change; `CanvasEdits` pushes it on the undo stack as one `EditCommand` and
announces what happened ("Connected a → mul (b)"). It never touches an item: the document's
change events move, add and remove them.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Signal
from PySide6.QtGui import QUndoStack

from ..canvas.card_scene import CardScene
from ..graph import edits
from ..graph.catalog import kind
from ..graph.document import Edge, GraphDocument, Node
from .commands import EditCommand
from .new_nodes import new_node
from .scene_part import ScenePart


class CanvasEdits(ScenePart):
    """Pushes the canvas's edits to ``undo_stack`` and tells the person about each (``announced``)."""

    announced = Signal(str)  # what an edit did, or why nothing was done, in words

    def __init__(self, scene: CardScene, document: GraphDocument, undo_stack: QUndoStack):
        super().__init__(scene)
        self.document = document
        self.undo_stack = undo_stack

    def announce(self, text: str) -> None:
        self.announced.emit(text)

    def push(self, edit: edits.Edit) -> bool:
        """Push one edit as one undo step; an edit with no actions is not pushed."""
        if not edit.actions:
            return False
        self.undo_stack.push(EditCommand(self.document, edit))
        return True

    def new_node(self, kind_name: str, center: QPointF) -> Node:
        return new_node(self.document, kind_name, center)

    def add_node_at(self, kind_name: str, center: QPointF) -> str | None:
        """Add a node of ``kind_name`` centred on ``center`` (one undo step) and select it; returns its id."""
        node = self.new_node(kind_name, center)
        self.push(edits.add_node(self.document, node))
        self.scene.select_nodes([node.id])
        self.announce(f"Added {self.document.name(node.id)}")
        return node.id

    def delete_selection(self) -> bool:
        """Remove the selected nodes (with their wires) and the selected wires, as one undo step."""
        node_ids = self.scene.selected_node_ids()
        edges = [e for e in self.scene.selected_edges() if e.source not in node_ids and e.target not in node_ids]
        if not node_ids and not edges:
            return False
        actions: list = [edits.RemoveEdge(e) for e in edges]
        text = "Disconnect" if not node_ids else "Delete"
        if node_ids:
            node_edit = edits.remove_nodes(self.document, node_ids)
            actions += node_edit.actions
            if not edges:
                text = node_edit.text
        self.push(edits.Edit(text, actions))
        parts = []
        if node_ids:
            parts.append(f"{len(node_ids)} node{'s' * (len(node_ids) != 1)}")
        if edges:
            parts.append(f"{len(edges)} wire{'s' * (len(edges) != 1)}")
        self.announce("Deleted " + " and ".join(parts))
        return True

    def delete_node(self, node_id: str) -> None:
        """Delete this node, or the whole selection when it is part of it (as a context menu does)."""
        if not self.scene.node_item(node_id).isSelected():
            self.scene.select_nodes([node_id])
        self.delete_selection()

    def make_output(self, node_id: str) -> None:
        if not self.document.has_node(node_id):
            return
        self.push(edits.set_output(self.document, node_id))
        self.announce(f"{self.document.name(node_id)} is now the output")

    def connect(self, edge: Edge, problem: str | None = None, replaces: Edge | None = None) -> bool:
        """Make the wire ``edge`` as a drag's release does (one undo step, said in words), or say why not
        (``problem``: the document's reason). A wire that ``replaces`` another in a taken input takes its place
        in the same step."""
        if problem:
            self.announce(f"Can't connect: {problem}")
            return False
        if replaces is not None:
            self.push(edits.Edit("Replace wire", [edits.RemoveEdge(replaces), edits.AddEdge(edge)]))
            self.announce(f"Connected {self.describe(edge)} in place of {self.document.name(replaces.source)}")
        else:
            self.push(edits.connect(self.document, edge))
            self.announce(f"Connected {self.describe(edge)}")
        return True

    def disconnect(self, edge: Edge) -> None:
        if self.document.edge_at(edge.target, edge.port) == edge:
            self.push(edits.remove_edges(self.document, [edge]))
            self.announce(f"Disconnected {self.describe(edge)}")

    def describe(self, edge: Edge) -> str:
        """A wire in words: "a → mul", with the input's name when the target has more than one."""
        target = self.document.node(edge.target)
        text = f"{self.document.name(edge.source)} → {self.document.name(edge.target)}"
        if target.port_count > 1:
            text += f" ({kind(target.kind).port_name(edge.port)})"
        return text
