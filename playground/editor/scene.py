"""The graph editor's scene: follows a `GraphDocument` and turns mouse and keys into undoable edits.

The scene subscribes to the document and creates, removes, moves and refreshes `NodeItem`s and
`WireItem`s to follow every `Change`. It never changes the document itself: each user edit is
one `EditCommand` pushed on the undo stack it was given, and the document's change events then
update the items.

The gestures are small collaborators the scene owns, each in its own module: `WireDrag` (wiring
by mouse), `NodeDrag` and `MoveAnimation` (cards moved by mouse, or gliding after auto-layout),
`InlineValueEditor` (double-click a leaf), `PaletteDrops` (drops from the palette, insertion into
a wire) and `ContextMenus`; they push their edits through one `CanvasEdits`. Qt delivers events
to the scene, so its event handlers stay here, thin, and hand each event to its gesture.
"""

from __future__ import annotations

import functools
import weakref

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QUndoStack
from PySide6.QtWidgets import (
    QGraphicsScene,
    QGraphicsSceneContextMenuEvent,
    QGraphicsSceneDragDropEvent,
    QGraphicsSceneMouseEvent,
    QLineEdit,
    QMenu,
    QWidget,
)

from ..canvas.card_scene import CardScene
from ..canvas.node_card import NodeItem
from ..canvas.wires import PendingWireItem, WireItem
from ..common.numbers import DIGITS
from ..graph import edits
from ..graph.concealment import NOTHING_CONCEALED, Concealment
from ..graph.document import Change, Edge, GraphDocument, Node
from ..graph.evaluate import Evaluation
from ..graph.tensor_labels import show_tensor_texts
from ..widgets.errors import guarded
from .canvas_edits import CanvasEdits
from .connect_dialog import KeyboardWiring, WireChoiceDialog
from .context_menu import ContextMenus
from .keyboard_moves import KeyboardMoves
from .moves import MoveAnimation, NodeDrag
from .palette_drops import PaletteDrops
from .value_editor import InlineValueEditor
from .wire_drag import WireDrag

TRAINED_DIGITS = 2  # a trained network's wire labels: its gradients are small numbers that take many characters


