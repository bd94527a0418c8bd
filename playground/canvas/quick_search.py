"""Tab's quick search over the canvas: a small floating box to type a node kind's name in; Enter or a click
adds that kind where the search was opened (the view asks its scene to, if the scene adds nodes)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QFrame, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ..graph.catalog import KINDS, search_rank
from .style import group_icon


class QuickSearch(QFrame):
    """A small floating box: type to filter node kinds, Enter or a click picks one, Escape closes."""

    kind_chosen = Signal(str)
    closed = Signal()

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("quickSearch")
        self.setAccessibleName("quickSearch")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.search = QLineEdit()
        self.search.setObjectName("quickSearchInput")
        self.search.setAccessibleName("quickSearchInput")
        self.search.setPlaceholderText("Add node…")
        self.list = QListWidget()
        self.list.setObjectName("quickSearchList")
        self.list.setAccessibleName("quickSearchList")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        layout.addWidget(self.search)
        layout.addWidget(self.list)
        self.setFixedSize(220, 260)
        self.hide()
        self.search.textChanged.connect(self._on_search_text_changed)
        self.search.returnPressed.connect(self.choose_current)
        self.list.itemClicked.connect(self._on_item_clicked)
        self.search.installEventFilter(self)
        self._on_search_text_changed("")

    def shown_kinds(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]

    def current_kind(self) -> str | None:
        item = self.list.currentItem() or (self.list.item(0) if self.list.count() else None)
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def popup(self, pos: QPoint) -> None:
        """Show with its top-left near ``pos`` (parent coordinates), kept inside the parent."""
        self.search.clear()
        self._on_search_text_changed("")
        parent = self.parentWidget()
        x = max(4, min(pos.x(), parent.width() - self.width() - 4))
        y = max(4, min(pos.y(), parent.height() - self.height() - 4))
        self.move(x, y)
        self.show()
        self.raise_()
        self.search.setFocus(Qt.FocusReason.PopupFocusReason)

    def close_popup(self) -> None:
        if self.isVisible():
            self.hide()
            self.closed.emit()

    def choose_current(self) -> None:
        name = self.current_kind()
        if name is None:
            return
        self.close_popup()
        self.kind_chosen.emit(name)

    def _on_item_clicked(self, item: QListWidgetItem) -> None:
        self.list.setCurrentItem(item)
        self.choose_current()

    def _on_search_text_changed(self, text: str) -> None:
        ranked = sorted(((rank, i, k) for i, k in enumerate(KINDS.values())
                         if (rank := search_rank(k, text)) is not None), key=lambda entry: entry[:2])
        self.list.clear()
        for _rank_value, _index, node_kind in ranked:
            item = QListWidgetItem(group_icon(node_kind.group), f"{node_kind.title}    ·  {node_kind.group}")
            item.setData(Qt.ItemDataRole.UserRole, node_kind.name)
            item.setToolTip(node_kind.description or node_kind.title)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)

    def keyPressEvent(self, event) -> None:
        """A key the search box passes on (QLineEdit hands Enter on to its parent after choosing) stops here: the
        canvas behind must not take the Enter that added a node as "edit the selected node"."""
        event.accept()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            key = event.key()
            if key == Qt.Key.Key_Escape:
                self.close_popup()
                return True
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self.list.count():
                step = 1 if key == Qt.Key.Key_Down else -1
                self.list.setCurrentRow((self.list.currentRow() + step) % self.list.count())
                return True
        if watched is self.search and event.type() == QEvent.Type.FocusOut:
            QTimer.singleShot(0, self, self._close_if_focus_left)  # never after the box is gone
        return super().eventFilter(watched, event)

    def _close_if_focus_left(self) -> None:
        focus = self.window().focusWidget() if self.window() else None
        if self.isVisible() and (focus is None or not self.isAncestorOf(focus)) and self.window().isActiveWindow():
            self.close_popup()
