"""Point at a control: a ring that blinks around it for a few seconds, drawn over the window, the control
scrolled into view first (the training tab's columns scroll on a small screen). The ring goes around the part
of the control in sight and stays inside its parent's part in sight: a control still scrolled half away is
ringed where it shows, and the ring is never drawn over another pane (the Learn dock's lesson list)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QScrollArea, QWidget

RING_COLOR = "#e83d18"  # the animator's accent
BLINKS = 12  # about five seconds: long enough to find in a classroom, as a teacher tried it
BLINK_MS = 400
SETTLE_MS = (0, 100, 400)
MARGIN = 8  # pixels of room kept around a control scrolled into view
RING_MARGIN = 4  # pixels between a control and its ring


def scroll_into_view(widget: QWidget) -> None:
    """Scroll every scroll area around ``widget``, innermost first, until it shows: its bottom, then its top
    (which wins when it is taller than the view). Not `QScrollArea.ensureWidgetVisible`, which aims at a
    widget's text cursor where it has one, and a plot (a QGraphicsView) reports one that is not its own."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and parent.widget() is not None:
            corner = widget.mapTo(parent.widget(), QPoint(0, 0))
            parent.ensureVisible(corner.x(), corner.y() + widget.height(), MARGIN, MARGIN)
            parent.ensureVisible(corner.x(), corner.y(), MARGIN, MARGIN)
        parent = parent.parentWidget()


def shown_part(widget: QWidget) -> QRect:
    """The part of ``widget``, in its window's coordinates, that its ancestors leave in sight (a scroll area's
    viewport, a splitter's pane, a tab clip what they hold); empty when none is."""
    window = widget.window()
    shown = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        shown = shown.intersected(QRect(parent.mapTo(window, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return shown if shown.isValid() else QRect()


class Highlight(QWidget):
    """An overlay on ``target``'s window: mouse clicks go through it to the controls."""

    def __init__(self, target: QWidget):
        window = target.window()
        super().__init__(window)
        self.setObjectName("lessonHighlight")
        self.target = target
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(window.rect())
        self._ticks = 0
        self._timer = QTimer(self, interval=BLINK_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._timer.start()
        self.show()
        self.raise_()
        scroll_into_view(target)
        # Again once the layouts have settled: the step may have just shown the control (a ticked plot), and a
        # training column grows to hold it only in a timer of its own (`body.ColumnScroller`).
        for delay in SETTLE_MS:
            QTimer.singleShot(delay, self, lambda: scroll_into_view(self.target))

    def ring(self) -> QRect:
        """Where the ring is drawn: the target's part in sight, with a margin (empty when none of it is)."""
        shown = shown_part(self.target)
        return shown.adjusted(-RING_MARGIN, -RING_MARGIN, RING_MARGIN, RING_MARGIN) if not shown.isEmpty() else QRect()

    def clip(self) -> QRect:
        """What the ring may be drawn over: the target's parent's part in sight (the window for a window)."""
        parent = self.target.parentWidget()
        return shown_part(parent) if parent is not None and not parent.isWindow() else self.window().rect()

    def paintEvent(self, event) -> None:
        ring = self.ring()
        if self._ticks % 2 or not self.target.isVisible() or ring.isEmpty():
            return
        painter = QPainter(self)
        painter.setClipRect(self.clip())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(RING_COLOR), 3))
        painter.drawRoundedRect(ring, 6, 6)
        painter.end()

    def _on_timer_timeout(self) -> None:
        self._ticks += 1
        if self._ticks >= BLINKS:
            self._timer.stop()
            self.deleteLater()
            return
        self.setGeometry(self.window().rect())
        self.update()
