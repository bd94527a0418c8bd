"""How cards move: a mouse drag of the selected cards, and the glide of cards an edit moved.

`NodeDrag` remembers where the selected cards were when the mouse went down and, on release,
pushes one undo step that moves every card that moved. `MoveAnimation` follows the document's
moves: a card jumps to its new place, or, right after `request()` (auto-layout), glides there
over ~250 ms while the document already has the new positions.
"""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QPointF, QTimer, QVariantAnimation

from ..canvas.card_scene import CardScene
from ..graph import edits
from ..graph.document import GraphDocument
from ..widgets.errors import guarded
from .canvas_edits import CanvasEdits
from .scene_part import ScenePart

MOVE_ANIMATION_MS = 250


class NodeDrag(ScenePart):
    """A drag of the selected cards by mouse, pushed as one undo step when the mouse is released."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self._press_positions: dict[str, QPointF] = {}

    def pressed(self) -> None:
        """The mouse went down (and the scene selected what it selects): remember where the selected cards are."""
        self._press_positions = {item.node_id: QPointF(item.pos()) for item in self.scene.node_items()
                                 if item.isSelected()}
        if self._press_positions:
            self.scene.begin_drag()

    def released(self) -> None:
        """The mouse was released: one undo step moves every card that left its place."""
        pressed, self._press_positions = self._press_positions, {}
        self.scene.end_drag()
        document = self.canvas_edits.document
        node_item = self.scene.node_item
        moved = {}
        for node_id, start in pressed.items():
            item = node_item(node_id)
            if item is not None and item.pos() != start and document.has_node(node_id):
                moved[node_id] = (item.x(), item.y())
        if not moved:
            return
        names = [document.name(n) for n in moved]
        text = f"Move {names[0]}" if len(names) == 1 else f"Move {len(names)} nodes"
        self.canvas_edits.push(edits.move_nodes(document, moved, text))
        # Labels of other wires that the cards left or landed on look for their spot again.
        vacated = [node_item(n).sceneBoundingRect().translated(pressed[n] - node_item(n).pos()) for n in moved]
        self.scene.place_labels_near(*vacated, *(node_item(n).sceneBoundingRect() for n in moved))


class MoveAnimation(ScenePart):
    """Puts a card where the document says after a move: at once, or gliding when asked to."""

    def __init__(self, scene: CardScene, document: GraphDocument):
        super().__init__(scene)
        self.document = document
        self._requested = False
        self._scheduled = False
        self._targets: dict[str, QPointF] = {}
        self._starts: dict[str, QPointF] = {}
        self._animation: QVariantAnimation | None = None

    def request(self) -> None:
        """Animate the next batch of node moves (one pushed edit) over ~250 ms instead of jumping.

        The document changes at once; only the drawing glides. The request lapses when control
        returns to the event loop, so call this right before pushing the edit.
        """
        self._requested = True
        QTimer.singleShot(0, self._on_request_lapsed)

    def is_animating(self) -> bool:
        return self._animation is not None or bool(self._targets)

    def is_gliding(self) -> bool:
        """Some cards are on their way (drawn short of where the document has them)."""
        return bool(self._targets)

    def target_of(self, node_id: str) -> QPointF | None:
        """Where a gliding card is going (the document's position), or None if it is not gliding."""
        return self._targets.get(node_id)

    def follow_move(self, node_id: str) -> None:
        """The document moved ``node_id``: its card jumps there, or glides there if a glide was requested."""
        item = self.scene.node_item(node_id)
        if item is None:
            return
        node = self.document.node(node_id)
        target = QPointF(node.x, node.y)
        if self._requested:
            if not self._scheduled:
                self._scheduled = True
                QTimer.singleShot(0, self._start_glide)
            self._targets[node_id] = target
            return
        self._targets.pop(node_id, None)
        if item.pos() != target:
            before = item.sceneBoundingRect()
            item.setPos(target)
            self.scene.place_labels_near(before, item.sceneBoundingRect())

    def forget_node(self, node_id: str) -> None:
        self._targets.pop(node_id, None)

    def stop(self) -> None:
        """End a move animation now: every item goes where the document says."""
        animation, self._animation = self._animation, None
        if animation is not None:
            animation.stop()
            animation.deleteLater()
        for node_id in list(self._targets):
            item = self.scene.node_item(node_id)
            if item is not None and self.document.has_node(node_id):
                node = self.document.node(node_id)
                item.setPos(node.x, node.y)
        if self._targets or not self.scene.routing:  # the cards glided to new places (or went): every wire finds
            self.scene.set_routing(True)  # its way again, every label its spot
        self._targets.clear()
        self._starts = {}

    @guarded
    def _on_request_lapsed(self) -> None:
        self._requested = False

    @guarded
    def _start_glide(self) -> None:
        self._scheduled = False
        if self._animation is not None:  # a new batch while one glides: go on from where items are
            self._animation.stop()
            self._animation.deleteLater()
            self._animation = None
        self._starts = {node_id: QPointF(self.scene.node_item(node_id).pos())
                        for node_id in self._targets if self.scene.node_item(node_id) is not None}
        if not self._starts:
            self._targets.clear()
            return
        self.scene.set_routing(False)  # plain curves while the cards glide: `stop` routes them once they land
        animation = QVariantAnimation(self)
        animation.setStartValue(0.0)
        animation.setEndValue(1.0)
        animation.setDuration(MOVE_ANIMATION_MS)
        animation.setEasingCurve(QEasingCurve.Type.InOutCubic)
        animation.valueChanged.connect(self._on_animation_value_changed)
        animation.finished.connect(self._on_animation_finished)
        self._animation = animation
        animation.start()

    @guarded
    def _on_animation_value_changed(self, t) -> None:
        t = float(t)
        for node_id, start in self._starts.items():
            item, end = self.scene.node_item(node_id), self._targets.get(node_id)
            if item is not None and end is not None:
                item.setPos(start + (end - start) * t)

    @guarded
    def _on_animation_finished(self) -> None:
        self.stop()
