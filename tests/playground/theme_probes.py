"""Probes for tests/real_screen.py: each tab in a theme, with something on it to see (issue 32, item 4)."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

TABS = ("editor", "animator", "training")


def tab_in_theme(window, settle, tab: str, dock: bool = False) -> dict:
    """The tab ``tab`` with work on it (the animator some steps into the backward pass, the training tab some
    steps trained), the Learn dock open or closed; the theme comes from the settings. Returns the
    application palette's window and text colours and the tab shown."""
    window.learning.dock.setVisible(dock)
    if tab == "editor":
        scene = window.editor.view.scene()
        leaf = next(item for item in scene.node_items() if item.node.is_leaf)
        scene.select_nodes([leaf.node.id])
    window.tabs.setCurrentWidget(getattr(window, tab))
    settle(0.8)
    if tab == "animator":
        for _ in range(12):
            window.animator.step_forward()
    if tab == "training":
        window.training.play()
        settle(3.0)
        window.training.pause()
    settle(1.0)
    palette = QApplication.palette()
    return {"tab": window.tabs.currentWidget().objectName(),
            "window": palette.color(QPalette.ColorRole.Window).name(),
            "text": palette.color(QPalette.ColorRole.WindowText).name()}
