"""Words whose colour says something (right in green, wrong in red, a problem in red), as deep or as light as
text must be on the theme's page: 4.5:1, 7:1 in high contrast (WCAG 1.4.3, 1.4.6). A green that reads on white
is 2.6:1 on the dark theme's grey, so each colour is fitted to the theme at hand, and again when it changes."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget

from ..common.contrast import ENHANCED_TEXT_RATIO, TEXT_RATIO, readable
from .errors import guarded
from .themes import HIGH_CONTRAST, theme_of_palette

RIGHT = "#1b7a3a"  # an answer that is right, the correct pass
WRONG = "#b3261e"  # an answer that is wrong, a mistaken pass
PROBLEM = "#c62828"  # an expression that cannot be read, a node's problem


def text_ratio(palette: QPalette) -> float:
    return ENHANCED_TEXT_RATIO if theme_of_palette(palette) == HIGH_CONTRAST else TEXT_RATIO


def fitted(colour: str, palette: QPalette | None = None, role=QPalette.ColorRole.Window) -> str:
    """``colour`` fitted to be read as text on ``palette``'s ``role`` (the application's palette by default)."""
    palette = palette or QApplication.palette()
    background = palette.color(role)
    return readable(colour, (background.red(), background.green(), background.blue()), text_ratio(palette))


def meaning_style(colour: str, bold: bool = False) -> str:
    """A style sheet (or a rich-text span's style) in ``colour`` fitted to the theme now on."""
    return f"color: {fitted(colour)};" + (" font-weight: bold;" if bold else "")


class _Follower(QObject):
    """Keeps its label's text in a colour fitted to the theme: again at each change of the application's palette.
    The colour goes into the label's style sheet (beside what else the sheet says). A label with a sheet of its
    own hears of no new palette (no PaletteChange event comes to it), so the follower listens to the
    application's `paletteChanged`, which Qt 6 still sends."""

    def __init__(self, label: QWidget, colour: str | None, style: str):
        super().__init__(label)
        self.colour, self.style = colour, style
        QApplication.instance().paletteChanged.connect(self._on_palette_changed)

    def apply(self) -> None:
        label = self.parent()
        sheet = " ".join(filter(None, (self.style, f"color: {fitted(self.colour)};" if self.colour else "")))
        if label.styleSheet() != sheet:  # the same sheet again would only re-polish it
            label.setStyleSheet(sheet)

    @guarded
    def _on_palette_changed(self, _palette: QPalette) -> None:
        self.apply()

    def _recover(self, _error: Exception) -> None:
        """Nothing to put right: the label keeps the colour it had."""


def set_text_colour(label: QWidget, colour: str | None, style: str = "") -> None:
    """``label``'s text in ``colour`` (None: the theme's own text colour), fitted to the theme now and at every
    change of theme; ``style``: the rest of the label's style sheet ("font-weight: bold;")."""
    follower = label.findChild(_Follower)
    if follower is None:
        follower = _Follower(label, colour, style)
    follower.colour, follower.style = colour, style
    follower.apply()
