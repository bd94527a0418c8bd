"""The graph editor's scene: follows a `GraphDocument` and turns mouse and keys into undoable edits.

The scene subscribes to the document and creates, removes, moves and refreshes `NodeItem`s and
`WireItem`s to follow every `Change`. It never changes the document itself: each user edit is
one `EditCommand` pushed on the undo stack it was given, and the document's change events then
update the items. A drag of many nodes is one command, pushed when the mouse is released.
"""

from __future__ import annotations

import functools
import logging
import math
import weakref

from PySide6.QtCore import QEasingCurve, QPointF, QRectF, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import QKeyEvent, QUndoStack
from PySide6.QtWidgets import (
    QGraphicsProxyWidget,
    QGraphicsScene,
    QGraphicsSceneContextMenuEvent,
    QGraphicsSceneDragDropEvent,
    QGraphicsSceneMouseEvent,
    QLineEdit,
    QMenu,
    QWidget,
)

from ..errors import guarded
from ..numbers import full_number
from . import edits
from .card_scene import CardScene
from .catalog import DEFAULT_SUM_INPUTS, kind
from .commands import EditCommand
from .document import Change, Edge, GraphDocument, Node
from .evaluate import Evaluation
from .items import (
    BODY_PADDING,
    HEADER_HEIGHT,
    NODE_WIDTH,
    ROW_HEIGHT,
    NodeItem,
    PendingWireItem,
    PortItem,
    WireItem,
)
from .palette import kind_from_mime

logger = logging.getLogger(__name__)

MOVE_ANIMATION_MS = 250
_DEFAULT_LEAF = {"input": ("x", 1.0), "parameter": ("w", 0.5), "constant": ("", 1.0)}


def node_height(node: Node) -> float:
    """The height a `NodeItem` gives this node (two body lines, or one row per input port)."""
    return HEADER_HEIGHT + 2 * BODY_PADDING + max(2, node.port_count) * ROW_HEIGHT


def new_node(document: GraphDocument, kind_name: str, center: QPointF) -> Node:
    """A fresh node of ``kind_name`` whose card is centred on ``center``.

    Inputs and parameters get the next free label (x1, x2, ... / w1, w2, ...) and a value of 1 or
    0.5; a Sum gets `DEFAULT_SUM_INPUTS` ports.
    """
    node_kind = kind(kind_name)
    node = Node(document.new_id(), kind_name, inputs=DEFAULT_SUM_INPUTS if node_kind.is_variadic else 0)
    if node_kind.is_leaf:
        prefix, value = _DEFAULT_LEAF.get(kind_name, ("", 0.0))
        node.value = value
        if prefix:
            used = {n.label for n in document.nodes}
            number = 1
            while f"{prefix}{number}" in used:
                number += 1
            node.label = f"{prefix}{number}"
    node.x = round(center.x() - NODE_WIDTH / 2)
    node.y = round(center.y() - node_height(node) / 2)
    return node


class _ValueEditor(QLineEdit):
    """The inline editor over a leaf's value: Enter commits, Escape cancels."""

    cancelled = Signal()
    focus_lost = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self.cancelled.emit()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        if event.reason() not in (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason):
            self.focus_lost.emit()


