"""The training tab's body, under its toolbar and status line: the settings column (data and
network controls) on the left, then the three views (the network diagram, the decision boundary,
the output curves) side by side in a splitter whose handles a person drags."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QSplitter, QVBoxLayout, QWidget

from .widgets import let_combos_narrow, scrolling_column

SETTINGS_WIDTH = 236   # the settings column at 100%, unless its widest control asks for more
VIEW_STRETCH = (5, 5, 3)  # how the views share the width the panel gets: network, boundary, output


class TrainingBody(QWidget):
    """Lays out rooms made elsewhere; the panel keeps wiring them."""

    def __init__(self, controls: tuple[QWidget, ...], views: tuple[QWidget, QWidget, QWidget],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.settings_column = QWidget()
        stack = QVBoxLayout(self.settings_column)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(0)
        for control in controls:
            stack.addWidget(control)
        let_combos_narrow(self.settings_column)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        self.settings_scroll = scrolling_column(self.settings_column, SETTINGS_WIDTH)
        row.addWidget(self.settings_scroll)
        # The three views share the rest, as a person likes: drag the handles between them.
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        for index, (view, stretch) in enumerate(zip(views, VIEW_STRETCH)):
            self.splitter.addWidget(view)
            self.splitter.setStretchFactor(index, stretch)
        self.splitter.setSizes([5000, 4600, 3400])  # shares of whatever width the panel gets
        row.addWidget(self.splitter, 1)
