"""Enter on a list's chosen entry does what a click on it does: the lesson list starts its lessons from the
keyboard too (↑ ↓ choose, Enter starts), also while another lesson runs, when the panel's Next button
means the next step and no longer "start the lesson chosen"."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from ..widgets.errors import report_handled

ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class EnterActivates(QObject):
    """Enter on ``items``' current entry calls ``activate(entry)``; no other key is touched."""

    def __init__(self, items: QListWidget, activate: Callable[[QListWidgetItem], object]):
        super().__init__(items)
        self._items, self._activate = items, activate
        items.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.KeyPress or event.key() not in ENTER_KEYS or event.modifiers():
            return False
        item = self._items.currentItem()
        if item is None:
            return False
        try:
            self._activate(item)
        except Exception as error:  # the app goes on
            report_handled(error, "starting a lesson from the keyboard")
        return True
