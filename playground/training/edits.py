"""A typed weight or bias as one undoable edit (`QUndoCommand`): redo sends the new value to the
worker, undo the old one. An edit belongs to one network (its run): once the network is rebuilt
the panel clears the stack, and the worker ignores a value for a run that is gone."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from ..common.numbers import format_number


class ParameterEdit(QUndoCommand):
    def __init__(self, send: Callable[[int, str, tuple, float], None], run: int, name: str, index: tuple,
                 old: float, new: float):
        where = ", ".join(str(i) for i in index)
        super().__init__(f"set {name}[{where}] to {format_number(new)}")
        self.send, self.run, self.name, self.index = send, run, name, tuple(index)
        self.old, self.new = float(old), float(new)

    def redo(self) -> None:
        self.send(self.run, self.name, self.index, self.new)

    def undo(self) -> None:
        self.send(self.run, self.name, self.index, self.old)
