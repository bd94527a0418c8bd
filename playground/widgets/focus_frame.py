"""A frame that shows where the keyboard is (WCAG 2.4.7) on a widget whose style draws none: a plot, a scroll
area of text. It is a child painted over the widget's edge, in the palette's highlight colour, shown while the
widget has the keyboard; it takes no clicks and no focus, so the widget works as before."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QWidget

FRAME = 3  # pixels, as the canvas's focus frame


class FocusFrame(QWidget):
    """Shown round ``watched`` while it has the keyboard; follows its size."""

    def __init__(self, watched: QWidget):
        super().__init__(watched)
        self.setObjectName(f"{watched.objectName()}FocusFrame")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.hide()
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind in (QEvent.Type.FocusIn, QEvent.Type.FocusOut, QEvent.Type.Resize):
            self.setGeometry(watched.rect())
            self.setVisible(watched.hasFocus())
            self.raise_()  # over the children added since (a scroll area's viewport, a label)
        return False

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        half = FRAME / 2
        painter.setPen(QPen(self.parentWidget().palette().color(QPalette.ColorRole.Highlight), FRAME))
        painter.drawRect(QRectF(self.rect()).adjusted(half, half, -half, -half))
        painter.end()
