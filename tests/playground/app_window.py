"""The app's main window and the training panel as tests open them (conftest's `window` and `panel` fixtures,
and test files that want them at another size)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from playground.shell.main_window import MainWindow
from playground.training.panel import TrainingPanel

WAIT = 20_000  # ms: the worker's first picture on a busy machine


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


def shown_panel(qtbot, width: int = 1300, height: int = 820, network_drawn: bool = False):
    """A training panel shown at ``width`` x ``height`` once its first picture is drawn (and, ``network_drawn``,
    its network diagram too); a generator for a fixture, which shuts its worker down afterwards."""
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    if network_drawn:
        qtbot.waitUntil(lambda: panel._frame is not None and panel.network_view.canvas.redraws > 0, timeout=WAIT)
    else:
        qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
    yield panel
    panel.shutdown()
