"""The editor's graph outline: the graph in words beside the canvas, kept in step with it.

A screen reader sees the canvas as one blank picture; the outline (`canvas.outline_view.GraphOutline`) reads
every node's value and gradient and every wire (issue 32). It follows each evaluation and each quiz's
concealment as the cards do, and the selection both ways: a row selected here selects its node (or wire) on
the canvas and brings it into view, a node selected on the canvas selects its row. While the outline is out
of sight (closed, or its side panel gave way to the graph) it is not rewritten: it catches up when shown.

It starts closed, as the cards already show what it says and the side panel has no height to spare on a
1280x720 screen, unless a screen reader is running (`when_screen_reader_runs`): then it opens with its side
panel.
View > Graph outline (Ctrl+Shift+O) opens it at any time, with its panel, and moves the focus there.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from ..canvas.outline_view import GraphOutline, when_screen_reader_runs
from ..graph.concealment import NOTHING_CONCEALED, Concealment
from ..graph.document import Edge, GraphDocument
from ..graph.evaluate import Evaluation
from ..graph.outline import outline
from ..widgets.errors import guarded

SHORTCUT = "Ctrl+Shift+O"


class OutlineRoom(QObject):
    """The outline widget and its View menu action (`action`), tied to ``scene`` and ``view``; ``give_way()``
    gives the editor's `GiveWay`, that opens the panel the outline is in when it gave way."""

    def __init__(self, document: GraphDocument, scene, view, give_way, parent: QObject | None = None):
        super().__init__(parent)
        self.document, self.scene, self.view, self._give_way = document, scene, view, give_way
        self._evaluation: Evaluation | None = None
        self._concealment = NOTHING_CONCEALED
        self._choosing = False  # the canvas is following a row chosen here: its selection changes are echoes
        self._chosen = False  # the person opened or closed it: no screen reader check overrides that
        self.widget = GraphOutline("Graph outline")
        self.widget.hide()
        self.action = QAction("Graph &outline", self)
        self.action.setObjectName("actionGraphOutline")
        self.action.setCheckable(True)  # checked while the outline is in sight
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setToolTip("Show or hide the graph as a list a screen reader reads: each node with its value "
                               f"and gradient, each wire with what it joins ({SHORTCUT} shows it, with the side "
                               "panel it is in, and moves the focus there)")
        self.action.triggered.connect(self._on_action_triggered)
        self.widget.shown.connect(self._on_widget_shown)
        self.widget.hidden.connect(self._show_state)
        self.widget.nodes_chosen.connect(self._on_outline_nodes_chosen)
        self.widget.wire_chosen.connect(self._on_outline_wire_chosen)
        scene.selection_ids_changed.connect(self._on_canvas_selection_changed)
        when_screen_reader_runs(self, self._on_screen_reader_running)

    def show_evaluation(self, evaluation: Evaluation | None) -> None:
        self._evaluation = evaluation
        self._refresh()

    def conceal(self, concealment: Concealment) -> None:
        """Say "hidden" for what a quiz asks for, as the cards show "?"."""
        self._concealment = concealment
        self._refresh()

    def _refresh(self) -> None:
        if self.widget.isVisible():
            self.widget.show_lines(outline(self.document, self._evaluation, self._concealment))

    # -- slots -------------------------------------------------------------------------------

    @guarded
    def _on_widget_shown(self) -> None:
        self._show_state()
        self._refresh()
        self.widget.select(self.scene.selected_node_ids(), self.scene.selected_edges())

    def _show_state(self) -> None:
        self.action.setChecked(self.widget.isVisible())

    @guarded
    def _on_screen_reader_running(self) -> None:
        if not self._chosen and not self.widget.isVisible():
            self.widget.show()
            self._give_way().hold_open(self.widget)  # no giving way to the graph: the outline is what is read
            self._show_state()

    @guarded
    def _on_action_triggered(self, _checked: bool = False) -> None:
        """Out of sight (closed, or its side panel gave way to the graph): show it, with its panel, and move the
        focus there; in sight: close it."""
        self._chosen = True
        if self.widget.isVisible():
            self.widget.hide()
        else:
            self.widget.show()
            self._give_way().hold_open(self.widget)  # its side panel opens (it may have given way) and stays
            self.widget.setFocus()
        self._show_state()

    @guarded
    def _on_outline_nodes_chosen(self, node_ids: list) -> None:
        self._choosing = True
        try:
            self.scene.select_nodes(node_ids)
        finally:
            self._choosing = False
        if node_ids:
            self._bring_into_view(self.scene.node_item(node_ids[0]))

    @guarded
    def _on_outline_wire_chosen(self, edge: Edge) -> None:
        self._choosing = True
        try:
            self.scene.select_nodes([])
            wire = self.scene.wire_item(edge)
            if wire is not None:
                wire.setSelected(True)
        finally:
            self._choosing = False
        self._bring_into_view(wire)

    @guarded
    def _on_canvas_selection_changed(self, node_ids: list) -> None:
        if self.widget.isVisible() and not self._choosing:
            self.widget.select(node_ids, self.scene.selected_edges())

    def _bring_into_view(self, item) -> None:
        """Scroll the canvas to the item unless it is in view already (a fitted graph stays where it is)."""
        if item is None:
            return
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if not shown.contains(item.sceneBoundingRect()):
            self.view.centerOn(item)

    def _recover(self, _error: Exception) -> None:
        """A slot failed: show the outline afresh from the document."""
        self._choosing = False
        self.widget.show_lines([])
        self._refresh()
