"""Space plays or pauses training while the keyboard is anywhere in the training tab, except on a control that
Space works itself (a button presses, a box ticks, a list opens): those keep their Space, and the Play button's
own Space plays or pauses too.

Qt hands a key that the focused control does not take to its parents in turn; this filter sits on the panel,
the last of them inside the tab, so it only ever sees a Space nothing in the tab wanted.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractButton, QWidget

PLAY_KEY = Qt.Key.Key_Space


class PlayPauseKey(QObject):
    """Space on ``panel`` toggles ``play_button`` as pressing it does."""

    def __init__(self, panel: QWidget, play_button: QAbstractButton):
        super().__init__(panel)
        self.play_button = play_button
        play_button.setToolTip(f"{play_button.toolTip()} (Space, anywhere in the training tab)".strip())
        panel.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if (event.type() == QEvent.Type.KeyPress and event.key() == PLAY_KEY and not event.modifiers()
                and not event.isAutoRepeat() and self.play_button.isEnabled()):
            self.play_button.toggle()  # its toggled signal plays or pauses, as a click does
            return True
        return False
