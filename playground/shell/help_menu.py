"""The Help menu: Keyboard shortcuts (`keyboard_help`, every key of the app) and About."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox

from .actions import add_action
from .keyboard_help import show_shortcuts
from .names import APP_NAME

__all__ = ["build_help_menu", "show_about", "show_shortcuts"]


def build_help_menu(window: QMainWindow) -> QMenu:
    menu = window.menuBar().addMenu("&Help")
    add_action(window, menu, "&Keyboard shortcuts", lambda: show_shortcuts(window),
               QKeySequence.StandardKey.HelpContents)
    add_action(window, menu, "&About", lambda: show_about(window))
    return menu


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
