"""The app's three themes: Qt's Fusion style with a matching palette. Light is Fusion's own palette with
its selection and visited-link colours deepened to 4.5:1; Dark is ours; High contrast is white on black with
yellow and cyan highlights, every text at 7:1 or more (WCAG 1.4.6), for a projector in daylight.

At the first start (no theme saved) the app follows the system's dark or light setting.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

from ..widgets.target_style import TargetStyle
from ..widgets.themes import HIGH_CONTRAST, THEMES

# What View > Theme calls each theme.
THEME_TITLES = {"light": "Light", "dark": "Dark", HIGH_CONTRAST: "High contrast"}
Role = QPalette.ColorRole

_LIGHT_CHANGES = {
    Role.Highlight: "#1f6fae",  # Fusion's #308cc6 under white text is 3.7:1
    Role.LinkVisited: "#a000a0",  # Fusion's #ff00ff on white is 3.1:1
    Role.PlaceholderText: "#6b6b6b",  # Fusion's half-transparent black is 4.0:1 on white
}

_DARK = {
    Role.Window: "#2b2d31",
    Role.WindowText: "#e6e6e6",
    Role.Base: "#1e1f22",
    Role.AlternateBase: "#2b2d31",
    Role.ToolTipBase: "#3c3f45",
    Role.ToolTipText: "#f0f0f0",
    Role.Text: "#e6e6e6",
    Role.Button: "#383a40",
    Role.ButtonText: "#e6e6e6",
    Role.BrightText: "#ff6b6b",
    Role.Highlight: "#3a74b0",  # under white text: 4.9:1 (#4a88c7 was 3.7:1)
    Role.HighlightedText: "#ffffff",
    Role.Link: "#7fb4ff",
    Role.LinkVisited: "#e08ce0",
    Role.PlaceholderText: "#9da0a6",  # also the training tab's captions on the window: 5:1
}

_HIGH_CONTRAST = {
    Role.Window: "#000000",
    Role.WindowText: "#ffffff",
    Role.Base: "#000000",
    Role.AlternateBase: "#1a1a1a",
    Role.ToolTipBase: "#000000",
    Role.ToolTipText: "#ffffff",
    Role.Text: "#ffffff",
    # A button lighter than the window, so Fusion's bevel shows where it is; white on it is 13:1.
    Role.Button: "#303030",
    Role.ButtonText: "#ffffff",
    Role.BrightText: "#ffff00",
    Role.Highlight: "#ffff00",
    Role.HighlightedText: "#000000",
    Role.Link: "#00ffff",
    Role.LinkVisited: "#ff9cff",
    Role.PlaceholderText: "#c8c8c8",
    # Fusion draws frames, grooves and handles from these: light greys that show on black.
    Role.Light: "#ffffff",
    Role.Midlight: "#d0d0d0",
    Role.Mid: "#a0a0a0",
    Role.Dark: "#c0c0c0",
    Role.Shadow: "#ffffff",
}
# A disabled control is exempt from contrast (WCAG 1.4.3 "inactive user interface components"), yet its text
# stays readable: dimmer than the rest, never faint.
_DISABLED_TEXT = {"dark": "#7d8087", HIGH_CONTRAST: "#9a9a9a"}


def theme_palette(theme: str) -> QPalette:
    """The Fusion palette of ``theme``."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}")
    if theme == "light":
        palette = QStyleFactory.create("Fusion").standardPalette()
        colours = _LIGHT_CHANGES
    else:
        palette = QPalette()
        colours = _DARK if theme == "dark" else _HIGH_CONTRAST
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    if theme in _DISABLED_TEXT:
        for role in (Role.Text, Role.ButtonText, Role.WindowText):
            palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(_DISABLED_TEXT[theme]))
    return palette


def apply_theme(app: QApplication, theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}")
    # Only what changes: setting the style again, or the same palette, re-polishes every widget of the
    # application, another window's half-deleted ones too (each new window sets its theme: an intermittent
    # segfault in the test suite, where windows come and go).
    if not isinstance(app.style(), TargetStyle):
        app.setStyle(TargetStyle())  # Fusion, its controls 24 px at the least (WCAG 2.5.8)
    palette = theme_palette(theme)
    if palette != app.palette():
        app.setPalette(palette)


def system_theme() -> str:
    """The theme of the system's dark or light setting: dark for Dark, light for Light or none known."""
    scheme = QGuiApplication.styleHints().colorScheme()
    return "dark" if scheme == Qt.ColorScheme.Dark else "light"
