"""Node kinds dragged from the palette onto the canvas: a drop adds a node there, a drop on a
wire inserts the node into that wire (drawn thick and green while a drop would do so)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QGraphicsSceneDragDropEvent

from ..canvas.card_scene import CardScene
from ..canvas.wires import WireItem
from ..graph import edits
from ..graph.catalog import KINDS
from .canvas_edits import CanvasEdits
from .palette import kind_from_mime
from .scene_part import ScenePart


class PaletteDrops(ScenePart):
    """Answers the scene's drag and drop events for palette drags; `CanvasEdits` pushes the new node."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self._drop_wire: WireItem | None = None  # the wire a drop now would insert into

    def drag_moved(self, event: QGraphicsSceneDragDropEvent) -> None:
        """A drag entered or moved over the canvas: accept palette kinds, and mark the wire under them."""
        if kind_from_mime(event.mimeData()):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            self._update_drop_wire(event)
        else:
            event.ignore()

    def drag_left(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._set_drop_wire(None)
        event.accept()

    def dropped(self, event: QGraphicsSceneDragDropEvent) -> None:
        kind_name = kind_from_mime(event.mimeData())
        self._set_drop_wire(None)
        if not kind_name:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.drop_kind(kind_name, event.scenePos())

    def drop_kind(self, kind_name: str, pos: QPointF) -> str | None:
        """Add a node where a palette item was dropped; on a wire, insert it into the wire."""
        canvas_edits = self.canvas_edits
        wire = self.scene.wire_at(pos) if KINDS[kind_name].arity != 0 else None
        if wire is None:
            return canvas_edits.add_node_at(kind_name, pos)
        node = canvas_edits.new_node(kind_name, pos)
        edge = wire.edge
        canvas_edits.push(edits.insert_on_wire(canvas_edits.document, node, edge))
        self.scene.select_nodes([node.id])
        name = canvas_edits.document.name
        canvas_edits.announce(f"Inserted {name(node.id)} between {name(edge.source)} and {name(edge.target)}")
        return node.id

    def forget_wire(self, wire: WireItem) -> None:
        """``wire`` left the scene: it is no longer the one a drop would insert into."""
        if wire is self._drop_wire:
            self._drop_wire = None

    def _update_drop_wire(self, event: QGraphicsSceneDragDropEvent) -> None:
        kind_name = kind_from_mime(event.mimeData())
        wire = self.scene.wire_at(event.scenePos()) if kind_name and KINDS[kind_name].arity != 0 else None
        self._set_drop_wire(wire)

    def _set_drop_wire(self, wire: WireItem | None) -> None:
        if wire is self._drop_wire:
            return
        if self._drop_wire is not None:
            self._drop_wire.set_emphasized(False)
        self._drop_wire = wire
        if wire is not None:
            wire.set_emphasized(True)
            self.canvas_edits.announce(f"Drop to insert into the wire {self.canvas_edits.describe(wire.edge)}")
