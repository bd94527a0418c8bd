"""Light and dark themes: Qt's Fusion style with a matching palette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("light", "dark")


def apply_theme(app: QApplication, theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}")
    # Only what changes: setting the style again, or the same palette, re-polishes every widget of the
    # application, another window's half-deleted ones too (each new window sets its theme: an intermittent
    # segfault in the test suite, where windows come and go).
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    palette = _dark_palette() if theme == "dark" else app.style().standardPalette()
    if palette != app.palette():
        app.setPalette(palette)


def _dark_palette() -> QPalette:
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#2b2d31",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.AlternateBase: "#2b2d31",
        QPalette.ColorRole.ToolTipBase: "#3c3f45",
        QPalette.ColorRole.ToolTipText: "#f0f0f0",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#383a40",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.BrightText: "#ff6b6b",
        QPalette.ColorRole.Highlight: "#4a88c7",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#7fb4ff",
        QPalette.ColorRole.PlaceholderText: "#8a8d93",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6d7077"))
    return palette
