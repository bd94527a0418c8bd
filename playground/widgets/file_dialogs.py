"""The file dialogs, every one opening in one remembered folder: the last one a file was opened from, saved
to or exported into, whatever its kind (a graph, a lesson, a CSV of points, a plot). A person who keeps a
class's files in one folder finds it at every dialog, as in most desktop apps, instead of their home folder
at some dialogs and the graph's folder at others.

The folder is the app's, one for every window: the main window hands over its `QSettings` (`remember_in`)
so the folder is there at the next start too; until then it is kept for the app's lifetime.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

FOLDER_KEY = "files/folder"


class FileFolder:
    """Where the next file dialog opens."""

    def __init__(self) -> None:
        self._settings: QSettings | None = None
        self._folder: Path | None = None

    def remember_in(self, settings: QSettings) -> None:
        """Keep the folder in ``settings`` (and take the one kept there)."""
        self._settings = settings
        kept = settings.value(FOLDER_KEY, "", type=str)
        self._folder = Path(kept) if kept else None

    def folder(self) -> Path:
        """The folder last used, while it is there; else the home folder."""
        if self._folder is not None and self._folder.is_dir():
            return self._folder
        return Path.home()

    def remember(self, path: str | Path) -> None:
        """``path`` (a file, or a folder) was just opened or written: the next dialog opens where it is."""
        path = Path(path).expanduser().absolute()
        folder = path if path.is_dir() else path.parent
        self._folder = folder
        if self._settings is not None:
            self._settings.setValue(FOLDER_KEY, str(folder))

    def ask_save_path(self, parent: QWidget | None, title: str, name: str, filters: str) -> str:
        """A file to write, proposed as ``name`` in the folder; "" when the person cancels."""
        path, _chosen = QFileDialog.getSaveFileName(parent, title, str(self.folder() / name), filters)
        if path:
            self.remember(path)
        return path

    def ask_open_path(self, parent: QWidget | None, title: str, filters: str) -> str:
        """A file to read; "" when the person cancels."""
        path, _chosen = QFileDialog.getOpenFileName(parent, title, str(self.folder()), filters)
        if path:
            self.remember(path)
        return path

    def ask_folder(self, parent: QWidget | None, title: str) -> str:
        """A folder to write into; "" when the person cancels."""
        folder = QFileDialog.getExistingDirectory(parent, title, str(self.folder()))
        if folder:
            self.remember(folder)
        return folder


FILE_FOLDER = FileFolder()  # the app's one folder
