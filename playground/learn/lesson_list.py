"""The Learn panel's list of lessons and its step text, each sized in lines so that what shows is whole.

The list shows whole rows only: it is exactly as tall as the rows it is given (`set_rows`), each one line
(a title too long for the dock is elided, and said whole in its tooltip), scrolled a row at a time, so a
projector never shows half a lesson's name. The panel gives it the rows the step's text and questions leave.
The step's text keeps at least `TEXT_LEAST_LINES` lines in sight, in any presentation zoom."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QStyledItemDelegate, QTextBrowser

MOST_ROWS = 7  # rows the list shows when there is room; more scroll
LEAST_ROWS = 2  # where the room is short: the lesson running and a neighbour
TEXT_LEAST_LINES = 8  # the step's text, in sight whatever else the step shows


class OneLine(QStyledItemDelegate):
    """A row asks for no width of its own: the list then gives each row its own width, and a title longer than
    that is elided, instead of every row growing to the longest and the list scrolling sideways under it."""

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt's name
        return QSize(1, super().sizeHint(option, index).height())


class LessonList(QListWidget):
    def __init__(self):
        super().__init__()
        self.setWordWrap(False)  # rows of one height: a whole number of them fills the list
        self.setUniformItemSizes(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setItemDelegate(OneLine(self))
        self._rows = MOST_ROWS
        self._apply_rows()

    @property
    def rows(self) -> int:
        return self._rows

    def row_height(self) -> int:
        """One row's height (a line of the list's font, before any row exists)."""
        return self.sizeHintForRow(0) if self.count() else self.fontMetrics().height() + 2

    def height_for(self, rows: int) -> int:
        return rows * self.row_height() + 2 * self.frameWidth()

    def wanted_rows(self) -> int:
        return max(1, min(MOST_ROWS, self.count()))

    def set_rows(self, rows: int) -> None:
        """Show ``rows`` whole rows (at most one per lesson), the current lesson's among them."""
        rows = max(1, min(rows, self.wanted_rows()))
        if rows != self._rows or self.height() != self.height_for(rows):
            self._rows = rows
            self._apply_rows()

    def _apply_rows(self) -> None:
        self.setFixedHeight(self.height_for(self._rows))
        if self.currentItem() is not None:
            self.scrollToItem(self.currentItem())

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:  # presentation mode: taller rows
            self._apply_rows()


class LessonText(QTextBrowser):
    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        lines = TEXT_LEAST_LINES * self.fontMetrics().lineSpacing()
        margins = 2 * (self.frameWidth() + round(self.document().documentMargin()))
        return QSize(super().minimumSizeHint().width(), lines + margins)
