"""The window's status bar: a message too long for the room beside the permanent widgets is elided
(with the whole text in the tooltip) instead of being drawn over them, as QStatusBar does; and elided
again whenever the bar's width changes, so a message given before the window had its size (elided to
"The gra…" then) reads in full once there is room for it."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStatusBar, QWidget

MARGIN = 40  # QStatusBar's own padding around the message, and a gap before the permanent widgets


class StatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._full = ""
        self._ends: float | None = None  # when the message on show times out (None: it stays)
        self.messageChanged.connect(self._on_message_changed)

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self._ends = time.monotonic() + timeout / 1000 if timeout > 0 else None
        self._show(timeout)

    def _show(self, timeout: int) -> None:
        text = self._full
        room = self.width() - sum(w.sizeHint().width() for w in self._permanent if not w.isHidden()) - MARGIN
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(room, 40))
        self.setToolTip(text if shown != text else "")
        super().showMessage(shown, timeout)

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        """The message on show as it was given, however much of it fits."""
        return self._full if super().currentMessage() else ""

    def _on_message_changed(self, text: str) -> None:
        if not text:  # timed out or cleared: its tooltip goes with it
            self._full, self._ends = "", None
            self.setToolTip("")

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._full and super().currentMessage():
            left = 0 if self._ends is None else max(round((self._ends - time.monotonic()) * 1000), 1)
            self._show(left)
