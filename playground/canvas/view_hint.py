"""The note a graph view shows in its corner while a fitted graph is too big to see whole.

The status bar's message fades after a few seconds; this one stays until the person zooms or pans,
so a view showing one corner of a big graph says so, and how to see the rest.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QLabel, QWidget

TEXT = "Larger than the view: F shows it all, M the minimap, middle button or Space+drag pans"
# After F itself, where Fit keeps the numbers readable (an array card's at 11 px, presentation mode's text):
AFTER_FIT = "Larger than the view at a readable size: M the minimap, middle button or Space+drag pans, Ctrl+− zooms out"
FRAME = 24  # the padding and border of its style, both sides
MARGIN = 10  # from the viewport's edges


class TooBigHint(QLabel):
    def __init__(self, parent: QWidget):
        super().__init__(TEXT, parent)
        self.setObjectName("tooBigHint")
        self.setAccessibleName("The graph is larger than the view")
        self.setWordWrap(True)
        self.setStyleSheet("QLabel { background: palette(base); border: 1px solid palette(mid); "
                           "border-radius: 4px; padding: 3px 6px; }")
        self.hide()

    def place(self, area: QRect) -> None:
        """In ``area``'s bottom-left corner: on one line where it fits; on a narrow canvas it wraps, never cut off."""
        metrics = self.fontMetrics()
        width = min(metrics.horizontalAdvance(self.text()) + FRAME, max(area.width() - 2 * MARGIN, 80))
        text = metrics.boundingRect(QRect(0, 0, width - FRAME, 10_000), Qt.TextFlag.TextWordWrap, self.text())
        self.setFixedSize(width, text.height() + 12)
        self.move(area.left() + MARGIN, area.bottom() - self.height() - MARGIN)
        self.raise_()
