"""The node palette: every node kind, grouped and searchable, to drag onto the graph view."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QDrag, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..canvas.style import LIGHT_COLORS, group_icon
from ..graph.catalog import GROUPS, KINDS, NodeKind, matches

KIND_MIME_TYPE = "application/x-autograd-playground-kind"
_KIND_ROLE = Qt.ItemDataRole.UserRole


def mime_data_for(kind_name: str) -> QMimeData:
    """What a palette drag carries: the kind name, utf-8, under `KIND_MIME_TYPE`."""
    if kind_name not in KINDS:
        raise KeyError(f"unknown node kind {kind_name!r}")
    mime = QMimeData()
    mime.setData(KIND_MIME_TYPE, kind_name.encode("utf-8"))
    mime.setText(kind_name)
    return mime


def kind_from_mime(mime: QMimeData | None) -> str | None:
    """The node kind a drag carries, or None if it carries no (known) kind."""
    if mime is None or not mime.hasFormat(KIND_MIME_TYPE):
        return None
    name = bytes(mime.data(KIND_MIME_TYPE)).decode("utf-8", errors="replace").strip()
    return name if name in KINDS else None


def drag_pixmap(node_kind: NodeKind) -> QPixmap:
    """A small card in the kind's colour, shown under the mouse while dragging."""
    pixmap = QPixmap(110, 26)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    color = QColor(LIGHT_COLORS[node_kind.group])
    color.setAlpha(220)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRoundedRect(QRectF(0.5, 0.5, 109, 25), 6, 6)
    font = QFont()
    font.setPixelSize(12)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(QRectF(8, 0, 100, 26), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                     node_kind.title)
    painter.end()
    return pixmap


class _KindTree(QTreeWidget):
    """A tree whose drags carry a node kind (a real QDrag, as from any other source)."""

    def startDrag(self, supported_actions) -> None:
        item = self.currentItem()
        name = item.data(0, _KIND_ROLE) if item is not None else None
        if not name:
            return
        drag = QDrag(self)
        drag.setMimeData(mime_data_for(name))
        pixmap = drag_pixmap(KINDS[name])
        drag.setPixmap(pixmap)
        drag.setHotSpot(QPointF(pixmap.width() / 2, pixmap.height() / 2).toPoint())
        drag.exec(Qt.DropAction.CopyAction)


class NodePalette(QWidget):
    """Search box over a tree of node kinds grouped by `catalog.GROUPS`.

    Drag an item onto the graph view to add it; double-click (or Enter in the search box for the
    first match) emits `kind_activated(kind_name)`.
    """

    kind_activated = Signal(str)

    mime_data_for = staticmethod(mime_data_for)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("nodePalette")
        self.setAccessibleName("Node palette")

        self.search = QLineEdit()
        self.search.setObjectName("nodePaletteSearch")
        self.search.setAccessibleName("Search nodes")
        self.search.setPlaceholderText("Search nodes…")
        self.search.setClearButtonEnabled(True)

        self.tree = _KindTree()
        self.tree.setObjectName("nodePaletteTree")
        self.tree.setAccessibleName("Nodes to add: drag one onto the canvas, or press Enter")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(10)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

        self._group_items: dict[str, QTreeWidgetItem] = {}
        self._kind_items: dict[str, QTreeWidgetItem] = {}
        bold = QFont()
        bold.setBold(True)
        for group in GROUPS:
            group_item = QTreeWidgetItem([group])
            group_item.setFont(0, bold)
            group_item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            group_item.setIcon(0, group_icon(group))
            self.tree.addTopLevelItem(group_item)
            self._group_items[group] = group_item
            for node_kind in KINDS.values():
                if node_kind.group != group:
                    continue
                item = QTreeWidgetItem([node_kind.title])
                item.setData(0, _KIND_ROLE, node_kind.name)
                tip = node_kind.description or node_kind.title
                item.setToolTip(0, f"{node_kind.title}: {tip}" if tip != node_kind.title else tip)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                              | Qt.ItemFlag.ItemIsDragEnabled)
                group_item.addChild(item)
                self._kind_items[node_kind.name] = item
            group_item.setExpanded(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.search)
        layout.addWidget(self.tree)

        self.search.textChanged.connect(self._on_search_text_changed)
        self.search.returnPressed.connect(self._on_search_return_pressed)
        self.tree.itemDoubleClicked.connect(self._on_item_double_clicked)

    def kind_item(self, kind_name: str) -> QTreeWidgetItem:
        return self._kind_items[kind_name]

    def group_item(self, group: str) -> QTreeWidgetItem:
        return self._group_items[group]

    def visible_kinds(self) -> list[str]:
        """Kind names shown under the current search, in tree order."""
        return [name for name, item in self._kind_items.items()
                if not item.isHidden() and not item.parent().isHidden()]

    def set_filter(self, text: str) -> None:
        self.search.setText(text)

    def _on_search_text_changed(self, text: str) -> None:
        for group_item in self._group_items.values():
            shown = 0
            for i in range(group_item.childCount()):
                item = group_item.child(i)
                hit = matches(KINDS[item.data(0, _KIND_ROLE)], text)
                item.setHidden(not hit)
                shown += hit
            group_item.setHidden(shown == 0)

    def _on_search_return_pressed(self) -> None:
        visible = self.visible_kinds()
        if visible:
            self.kind_activated.emit(visible[0])

    def _on_item_double_clicked(self, item: QTreeWidgetItem, column: int) -> None:
        name = item.data(0, _KIND_ROLE)
        if name:
            self.kind_activated.emit(name)

