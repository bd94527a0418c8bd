"""The window's status bar: a message too long for the room beside the permanent widgets is elided
(with the whole text in the tooltip) instead of being drawn over them, as QStatusBar does; and elided
again whenever that room changes (the bar's width, the font, a summary growing or shrinking beside it), so
a message given before the window had its size (elided to "The gra…" then) reads in full once there is
room for it. The room is where Qt draws the message: up to the first permanent widget, not an estimate."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QStatusBar, QWidget

from ..widgets.spoken import announce

MARGIN = 40  # before the bar is laid out: QStatusBar's own padding and a gap before the permanent widgets
# QStatusBar draws its message from x = 6 up to 2 px before the first visible permanent widget
# (QStatusBarPrivate::messageRect); a pixel to spare so that rounding never cuts the last letter
LEFT_PADDING, GAP = 6, 3
# What moves or resizes a permanent widget, and so the message's room
ROOM_EVENTS = (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show, QEvent.Type.Hide)


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
        widget.installEventFilter(self)  # a summary that grows or shrinks changes the message's room

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        """Show ``text`` (elided to its room) and have a screen reader say it whole: a refusal ("the shapes
        (2, 3) and (4,) do not match") is heard, not only painted."""
        self._full = text
        self.setAccessibleName(f"Status: {text}" if text else "Status bar")
        announce(self, text)
        self._ends = time.monotonic() + timeout / 1000 if timeout > 0 else None
        self._show(timeout)

    def room(self) -> int:
        """The width the message is drawn in: up to the first visible permanent widget once the bar is laid
        out, else the bar's width less what the permanent widgets ask for."""
        shown = [w for w in self._permanent if not w.isHidden()]
        if self.isVisible() and shown and all(w.isVisible() and w.x() > 0 for w in shown):
            return min(w.x() for w in shown) - GAP - LEFT_PADDING
        return self.width() - sum(w.sizeHint().width() for w in shown) - MARGIN

    def _show(self, timeout: int) -> None:
        text = self._full
        room = self.room()
        shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(room, 40))
        self.setToolTip(text if shown != text else "")
        super().showMessage(shown, timeout)

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        """The message on show as it was given, however much of it fits."""
        return self._full if super().currentMessage() else ""

    def _on_message_changed(self, text: str) -> None:
        if not text:  # timed out or cleared: its tooltip and its name go with it
            self._full, self._ends = "", None
            self.setToolTip("")
            self.setAccessibleName("Status bar")

    def _refresh(self) -> None:
        """Elide the message on show again for the room it has now, keeping what is left of its time."""
        if self._full and super().currentMessage():
            left = 0 if self._ends is None else max(round((self._ends - time.monotonic()) * 1000), 1)
            self._show(left)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refresh()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: wider letters, the same room
            self._refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched in self._permanent and event.type() in ROOM_EVENTS:
            self._refresh()
        return False
