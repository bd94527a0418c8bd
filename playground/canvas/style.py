"""How the graph's items look: the light, dark and high-contrast colour palettes, their fonts, and the zoom
below which a card or a wire leaves out its text.

Colours come from a palette dict looked up on the item's scene (``scene.colors``), so a scene
switches theme by swapping that dict; a plain `QGraphicsScene` gets `LIGHT_COLORS`. Every text colour
stands 4.5:1 against what it is painted on (7:1 in high contrast), every wire, port, outline and ring 3:1
against the card and the canvas (tests/playground/test_contrast.py measures them).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ..graph.catalog import ARITHMETIC_GROUP, DATA_GROUP, FUNCTION_GROUP, LEAF_GROUP, TENSOR_GROUP
from ..widgets.themes import HIGH_CONTRAST, THEMES

DETAIL_THRESHOLD = 0.45  # below this scale a card is drawn as a plain coloured card, a wire without its label

LIGHT_COLORS: dict[str, QColor] = {
    "background": QColor("#f3f4f7"),
    "grid": QColor("#d3d7df"),
    "card": QColor("#ffffff"),
    "card_border": QColor("#b6bcc7"),
    "shadow": QColor(0, 0, 0, 38),
    "text": QColor("#1f2328"),
    "muted": QColor("#5b6270"),  # 4.5:1 on a card the animator tints too
    "header_text": QColor("#ffffff"),
    LEAF_GROUP: QColor("#3771d9"),  # the header's colours: white titles on them 4.5:1 or more
    DATA_GROUP: QColor("#3771d9"),  # a data input is an input
    ARITHMETIC_GROUP: QColor("#b25e0b"),
    FUNCTION_GROUP: QColor("#8656d6"),
    TENSOR_GROUP: QColor("#0f8579"),
    "selected": QColor("#2563eb"),
    "focus": QColor("#2563eb"),  # the keyboard focus ring
    "output": QColor("#a27a0f"),
    "problem": QColor("#c81e1e"),
    "wire": QColor("#7c8594"),
    "wire_selected": QColor("#2563eb"),
    "wire_drop": QColor("#12853c"),
    "wire_label_bg": QColor(255, 255, 255, 235),
    "wire_label_border": QColor("#c9ced6"),
    "wire_label_text": QColor("#374151"),
    "ok": QColor("#12853c"),
    "refused": QColor("#c81e1e"),
    "pending": QColor("#6b7280"),
    "port": QColor("#ffffff"),
    "port_border": QColor("#6b7280"),
    "port_connected": QColor("#6b7280"),  # a connected port's ring, round its group's colour
    "minimap_bg": QColor(233, 235, 240, 235),
    "minimap_border": QColor("#aab0bb"),
    "minimap_view": QColor("#2563eb"),
}

DARK_COLORS: dict[str, QColor] = {
    **LIGHT_COLORS,
    "background": QColor("#1d1f23"),
    "grid": QColor("#33363d"),
    "card": QColor("#2a2d33"),
    "card_border": QColor("#4a4f59"),
    "shadow": QColor(0, 0, 0, 90),
    "text": QColor("#e7e8eb"),
    "muted": QColor("#a3aab4"),
    LEAF_GROUP: QColor("#2f65c8"),
    DATA_GROUP: QColor("#2f65c8"),
    ARITHMETIC_GROUP: QColor("#b45f0c"),
    FUNCTION_GROUP: QColor("#7043bf"),
    TENSOR_GROUP: QColor("#0c6d63"),
    "selected": QColor("#60a5fa"),
    "focus": QColor("#60a5fa"),
    "output": QColor("#e2b33b"),
    "problem": QColor("#f87171"),
    "wire": QColor("#8b93a1"),
    "wire_selected": QColor("#60a5fa"),
    "wire_drop": QColor("#3fbf6a"),
    "ok": QColor("#3fbf6a"),
    "refused": QColor("#f87171"),
    "pending": QColor("#9aa1ab"),
    "wire_label_bg": QColor(42, 45, 51, 235),
    "wire_label_border": QColor("#4a4f59"),
    "wire_label_text": QColor("#d7dae0"),
    "port": QColor("#2a2d33"),
    "port_border": QColor("#9aa1ab"),
    "port_connected": QColor("#9aa1ab"),
    "minimap_bg": QColor(36, 38, 43, 235),
    "minimap_border": QColor("#4a4f59"),
    "minimap_view": QColor("#60a5fa"),
}


# White on black, every text 7:1 or more (WCAG 1.4.6), the highlights yellow and cyan, cards ringed in light
# grey, the headers bright with black titles: for a projector in daylight.
HIGH_CONTRAST_COLORS: dict[str, QColor] = {
    **DARK_COLORS,
    "background": QColor("#000000"),
    "grid": QColor("#3c3c3c"),
    "card": QColor("#0d0d0d"),
    "card_border": QColor("#c8c8c8"),
    "shadow": QColor(0, 0, 0, 0),
    "text": QColor("#ffffff"),
    "muted": QColor("#dadada"),
    "header_text": QColor("#000000"),
    LEAF_GROUP: QColor("#7cc4ff"),
    DATA_GROUP: QColor("#7cc4ff"),
    ARITHMETIC_GROUP: QColor("#ffb45c"),
    FUNCTION_GROUP: QColor("#d9b3ff"),
    TENSOR_GROUP: QColor("#4fe0c8"),
    "selected": QColor("#ffff00"),
    "focus": QColor("#00ffff"),
    "output": QColor("#ff9f1a"),
    "problem": QColor("#ff8080"),
    "wire": QColor("#e0e0e0"),
    "wire_selected": QColor("#ffff00"),
    "wire_drop": QColor("#5cff8d"),
    "wire_label_bg": QColor(0, 0, 0, 245),
    "wire_label_border": QColor("#c8c8c8"),
    "wire_label_text": QColor("#ffffff"),
    "ok": QColor("#5cff8d"),
    "refused": QColor("#ff8080"),
    "pending": QColor("#dadada"),
    "port": QColor("#000000"),
    "port_border": QColor("#ffffff"),
    "port_connected": QColor("#ffffff"),
    "minimap_bg": QColor(16, 16, 16, 245),
    "minimap_border": QColor("#ffffff"),
    "minimap_view": QColor("#ffff00"),
}
THEME_COLORS = {"light": LIGHT_COLORS, "dark": DARK_COLORS, HIGH_CONTRAST: HIGH_CONTRAST_COLORS}
WIRE_WIDTHS = {"light": 2.0, "dark": 2.0, HIGH_CONTRAST: 3.0}  # a wire's pen; thick where a projector washes it out


def theme_name(theme: str | bool) -> str:
    """One of `THEMES` from a theme's name or, as the canvas was first told, a bool: True for dark."""
    if isinstance(theme, str):
        if theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}")
        return theme
    return "dark" if theme else "light"


