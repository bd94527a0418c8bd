"""The window's status bar: a message too long for the room beside the permanent widgets is elided
(with the whole text in the tooltip) instead of being drawn over them, as QStatusBar does."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStatusBar, QWidget

MARGIN = 40  # QStatusBar's own padding around the message, and a gap before the permanent widgets


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._full = ""

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        self._full = text
        room = self.width() - sum(w.width() for w in self._permanent if w.isVisible()) - MARGIN
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(room, 40))
        self.setToolTip(text if shown != text else "")
        super().showMessage(shown, timeout)

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        """The message on show as it was given, however much of it fits."""
        return self._full if super().currentMessage() else ""
