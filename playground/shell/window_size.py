"""How large the main window opens on a first run: never larger than the screen's available area.

A window manager places a window by its frame (title bar and borders), which Qt does not know before
the window is shown; a window sized to the whole available area would be taller than the screen by its
title bar (1282 x 845 on a 1280 x 720 projector). So on the screens classrooms and laptops have (up to
1920 x 1200) the window opens maximized, which the window manager fits to the screen exactly, and the
graph gets every pixel (a projector's, and presentation mode's when it is turned on later); on a bigger
monitor it takes most of it, with room left for its frame.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication, QScreen

WANTED = QSize(1280, 820)  # the size the app is designed around, where the screen has room for it
LARGEST = QSize(1800, 1100)
SHARE = 0.85  # of a bigger screen
CLASSROOM = QSize(1920, 1200)  # the largest screen a first window fills
FRAME = QSize(16, 48)  # room for the window manager's title bar and borders (openbox: 2 x 1 and 25; others more)


def first_window_size(available: QSize | None) -> QSize:
    """The window's size (without its frame) on a first run, on a screen with ``available`` room: 1280 x 820,
    or 85% of a bigger screen (up to 1800 x 1100), so that the Learn dock beside the editor leaves the graph
    room on a 1920 x 1080 screen; never more than the available room less a frame."""
    if available is None:
        return QSize(WANTED)
    size = WANTED.expandedTo(QSize(min(round(available.width() * SHARE), LARGEST.width()),
                                   min(round(available.height() * SHARE), LARGEST.height())))
    return size.boundedTo(available - FRAME)


def opens_maximized(available: QSize | None) -> bool:
    """Whether a first window fills the screen: on a projector, a laptop or a full HD display (1024 x 768 to
    1920 x 1200), where every pixel goes to the graph; or wherever the designed size and a frame do not fit."""
    if available is None:
        return False
    return CLASSROOM.boundedTo(available) == available or (WANTED + FRAME).boundedTo(available) != WANTED + FRAME


def first_window(screen: QScreen | None, presentation: bool) -> tuple[QSize, bool]:
    """The first window's size on ``screen``, and whether it opens maximized (on a projector, a laptop, a full
    HD display, or in presentation mode: every pixel to the graph). Maximizing happens when the window is
    shown, so that a size chosen before showing it wins. The offscreen platform's screen (800 x 800, where
    the tests draw) is a placeholder, not a screen to fit: the window there keeps the designed size."""
    if screen is None or QGuiApplication.platformName() == "offscreen":
        return first_window_size(None), False
    available = screen.availableGeometry().size()
    return first_window_size(available), opens_maximized(available) or presentation
