"""Help > Keyboard shortcuts (every menu's shortcut, and the canvas's mouse gestures) and Help > About."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ..widgets.screen_fit import fit_to_screen
from .actions import add_action
from .names import APP_NAME

CANVAS_GESTURES = (
    ("Drag a palette entry onto the canvas", "Add a node (drop it on a wire to insert it)"),
    ("Drag from an output port to an input port", "Connect (red: refused, the status bar says why)"),
    ("Drag a wire's input end away", "Disconnect or reconnect"),
    ("Double-click an input, parameter or constant", "Edit its value"),
    ("Tab", "Quick search: add a node at the cursor"),
    ("Mouse wheel", "Zoom around the cursor"),
    ("Middle drag, or Space + drag", "Pan"),
    ("Drag on the background", "Select with a rubber band"),
    ("Right-click a node", "Make it the output, delete it"),
)


def build_help_menu(window: QMainWindow) -> QMenu:
    menu = window.menuBar().addMenu("&Help")
    add_action(window, menu, "&Keyboard shortcuts", lambda: show_shortcuts(window),
               QKeySequence.StandardKey.HelpContents)
    add_action(window, menu, "&About", lambda: show_about(window))
    return menu


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str]]:
    """Every menu action with a shortcut, as (action, keys), then the canvas's gestures."""
    rows = [(action.text().replace("&", ""), action.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
            for menu in window.menuBar().findChildren(QMenu) for action in menu.actions()
            if not action.shortcut().isEmpty()]
    return rows + list(CANVAS_GESTURES)


def show_shortcuts(window: QMainWindow) -> QDialog:
    rows = shortcut_rows(window)
    dialog = QDialog(window)
    dialog.setObjectName("shortcutsDialog")
    dialog.setWindowTitle("Keyboard shortcuts")
    table = QTableWidget(len(rows), 2, dialog)
    table.setAccessibleName("Keyboard shortcuts and mouse gestures")
    table.setHorizontalHeaderLabels(["Action", "Keys"])
    for i, (action, keys) in enumerate(rows):
        table.setItem(i, 0, QTableWidgetItem(action))
        table.setItem(i, 1, QTableWidgetItem(keys))
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.resizeColumnsToContents()
    table.horizontalHeader().setStretchLastSection(True)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(table)
    layout.addWidget(buttons)
    fit_to_screen(dialog, QSize(620, 520))
    dialog.open()
    return dialog


def show_about(window: QMainWindow) -> QMessageBox:
    """Help > About, opened (not run in a loop of its own: the window goes on, and a test can read it)."""
    box = QMessageBox(QMessageBox.Icon.Information, f"About {APP_NAME}",
                      f"<b>{APP_NAME}</b><p>See backpropagation happen: build a computation graph, "
                      "watch every value and gradient, step through the chain rule, train a network.</p>"
                      "<p>Its own autodiff engine checks every gradient against finite differences "
                      "and PyTorch.</p>", QMessageBox.StandardButton.Ok, window)
    box.setObjectName("aboutDialog")
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
