"""Shared test setup: Qt renders offscreen so the suite runs without a display."""

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_sessionfinish(session, exitstatus):
    # Qt's offscreen platform crashes the interpreter at exit (SIGSEGV) if the clipboard
    # still holds QMimeData that a test put there (copy/paste tests); a real display does not.
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtWidgets import QApplication

        if QApplication.instance() is not None:
            QApplication.clipboard().clear()
