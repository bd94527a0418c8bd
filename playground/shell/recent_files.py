"""File > Open recent: the last files opened or saved, of every kind, remembered in QSettings. A file opened or
saved has the temporaries that earlier saves of it left when a kill cut them short taken away
(`disk.remove_leftovers`), and the start does the same in these files' folders (`recovery.start_leftover_sweep`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtWidgets import QMenu

from ..files.disk import remove_leftovers

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

    def folders(self) -> list[Path]:
        """The folders the recent files are in, each once, in the list's order (the disk is not asked)."""
        return list(dict.fromkeys(Path(path).parent for path in self.paths()))

    def remember(self, path: str | Path) -> None:
        """``path`` was just opened or saved: first in the list, and its folder rid of what a kill during an
        earlier save of it left (one listing of a folder just read or written)."""
        path = Path(path).resolve()
        recent = [str(path)] + [p for p in self.paths() if p != str(path)]
        self.settings.setValue("recentFiles", recent[:MAX_RECENT_FILES])
        self.rebuild_menu()
        remove_leftovers(path.parent, path.name)

    def rebuild_menu(self) -> None:
        self.menu.clear()
        recent = self.paths()
        for path in recent:
            action = self.menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._open_path(p))
        self.menu.setEnabled(bool(recent))
