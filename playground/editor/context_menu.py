"""The canvas's right-click menus: on a node (make it the output, edit its value, connect or disconnect it
from a list, delete it) and on a wire (disconnect it); none on empty space."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMenu, QWidget

from ..canvas.card_scene import CardScene
from ..widgets.errors import guarded
from .canvas_edits import CanvasEdits
from .connect_dialog import KeyboardWiring
from .scene_part import ScenePart
from .value_editor import InlineValueEditor


class ContextMenus(ScenePart):
    """Builds the menu for a point of ``scene``; its actions go through `CanvasEdits` and the value editor."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits, value_editor: InlineValueEditor,
                 wiring: KeyboardWiring):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self.value_editor = value_editor
        self.wiring = wiring

    def menu_for(self, pos: QPointF, parent: QWidget | None = None) -> QMenu | None:
        """The menu a right-click at ``pos`` opens (None on empty space)."""
        canvas_edits = self.canvas_edits
        node_item = self.scene.node_at(pos)
        if node_item is not None:
            node_id = node_item.node_id
            menu = QMenu(parent)
            menu.setObjectName("nodeContextMenu")
            make_output = menu.addAction("Make output")
            make_output.setObjectName("makeOutputAction")
            make_output.setCheckable(True)
            make_output.setChecked(canvas_edits.document.effective_output() == node_id)
            make_output.triggered.connect(lambda checked=False, n=node_id: self._call(canvas_edits.make_output, n))
            if node_item.node.is_leaf:
                edit = menu.addAction("Edit value…")
                edit.setObjectName("editValueAction")
                edit.triggered.connect(lambda checked=False, n=node_id: self._call(self.value_editor.open, n))
            connect = menu.addAction("Connect output to…")
            connect.setObjectName("connectAction")
            connect.setToolTip("Choose an input for this node's output from a list (Ctrl+K)")
            connect.triggered.connect(lambda checked=False, n=node_id: self._call(self.wiring.open_connect, parent, n))
            disconnect = menu.addAction("Disconnect…")
            disconnect.setObjectName("disconnectNodeAction")
            disconnect.setToolTip("Choose one of this node's wires to remove (Ctrl+Shift+K)")
            disconnect.setEnabled(bool(canvas_edits.document.edges_of(node_id)))
            disconnect.triggered.connect(lambda checked=False, n=node_id: self._call(self.wiring.open_disconnect,
                                                                                      parent, n))
            menu.addSeparator()
            delete = menu.addAction("Delete")
            delete.setObjectName("deleteNodeAction")
            delete.triggered.connect(lambda checked=False, n=node_id: self._call(canvas_edits.delete_node, n))
            return menu
        wire = self.scene.wire_at(pos)
        if wire is not None:
            menu = QMenu(parent)
            menu.setObjectName("wireContextMenu")
            disconnect = menu.addAction("Disconnect")
            disconnect.setObjectName("disconnectAction")
            disconnect.triggered.connect(lambda checked=False, e=wire.edge: self._call(canvas_edits.disconnect, e))
            return menu
        return None

    @guarded
    def _call(self, function, *args) -> None:
        function(*args)
