"""The graph as an outline a screen reader reads: one row per node, under it one row per wire into it.

A `QGraphicsView` is one picture to a screen reader. This tree tells the same graph in words (the sentences
of `graph.outline`): every row's text is also its accessible text, so Orca reads "t1 = a * b, value 6,
gradient 7" as the row gets the focus. Texts change in place when only the numbers change (the rows, the
focus and the selection stay); a new structure (a node or a wire added or removed) builds the rows again
and keeps the selection. Whoever shows it ties its selection to the canvas's (`nodes_chosen`, `wire_chosen`,
`select`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QObject, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QAccessible, QAccessibleEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QTreeView

from ..graph.document import Edge
from ..graph.outline import NodeLine
from ..widgets.errors import guarded

SCREEN_READER_CHECKS_MS = (0, 2000)  # after the start: is a screen reader running? (AT-SPI answers late)
NODE_ROLE = Qt.ItemDataRole.UserRole  # a node row's node id
EDGE_ROLE = Qt.ItemDataRole.UserRole + 1  # a wire row's Edge


def when_screen_reader_runs(owner: QObject, callback: Callable[[], None]) -> None:
    """Call ``callback`` soon after the start if a screen reader is running (Qt's accessibility is active then).
    Qt learns of one from AT-SPI a moment after the start, so this is asked twice; ``callback`` may be called
    twice (and never once ``owner`` is gone)."""
    def check() -> None:
        if QAccessible.isActive():
            callback()

    for delay in SCREEN_READER_CHECKS_MS:
        QTimer.singleShot(delay, owner, check)


SAME_AS_TEXT = (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole)


class _Row(QStandardItem):
    """A row whose accessible text and tooltip (the row whole, when it is wider than the panel) are its text:
    one value to write when the numbers change, not three."""

    def __init__(self, text: str):
        super().__init__(text)
        self.setEditable(False)

    def data(self, role: int = Qt.ItemDataRole.UserRole + 1):
        return super().data(Qt.ItemDataRole.DisplayRole if role in SAME_AS_TEXT else role)


def _set_text(item: QStandardItem, text: str) -> bool:
    """Write the row's text; True if it changed (an unchanged row is not announced again)."""
    if item.text() == text:
        return False
    item.setText(text)
    return True


def announce(event: QAccessibleEvent) -> None:
    """Tell the screen reader (Qt's AT-SPI bridge) of ``event``."""
    QAccessible.updateAccessibility(event)


class GraphOutline(QTreeView):
    """The rows of a graph's `NodeLine`s; see the module docstring."""

    nodes_chosen = Signal(list)  # the node ids the person selected here (by keyboard or mouse)
    wire_chosen = Signal(object)  # the Edge of the wire row the person selected
    shown = Signal()  # the outline came into sight (its owner may have skipped updates while it was hidden)
    hidden = Signal()  # the outline went out of sight (closed, or the panel it is in)

    def __init__(self, accessible_name: str = "Graph outline", parent=None):
        super().__init__(parent)
        self.setObjectName("graphOutline")
        self.setAccessibleName(accessible_name)
        self.setAccessibleDescription("Every node of the graph with its value and gradient, operands first; "
                                      "under each node the wires into it. Selecting a row selects it on the canvas.")
        self.model_ = QStandardItemModel(self)
        self.setModel(self.model_)
        self.setHeaderHidden(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setUniformRowHeights(True)
        self._structure: tuple = ()  # (node id, (edges...)) per row: what decides whether rows are built again
        self._following = False  # the selection is being set to follow the canvas: not the person's choice
        self.selectionModel().selectionChanged.connect(self._on_selection_changed)

    # -- showing -----------------------------------------------------------------------------

    def show_lines(self, lines: Sequence[NodeLine]) -> None:
        """Show these sentences; rows are rewritten in place while the graph's structure stays."""
        structure = tuple((line.node_id, tuple(wire.edge for wire in line.wires)) for line in lines)
        if structure != self._structure:
            self._rebuild(lines, structure)
            return
        current, current_changed = self.currentIndex(), False
        for row, line in enumerate(lines):
            item = self.model_.item(row)
            changed = _set_text(item, line.text)
            current_changed |= changed and item.index() == current
            for wire_row, wire in enumerate(line.wires):
                changed = _set_text(item.child(wire_row), wire.text)
                current_changed |= changed and item.child(wire_row).index() == current
        if current_changed:
            self._announce_current()

    def _announce_current(self) -> None:
        """The row a screen reader is on says something new (an undo, a step): its new name is announced, as Qt
        does not announce a changed row by itself."""
        if not (QAccessible.isActive() and self.hasFocus()):
            return
        row = QAccessible.queryAccessibleInterface(self).focusChild()
        if row is not None:
            announce(QAccessibleEvent(row, QAccessible.Event.NameChanged))

    def _rebuild(self, lines: Sequence[NodeLine], structure: tuple) -> None:
        nodes, edges = self.selected_node_ids(), self.selected_edges()
        current = self.currentIndex()
        current_key = current.data(NODE_ROLE) or current.data(EDGE_ROLE) if current.isValid() else None
        self._following = True
        try:
            self.model_.clear()
            for line in lines:
                item = _Row(line.text)
                item.setData(line.node_id, NODE_ROLE)
                for wire in line.wires:
                    child = _Row(wire.text)
                    child.setData(wire.edge, EDGE_ROLE)
                    item.appendRow(child)
                self.model_.appendRow(item)
            self._structure = structure
            self.expandAll()  # the wires are read too: a collapsed row hides its children from a screen reader
            self._select(nodes, edges, current_key)
        finally:
            self._following = False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.shown.emit()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        self.hidden.emit()

    # -- selection ---------------------------------------------------------------------------

    def node_row(self, node_id: str) -> QStandardItem | None:
        for row in range(self.model_.rowCount()):
            item = self.model_.item(row)
            if item.data(NODE_ROLE) == node_id:
                return item
        return None

    def wire_row(self, edge: Edge) -> QStandardItem | None:
        for row in range(self.model_.rowCount()):
            item = self.model_.item(row)
            for wire_row in range(item.rowCount()):
                if item.child(wire_row).data(EDGE_ROLE) == edge:
                    return item.child(wire_row)
        return None

    def selected_node_ids(self) -> list[str]:
        return [index.data(NODE_ROLE) for index in self.selectionModel().selectedIndexes()
                if index.data(NODE_ROLE) is not None]

    def selected_edges(self) -> list[Edge]:
        return [index.data(EDGE_ROLE) for index in self.selectionModel().selectedIndexes()
                if index.data(EDGE_ROLE) is not None]

    def select(self, node_ids: Iterable[str], edges: Iterable[Edge] = ()) -> None:
        """Select these rows to follow the canvas (not announced as the person's choice); the first is made
        current and scrolled into view."""
        self._following = True
        try:
            self._select(list(node_ids), list(edges), None)
        finally:
            self._following = False

    def _select(self, node_ids: list[str], edges: list[Edge], current_key) -> None:
        items = [self.node_row(node_id) for node_id in node_ids] + [self.wire_row(edge) for edge in edges]
        items = [item for item in items if item is not None]
        selection = QItemSelection()
        for item in items:
            selection.select(item.index(), item.index())
        if {index.data(NODE_ROLE) or index.data(EDGE_ROLE) for index in self.selectionModel().selectedIndexes()} \
                == {item.data(NODE_ROLE) or item.data(EDGE_ROLE) for item in items}:
            return  # already so: the current row (where a screen reader is) stays
        models = self.selectionModel()
        models.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        current = next((item for item in items if (item.data(NODE_ROLE) or item.data(EDGE_ROLE)) == current_key),
                       items[0] if items else None)
        if current is not None:
            with QSignalBlocker(models):
                models.setCurrentIndex(current.index(), QItemSelectionModel.SelectionFlag.NoUpdate)
            self.scrollTo(current.index())

    def _recover(self, _error: Exception) -> None:
        self._following = False

    @guarded
    def _on_selection_changed(self, _selected, _deselected) -> None:
        if self._following:
            return
        nodes, edges = self.selected_node_ids(), self.selected_edges()
        if nodes or not edges:
            self.nodes_chosen.emit(nodes)
        else:
            self.wire_chosen.emit(edges[0])
