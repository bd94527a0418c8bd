"""Wiring without a mouse: Edit > Connect… (Ctrl+K) lists the inputs the selected node's output may feed and
makes the chosen wire as a drag would; Edit > Disconnect… (Ctrl+Shift+K) lists the selected node's wires and
removes the chosen one. Arrows pick, Enter chooses, Escape cancels.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..canvas.card_scene import CardScene
from ..graph.wire_choices import WireChoice, connect_choices, disconnect_choices, replacement_problem
from ..widgets.errors import guarded
from ..widgets.screen_fit import fit_to_screen
from .canvas_edits import CanvasEdits
from .scene_part import ScenePart


class WireChoiceDialog(QDialog):
    """A list of wires in words; Enter (or OK, or a double-click) chooses the current one."""

    chosen = Signal(object)  # the WireChoice

    def __init__(self, title: str, question: str, choices: list[WireChoice], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("wireChoiceDialog")
        self.setWindowTitle(title)
        self.setAccessibleName(title)
        self.choices = choices
        label = QLabel(question)
        label.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("wireChoiceList")
        self.list.setAccessibleName(question)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for choice in choices:
            item = QListWidgetItem(choice.text)
            item.setToolTip(choice.text)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        label.setBuddy(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setAccessibleName(f"{title}: make the chosen change")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setAccessibleName(f"{title}: cancel, change nothing")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.itemActivated.connect(lambda _item: self.accept())
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def current_choice(self) -> WireChoice | None:
        row = self.list.currentRow()
        return self.choices[row] if 0 <= row < len(self.choices) else None

    def accept(self) -> None:
        choice = self.current_choice()
        super().accept()
        if choice is not None:
            self.chosen.emit(choice)


class KeyboardWiring(ScenePart):
    """Opens Connect… and Disconnect… for the scene's selected node; `CanvasEdits` makes the change."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self.dialog: WireChoiceDialog | None = None  # the one open, if any

    def _selected(self, what: str) -> str | None:
        node_ids = self.scene.selected_node_ids()
        if len(node_ids) != 1:
            self.canvas_edits.announce(f"Select one node to {what} (arrow keys on the canvas walk to one)")
            return None
        return node_ids[0]

    def open_connect(self, parent: QWidget | None = None, node_id: str | None = None) -> WireChoiceDialog | None:
        """Connect… for ``node_id`` (default: the selected node): its output to an input chosen from a list."""
        node_id = node_id or self._selected("connect")
        if node_id is None:
            return None
        document = self.canvas_edits.document
        name = document.name(node_id)
        choices = connect_choices(document, node_id)
        if not choices:
            self.canvas_edits.announce(f"No input {name} could feed without making a cycle")
            return None
        return self._open("Connect", f"Connect the output of {name} to:", choices, self._on_connect_chosen, parent)

    def open_disconnect(self, parent: QWidget | None = None, node_id: str | None = None) -> WireChoiceDialog | None:
        """Disconnect… for ``node_id`` (default: the selected node): one of its wires, chosen from a list."""
        node_id = node_id or self._selected("disconnect")
        if node_id is None:
            return None
        document = self.canvas_edits.document
        choices = disconnect_choices(document, node_id)
        if not choices:
            self.canvas_edits.announce(f"{document.name(node_id)} has no wires")
            return None
        return self._open("Disconnect", f"Remove a wire of {document.name(node_id)}:", choices,
                          self._on_disconnect_chosen, parent)

    def _open(self, title, question, choices, slot, parent) -> WireChoiceDialog:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog = WireChoiceDialog(title, question, choices, parent)
        dialog.setObjectName(f"{title.lower()}Dialog")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.chosen.connect(slot)
        dialog.finished.connect(self._on_dialog_finished)
        fit_to_screen(dialog, QSize(620, 340))
        dialog.open()
        return dialog

    @guarded
    def _on_dialog_finished(self, _result: int) -> None:
        dialog, self.dialog = self.dialog, None
        views = self.scene.views()
        if dialog is not None and views:  # the keyboard goes back where it was: the canvas, its window active again
            views[0].window().activateWindow()
            views[0].setFocus(Qt.FocusReason.OtherFocusReason)

    @guarded
    def _on_connect_chosen(self, choice: WireChoice) -> None:
        document = self.canvas_edits.document
        self.canvas_edits.connect(choice.edge, replacement_problem(document, choice), choice.replaces)

    @guarded
    def _on_disconnect_chosen(self, choice: WireChoice) -> None:
        self.canvas_edits.disconnect(choice.edge)
