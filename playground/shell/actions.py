"""One way to make a menu's action: its text, its shortcut, its slot, and an object name (from its text unless
given) that tests and lessons find it by."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu


def add_action(owner: QObject, menu: QMenu, text: str, slot, shortcut=None, name: str | None = None) -> QAction:
    """An action in ``menu`` (owned by ``owner``) that runs ``slot``; "Save &as…" is named "actionSaveAs"."""
    action = QAction(text, owner)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    words = text.replace("&", "").strip(".…").split()
    action.setObjectName(name or "action" + "".join(w.capitalize() for w in words))
    action.triggered.connect(slot)
    menu.addAction(action)
    return action
