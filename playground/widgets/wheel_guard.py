"""The mouse wheel scrolls, it does not edit: a spin box, combo box or slider changes by the wheel only once it
has keyboard focus (clicked or tabbed into). Otherwise the wheel scrolls the panel under the pointer, as in
browsers and in Qt Creator's settings: a teacher scrolling through the training settings must not change the
layer sizes (and start the run over) on the way down.

One application-wide event filter does it for every such widget in every window, dialog and dock, those made
later included, so no panel has to remember it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QAbstractSpinBox, QApplication, QComboBox, QScrollBar, QWidget

_EDITED_BY_WHEEL = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def _guarded(widget: QObject) -> bool:
    # A scroll bar is a slider whose whole job is to scroll: the wheel always moves it.
    return isinstance(widget, _EDITED_BY_WHEEL) and not isinstance(widget, QScrollBar)


class WheelGuard(QObject):
    """The filter: installed once on the application by :func:`install_wheel_guard`."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QEvent.Type.Polish and _guarded(watched):
            # Qt's default for spin boxes is WheelFocus: the wheel would give focus (and so the right to edit)
            # before any filter sees it. Tab and a click still focus them.
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and _guarded(watched) and not watched.hasFocus():
            _scroll_an_ancestor(watched, event)
            event.accept()  # handled: Qt must not carry it up a second time
            return True
        return False


def _scroll_an_ancestor(widget: QWidget, event: QWheelEvent) -> None:
    """Hand the wheel to the parents, nearest first, until one takes it (the scroll area's viewport), as if the
    widget were not there. Done here rather than left to Qt, which carries only a spontaneous wheel upwards."""
    position = event.position()
    parent = widget.parentWidget()
    while parent is not None and not widget.isWindow():
        position += widget.pos().toPointF()
        forwarded = QWheelEvent(position, event.globalPosition(), event.pixelDelta(), event.angleDelta(),
                                event.buttons(), event.modifiers(), event.phase(), event.inverted(), event.source())
        forwarded.ignore()
        QCoreApplication.sendEvent(parent, forwarded)
        if forwarded.isAccepted():
            return
        widget, parent = parent, parent.parentWidget()


_guard: WheelGuard | None = None


def install_wheel_guard(app: QApplication | None = None) -> WheelGuard:
    """Install the filter on the application (once: later calls return the same filter)."""
    global _guard
    app = app or QApplication.instance()
    if _guard is None:
        _guard = WheelGuard(app)
        app.installEventFilter(_guard)
    return _guard
