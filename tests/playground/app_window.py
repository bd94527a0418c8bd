"""The app's main window as tests open it (the `window` fixture of conftest, and test files that want it at
another size)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from playground.shell.main_window import MainWindow


def open_window(qtbot, tmp_path, width: int = 1500, height: int = 900) -> MainWindow:
    """The app's main window with settings of its own, discarding unsaved changes without asking, shown at
    ``width`` x ``height``."""
    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    return window
