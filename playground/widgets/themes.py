"""The app's themes by name, and which one a palette is of (the canvas, the panels and the shell all ask)."""

from __future__ import annotations

from PySide6.QtGui import QPalette

HIGH_CONTRAST = "high-contrast"
THEMES = ("light", "dark", HIGH_CONTRAST)  # the app's themes, as View > Theme offers them and QSettings keeps them


def theme_of_palette(palette: QPalette) -> str:
    """The theme an application palette is of: high contrast's window is black (its text white), dark's is dark."""
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    if (window.red(), window.green(), window.blue()) == (0, 0, 0) and text.lightness() == 255:
        return HIGH_CONTRAST
    return "dark" if window.lightness() < 128 else "light"
