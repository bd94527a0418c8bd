"""What a quiz keeps off the editor's screen while it asks: Qt-free.

While Predict mode or a lesson's exercise asks for values or gradients of the graph the editor
shows, the cards must not print the answers one tab away. A `Concealment` names the nodes whose
value or gradient show "?" and the wires whose gradient label does; the animator's quiz hiding
decides it (`animator.model.hiding.editor_concealment`), the editor only draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .document import Edge

HIDDEN = "?"


@dataclass(frozen=True)
class Concealment:
    values: frozenset[str] = frozenset()
    grads: frozenset[str] = frozenset()
    wires: frozenset[Edge] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.values or self.grads or self.wires)


NOTHING_CONCEALED = Concealment()
