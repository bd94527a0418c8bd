"""One user edit = one QUndoCommand wrapping an `Edit` (see `playground.editor.edits`)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from .document import GraphDocument
from .edits import Edit, SetField

_SET_VALUE_ID = 1  # consecutive value edits of one node (a slider drag) merge into one step


class EditCommand(QUndoCommand):
    def __init__(self, document: GraphDocument, edit: Edit):
        super().__init__(edit.text)
        self.document = document
        self.edit = edit

    def redo(self) -> None:
        self.edit.apply(self.document)

    def undo(self) -> None:
        self.edit.revert(self.document)

    def id(self) -> int:
        actions = self.edit.actions
        if len(actions) == 1 and isinstance(actions[0], SetField) and actions[0].name == "value":
            return _SET_VALUE_ID
        return -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        mine, theirs = self.edit.actions[0], other.edit.actions[0]
        if mine.node_id != theirs.node_id:
            return False
        self.edit.actions[0] = SetField(mine.node_id, "value", mine.old, theirs.new)
        self.setText(other.text())
        return True
