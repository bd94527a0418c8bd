"""A style's standard icon (Fusion's media buttons) drawn in the palette's button text colour: Fusion's own are
dark grey pictures that all but vanish on a dark or a high-contrast button (1.4:1), where the text beside them
reads at 9:1 or more."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QStyle, QWidget

ICON_SIZES = (16, 24, 32, 48)  # the sizes drawn ahead: a button at 100% to 300% picks its own


def _tinted(pixmap: QPixmap, colour) -> QPixmap:
    tinted = QPixmap(pixmap.size())
    tinted.setDevicePixelRatio(pixmap.devicePixelRatio())
    tinted.fill(Qt.GlobalColor.transparent)
    painter = QPainter(tinted)
    painter.drawPixmap(0, 0, pixmap)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)  # the shape, in the colour
    painter.fillRect(tinted.rect(), colour)
    painter.end()
    return tinted


def text_coloured_icon(widget: QWidget, which: QStyle.StandardPixmap) -> QIcon:
    """``widget``'s style's icon ``which`` in ``widget``'s button text colour (and its disabled text colour
    when the button is off)."""
    source = widget.style().standardIcon(which, None, widget)
    palette = widget.palette()
    icon = QIcon()
    for side in ICON_SIZES:
        pixmap = source.pixmap(QSize(side, side))
        if pixmap.isNull():
            continue
        for mode, group in ((QIcon.Mode.Normal, QPalette.ColorGroup.Active),
                            (QIcon.Mode.Disabled, QPalette.ColorGroup.Disabled)):
            icon.addPixmap(_tinted(pixmap, palette.color(group, QPalette.ColorRole.ButtonText)), mode)
    return icon
