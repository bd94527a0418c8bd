""""Why this gradient?": the list of paths (`pathList`) whose products add up to a node's gradient, and
the path under the mouse drawn on the graph. The editor's side panel and the animator each hold one;
the numbers come from `why_gradient` (the engine's `paths`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ..graph.why_gradient import PathRow, WhyGradient

PATH_COLOR = "#bb4ad9"  # a hovered path's cards and wires: a middle-tone purple, 3:1 in every theme
NO_NODE = "Select a node to see its gradient as a sum over the paths from the output down to it."


class PathHighlighter:
    """Draws one path on a card scene (its cards and wires recoloured) and gives back what they showed."""

    def __init__(self, scene):
        self.scene = scene
        self._saved: list[tuple[object, QColor | None]] = []

    def show(self, row: PathRow | None) -> None:
        self.clear()
        if row is None:
            return
        items = [self.scene.node_item(node_id) for node_id in row.nodes]
        items += [self.scene.wire_item(edge) for edge in row.edges if edge is not None]
        for item in items:
            if item is not None:
                self._saved.append((item, item.highlight))
                item.set_highlight(PATH_COLOR)

    def clear(self) -> None:
        for item, color in reversed(self._saved):
            try:
                item.set_highlight(color)
            except RuntimeError:  # the scene was redrawn: the item is gone
                pass
        self._saved = []

    def drop(self) -> list:
        """Forget the path without restoring what it covered (whoever redraws the scene does): its items."""
        items, self._saved = [item for item, _ in self._saved], []
        return items

    @property
    def shown(self) -> bool:
        return bool(self._saved)


class PathListBox(QWidget):
    """A heading ("a.grad = 31 = 21 + 10"), one row per path, and "N more paths, together …"."""

    path_hovered = Signal(object)  # the PathRow under the mouse, or None when it leaves

    def __init__(self, name_prefix: str = "", parent=None):
        super().__init__(parent)
        self.setObjectName(f"{name_prefix}whyGradientBox")
        self.why: WhyGradient | None = None
        title = QLabel("<b>Why this gradient?</b>")
        self.heading = QLabel(NO_NODE)
        self.heading.setObjectName(f"{name_prefix}whyGradientHeading")
        self.heading.setAccessibleName("The gradient as a sum over paths")
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list = QListWidget()
        self.list.setObjectName("pathList")
        self.list.setAccessibleName("pathList: the paths from the output, each with its product of local derivatives")
        self.list.setToolTip("Each path from the output down to the node, with the local derivative of every "
                             "edge on it: their products add up to the gradient. Hover one to see it on the graph.")
        self.list.setMouseTracking(True)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.list.setStyleSheet("font-family: monospace;")
        self.list.itemEntered.connect(self._on_list_item_entered)
        self.list.viewport().installEventFilter(self)
        self.rest = QLabel()
        self.rest.setObjectName(f"{name_prefix}pathListRest")
        self.rest.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.rest)

    def show_why(self, why: WhyGradient | None, empty_text: str = NO_NODE) -> None:
        if why == self.why and why is not None:
            return
        self.why = why
        self.path_hovered.emit(None)
        self.list.clear()
        if why is None:
            self.heading.setText(empty_text)
            self.rest.setVisible(False)
            return
        self.heading.setText(why.heading)
        for row in why.rows:
            item = QListWidgetItem(row.text)
            item.setToolTip(row.tooltip)
            item.setData(Qt.ItemDataRole.UserRole, row)
            self.list.addItem(item)
        self.rest.setText(why.rest)
        self.rest.setVisible(bool(why.rest))

    def rows(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def hover(self, index: int | None) -> None:
        """Draw row ``index`` on the graph, as the mouse over it does (None: as the mouse leaving)."""
        item = self.list.item(index) if index is not None else None
        self.path_hovered.emit(item.data(Qt.ItemDataRole.UserRole) if item is not None else None)

    def _on_list_item_entered(self, item: QListWidgetItem) -> None:
        self.path_hovered.emit(item.data(Qt.ItemDataRole.UserRole))

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Leave:
            self.path_hovered.emit(None)
        return False
