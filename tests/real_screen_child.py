"""The app on a real X screen, measured by a probe: run by ``tests/real_screen.py``, never by pytest.

Usage: ``python tests/real_screen_child.py '{"probe": "module:function", "settings": {...}, ...}'``
with DISPLAY set. Prints one line ``REAL-SCREEN-RESULT:<json>`` with what the probe returned.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

RESULT_PREFIX = "REAL-SCREEN-RESULT:"


def settle(app: QApplication, seconds: float) -> None:
    """Let Qt and the window manager finish what they are doing (placing, resizing, painting)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)


def main() -> int:
    request = json.loads(sys.argv[1])
    app = QApplication([sys.argv[0]])
    from playground.shell.main_window import MainWindow
    from playground.shell.names import APP_NAME

    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    folder = Path(tempfile.mkdtemp(prefix="agp-real-screen-"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    for key, value in request["settings"].items():
        settings.setValue(key, value)
    settings.sync()

    window = MainWindow(settings)
    window.ask_save_changes = lambda: None  # never a modal question while measuring
    window.show()
    # openbox reparents and places the window, then Qt lays it out for the size it got.
    deadline = time.monotonic() + 10
    while not window.isVisible() or window.frameGeometry() == window.geometry():
        if time.monotonic() > deadline:
            break
        settle(app, 0.05)
    settle(app, 0.5)

    module_name, function_name = request["probe"].split(":")
    probe = getattr(importlib.import_module(module_name), function_name)
    result = probe(window, settle=lambda seconds=0.3: settle(app, seconds), **request["arguments"])
    if request.get("screenshot"):
        settle(app, 0.2)
        window.screen().grabWindow(0).save(request["screenshot"])
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
