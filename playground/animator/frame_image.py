"""One animator frame as a picture for slides: the graph on white, the step's title above, the colour key below."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from ..canvas.style import LIGHT_COLORS
from .colors import BACKWARD_WIRE_COLOR, STATE_COLORS, STATE_MARKS
from .model.timeline import NodeState
from .scene import AnimatorScene

CAPTION_HEIGHT, LEGEND_HEIGHT, MARGIN = 34, 24, 24.0


def render_frame(scene: AnimatorScene, caption: str, max_size: int = 900) -> QImage:
    """The scene as it is now, on white, with ``caption`` above it and a legend below, scaled to fit
    ``max_size`` pixels (never enlarged beyond 1.5x)."""
    rect = scene.items_bounding_rect()
    if rect.isNull() or rect.isEmpty():
        rect = QRectF(0, 0, 200, 100)
    rect = rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
    room = max(int(max_size), 64)
    scale = min(1.5, room / rect.width(), max(room - CAPTION_HEIGHT - LEGEND_HEIGHT, 32) / rect.height())
    graph_width = min(round(rect.width() * scale), room)
    graph_height = max(min(round(rect.height() * scale), room - CAPTION_HEIGHT - LEGEND_HEIGHT), 1)
    width = max(graph_width, min(560, room))
    height = graph_height + CAPTION_HEIGHT + LEGEND_HEIGHT
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    scene.colors = {**LIGHT_COLORS, "background": QColor("white"), "grid": QColor("white")}
    scene.setBackgroundBrush(QColor("white"))
    painter = QPainter(image)
    try:
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        target = QRectF((width - graph_width) / 2, CAPTION_HEIGHT, graph_width, graph_height)
        scene.render(painter, target, rect, Qt.AspectRatioMode.KeepAspectRatio)
        _paint_caption(painter, QRectF(10, 0, width - 20, CAPTION_HEIGHT), caption)
        _paint_legend(painter, QRectF(10, height - LEGEND_HEIGHT, width - 20, LEGEND_HEIGHT))
    finally:
        painter.end()
        scene.set_theme(scene.theme)  # back to the theme's palette and background
    return image


def _paint_caption(painter: QPainter, rect: QRectF, text: str) -> None:
    font = QFont()
    font.setPixelSize(15)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("#1f2328"))
    text = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
    painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)


def _paint_legend(painter: QPainter, rect: QRectF) -> None:
    font = QFont()
    font.setPixelSize(11)
    painter.setFont(font)
    metrics = QFontMetricsF(font)
    x, y = rect.left(), rect.center().y()
    entries = [(STATE_COLORS[state], f"{STATE_MARKS[state]} {state.value}", False) for state in NodeState]
    entries.append((BACKWARD_WIRE_COLOR, "wire of the current step", True))
    for color, text, is_wire in entries:
        width = 14 + metrics.horizontalAdvance(text) + 12
        if x + width > rect.right():
            break
        if is_wire:
            painter.setPen(QPen(QColor(color), 3.0))
            painter.drawLine(QPointF(x, y), QPointF(x + 10, y))
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(color))
            painter.drawEllipse(QPointF(x + 5, y), 5, 5)
        painter.setPen(QColor("#4b5563"))
        painter.drawText(QRectF(x + 14, rect.top(), width, rect.height()),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        x += width
