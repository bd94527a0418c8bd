"""Wiring by mouse: a drag from a port to another port makes, moves or removes one wire.

From an output a drag looks for an input, from a free input it looks for an output, and from a
connected input it picks the wire up (drop it on another input to reconnect, on empty space to
disconnect). While the mouse moves, a dashed wire follows it: green where a release would
connect, red where the document refuses (the status bar says why). A release is one undo step.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF

from ..canvas.card_scene import CardScene
from ..canvas.cards import PortItem
from ..canvas.wires import PendingWireItem
from ..graph import edits
from ..graph.document import Edge
from .canvas_edits import CanvasEdits
from .scene_part import ScenePart


@dataclass
class _Drag:
    from_output: bool  # True: from an output (or a picked-up wire) towards an input
    source: str | None = None  # the node whose output the wire leaves (from an output)
    target: str | None = None  # the node whose input the wire enters (from an input)
    port: int = 0  # that input's index (from an input)
    picked: Edge | None = None  # the wire picked up from an input, hidden while it is dragged
    hover: Edge | None = None  # the wire a release would make, last announced


class WireDrag(ScenePart):
    """The wire a person is dragging on ``scene``, if any; `CanvasEdits` pushes the result."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self._drag: _Drag | None = None
        self._pending: PendingWireItem | None = None

    @property
    def is_active(self) -> bool:
        return self._drag is not None

    @property
    def pending_wire(self) -> PendingWireItem | None:
        """The dashed wire following the mouse (None when no drag is on)."""
        return self._pending

    def refresh_theme(self) -> None:
        if self._pending is not None:
            self._pending.set_state(self._pending.state)  # its pen comes from the palette

    def begin(self, port: PortItem, pos: QPointF) -> None:
        announce = self.canvas_edits.announce
        node_id = port.node_id
        if port.is_output:
            self._drag = _Drag(from_output=True, source=node_id)
            announce("Drag to an input port to connect; release elsewhere to cancel")
        else:
            edge = self.canvas_edits.document.edge_at(node_id, port.index)
            if edge is not None:  # pick the wire up
                self._drag = _Drag(from_output=True, source=edge.source, picked=edge)
                wire = self.scene.wire_item(edge)
                if wire is not None:
                    wire.setVisible(False)
                announce("Drop the wire on another input, or on empty space to disconnect")
            else:
                self._drag = _Drag(from_output=False, target=node_id, port=port.index)
                announce("Drag to an output port to connect")
        self._pending = PendingWireItem()
        self.scene.addItem(self._pending)
        self.update(pos)

    def update(self, pos: QPointF) -> None:
        """Follow the mouse: the dashed wire's ends, its colour, and what a release would do."""
        drag = self._drag
        edge, problem, port = self._candidate(pos)
        end = port.scenePos() if port is not None else pos
        if drag.from_output:
            self._pending.set_points(self.scene.node_item(drag.source).output_port_scene_pos(), end)
        else:
            self._pending.set_points(end, self.scene.node_item(drag.target).input_port_scene_pos(drag.port))
        self._pending.set_state(None if edge is None else problem is None)
        if edge != drag.hover:
            drag.hover = edge
            if edge is not None:
                self.canvas_edits.announce(f"Can't connect: {problem}" if problem else
                                           f"Release to connect {self.canvas_edits.describe(edge)}")

    def finish(self, pos: QPointF) -> None:
        """The mouse was released at ``pos``: connect, reconnect, disconnect, or say why not."""
        canvas_edits, announce, describe = self.canvas_edits, self.canvas_edits.announce, self.canvas_edits.describe
        edge, problem, _port = self._candidate(pos)
        picked = self._drag.picked
        self.cancel()
        if edge is not None and problem:
            canvas_edits.connect(edge, problem)  # refused, in the words Connect… uses too
        elif edge is not None and edge == picked:
            announce("The wire is where it was")
        elif edge is not None and picked is not None:
            canvas_edits.push(edits.Edit("Reconnect", [edits.RemoveEdge(picked), edits.AddEdge(edge)]))
            announce(f"Reconnected {describe(edge)}")
        elif edge is not None:
            canvas_edits.connect(edge)
        elif picked is not None:
            canvas_edits.push(edits.remove_edges(canvas_edits.document, [picked]))
            announce(f"Disconnected {describe(picked)}")
        else:
            announce("No wire made")

    def cancel(self) -> None:
        """End the drag with nothing changed (a picked-up wire shows again)."""
        drag, self._drag = self._drag, None
        if self._pending is not None:
            if self._pending.scene() is self.scene:
                self.scene.removeItem(self._pending)
            self._pending = None
        if drag is not None and drag.picked is not None:
            wire = self.scene.wire_item(drag.picked)
            if wire is not None:
                wire.setVisible(True)

    def forget_node(self, node_id: str) -> None:
        """``node_id`` left the document: a drag from or to it ends."""
        if self._drag is not None and node_id in (self._drag.source, self._drag.target):
            self.cancel()

    def _candidate(self, pos: QPointF) -> tuple[Edge | None, str | None, PortItem | None]:
        """The wire a release at ``pos`` would make, why it is refused (or None), and the port under the mouse."""
        drag = self._drag
        document = self.canvas_edits.document
        port = self.scene.port_at(pos)
        if port is None:
            return None, None, None
        if drag.from_output:
            if port.is_output:
                return None, None, None
            edge = Edge(drag.source, port.node_id, port.index)
            if edge == drag.picked:
                return edge, None, port
            return edge, document.connection_problem(edge.source, edge.target, edge.port), port
        if not port.is_output:
            return None, None, None
        edge = Edge(port.node_id, drag.target, drag.port)
        return edge, document.connection_problem(edge.source, edge.target, edge.port), port
