"""Keeps the animator's scene in step with an animation: each card's colour and lines, each wire's
label and colour, and the ring on the current step's node.

Moving in time touches only the nodes whose display changed (``Timeline.seek`` says which) and
the wires of the frames passed over, so a 1000-node graph steps as fast as a small one.

The view keeps in sight the current step's card and, while a lesson's question waits, the card it asks about
(`ask`): the one asked about first when the question has just been asked, the step's first from the next move
in time on, the other beside it wherever both fit (`in_sight_order`).
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QColor

from ..canvas.view import GraphView
from ..graph.document import Edge
from .colors import (
    BACKWARD_WIRE_COLOR,
    FORWARD_WIRE_COLOR,
    STATE_COLORS,
    STATE_MARKS,
    UNUSED_OPACITY,
    WRONG_COLOR,
    WRONG_MARK,
)
from .in_sight import keep_in_sight
from .model.reveal import Reveal
from .model.tensor_timeline import TensorAnimation
from .model.timeline import DocumentAnimation, NodeState
from .scene import AnimatorScene

Animation = DocumentAnimation | TensorAnimation


class SceneSync:
    """Draws ``animation`` (a `DocumentAnimation` or a `TensorAnimation`) on ``scene`` as its timeline moves."""

    def __init__(self, scene: AnimatorScene, view: GraphView):
        self.scene, self.view = scene, view
        self.animation: Animation | None = None
        self._edge_position: dict[Edge, int] = {}  # a wire is traversed once the position reaches this
        self.wire_highlights: dict[Edge, str | None] = {}  # what each wire was last given
        self._marked_node: str | None = None  # the node with the selection ring (the current frame's)
        self.reveal: Reveal | None = None  # what a quiz hides ("?" on the cards, no label on the wires)
        self.asked: str | None = None  # the node (of the scene) a lesson's waiting question asks about
        self.asked_first = False  # that question has just been asked: its card goes before the step's

    def start(self, animation: Animation | None) -> None:
        """Follow ``animation`` (None: nothing yet) on a scene just redrawn: nothing marked, nothing lit,
        nothing hidden."""
        self.animation, self._edge_position, self.wire_highlights = animation, {}, {}
        self._marked_node = None
        self.reveal = None
        self.asked, self.asked_first = None, False  # the scene was redrawn: its nodes may be others
        if animation is not None:
            frames = animation.timeline.frames
            self._edge_position = {frame.edge: i + 1 for i, frame in enumerate(frames) if frame.edge}
            self.refresh_all()

    def show_plain(self) -> None:
        """No timeline: every card and wire drawn plainly, without numbers."""
        self.animation = None
        for item in self.scene.node_items():
            item.set_highlight(None)
            item.set_badge(None)
            item.set_body_lines(["value —", "grad —"])
            item.setOpacity(1.0)
        for wire in self.scene.wire_items():
            wire.set_highlight(None)
            wire.set_label_visible(False)
            wire.setOpacity(1.0)
        self.wire_highlights = {}

    def refresh_all(self) -> None:
        """Draw every node and wire for the current position (after a load)."""
        display = self.animation.timeline.display
        for item in self.scene.node_items():
            used = item.node_id in display
            item.setOpacity(1.0 if used else UNUSED_OPACITY)
            if not used:
                item.set_highlight(STATE_COLORS[NodeState.NOT_REACHED])
                item.set_badge(None)  # never reached: its tooltip and faded card say why
                item.set_body_lines(["value —", "grad —"])
                item.setToolTip(f"{item.display_name()} does not affect the output")
        self.refresh_nodes(display)
        for wire in self.scene.wire_items():
            used = wire.edge.source in display and wire.edge.target in display
            wire.setOpacity(1.0 if used else UNUSED_OPACITY)
            self.refresh_wire(wire.edge)
        self.mark_current_node()

    def refresh_moved(self, touched: Iterable[str], old_position: int) -> None:
        """Redraw what moving from ``old_position`` to the current one changed, and nothing else."""
        self.refresh_nodes(touched)
        timeline = self.animation.timeline
        low, high = sorted((old_position, timeline.position))
        edges: set[Edge] = set()
        frames = timeline.frames
        for index in range(low, high):
            edge = frames[index].edge
            if edge is not None:
                edges.add(edge)
        for position in (old_position, timeline.position):
            if position > 0:
                edges.update(frames[position - 1].wires)
        for edge in edges:
            self.refresh_wire(edge)
        self.mark_current_node()

    def current_item(self):
        """The card of the node the current frame is about, or None."""
        frame = self.animation.timeline.current if self.animation is not None else None
        return self.scene.node_item(frame.node_id) if frame is not None and frame.node_id is not None else None

    def mark_current_node(self) -> None:
        """The node the current frame is about gets the selection ring, so the eye finds it, and the
        view pans the least that shows its card whole, clear of the minimap (`keep_in_sight`)."""
        frame = self.animation.timeline.current if self.animation is not None else None
        wanted = frame.node_id if frame is not None else None
        if wanted != self._marked_node:
            self._marked_node = wanted
            self.scene.select_nodes([wanted] if wanted is not None else [])
        # After every move, not only when the node changes: a new value or badge can make the card larger.
        self.keep_current_in_sight()

    def keep_current_in_sight(self) -> None:
        """Pan the view the least that shows the current step's card whole, off the minimap (if it is shown), and
        the card a waiting question asks about (`in_sight_order`)."""
        items = self.in_sight_order()
        if items and self.view.isVisible():
            keep_in_sight(self.view, *items)

    def ask(self, node_id: str | None) -> None:
        """A lesson's question now asks about the card of ``node_id`` (None: no question waits): it is panned
        into sight at once, the least, with the current step's card where both fit."""
        self.asked = node_id if node_id is not None and self.scene.node_item(node_id) is not None else None
        self.asked_first = self.asked is not None
        self.keep_current_in_sight()

    def step_first(self) -> None:
        """A move in time: from now on the current step's card goes first, the asked one beside it if it fits."""
        self.asked_first = False

    def in_sight_order(self) -> list:
        """The cards to keep in sight, the one that must be first: the current step's and the asked one's."""
        current = self.current_item()
        asked = self.scene.node_item(self.asked) if self.asked is not None else None
        cards = [asked, current] if self.asked_first else [current, asked]
        return [card for index, card in enumerate(cards) if card is not None and card not in cards[:index]]

    def refresh_nodes(self, node_ids: Iterable[str]) -> None:
        animation = self.animation
        display = animation.timeline.display
        flagged = getattr(animation, "flagged", None)  # a mistaken replay marks the nodes it got wrong
        for node_id in node_ids:
            item = self.scene.node_item(node_id)
            state = display.get(node_id)
            if item is None or state is None:
                continue
            wrong = flagged is not None and flagged(node_id, state)
            color = QColor(WRONG_COLOR if wrong else STATE_COLORS[state.state])
            if item.highlight != color:
                item.set_highlight(color)
            item.set_badge(WRONG_MARK if wrong else STATE_MARKS[state.state])
            lines = animation.node_lines(node_id, state)
            tooltip = animation.node_tooltip(node_id, state)
            if self.reveal is not None:
                lines = self.reveal.card_lines(node_id, lines)
                tooltip = self.reveal.tooltip(node_id, state, tooltip)
            if item.body_lines() != lines:
                item.set_body_lines(lines)
            item.setToolTip(tooltip)

    def refresh_wire(self, edge: Edge) -> None:
        wire = self.scene.wire_item(edge)
        if wire is None:
            return
        timeline = self.animation.timeline
        position, current = timeline.position, timeline.current
        reached = self._edge_position.get(edge)
        traversed = reached is not None and reached <= position
        hidden = self.reveal is not None and reached is not None and self.reveal.hides(reached)
        highlight = None
        if current is not None and edge in current.wires:
            highlight = BACKWARD_WIRE_COLOR if current.phase == "backward" else FORWARD_WIRE_COLOR
        if hidden:
            wire.set_grad(None)  # not even in its tooltip
        elif traversed:
            wire.set_grad(self.animation.wire_labels.get(edge))
        # A scalar wire keeps its gradient once passed; a tensor's card already shows the norm of its
        # gradient, so only the current step's wire says what it carries (the graph stays readable).
        labelled = traversed and not hidden and (self.animation.labels_stay
                                                 or current is not None and current.edge == edge)
        if wire.label_visible != labelled:
            wire.set_label_visible(labelled)
        if self.wire_highlights.get(edge) != highlight:
            self.wire_highlights[edge] = highlight
            wire.set_highlight(highlight)
            wire.setZValue(2.5 if highlight else -1)  # above the other wires and the cards (2 when selected)
