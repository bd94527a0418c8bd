"""The main window's tabs, each panel in a scroll area: a panel that needs more room than the window has
(the Training tab's three columns on a 1024-pixel screen, any tab at 200% on a projector) scrolls in its
tab, instead of its minimum size making the window larger than the screen (a QTabWidget is as large as
its largest page's minimum, and the window as large as that beside the Learn dock).

The tabs still speak of panels: `widget`, `currentWidget`, `setCurrentWidget` and `indexOf` take and give
the panel, not the scroll area around it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QWidget


class PanelTabs(QTabWidget):
    def addTab(self, panel: QWidget, text: str) -> int:  # noqa: N802 - Qt's name
        area = QScrollArea()
        area.setObjectName(f"{panel.objectName() or 'panel'}Scroll")
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setWidgetResizable(True)  # the panel takes the whole tab, and scrolls only below its minimum
        area.setWidget(panel)
        return super().addTab(area, text)

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
