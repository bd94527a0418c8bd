"""One user edit = one QUndoCommand wrapping an `Edit` (see `playground.graph.edits`)."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ..graph.document import GraphDocument
from ..graph.edits import Edit, MoveNode, SetField

_SET_VALUE_ID = 1  # the value edits of one slider drag merge into one step


class EditCommand(QUndoCommand):
    """``gesture`` names the slider drag a value edit belongs to: the edits of one drag are one undo
    step; edits with no gesture (typed, or in another drag) stay steps of their own."""

    def __init__(self, document: GraphDocument, edit: Edit, gesture: int | None = None):
        super().__init__(edit.text)
        self.document = document
        self.edit = edit
        self.gesture = gesture

    def redo(self) -> None:
        self.edit.apply(self.document)

    def undo(self) -> None:
        self.edit.revert(self.document)

    def id(self) -> int:
        actions = self.edit.actions
        if (self.gesture is not None and len(actions) == 1 and isinstance(actions[0], SetField)
                and actions[0].name == "value"):
            return _SET_VALUE_ID
        return -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        mine, theirs = self.edit.actions[0], other.edit.actions[0]
        if mine.node_id != theirs.node_id or other.gesture != self.gesture:
            return False
        self.edit.actions[0] = SetField(mine.node_id, "value", mine.old, theirs.new)
        self.setText(other.text())
        return True


_NUDGE_ID = 2  # the presses of one run of Shift+arrow merge into one step


class NudgeCommand(EditCommand):
    """Cards moved by Shift+arrow: the presses of one key run (``run``) are one undo step, as one drag is."""

    def __init__(self, document: GraphDocument, edit: Edit, run: int):
        super().__init__(document, edit)
        self.run = run

    def id(self) -> int:
        return _NUDGE_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, NudgeCommand) or other.run != self.run:
            return False
        starts = {action.node_id: action.old for action in self.edit.actions}
        if set(starts) != {action.node_id for action in other.edit.actions}:
            return False
        self.edit.actions = [MoveNode(action.node_id, starts[action.node_id], action.new)
                             for action in other.edit.actions]
        return True
