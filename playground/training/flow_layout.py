"""A layout that puts its items in a row and wraps them onto the next row when the row is full.

Qt has no such layout (its documentation has one as an example); the training tab's toolbar needs
one so that the tab fits a laptop beside the Learn dock: on a wide screen the toolbar is one row,
on a narrow one two. Items are groups that belong together (Play / Step / Reset; the step, epoch
and speed figures; the pace; the stop condition; the buttons that open other views): a group is
never split, and the last group keeps to the right edge when it shares a row with others.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = 6, row_spacing: int = 4):
        super().__init__(parent)
        self.setContentsMargins(0, 0, 0, 0)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._row_spacing = row_spacing
        self.right_aligned_last = True

    # -- QLayout's bookkeeping --

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def addWidget(self, widget: QWidget) -> None:  # noqa: N802 - Qt's name
        self.addChildWidget(widget)
        self.addItem(QWidgetItem(widget))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def sizeHint(self) -> QSize:
        """One row of everything."""
        visible = self._visible()
        margins = self.contentsMargins()
        width = sum(item.sizeHint().width() for item in visible) + self._spacing * max(len(visible) - 1, 0)
        height = max((item.sizeHint().height() for item in visible), default=0)
        return QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    def minimumSize(self) -> QSize:
        """As wide as the widest group: the rest wraps."""
        margins = self.contentsMargins()
        width = max((item.minimumSize().width() for item in self._visible()), default=0)
        height = max((item.minimumSize().height() for item in self._visible()), default=0)
        return QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    # -- the rows --

    def _visible(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def rows(self, width: int) -> list[list[QLayoutItem]]:
        """The items in rows for a layout ``width`` pixels wide (inside the margins)."""
        rows: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._visible():
            wanted = item.sizeHint().width()
            if rows[-1] and used + self._spacing + wanted > width:
                rows.append([])
                used = 0
            used += (self._spacing if rows[-1] else 0) + wanted
            rows[-1].append(item)
        return [row for row in rows if row]

    def _arrange(self, rect: QRect, place: bool) -> int:
        margins = self.contentsMargins()
        inner = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        y = inner.y()
        rows = self.rows(inner.width())
        last = self._visible()[-1] if self._visible() else None
        for row in rows:
            height = max(item.sizeHint().height() for item in row)
            x = inner.x()
            for item in row:
                size = item.sizeHint()
                width = min(size.width(), inner.width())
                if item is last and self.right_aligned_last and len(row) > 1:
                    x = max(x, inner.right() + 1 - width)
                if place:
                    item.setGeometry(QRect(QPoint(x, y + (height - size.height()) // 2), QSize(width, size.height())))
                x += width + self._spacing
            y += height + self._row_spacing
        return y - self._row_spacing - rect.y() + margins.bottom() if rows else margins.top() + margins.bottom()
