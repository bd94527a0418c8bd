"""Application entry point and main window of Autograd Playground."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

APP_NAME = "Autograd Playground"

# Tab title -> one sentence on what the tab will hold. The real panels replace these placeholders.
TAB_PLACEHOLDERS: tuple[tuple[str, str], ...] = (
    (
        "Graph editor",
        "The graph editor (issue #3) will build computation graphs by drag and drop "
        "and show every value and gradient live.",
    ),
    (
        "Backward animator",
        "The backward animator (arrives with its issue) will step through the backward pass "
        "node by node, showing each local gradient and how it accumulates.",
    ),
    (
        "Training",
        "The training panel (arrives with its issue) will train small networks on toy data sets "
        "and plot the loss and decision boundary as they learn.",
    ),
)


def _placeholder(text: str) -> QWidget:
    page = QWidget()
    layout = QVBoxLayout(page)
    label = QLabel(text)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setObjectName("placeholderLabel")
    layout.addWidget(label)
    return page


class MainWindow(QMainWindow):
    """Top-level window: one tab per panel, a status bar at the bottom."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setAccessibleName("MainWindow")
        self.setWindowTitle(APP_NAME)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.tabs.setAccessibleName("mainTabs")
        for title, text in TAB_PLACEHOLDERS:
            self.tabs.addTab(_placeholder(text), title)
        self.setCentralWidget(self.tabs)

        self.statusBar().showMessage("Ready")
        self.resize(1200, 800)


def main(argv: Sequence[str] | None = None) -> int:
    """Start the app; returns the Qt event loop's exit code."""
    args = list(sys.argv if argv is None else argv)
    app = QApplication.instance() or QApplication(args)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    window = MainWindow()
    window.show()
    return app.exec()
