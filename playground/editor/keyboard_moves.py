"""The canvas by keyboard: arrows walk from card to card, Shift+arrows move the selected cards by a grid step,
Enter or F2 edits the selected node (a leaf's value on its card, anything else in the properties panel).

A person who cannot use a mouse moves through the graph as a reader does, to the nearest card in the
direction of the arrow, and moves cards as a drag would: every press of a run of Shift+arrow (one press,
or a key held down) is one undo step, as one drag is.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent

from ..canvas.card_scene import GRID_STEP, CardScene
from ..graph import edits
from ..graph.document import GraphDocument
from .canvas_edits import CanvasEdits
from .commands import NudgeCommand
from .scene_part import ScenePart

ARROWS = {
    Qt.Key.Key_Left: QPointF(-1, 0),
    Qt.Key.Key_Right: QPointF(1, 0),
    Qt.Key.Key_Up: QPointF(0, -1),
    Qt.Key.Key_Down: QPointF(0, 1),
}
EDIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2)
# What the editor's canvas does with each key, for Help > Keyboard shortcuts and the README (keys, what).
CANVAS_KEYS = (
    ("← → ↑ ↓", "Select the nearest node that way (at first: the output)"),
    ("Shift+← → ↑ ↓", "Move the selected nodes a grid step (a key run: one undo step)"),
    ("Enter, F2", "Edit the selected node: a leaf's value, else its properties"),
    ("Delete, Backspace", "Delete the selected nodes and wires"),
    ("Menu key, Shift+F10", "The selected node's menu, at its card"),
    ("/", "Quick search: add a node"),
    ("Tab", "The next control (quick search, if the mouse brought you here)"),
    ("Shift+Tab", "The control before the canvas"),
    ("Escape", "Close quick search, a value being typed, a wire being dragged"),
    ("Ctrl+← → ↑ ↓, PgUp, PgDown", "Pan"),
    ("Space + drag, middle drag", "Pan with the mouse"),
)
CANVAS_HINT = ("Canvas: arrows select a node, Shift+arrows move it, Enter edits it, Ctrl+K connects its output, "
               "/ adds a node, Tab goes on to the next control")
SIDEWAYS_WEIGHT = 2.0  # a card off to the side counts as this much further than one straight ahead


def nearest_towards(start: QPointF, others: dict[str, QPointF], direction: QPointF) -> str | None:
    """The id in ``others`` whose centre is nearest ``start`` in ``direction`` (a unit vector along an axis):
    ahead of it, a step sideways weighing twice a step ahead, so the arrow goes where the eye expects.
    None when nothing lies ahead."""
    best, best_score = None, float("inf")
    for node_id, centre in others.items():
        delta = centre - start
        ahead = delta.x() * direction.x() + delta.y() * direction.y()
        if ahead <= 0.5:
            continue
        sideways = abs(delta.x() * direction.y()) + abs(delta.y() * direction.x())
        score = ahead + SIDEWAYS_WEIGHT * sideways
        if score < best_score:
            best, best_score = node_id, score
    return best


class KeyboardMoves(ScenePart):
    """The keys of the editor's canvas that walk, move and edit; ``handle`` says whether it took a key."""

    properties_requested = Signal(str)  # Enter on a node that is not edited on its card: its properties
    value_edit_requested = Signal(str)  # Enter on a leaf: its value (the scene opens the card's editor)

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self._runs = itertools.count(1)
        self._run = 0  # the key run the last Shift+arrow belonged to

    @property
    def document(self) -> GraphDocument:
        return self.canvas_edits.document

    def handle(self, event: QKeyEvent) -> bool:
        key, modifiers = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if key in ARROWS and modifiers == Qt.KeyboardModifier.NoModifier:
            self.walk(ARROWS[key])
            return True
        if key in ARROWS and modifiers == Qt.KeyboardModifier.ShiftModifier:
            if not event.isAutoRepeat():
                self._run = next(self._runs)
            return self.nudge(ARROWS[key] * GRID_STEP, self._run)
        if key in EDIT_KEYS and modifiers == Qt.KeyboardModifier.NoModifier:
            return self.edit_selected()
        return False

    # -- walking ------------------------------------------------------------------------------

    def walk(self, direction: QPointF) -> str | None:
        """Select the nearest card in ``direction`` from the selected one (none selected: the output, else the
        first node) and bring it into view; returns its id (None for an empty graph)."""
        cards = {item.node_id: item.sceneBoundingRect().center() for item in self.scene.node_items()}
        if not cards:
            return None
        selected = [n for n in self.scene.selected_node_ids() if n in cards]
        if not selected:
            output = self.document.effective_output()
            chosen = output if output in cards else self.document.nodes[0].id
        else:
            current = selected[-1]
            others = {n: c for n, c in cards.items() if n != current}
            chosen = nearest_towards(cards[current], others, direction) or current
        self.scene.select_nodes([chosen])
        self.bring_into_view(chosen)
        self.canvas_edits.announce(f"Selected {self.document.name(chosen)}")
        return chosen

    def bring_into_view(self, node_id: str) -> None:
        item = self.scene.node_item(node_id)
        if item is None:
            return
        for view in self.scene.views():
            show = getattr(view, "show_scene_rect", None)
            if show is not None:
                show(item.sceneBoundingRect())

    # -- moving -------------------------------------------------------------------------------

    def nudge(self, step: QPointF, run: int) -> bool:
        """Move the selected cards by ``step``: one undo step per key run (``run``), as one drag is."""
        node_ids = [n for n in self.scene.selected_node_ids() if self.document.has_node(n)]
        if not node_ids:
            self.canvas_edits.announce("Select a node to move (arrow keys walk to one)")
            return True
        positions = {n: (self.document.node(n).x + step.x(), self.document.node(n).y + step.y()) for n in node_ids}
        names = [self.document.name(n) for n in node_ids]
        text = f"Move {names[0]}" if len(names) == 1 else f"Move {len(names)} nodes"
        edit = edits.move_nodes(self.document, positions, text)
        if edit.actions:
            self.canvas_edits.undo_stack.push(NudgeCommand(self.document, edit, run))
        self.bring_into_view(node_ids[-1])
        return True

    # -- editing ------------------------------------------------------------------------------

    def edit_selected(self) -> bool:
        node_ids = self.scene.selected_node_ids()
        if len(node_ids) != 1:
            self.canvas_edits.announce("Select one node to edit (arrow keys walk to one)")
            return bool(node_ids)
        node = self.document.node(node_ids[0])
        if node.is_leaf:
            self.value_edit_requested.emit(node.id)
        else:
            self.properties_requested.emit(node.id)
        return True
