"""Where the keyboard goes inside a part of the window: its first control that Tab would stop at."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget


def focus_target(container: QWidget) -> QWidget | None:
    """The first widget inside ``container``, in Tab's order, that takes the keyboard and can be seen (None: none).

    The whole window's chain is walked: a control added to the container later sits further along it."""
    widget = container.nextInFocusChain()
    while widget is not None and widget is not container:
        if (container.isAncestorOf(widget) and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
                and widget.isVisibleTo(container) and widget.isEnabled()):
            return widget
        widget = widget.nextInFocusChain()
    return None
