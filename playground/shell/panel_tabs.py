"""The main window's tabs, each panel in a scroll area: a panel that needs more room than the window has
(the Training tab's three columns on a 1024-pixel screen, any tab at 200% on a projector) scrolls in its
tab, instead of its minimum size making the window larger than the screen (a QTabWidget is as large as
its largest page's minimum, and the window as large as that beside the Learn dock).

The tabs still speak of panels: `widget`, `currentWidget`, `setCurrentWidget` and `indexOf` take and give
the panel, not the scroll area around it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget


class PanelScroll(QScrollArea):
    """The panel takes the whole tab, and scrolls only below its minimum.

    Not QScrollArea's own `widgetResizable`: for a panel whose layout has a height for its width (the training
    tab's toolbar wraps its buttons into rows) it gives the panel its *preferred* height, taller than a
    720-line screen in presentation mode, and the tab scrolled the run's controls out of sight for no need.
    Here the panel gets the viewport's height, or the least it can have at that width when that is more."""

    def __init__(self, panel: QWidget):
        super().__init__()
        self.setObjectName(f"{panel.objectName() or 'panel'}Scroll")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        # No stop of Tab's own: the panel's controls are the stops, and a control Tab reaches is scrolled into sight.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWidget(panel)
        panel.installEventFilter(self)  # its least size changes with fonts, folded columns, rows of buttons

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_panel()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit_panel()
        return False

    def fit_panel(self) -> None:
        panel = self.widget()
        if panel is None:
            return
        room = self.maximumViewportSize()  # the viewport's size with no scroll bar taking from it
        least = panel.minimumSizeHint().expandedTo(panel.minimumSize())
        width = max(room.width(), least.width())
        height = self._least_height(panel, least, width)
        if height > room.height():  # it scrolls up and down: the vertical bar takes its width from the panel
            width = max(room.width() - self.verticalScrollBar().sizeHint().width(), least.width())
            height = self._least_height(panel, least, width)
        if width > room.width():  # it scrolls sideways: the horizontal bar takes its height
            room.setHeight(room.height() - self.horizontalScrollBar().sizeHint().height())
        panel.resize(width, max(room.height(), height))

    @staticmethod
    def _least_height(panel: QWidget, least: QSize, width: int) -> int:
        layout = panel.layout()
        if layout is not None and layout.hasHeightForWidth():
            return max(least.height(), layout.minimumHeightForWidth(width))
        return least.height()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As QScrollArea's with a resizable widget: the panel's own wish, within 36 x 24 lines of text."""
        panel = self.widget()
        lines = self.fontMetrics().height()
        wish = panel.sizeHint() if panel is not None else QSize(12 * lines, 8 * lines)
        return wish.boundedTo(QSize(36 * lines, 24 * lines))


class PanelTabs(QTabWidget):
    def addTab(self, panel: QWidget, text: str) -> int:  # noqa: N802 - Qt's name
        return super().addTab(PanelScroll(panel), text)

    def widget(self, index: int) -> QWidget | None:
        area = super().widget(index)
        return area.widget() if isinstance(area, QScrollArea) else area

    def currentWidget(self) -> QWidget | None:  # noqa: N802 - Qt's name
        return self.widget(self.currentIndex())

    def indexOf(self, panel: QWidget) -> int:  # noqa: N802 - Qt's name
        return next((i for i in range(self.count()) if self.widget(i) is panel), -1)

    def setCurrentWidget(self, panel: QWidget) -> None:  # noqa: N802 - Qt's name
        index = self.indexOf(panel)
        if index >= 0:
            self.setCurrentIndex(index)
