"""A dialog opens whole on the screen it opens on: on a 1280x720 projector, Compare optimizers… asked for
1100x720 and its frame ran 25 px below the screen with its plots' axes cut off.

The size asked for is a wish: the dialog gets it where the screen has room, else the room there is (the title
bar and borders counted as the main window has them), and it opens centred on its window, moved inside the
screen where centring would push it off.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QWidget

# The window manager's title bar and borders, where no window shown yet says what they are.
_FALLBACK_FRAME = QSize(2, 30)


def _frame_size(window: QWidget | None) -> QSize:
    if window is None or not window.isVisible():
        return _FALLBACK_FRAME
    frame = window.frameGeometry().size() - window.geometry().size()
    return frame.expandedTo(_FALLBACK_FRAME)  # a maximised window's frame is thinner than a dialog's


def fit_to_screen(dialog: QWidget, wanted: QSize) -> None:
    """Size ``dialog`` (not shown yet) to ``wanted`` or the room its screen has, and place it on that screen."""
    owner = dialog.parentWidget().window() if dialog.parentWidget() is not None else None
    screen = (owner or dialog).screen()
    room: QRect = screen.availableGeometry()
    frame = _frame_size(owner)
    most = QSize(room.width() - frame.width(), room.height() - frame.height())
    size = wanted.boundedTo(most)
    dialog.resize(size)
    # Centred on its window (or the screen), then moved inside the screen.
    around = owner.frameGeometry() if owner is not None and owner.isVisible() else room
    whole = QSize(size.width() + frame.width(), size.height() + frame.height())
    corner = around.center() - QPoint(whole.width() // 2, whole.height() // 2)
    x = min(max(corner.x(), room.left()), room.right() + 1 - whole.width())
    y = min(max(corner.y(), room.top()), room.bottom() + 1 - whole.height())
    dialog.move(max(x, room.left()), max(y, room.top()))
