"""The editor's side panel in a scroll area of its own: on a short window (1280x720 beside the Learn dock, or with
the graph outline open) it scrolls up and down instead of crushing the properties' fields to a few pixels.

Qt's box layout takes each part's height for its width (the properties' and the paths' wrapped words) as the least
it may have, but the panel's own least size leaves that out, so the splitter gave the panel less than its parts
need and they were squeezed. Here the panel gets the area's height, or the least its layout needs at its width
when that is more, and scrolls; the canvas beside it keeps the window's height.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class SideScroll(QScrollArea):
    def __init__(self, side: QWidget):
        super().__init__()
        self.setObjectName("sidePanelScroll")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidgetResizable(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no stop of Tab's: the panel's controls are, scrolled into sight
        self.setWidget(side)
        side.installEventFilter(self)  # its least height changes with the node selected, the outline shown...

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_side()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit_side()
        return False

    def _least_height(self, width: int) -> int:
        """What the layout needs at ``width`` not to squeeze a part: when laying out, Qt's vertical box layout gives
        a part with a height for its width (the properties, the paths) at least that height, not its minimum, and
        its own `minimumHeightForWidth` counts the minimum; so the sum is made here as the layout will lay out."""
        side = self.widget()
        layout = side.layout()
        least = side.minimumSizeHint().height()
        if layout is None or not layout.hasHeightForWidth():
            return least
        margins = layout.contentsMargins()
        inner = width - margins.left() - margins.right()
        items = [layout.itemAt(i) for i in range(layout.count())]
        shown = [item for item in items if not item.isEmpty()]
        needed = sum(item.heightForWidth(inner) if item.hasHeightForWidth() else item.minimumSize().height()
                     for item in shown)
        needed += layout.spacing() * max(len(shown) - 1, 0) + margins.top() + margins.bottom()
        return max(least, needed)

    def fit_side(self) -> None:
        side = self.widget()
        if side is None:
            return
        room = self.maximumViewportSize()
        width = room.width()
        height = self._least_height(width)
        if height > room.height():  # it scrolls: the bar takes its width from the panel
            width -= self.verticalScrollBar().sizeHint().width()
            height = self._least_height(width)
        side.resize(width, max(room.height(), height))

    def room_for(self, width: int) -> int:
        """The area's width for a panel ``width`` wide: the panel's, and its scroll bar's when it scrolls."""
        return width + self.verticalScrollBar().sizeHint().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self.minimumWidth(), 0)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        side = self.widget()
        return side.sizeHint() if side is not None else super().sizeHint()