def wire_width(colors: dict[str, QColor]) -> float:
    """The pen width of a plain wire in the theme of ``colors``."""
    return WIRE_WIDTHS[HIGH_CONTRAST] if colors is HIGH_CONTRAST_COLORS else WIRE_WIDTHS["light"]


def colors_of(item: QGraphicsItem) -> dict[str, QColor]:
    """The palette of the item's scene (``scene.colors``), or the light palette."""
    scene = item.scene()
    return getattr(scene, "colors", None) or LIGHT_COLORS


def composited(colour: QColor, background: QColor) -> QColor:
    """``colour`` (translucent) laid over the opaque ``background``: the opaque colour that looks the same."""
    alpha = colour.alphaF()
    return QColor.fromRgbF(*(alpha * mine + (1 - alpha) * theirs for mine, theirs in (
        (colour.redF(), background.redF()), (colour.greenF(), background.greenF()),
        (colour.blueF(), background.blueF()))))


def pixel_font(pixel_size: int, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(pixel_size)
    font.setBold(bold)
    font.setItalic(italic)
    return font


def level_of_detail(painter: QPainter) -> float:
    """How much the painter scales an item: below `DETAIL_THRESHOLD` text is left out."""
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def group_icon(group: str, size: int = 12) -> QIcon:
    """A small rounded square in a node group's colour: the icon of a kind's group in the palette and quick search."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(LIGHT_COLORS[group])
    painter.drawRoundedRect(QRectF(1, 1, size - 2, size - 2), 3, 3)
    painter.end()
    return QIcon(pixmap)
