"""The animator's keys: → and ← step, Space plays or pauses, Home and End go to the first and last step.

An event filter on the graph's view takes them there, and one on the panel takes them from any control in
the panel that leaves them: Qt hands a key the focused control does not use on to its parents. A control
that uses the key keeps it (the speed slider its arrows, a button its Space), where shortcuts on the panel
took them all: the speed could not be changed nor Export pressed from the keyboard.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget

from ..widgets.errors import report_handled

KEYS = (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Space, Qt.Key.Key_Home, Qt.Key.Key_End)
# What each key does, for Help > Keyboard shortcuts and the README (keys, what).
KEY_HELP = (
    ("→", "Next step"),
    ("←", "Step back"),
    ("Space", "Play or pause"),
    ("Home", "First step"),
    ("End", "Last step"),
)


class PlaybackKeys(QObject):
    """``actions`` maps each of `KEYS` to what it does; ``recover`` is called after an action fails."""

    def __init__(self, panel: QWidget, view: QWidget, actions: dict[Qt.Key, Callable[[], object]],
                 recover: Callable[[Exception], None]):
        super().__init__(panel)
        self._actions, self._recover = actions, recover
        panel.installEventFilter(self)
        view.installEventFilter(self)

    def _run(self, key: Qt.Key) -> None:
        try:
            self._actions[key]()
        except Exception as error:  # the app goes on
            report_handled(error, "the animator's keys")
            self._recover(error)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress or event.key() not in self._actions or event.modifiers():
            return False
        if event.key() != Qt.Key.Key_Space or not event.isAutoRepeat():
            self._run(event.key())
        event.accept()
        return True