class GraphScene(CardScene):
    """Draws a `GraphDocument` and edits it through ``undo_stack``."""

    status_message = Signal(str)  # something to tell the person: a refused wire's reason, "Connected a → mul"
    edit_requested = Signal(str)  # a leaf was double-clicked (the scene also opens its own inline editor)
    selection_ids_changed = Signal(list)  # ids of the selected nodes
    properties_requested = Signal(str)  # Enter on a node edited in the properties panel, not on its card

    def __init__(self, document: GraphDocument, undo_stack: QUndoStack | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.undo_stack = undo_stack if undo_stack is not None else QUndoStack(self)
        self._show_wire_grads = True
        self._evaluation: Evaluation | None = None
        self._concealment = NOTHING_CONCEALED
        self._tensor_texts_shown = False  # the items were told tensor texts: a graph turned scalar clears them

        # The parts the scene is built from (its Qt children: see `ScenePart`).
        self._canvas_edits = CanvasEdits(self, document, self.undo_stack)
        self._wire_drag = WireDrag(self, self._canvas_edits)
        self._node_drag = NodeDrag(self, self._canvas_edits)
        self._moves = MoveAnimation(self, document)
        self._value_editor = InlineValueEditor(self, self._canvas_edits)
        self._drops = PaletteDrops(self, self._canvas_edits)
        self._keys = KeyboardMoves(self, self._canvas_edits)
        self._wiring = KeyboardWiring(self, self._canvas_edits)
        self._menus = ContextMenus(self, self._canvas_edits, self._value_editor, self._wiring)
        self._canvas_edits.announced.connect(self.status_message)
        self._keys.value_edit_requested.connect(self._on_value_edit_requested)
        self._keys.properties_requested.connect(self.properties_requested)
        for part in (self._canvas_edits, self._wire_drag, self._node_drag, self._moves, self._value_editor,
                     self._drops, self._menus, self._keys, self._wiring):
            part.failed.connect(self._recover)

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
        self._wire_drag.refresh_theme()

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
            target = self._moves.target_of(node_id)
            if target is not None:  # gliding: where the document already has it
                bounds.moveTopLeft(bounds.topLeft() - item.pos() + target)
            rect = rect.united(bounds)
        if not self._moves.is_gliding():
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
        digits = TRAINED_DIGITS if evaluation is not None and evaluation.trained is not None else DIGITS
        for edge, wire in self._wires.items():
            wire.set_grad(evaluation.edge_grads.get(edge) if evaluation else None, digits)
        self._refresh_output_marks()
        self._refresh_tensor_texts()

    def _refresh_tensor_texts(self) -> None:
        """In a tensor graph, tell each card its shape and tooltip, each wire its shape and tooltip."""
        if self.document.is_tensor_graph or self._tensor_texts_shown:  # a scalar graph's items need telling nothing
            show_tensor_texts(self.document, self._evaluation, self._nodes, self._wires)
            self._tensor_texts_shown = self.document.is_tensor_graph

    def conceal(self, concealment: Concealment) -> None:
        """Show "?" for the numbers a quiz asks for (`Concealment`); `NOTHING_CONCEALED` shows them all."""
        self._concealment = concealment
        for node_id, item in self._nodes.items():
            item.set_concealed(node_id in concealment.values, node_id in concealment.grads)
        for edge, wire in self._wires.items():
            wire.set_concealed(edge in concealment.wires)

    # -- following the document ------------------------------------------------------------

    def rebuild(self) -> None:
        """Throw away every item and draw the document afresh."""
        self._wire_drag.cancel()
        self._value_editor.close()
        self._moves.stop()
        self._clear_items()
        for node in self.document.nodes:
            self._add_node_item(node)
        for edge in self.document.edges:
            self._add_wire_item(edge)
        self._refresh_output_marks()
        self._refresh_tensor_texts()
        self._on_selection_changed()

    @guarded
    def _on_document_changed(self, change: Change) -> None:
        what = change.what
        self._follow_change(change)
        if what != "node_moved":  # a label, a new node or a new wire can renumber t1, t2, ...
            names = self.document.names()
            for node_id, item in self._nodes.items():
                item.set_name(names[node_id])
            self._refresh_tensor_texts()

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
            self._value_editor.forget_node(change.node_id)
            self._wire_drag.forget_node(change.node_id)
            self._moves.forget_node(change.node_id)
            item = self.remove_card(change.node_id)
            if item is not None:  # labels it pushed aside may return to their wire's middle
                self.place_labels_near(item.sceneBoundingRect())
            self._refresh_output_marks()
        elif what == "node_changed":
            item = self._nodes.get(change.node_id)
            if item is not None:
                item.set_node(self.document.node(change.node_id))
                self._refresh_ports(change.node_id)
        elif what == "node_moved":
            self._moves.follow_move(change.node_id)
        elif what == "edge_added":
            self._add_wire_item(change.edge)
            self._refresh_output_marks()
        elif what == "edge_removed":
            wire = self._wires.pop(change.edge, None)
            if wire is not None:
                self._drops.forget_wire(wire)
                self._remove_wire_item(wire)
            self._refresh_ports(change.edge.target)
            self._refresh_output_marks()
        elif what == "output_changed":
            self._refresh_output_marks()

    def _add_node_item(self, node: Node) -> NodeItem:
        item = NodeItem(node, self.document.name(node.id))
        item.set_editable(True)
        item.set_concealed(node.id in self._concealment.values, node.id in self._concealment.grads)
        if self._evaluation is not None:
            item.set_result(self._evaluation.results.get(node.id))
        self.add_card(node.id, item)
        return item

    def _add_wire_item(self, edge: Edge) -> WireItem | None:
        source, target = self._nodes.get(edge.source), self._nodes.get(edge.target)
        if source is None or target is None:
            return None
        wire = WireItem(edge, source, target)
        wire.set_label_visible(self._show_wire_grads)
        wire.set_concealed(edge in self._concealment.wires)
        if self._evaluation is not None:
            trained = self._evaluation.trained is not None
            wire.set_grad(self._evaluation.edge_grads.get(edge), TRAINED_DIGITS if trained else DIGITS)
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

    # -- what the gestures offer (the scene's API) ------------------------------------------

    def push(self, edit: edits.Edit) -> bool:
        """Push one edit as one undo step; an edit with no actions is not pushed."""
        return self._canvas_edits.push(edit)

    def new_node(self, kind_name: str, center: QPointF) -> Node:
        return self._canvas_edits.new_node(kind_name, center)

    def add_node_at(self, kind_name: str, center: QPointF) -> str | None:
        """Add a node of ``kind_name`` centred on ``center`` (one undo step) and select it; returns its id."""
        return self._canvas_edits.add_node_at(kind_name, center)

    def drop_kind(self, kind_name: str, pos: QPointF) -> str | None:
        """Add a node where a palette item was dropped; on a wire, insert it into the wire."""
        return self._drops.drop_kind(kind_name, pos)

    def delete_selection(self) -> bool:
        """Remove the selected nodes (with their wires) and the selected wires, as one undo step."""
        return self._canvas_edits.delete_selection()

    def make_output(self, node_id: str) -> None:
        self._canvas_edits.make_output(node_id)

    def make_selected_output(self) -> bool:
        """Edit > Make output: the one selected node becomes the output (False, and the status bar says why, when
        not exactly one node is selected)."""
        node_ids = self.selected_node_ids()
        if len(node_ids) != 1:
            self.status_message.emit("Select one node to make it the output (arrow keys on the canvas walk to one)")
            return False
        self.make_output(node_ids[0])
        return True

    def edit_value(self, node_id: str) -> QLineEdit | None:
        """Open a line edit over a leaf's value; Enter sets it (one undo step), Escape cancels."""
        return self._value_editor.open(node_id)

    @property
    def inline_editor(self) -> QLineEdit | None:
        return self._value_editor.line_edit

    def open_connect(self, parent: QWidget | None = None, node_id: str | None = None) -> WireChoiceDialog | None:
        """Edit > Connect…: a list of the inputs the selected node's output may feed; the chosen wire is made as
        a drag makes it (None: nothing to choose, and the status bar says why)."""
        return self._wiring.open_connect(parent, node_id)

    def open_disconnect(self, parent: QWidget | None = None, node_id: str | None = None) -> WireChoiceDialog | None:
        """Edit > Disconnect…: a list of the selected node's wires; the chosen one is removed."""
        return self._wiring.open_disconnect(parent, node_id)

    def walk(self, direction: QPointF) -> str | None:
        """Select the nearest card in ``direction`` (an arrow key on the canvas); returns its id."""
        return self._keys.walk(direction)

    def context_menu_for(self, pos: QPointF, parent: QWidget | None = None) -> QMenu | None:
        """The menu a right-click at ``pos`` opens (None on empty space)."""
        return self._menus.menu_for(pos, parent)

    def animate_next_moves(self) -> None:
        """Animate the next batch of node moves (one pushed edit) over ~250 ms instead of jumping.

        The document changes at once; only the drawing glides. The request lapses when control
        returns to the event loop, so call this right before pushing the edit.
        """
        self._moves.request()

    def is_animating(self) -> bool:
        return self._moves.is_animating()

    def is_dragging_wire(self) -> bool:
        return self._wire_drag.is_active

    @property
    def pending_wire(self) -> PendingWireItem | None:
        return self._wire_drag.pending_wire

    def _recover(self, error: Exception) -> None:
        self.status_message.emit(f"Something went wrong ({type(error).__name__}: {error}); the view was redrawn")
        self._wire_drag.cancel()
        self.rebuild()
        if self._evaluation is not None:
            self.show_evaluation(self._evaluation)

    # -- Qt's event handlers: each hands the event to its gesture ---------------------------

    @guarded
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._moves.stop()
        self._value_editor.commit_unless_over(event.scenePos())
        if event.button() == Qt.MouseButton.LeftButton:
            port = self.port_at(event.scenePos())
            if port is not None:
                self._wire_drag.begin(port, event.scenePos())
                event.accept()
                return
        super().mousePressEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self._node_drag.pressed()

    @guarded
    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._wire_drag.is_active:
            self._wire_drag.update(event.scenePos())
            event.accept()
            return
        super().mouseMoveEvent(event)

    @guarded
    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._wire_drag.is_active and event.button() == Qt.MouseButton.LeftButton:
            self._wire_drag.finish(event.scenePos())
            event.accept()
            return
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self._node_drag.released()

    @guarded
    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        on_port = self.port_at(event.scenePos()) is not None
        if event.button() == Qt.MouseButton.LeftButton and not on_port:
            item = self.node_at(event.scenePos())
            if item is not None and item.node.is_leaf:
                self._on_value_edit_requested(item.node_id)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    @guarded
    def _on_value_edit_requested(self, node_id: str) -> None:
        """A leaf's value to edit (a double-click, or Enter on the selected leaf)."""
        self.edit_requested.emit(node_id)
        self.edit_value(node_id)

    @guarded
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._value_editor.has_focus():
            super().keyPressEvent(event)
            return
        if event.key() == Qt.Key.Key_Escape and self._wire_drag.is_active:
            self._wire_drag.cancel()
            self.status_message.emit("No wire made")
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            if self.delete_selection():
                event.accept()
                return
        typing = self._value_editor.line_edit is not None  # the inline editor takes every key while it is open
        if not typing and not self._wire_drag.is_active and self._keys.handle(event):  # arrows walk, Enter edits
            event.accept()
            return
        super().keyPressEvent(event)

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
    def dragEnterEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._drops.drag_moved(event)

    @guarded
    def dragMoveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._drops.drag_moved(event)

    @guarded
    def dragLeaveEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._drops.drag_left(event)

    @guarded
    def dropEvent(self, event: QGraphicsSceneDragDropEvent) -> None:
        self._drops.dropped(event)

    # -- selection -------------------------------------------------------------------------

    @guarded
    def _on_selection_changed(self) -> None:
        self.selection_ids_changed.emit(self.selected_node_ids())


def _unsubscribe(document: GraphDocument, callback, *args) -> None:
    try:
        document.unsubscribe(callback)
    except ValueError:
        pass
