"""The status bar belongs to the tab on show: each panel keeps its own summary on the right (the editor's
"Output = 0.7071"), and a panel's messages wait until its tab is shown."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QMainWindow, QTabWidget, QWidget

from .status_bar import StatusBar

MESSAGE_MS = 6000


class TabStatus(QObject):
    def __init__(self, window: QMainWindow, tabs: QTabWidget):
        super().__init__(window)
        self.window, self.tabs = window, tabs
        self._summaries: dict[QWidget, str] = {}
        self._waiting: dict[QWidget, str] = {}
        self.evaluation_label = QLabel()
        self.evaluation_label.setObjectName("evaluationLabel")
        window.setStatusBar(StatusBar(window))  # long messages elided, never drawn over the summary
        window.statusBar().addPermanentWidget(self.evaluation_label)

    def show_message(self, text: str) -> None:
        self.window.statusBar().showMessage(text, MESSAGE_MS)

    def show_panel_message(self, panel: QWidget, text: str) -> None:
        """A panel's message: shown now if its tab is on show, else when it is shown next."""
        if self.tabs.currentWidget() is panel:
            self.show_message(text)
        else:
            self._waiting[panel] = text

    def withdraw_panel_message(self, panel: QWidget, text: str) -> None:
        """A panel's message no longer holds: off the status bar, and not shown later."""
        if self.window.statusBar().currentMessage() == text:
            self.window.statusBar().clearMessage()
        if self._waiting.get(panel) == text:
            del self._waiting[panel]

    def set_summary(self, panel: QWidget, text: str) -> None:
        self._summaries[panel] = text
        if self.tabs.currentWidget() is panel:
            self.evaluation_label.setText(text)

    def tab_shown(self, panel: QWidget) -> None:
        self.window.statusBar().clearMessage()
        self.evaluation_label.setText(self._summaries.get(panel, ""))
        if panel in self._waiting:
            self.show_message(self._waiting.pop(panel))
