"""A push button that shows a shorter label when its row is short of room (a narrow window, the Learn dock
beside it, presentation mode's larger text), instead of pushing the row past the window: "Animate ▶" for
"Animate backward ▶". Its whole label stays its tooltip's and what a screen reader says."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QPushButton, QSizePolicy, QWidget


class ShortenedButton(QPushButton):
    def __init__(self, whole: str, short: str, parent: QWidget | None = None):
        super().__init__(whole, parent)
        self.whole, self.short = whole, short
        self.setToolTip(whole)
        # Preferred, not a push button's Minimum: a layout may give it less than its whole label's width.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, self.sizePolicy().verticalPolicy())

    def _hint_for(self, text: str) -> QSize:
        """The size hint the button would have with ``text`` (the style's padding around the text's width)."""
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        hint.setWidth(hint.width() + metrics.horizontalAdvance(text) - metrics.horizontalAdvance(self.text()))
        return hint

    def sizeHint(self) -> QSize:
        return self._hint_for(self.whole)

    def minimumSizeHint(self) -> QSize:
        return self._hint_for(self.short)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        wanted = self.whole if self.width() >= self._hint_for(self.whole).width() else self.short
        if self.text() != wanted:
            self.setText(wanted)
