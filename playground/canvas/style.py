"""How the graph's items look: the light and dark colour palettes, their fonts, and the zoom below
which a card or a wire leaves out its text.

Colours come from a palette dict looked up on the item's scene (``scene.colors``), so a scene
switches theme by swapping that dict; a plain `QGraphicsScene` gets `LIGHT_COLORS`.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ..graph.catalog import ARITHMETIC_GROUP, DATA_GROUP, FUNCTION_GROUP, LEAF_GROUP, TENSOR_GROUP

DETAIL_THRESHOLD = 0.45  # below this scale a card is drawn as a plain coloured card, a wire without its label

LIGHT_COLORS: dict[str, QColor] = {
    "background": QColor("#f3f4f7"),
    "grid": QColor("#d3d7df"),
    "card": QColor("#ffffff"),
    "card_border": QColor("#b6bcc7"),
    "shadow": QColor(0, 0, 0, 38),
    "text": QColor("#1f2328"),
    "muted": QColor("#6b7280"),
    "header_text": QColor("#ffffff"),
    LEAF_GROUP: QColor("#3b78e7"),
    DATA_GROUP: QColor("#3b78e7"),  # a data input is an input
    ARITHMETIC_GROUP: QColor("#d9730d"),
    FUNCTION_GROUP: QColor("#8656d6"),
    TENSOR_GROUP: QColor("#0f8579"),
    "selected": QColor("#2563eb"),
    "output": QColor("#d4a017"),
    "problem": QColor("#dc2626"),
    "wire": QColor("#7c8594"),
    "wire_selected": QColor("#2563eb"),
    "wire_drop": QColor("#16a34a"),
    "wire_label_bg": QColor(255, 255, 255, 235),
    "wire_label_border": QColor("#c9ced6"),
    "wire_label_text": QColor("#374151"),
    "ok": QColor("#16a34a"),
    "refused": QColor("#dc2626"),
    "pending": QColor("#6b7280"),
    "port": QColor("#ffffff"),
    "port_border": QColor("#6b7280"),
    "port_connected": QColor("#6b7280"),
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
    "muted": QColor("#9aa1ab"),
    LEAF_GROUP: QColor("#2f65c8"),
    DATA_GROUP: QColor("#2f65c8"),
    ARITHMETIC_GROUP: QColor("#b45f0c"),
    FUNCTION_GROUP: QColor("#7043bf"),
    TENSOR_GROUP: QColor("#0c6d63"),
    "selected": QColor("#60a5fa"),
    "output": QColor("#e2b33b"),
    "problem": QColor("#f87171"),
    "wire": QColor("#8b93a1"),
    "wire_selected": QColor("#60a5fa"),
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
