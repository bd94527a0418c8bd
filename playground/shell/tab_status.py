"""The status bar belongs to the tab on show: each panel keeps its own summary on the right (the editor's
"Output = 0.7071"), and a panel's messages wait until its tab is shown. A summary too long for its room (a
tensor output's 64 numbers) ends in "…", its whole text in the tooltip, rather than widening the window past
the screen."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSize
from PySide6.QtWidgets import QMainWindow, QSizePolicy, QTabWidget, QWidget

from ..widgets.elided_label import ElidedLabel
from .status_bar import StatusBar

MESSAGE_MS = 6000
SUMMARY_CHARACTERS = 60  # the summary's widest, in average characters (so it grows with presentation mode's font)


class SummaryLabel(ElidedLabel):
    """A tab's summary: as wide as its text, up to `SUMMARY_CHARACTERS`; past that it ends in "…"."""

    def __init__(self):
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self.setAccessibleName(text)  # a screen reader reads it whole, not the part that shows
        self.updateGeometry()  # its width follows the whole text, whatever part of it shows

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        whole = metrics.horizontalAdvance(self.text()) + margins.left() + margins.right() + 2
        return QSize(min(whole, metrics.averageCharWidth() * SUMMARY_CHARACTERS), super().sizeHint().height())

    minimumSizeHint = sizeHint


class TabStatus(QObject):
    def __init__(self, window: QMainWindow, tabs: QTabWidget):
        super().__init__(window)
        self.window, self.tabs = window, tabs
        self._summaries: dict[QWidget, str] = {}
        self._waiting: dict[QWidget, str] = {}
        self.evaluation_label = SummaryLabel()
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
