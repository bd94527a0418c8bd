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


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _cursor_out_of_the_way():
    """Each test starts with the mouse pointer outside every window. A test that moved it over a neuron of
    the training diagram would otherwise leave it there, and the next test's window, opened under it,
    gets that neuron hovered: its map replaces the decision boundary (seen in CI as a wrong colour table
    and a plot that never covers its data)."""
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtCore import QPoint
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QApplication

        if QApplication.instance() is not None:
            QCursor.setPos(QPoint(-10_000, -10_000))
    yield
