"""The Learn dock gives way too: never more than a share of the window's width, so that on a small screen in
presentation mode (1024 x 768 at 150%, where its text makes it 370 pixels wide) the tab beside it keeps room
for its own controls and its graph. Checked when the window changes size and when presentation mode changes;
a width the person drags the dock to within the share is left alone."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from ..widgets.errors import report_handled

SHARE = 0.3  # of the window's width, at most


class DockShare(QObject):
    def __init__(self, window: QMainWindow, dock: QDockWidget):
        super().__init__(window)
        self.window, self.dock = window, dock
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._on_timer_timeout)
        window.installEventFilter(self)
        dock.visibilityChanged.connect(lambda _visible: self._timer.start())

    def check_soon(self) -> None:
        self._timer.start()  # once the window's layout has settled

    def eventFilter(self, watched, event) -> bool:
        if watched is self.window and event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange):
            self._timer.start()
        return False

    def _on_timer_timeout(self) -> None:
        try:
            self.keep_share()
        except Exception as error:  # a slot: the app goes on
            report_handled(error, "sizing the Learn dock")

    def keep_share(self) -> None:
        if self.dock.isHidden() or self.dock.isFloating():
            return
        most = round(self.window.width() * SHARE)
        if self.dock.width() > most:
            self.window.resizeDocks([self.dock], [most], Qt.Orientation.Horizontal)
