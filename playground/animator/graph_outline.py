"""The animated graph as an outline a screen reader reads (issue 32, item 1): one row per node, in the step
panel under the step's explanation, saying where the node is in the animation and what its card shows:

    t1, gradient ready, value 6, grad 7
    L, being processed, the current step, value 70, grad 1
    t3, not reached yet, value not yet, grad not yet

Each row is written from the node's card as `SceneSync` left it (its state, and its lines with a quiz's "?"
already in them), so the outline never says more than the cards do. It follows every step; the current
step's node is the selected row, and choosing a row goes to that node's step, as clicking its card does. It
starts closed (the cards and the step panel show the same) unless a screen reader is running.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from ..canvas.outline_view import GraphOutline, when_screen_reader_runs
from ..graph.outline import NodeLine
from ..widgets.errors import guarded

NOT_AFFECTING = "does not affect the output"
NOT_YET = "not yet"


class AnimatorOutline(QObject):
    """The outline widget (`widget`, in the step panel) and its View menu action (`action`) for ``panel``."""

    def __init__(self, panel):
        super().__init__(panel)
        self.panel = panel
        self._chosen = False  # the person opened or closed it: no screen reader check overrides that
        self.widget = GraphOutline("Animated graph outline")
        self.widget.setObjectName("animatorOutline")
        self.widget.setAccessibleDescription("Every node of the animated graph: where it is in the animation and "
                                             "its value and gradient so far. Choosing a row goes to its step.")
        self.widget.hide()
        panel.steps.extra.addWidget(self.widget)
        self.action = QAction("Animated graph o&utline", self)
        self.action.setObjectName("actionAnimatorOutline")
        self.action.setCheckable(True)  # checked while the outline is in sight
        self.action.setToolTip("Show or hide the animated graph as a list a screen reader reads: each node's "
                               "state, value and gradient at this step (in the step panel)")
        self.action.triggered.connect(self._on_action_triggered)
        self.widget.shown.connect(self._on_widget_shown)
        self.widget.hidden.connect(self._show_state)
        self.widget.nodes_chosen.connect(self._on_outline_nodes_chosen)
        panel.step_reached.connect(self._on_step_reached)
        panel.hiding_applied.connect(self._on_step_reached)
        when_screen_reader_runs(self, self._on_screen_reader_running)

    def lines(self) -> list[NodeLine]:
        """One line per card, in the animation's order (the nodes that affect the output first)."""
        timeline = self.panel.timeline
        if timeline is None:
            return []
        current = timeline.current.node_id if timeline.current is not None else None
        items = {item.node_id: item for item in self.panel.scene.node_items()}
        order = [node_id for node_id in timeline.display if node_id in items]
        order += [node_id for node_id in items if node_id not in timeline.display]
        found = []
        for node_id in order:
            item, state = items[node_id], timeline.display.get(node_id)
            words = [item.display_name(), state.state.value if state is not None else NOT_AFFECTING]
            if node_id == current:
                words.append("the current step")
            if state is not None:  # "value —" on a card is said "value not yet"
                words += [line[:-1] + NOT_YET if line.endswith(" —") else line for line in item.body_lines()]
            found.append(NodeLine(node_id, ", ".join(words), ()))
        return found

    def _refresh(self) -> None:
        if not self.widget.isVisible():
            return
        self.widget.show_lines(self.lines())
        timeline = self.panel.timeline
        current = timeline.current if timeline is not None else None
        self.widget.select([current.node_id] if current is not None and current.node_id is not None else [])

    def _show_state(self) -> None:
        self.action.setChecked(self.widget.isVisible())

    # -- slots -------------------------------------------------------------------------------

    @guarded
    def _on_step_reached(self, _position: int = 0) -> None:
        self._refresh()

    @guarded
    def _on_widget_shown(self) -> None:
        self._show_state()
        self._refresh()

    @guarded
    def _on_screen_reader_running(self) -> None:
        if not self._chosen and not self.widget.isVisible():
            self.widget.show()
            self.panel.give_way.hold_open(self.widget)  # the step panel it is in gives way to the graph no more
            self._show_state()

    @guarded
    def _on_action_triggered(self, _checked: bool = False) -> None:
        """Out of sight: show it, with the step panel, and move the focus there; in sight: close it."""
        self._chosen = True
        if self.widget.isVisible():
            self.widget.hide()
        else:
            self.widget.show()
            self.panel.give_way.hold_open(self.widget)  # the step panel opens (it may have given way) and stays
            self.widget.setFocus()
        self._show_state()

    @guarded
    def _on_outline_nodes_chosen(self, node_ids: list) -> None:
        """A row chosen: go to its node's step (a node that does not affect the output has none)."""
        timeline = self.panel.timeline
        if timeline is None or len(node_ids) != 1 or node_ids[0] not in timeline.display:
            return
        self.panel.seek(timeline.frame_of_node(node_ids[0]))

    def _recover(self, _error: Exception) -> None:
        """A slot failed: the next step writes the rows afresh."""
        self.widget.show_lines([])
