"""A label of one line that ends in "…" where its room is short, with the whole text in its tooltip: for
lines that must never widen their column nor wrap to a second line (a hint under the training view)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """One line of plain text that never widens its column: where the room is short it ends in "…",
    and its tooltip then holds the whole text (Qt's QLabel can wrap or clip, but not elide)."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self._whole = ""
        self._own_tip = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def text(self) -> str:  # the whole text, as a QLabel's text() is
        return self._whole

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._whole = text
        self._elide()

    def setToolTip(self, tip: str) -> None:  # noqa: N802 - Qt's name
        self._own_tip = tip
        self._elide()

    def shown_text(self) -> str:
        """The text as it is drawn: the whole of it, or its start and "…"."""
        return super().text()

    def _elide(self) -> None:
        room = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight, max(room, 0))
        super().setText(shown)
        tip = self._own_tip or (self._whole if shown != self._whole else "")
        super().setToolTip(tip)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._elide()