class GraphScene(CardScene):
    """Draws a `GraphDocument` and edits it through ``undo_stack``."""

    status_message = Signal(str)  # something to tell the person: a refused wire's reason, "Connected a → mul"
    edit_requested = Signal(str)  # a leaf was double-clicked (the scene also opens its own inline editor)
    selection_ids_changed = Signal(list)  # ids of the selected nodes

    def __init__(self, document: GraphDocument, undo_stack: QUndoStack | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack if undo_stack is not None else QUndoStack(self)
        self._show_wire_grads = True
        self._evaluation: Evaluation | None = None

        self._wire_drag: dict | None = None  # while a person drags a wire
        self._pending: PendingWireItem | None = None
        self._press_positions: dict[str, QPointF] = {}
        self._drop_wire: WireItem | None = None

        self._editor: _ValueEditor | None = None
        self._editor_proxy: QGraphicsProxyWidget | None = None
        self._editor_node: str | None = None

        self._animate_moves = False
        self._animation_scheduled = False
        self._move_targets: dict[str, QPointF] = {}
        self._move_starts: dict[str, QPointF] = {}
        self._move_animation: QVariantAnimation | None = None

        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)  # wires change shape as nodes move

        # Subscribe through a weak reference: a document may outlive its scene.
        this = weakref.ref(self)

        def on_change(change: Change, _this=this, _document=document) -> None:
            scene = _this()
            if scene is None:
                _document.unsubscribe(on_change)
                return
            scene._on_document_changed(change)

        self._subscription = on_change
        document.subscribe(on_change)
        self.destroyed.connect(functools.partial(_unsubscribe, document, on_change))
        self.selectionChanged.connect(self._on_selection_changed)
        self.rebuild()

    # -- state -----------------------------------------------------------------------------

    def set_theme(self, dark: bool) -> None:
        super().set_theme(dark)
        if self._pending is not None:
            self._pending.set_state(self._pending.state)  # its pen comes from the palette

    @property
    def show_wire_grads(self) -> bool:
        return self._show_wire_grads

    @show_wire_grads.setter
    def show_wire_grads(self, on: bool) -> None:
        self.set_show_wire_grads(on)

    def set_show_wire_grads(self, on: bool) -> None:
        self._show_wire_grads = bool(on)
        for wire in self._wires.values():
            wire.set_label_visible(self._show_wire_grads)

    def detach(self) -> None:
        """Stop following the document (the scene is going away before the document)."""
        _unsubscribe(self.document, self._subscription)

    # -- items -----------------------------------------------------------------------------

    def items_bounding_rect(self) -> QRectF:
        """The rectangle around every node and wire (not the temporary wire or the inline editor)."""
        rect = QRectF()
        for node_id, item in self._nodes.items():
            bounds = item.sceneBoundingRect()
            if node_id in self._move_targets:  # gliding: where the document already has it
                bounds.moveTopLeft(bounds.topLeft() - item.pos() + self._move_targets[node_id])
            rect = rect.united(bounds)
        if not self._move_targets:
            for wire in self._wires.values():
                rect = rect.united(wire.sceneBoundingRect())
        return rect

    @property
    def evaluation(self) -> Evaluation | None:
        return self._evaluation

    def show_evaluation(self, evaluation: Evaluation | None) -> None:
        """Show every node's value, gradient and problems, and each wire's gradient."""
        self._evaluation = evaluation
        for node_id, item in self._nodes.items():
            item.set_result(evaluation.results.get(node_id) if evaluation else None)
        for edge, wire in self._wires.items():
            wire.set_grad(evaluation.edge_grads.get(edge) if evaluation else None)
        self._refresh_output_marks()

    # -- following the document ------------------------------------------------------------

    def rebuild(self) -> None:
        """Throw away every item and draw the document afresh."""
        self._cancel_wire_drag()
        self._close_editor()
        self._stop_move_animation()
        self._clear_items()
        for node in self.document.nodes:
            self._add_node_item(node)
        for edge in self.document.edges:
            self._add_wire_item(edge)
        self._refresh_output_marks()
        self._on_selection_changed()

    @guarded
    def _on_document_changed(self, change: Change) -> None:
        what = change.what
        self._follow_change(change)
        if what != "node_moved":  # a label, a new node or a new wire can renumber t1, t2, ...
            names = self.document.names()
            for node_id, item in self._nodes.items():
                item.set_name(names[node_id])

    def _follow_change(self, change: Change) -> None:
        what = change.what
        if what == "reset":
            self._evaluation = None
            self.rebuild()
        elif what == "node_added":
            item = self._add_node_item(self.document.node(change.node_id))
            self.place_labels_near(item.sceneBoundingRect())
            self._refresh_output_marks()
        elif what == "node_removed":
            item = self._nodes.pop(change.node_id, None)
            if change.node_id == self._editor_node:
                self._close_editor()
            if self._wire_drag and change.node_id in (self._wire_drag.get("source"), self._wire_drag.get("target")):
                self._cancel_wire_drag()
            self._move_targets.pop(change.node_id, None)
            if item is not None:
                area = item.sceneBoundingRect()
                self.removeItem(item)
                self.place_labels_near(area)  # labels it pushed aside may return to their wire's middle
            self._refresh_output_marks()
        elif what == "node_changed":
            item = self._nodes.get(change.node_id)
            if item is not None:
                item.set_node(self.document.node(change.node_id))
                self._refresh_ports(change.node_id)
        elif what == "node_moved":
            self._on_node_moved(change.node_id)
        elif what == "edge_added":
            self._add_wire_item(change.edge)
            self._refresh_output_marks()
        elif what == "edge_removed":
            wire = self._wires.pop(change.edge, None)
            if wire is not None:
                if wire is self._drop_wire:
                    self._drop_wire = None
                self._remove_wire_item(wire)
            self._refresh_ports(change.edge.target)
            self._refresh_output_marks()
        elif what == "output_changed":
            self._refresh_output_marks()

    def _add_node_item(self, node: Node) -> NodeItem:
        item = NodeItem(node, self.document.name(node.id))
        item.set_editable(True)
        if self._evaluation is not None:
            item.set_result(self._evaluation.results.get(node.id))
        self.addItem(item)
        self._nodes[node.id] = item
        return item

    def _add_wire_item(self, edge: Edge) -> WireItem | None:
        source, target = self._nodes.get(edge.source), self._nodes.get(edge.target)
        if source is None or target is None:
            return None
        wire = WireItem(edge, source, target)
        wire.set_label_visible(self._show_wire_grads)
        if self._evaluation is not None:
            wire.set_grad(self._evaluation.edge_grads.get(edge))
        self.addItem(wire)
        self._wires[edge] = wire
        self._refresh_ports(edge.target)
        return wire

    def _remove_wire_item(self, wire: WireItem) -> None:
        wire.detach()
        if wire.scene() is self:
            self.removeItem(wire)

    def _refresh_ports(self, node_id: str) -> None:
        item = self._nodes.get(node_id)
        if item is None or not self.document.has_node(node_id):
            return
        for port in item.input_ports:
            port.set_connected(self.document.edge_at(node_id, port.index) is not None)

    def _refresh_output_marks(self) -> None:
        output = self.document.effective_output()
        for node_id, item in self._nodes.items():
            item.set_is_output(node_id == output)

    # -- animated moves (auto-layout) ------------------------------------------------------

    def animate_next_moves(self) -> None:
        """Animate the next batch of node moves (one pushed edit) over ~250 ms instead of jumping.

        The document changes at once; only the drawing glides. The request lapses when control
        returns to the event loop, so call this right before pushing the edit.
        """
        self._animate_moves = True
        QTimer.singleShot(0, self._on_animate_request_lapsed)

    @guarded
    def _on_animate_request_lapsed(self) -> None:
        self._animate_moves = False

    def _on_node_moved(self, node_id: str) -> None:
        item = self._nodes.get(node_id)
        if item is None:
            return
        node = self.document.node(node_id)
        target = QPointF(node.x, node.y)
        if self._animate_moves:
            if not self._animation_scheduled:
                self._animation_scheduled = True
                QTimer.singleShot(0, self._start_move_animation)
            self._move_targets[node_id] = target
            return
        self._move_targets.pop(node_id, None)
        if item.pos() != target:
            before = item.sceneBoundingRect()
            item.setPos(target)
            self.place_labels_near(before, item.sceneBoundingRect())

    @guarded
    def _start_move_animation(self) -> None:
        self._animation_scheduled = False
        if self._move_animation is not None:  # a new batch while one glides: go on from where items are
            self._move_animation.stop()
            self._move_animation.deleteLater()
            self._move_animation = None
        self._move_starts = {node_id: QPointF(self._nodes[node_id].pos())
                             for node_id in self._move_targets if node_id in self._nodes}
        if not self._move_starts:
            self._move_targets.clear()
            return
        animation = QVariantAnimation(self)
        animation.setStartValue(0.0)
        animation.setEndValue(1.0)
        animation.setDuration(MOVE_ANIMATION_MS)
        animation.setEasingCurve(QEasingCurve.Type.InOutCubic)
        animation.valueChanged.connect(self._on_move_animation_value_changed)
        animation.finished.connect(self._on_move_animation_finished)
        self._move_animation = animation
        animation.start()

    @guarded
    def _on_move_animation_value_changed(self, t) -> None:
        t = float(t)
        for node_id, start in self._move_starts.items():
            item, end = self._nodes.get(node_id), self._move_targets.get(node_id)
            if item is not None and end is not None:
                item.setPos(start + (end - start) * t)

    @guarded
    def _on_move_animation_finished(self) -> None:
        self._stop_move_animation()

    def _stop_move_animation(self) -> None:
        """End a move animation now: every item goes where the document says."""
        animation, self._move_animation = self._move_animation, None
        if animation is not None:
            animation.stop()
            animation.deleteLater()
        for node_id in list(self._move_targets):
            item = self._nodes.get(node_id)
            if item is not None and self.document.has_node(node_id):
                node = self.document.node(node_id)
                item.setPos(node.x, node.y)
        if self._move_targets:  # the cards glided to new places: every label looks for its spot again
            for wire in self._wires.values():
                wire.place_label()
        self._move_targets.clear()
        self._move_starts = {}

    def is_animating(self) -> bool:
        return self._move_animation is not None or bool(self._move_targets)

    # -- pushing edits ---------------------------------------------------------------------

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
        self.select_nodes([node.id])
        self.status_message.emit(f"Added {self.document.name(node.id)}")
        return node.id

    def delete_selection(self) -> bool:
        """Remove the selected nodes (with their wires) and the selected wires, as one undo step."""
        node_ids = self.selected_node_ids()
        edges = [e for e in self.selected_edges() if e.source not in node_ids and e.target not in node_ids]
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
        self.status_message.emit("Deleted " + " and ".join(parts))
        return True

    def make_output(self, node_id: str) -> None:
        if not self.document.has_node(node_id):
            return
        self.push(edits.set_output(self.document, node_id))
        self.status_message.emit(f"{self.document.name(node_id)} is now the output")

    def _recover(self, error: Exception) -> None:
        self.status_message.emit(f"Something went wrong ({type(error).__name__}: {error}); the view was redrawn")
        self._cancel_wire_drag()
        self.rebuild()
        if self._evaluation is not None:
            self.show_evaluation(self._evaluation)

    # -- hit testing -----------------------------------------------------------------------

    def port_at(self, pos: QPointF) -> PortItem | None:
        item = self._top_item_at(pos)
        return item if isinstance(item, PortItem) else None

    def wire_at(self, pos: QPointF, tolerance: float = 4.0) -> WireItem | None:
        area = QRectF(pos.x() - tolerance, pos.y() - tolerance, 2 * tolerance, 2 * tolerance)
        for item in self.items(area):
            if isinstance(item, NodeItem):
                return None  # a node covers the point: the node wins
            if isinstance(item, WireItem):
                return item
        return None

    # -- mouse: wiring and moving ----------------------------------------------------------

    @guarded
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._stop_move_animation()
        if self._editor is not None and not self._editor_proxy.sceneBoundingRect().contains(event.scenePos()):
            self._commit_editor(close_on_error=True)
        if event.button() == Qt.MouseButton.LeftButton:
            port = self.port_at(event.scenePos())
            if port is not None and self._begin_wire_drag(port, event.scenePos()):
                event.accept()
                return
        super().mousePressEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self._press_positions = {node_id: QPointF(item.pos()) for node_id, item in self._nodes.items()
                                     if item.isSelected()}

    @guarded
    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._wire_drag is not None:
            self._update_wire_drag(event.scenePos())
            event.accept()
            return
        super().mouseMoveEvent(event)

    @guarded
    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._wire_drag is not None and event.button() == Qt.MouseButton.LeftButton:
            self._finish_wire_drag(event.scenePos())
            event.accept()
            return
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self._push_moves()

    def _push_moves(self) -> None:
        pressed, self._press_positions = self._press_positions, {}
        moved = {}
        for node_id, start in pressed.items():
            item = self._nodes.get(node_id)
            if item is not None and item.pos() != start and self.document.has_node(node_id):
                moved[node_id] = (item.x(), item.y())
        if not moved:
            return
        names = [self.document.name(n) for n in moved]
        text = f"Move {names[0]}" if len(names) == 1 else f"Move {len(names)} nodes"
        self.push(edits.move_nodes(self.document, moved, text))
        # Labels of other wires that the cards left or landed on look for their spot again.
        vacated = [self._nodes[n].sceneBoundingRect().translated(pressed[n] - self._nodes[n].pos()) for n in moved]
        self.place_labels_near(*vacated, *(self._nodes[n].sceneBoundingRect() for n in moved))

    def _begin_wire_drag(self, port: PortItem, pos: QPointF) -> bool:
        node_id = port.node_id
        if port.is_output:
            self._wire_drag = {"from": "output", "source": node_id, "picked": None}
            self.status_message.emit("Drag to an input port to connect; release elsewhere to cancel")
        else:
            edge = self.document.edge_at(node_id, port.index)
            if edge is not None:  # pick the wire up
                self._wire_drag = {"from": "output", "source": edge.source, "picked": edge}
                wire = self._wires.get(edge)
                if wire is not None:
                    wire.setVisible(False)
                self.status_message.emit("Drop the wire on another input, or on empty space to disconnect")
            else:
                self._wire_drag = {"from": "input", "target": node_id, "port": port.index, "picked": None}
                self.status_message.emit("Drag to an output port to connect")
        self._wire_drag["hover"] = None
        self._pending = PendingWireItem()
        self.addItem(self._pending)
        self._update_wire_drag(pos)
        return True

    def _candidate(self, pos: QPointF) -> tuple[Edge | None, str | None, PortItem | None]:
        """The wire a release at ``pos`` would make, why it is refused (or None), and the port under the mouse."""
        drag = self._wire_drag
        port = self.port_at(pos)
        if port is None:
            return None, None, None
        if drag["from"] == "output":
            if port.is_output:
                return None, None, None
            edge = Edge(drag["source"], port.node_id, port.index)
            if edge == drag["picked"]:
                return edge, None, port
            return edge, self.document.connection_problem(edge.source, edge.target, edge.port), port
        if not port.is_output:
            return None, None, None
        edge = Edge(port.node_id, drag["target"], drag["port"])
        return edge, self.document.connection_problem(edge.source, edge.target, edge.port), port

    def _update_wire_drag(self, pos: QPointF) -> None:
        drag = self._wire_drag
        edge, problem, port = self._candidate(pos)
        end = port.scenePos() if port is not None else pos
        if drag["from"] == "output":
            self._pending.set_points(self._nodes[drag["source"]].output_port_scene_pos(), end)
        else:
            self._pending.set_points(end, self._nodes[drag["target"]].input_port_scene_pos(drag["port"]))
        self._pending.set_state(None if edge is None else problem is None)
        if edge != drag["hover"]:
            drag["hover"] = edge
            if edge is not None:
                self.status_message.emit(f"Can't connect: {problem}" if problem else
                                         f"Release to connect {self._describe(edge)}")

    def _finish_wire_drag(self, pos: QPointF) -> None:
        drag = self._wire_drag
        edge, problem, _port = self._candidate(pos)
        picked = drag["picked"]
        self._cancel_wire_drag()
        if edge is not None and problem:
            self.status_message.emit(f"Can't connect: {problem}")
        elif edge is not None and edge == picked:
            self.status_message.emit("The wire is where it was")
        elif edge is not None and picked is not None:
            self.push(edits.Edit("Reconnect", [edits.RemoveEdge(picked), edits.AddEdge(edge)]))
            self.status_message.emit(f"Reconnected {self._describe(edge)}")
        elif edge is not None:
            self.push(edits.connect(self.document, edge))
            self.status_message.emit(f"Connected {self._describe(edge)}")
        elif picked is not None:
            self.push(edits.remove_edges(self.document, [picked]))
            self.status_message.emit(f"Disconnected {self._describe(picked)}")
        else:
            self.status_message.emit("No wire made")

    def _cancel_wire_drag(self) -> None:
        drag, self._wire_drag = self._wire_drag, None
        if self._pending is not None:
            if self._pending.scene() is self:
                self.removeItem(self._pending)
            self._pending = None
        if drag and drag.get("picked") is not None:
            wire = self._wires.get(drag["picked"])
            if wire is not None:
                wire.setVisible(True)

    def is_dragging_wire(self) -> bool:
        return self._wire_drag is not None

    @property
    def pending_wire(self) -> PendingWireItem | None:
        return self._pending

    def _describe(self, edge: Edge) -> str:
        target = self.document.node(edge.target)
        text = f"{self.document.name(edge.source)} → {self.document.name(edge.target)}"
        if target.port_count > 1:
            text += f" ({kind(target.kind).port_name(edge.port)})"
        return text

    # -- double-click: inline value editor -------------------------------------------------

    @guarded
    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        on_port = self.port_at(event.scenePos()) is not None
        if event.button() == Qt.MouseButton.LeftButton and not on_port:
            item = self.node_at(event.scenePos())
            if item is not None and item.node.is_leaf:
                self.edit_requested.emit(item.node_id)
                self.edit_value(item.node_id)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    @property
    def inline_editor(self) -> QLineEdit | None:
        return self._editor

    def edit_value(self, node_id: str) -> QLineEdit | None:
        """Open a line edit over a leaf's value; Enter sets it (one undo step), Escape cancels."""
        if node_id not in self._nodes or not self.document.node(node_id).is_leaf:
            return None
        self._close_editor()
        item = self._nodes[node_id]
        editor = _ValueEditor(full_number(self.document.node(node_id).value))
        editor.setObjectName("nodeValueEditor")
        editor.setAccessibleName("nodeValueEditor")
        editor.setToolTip("Type a number; Enter sets it, Escape cancels")
        rect = item.value_rect().adjusted(-4, -1, 4, 1)
        editor.setFixedSize(int(rect.width()), int(rect.height()) + 2)
        proxy = self.addWidget(editor)
        proxy.setZValue(100)
        proxy.setPos(item.mapToScene(rect.topLeft()))
        self._editor, self._editor_proxy, self._editor_node = editor, proxy, node_id
        editor.returnPressed.connect(self._on_editor_return_pressed)
        editor.cancelled.connect(self._on_editor_cancelled)
        editor.focus_lost.connect(self._on_editor_focus_lost)
        editor.selectAll()
        proxy.setFocus(Qt.FocusReason.OtherFocusReason)
        editor.setFocus(Qt.FocusReason.OtherFocusReason)
        self.status_message.emit("Type a value; Enter sets it, Escape cancels")
        return editor

    @guarded
    def _on_editor_return_pressed(self) -> None:
        self._commit_editor(close_on_error=False)

    @guarded
    def _on_editor_cancelled(self) -> None:
        self._close_editor()
        self.status_message.emit("Edit cancelled")

    @guarded
    def _on_editor_focus_lost(self) -> None:
        if self._editor is not None:
            self._commit_editor(close_on_error=True)

    def _commit_editor(self, close_on_error: bool) -> None:
        if self._editor is None:
            return
        node_id, text = self._editor_node, self._editor.text().strip()
        try:
            value = float(text.replace("−", "-"))
        except ValueError:
            old = full_number(self.document.node(node_id).value) if self.document.has_node(node_id) else ""
            self.status_message.emit(f"'{text}' is not a number; the value stays {old}")
            if close_on_error:
                self._close_editor()
            else:
                self._editor.selectAll()
            return
        self._close_editor()
        if not self.document.has_node(node_id):
            return
        old = self.document.node(node_id).value
        if old == value or (math.isnan(old) and math.isnan(value)):
            return
        self.push(edits.set_value(self.document, node_id, value))
        self.status_message.emit(f"Set {self.document.name(node_id)} = {full_number(value)}")

    def _close_editor(self) -> None:
        editor, proxy = self._editor, self._editor_proxy
        self._editor = self._editor_proxy = self._editor_node = None
        if editor is None:
            return
        had_focus = editor.hasFocus() or proxy.hasFocus()
        for signal in (editor.returnPressed, editor.cancelled, editor.focus_lost):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):
                pass
        proxy.hide()
        proxy.deleteLater()  # not now: we may be inside the editor's own key handler
        if had_focus:
            for view in self.views()[:1]:
                view.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- keys ------------------------------------------------------------------------------

    @guarded
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._editor is not None and self._editor_proxy is not None and self._editor_proxy.hasFocus():
            super().keyPressEvent(event)
            return
        if event.key() == Qt.Key.Key_Escape and self._wire_drag is not None:
            self._cancel_wire_drag()
            self.status_message.emit("No wire made")
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            if self.delete_selection():
                event.accept()
                return
        super().keyPressEvent(event)

    # -- context menu ----------------------------------------------------------------------

    def context_menu_for(self, pos: QPointF, parent: QWidget | None = None) -> QMenu | None:
        """The menu a right-click at ``pos`` opens (None on empty space)."""
        node_item = self.node_at(pos)
        if node_item is not None:
            node_id = node_item.node_id
            menu = QMenu(parent)
            menu.setObjectName("nodeContextMenu")
            make_output = menu.addAction("Make output")
            make_output.setObjectName("makeOutputAction")
            make_output.setCheckable(True)
            make_output.setChecked(self.document.effective_output() == node_id)
            make_output.triggered.connect(lambda checked=False, n=node_id: self._guarded_call(self.make_output, n))
            if node_item.node.is_leaf:
                edit = menu.addAction("Edit value…")
                edit.setObjectName("editValueAction")
                edit.triggered.connect(lambda checked=False, n=node_id: self._guarded_call(self.edit_value, n))
            menu.addSeparator()
            delete = menu.addAction("Delete")
            delete.setObjectName("deleteNodeAction")
            delete.triggered.connect(lambda checked=False, n=node_id: self._guarded_call(self._delete_from_menu, n))
            return menu
        wire = self.wire_at(pos)
        if wire is not None:
            menu = QMenu(parent)
            menu.setObjectName("wireContextMenu")
            disconnect = menu.addAction("Disconnect")
            disconnect.setObjectName("disconnectAction")
            disconnect.triggered.connect(lambda checked=False, e=wire.edge: self._guarded_call(self._disconnect, e))
            return menu
        return None

    @guarded
    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        menu = self.context_menu_for(event.scenePos(), event.widget())
        if menu is None:
            super().contextMenuEvent(event)
            return
        event.accept()
        menu.exec(event.screenPos())
        menu.deleteLater()

    @guarded
    def _guarded_call(self, function, *args) -> None:
        function(*args)

    def _delete_from_menu(self, node_id: str) -> None:
        if not self._nodes[node_id].isSelected():
            self.select_nodes([node_id])
        self.delete_selection()

    def _disconnect(self, edge: Edge) -> None:
        if self.document.edge_at(edge.target, edge.port) == edge:
            self.push(edits.remove_edges(self.document, [edge]))
            self.status_message.emit(f"Disconnected {self._describe(edge)}")

    # -- drops from the palette ------------------------------------------------------------

    def _accepts(self, event: QGraphicsSceneDragDropEvent) -> str | None:
        return kind_from_mime(event.mimeData())

    @guarded
    def dragEnterEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        if self._accepts(event):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            self._update_drop_wire(event)
        else:
            event.ignore()

    @guarded
    def dragMoveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        if self._accepts(event):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
            self._update_drop_wire(event)
        else:
            event.ignore()

    @guarded
    def dragLeaveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._set_drop_wire(None)
        event.accept()

    @guarded
    def dropEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        kind_name = self._accepts(event)
        self._set_drop_wire(None)
        if not kind_name:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.drop_kind(kind_name, event.scenePos())

    def drop_kind(self, kind_name: str, pos: QPointF) -> str | None:
        """Add a node where a palette item was dropped; on a wire, insert it into the wire."""
        wire = self.wire_at(pos) if kind(kind_name).arity != 0 else None
        if wire is None:
            return self.add_node_at(kind_name, pos)
        node = self.new_node(kind_name, pos)
        edge = wire.edge
        self.push(edits.insert_on_wire(self.document, node, edge))
        self.select_nodes([node.id])
        name = self.document.name
        self.status_message.emit(f"Inserted {name(node.id)} between {name(edge.source)} and {name(edge.target)}")
        return node.id

    def _update_drop_wire(self, event: QGraphicsSceneDragDropEvent) -> None:
        kind_name = kind_from_mime(event.mimeData())
        wire = self.wire_at(event.scenePos()) if kind_name and kind(kind_name).arity != 0 else None
        self._set_drop_wire(wire)

    def _set_drop_wire(self, wire: WireItem | None) -> None:
        if wire is self._drop_wire:
            return
        if self._drop_wire is not None:
            self._drop_wire.set_emphasized(False)
        self._drop_wire = wire
        if wire is not None:
            wire.set_emphasized(True)
            self.status_message.emit(f"Drop to insert into the wire {self._describe(wire.edge)}")

    # -- selection and background ----------------------------------------------------------

    @guarded
    def _on_selection_changed(self) -> None:
        self.selection_ids_changed.emit(self.selected_node_ids())


def _unsubscribe(document: GraphDocument, callback, *args) -> None:
    try:
        document.unsubscribe(callback)
    except ValueError:
        pass
