"""Smoke tests for the main window."""

from PySide6.QtWidgets import QTabWidget

from playground.app import MainWindow


def test_main_window_has_three_tabs(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()

    assert window.objectName() == "MainWindow"
    assert window.accessibleName() == "MainWindow"
    assert window.windowTitle() == "Autograd Playground"

    tabs = window.findChild(QTabWidget, "mainTabs")
    assert tabs is not None
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Graph editor", "Backward animator", "Training"]
    assert window.statusBar().currentMessage() == "Ready"
