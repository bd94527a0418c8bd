"""File > Open recent: the last files opened or saved, of every kind, remembered in QSettings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QMenu

MAX_RECENT_FILES = 8


class RecentFiles(QObject):
    def __init__(self, settings: QSettings, menu: QMenu, open_path, parent: QObject | None = None):
        """``open_path(path)`` opens a file the person picks from ``menu``."""
        super().__init__(parent)
        self.settings, self.menu, self._open_path = settings, menu, open_path
        self.rebuild_menu()

    def paths(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def remember(self, path: str | Path) -> None:
        path = str(Path(path).resolve())
        recent = [path] + [p for p in self.paths() if p != path]
        self.settings.setValue("recentFiles", recent[:MAX_RECENT_FILES])
        self.rebuild_menu()

    def rebuild_menu(self) -> None:
        self.menu.clear()
        recent = self.paths()
        for path in recent:
            action = self.menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._open_path(p))
        self.menu.setEnabled(bool(recent))
