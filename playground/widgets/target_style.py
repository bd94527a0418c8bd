"""Fusion with targets a finger's width apart (WCAG 2.5.8): every button, check box, radio button, combo box,
spin box and slider asks for at least 24 x 24 px at 100% scale, wherever it is made. Inside a scroll area a
layout shrinks its controls down to the least they ask for before it scrolls (the training settings' sliders
were 15 px tall at 1280x720): asking for 24 at the least keeps them whole.

And check boxes and radio buttons ringed at 3:1 (WCAG 1.4.11): Fusion draws their box in the window colour
darkened, 2.3:1 on white and nothing at all on the high-contrast theme's black, where an unticked box vanished.
A slider's handle too: Fusion's #303030 button barely showed on the high-contrast black."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleFactory

TARGET_SIZE = 24  # WCAG 2.5.8's least target, in device-independent pixels
_CONTROLS = (QStyle.ContentsType.CT_PushButton, QStyle.ContentsType.CT_ToolButton, QStyle.ContentsType.CT_CheckBox,
             QStyle.ContentsType.CT_RadioButton, QStyle.ContentsType.CT_ComboBox, QStyle.ContentsType.CT_SpinBox,
             QStyle.ContentsType.CT_Slider)


class TargetStyle(QProxyStyle):
    """Qt's Fusion style, each clickable control's size (its hint and its least size both come from here) at
    least `TARGET_SIZE` square."""

    def __init__(self):
        super().__init__(QStyleFactory.create("Fusion"))

    def sizeFromContents(self, kind, option, size, widget=None) -> QSize:  # noqa: N802 - Qt's name
        contents = super().sizeFromContents(kind, option, size, widget)
        if kind in _CONTROLS:
            return contents.expandedTo(QSize(TARGET_SIZE, TARGET_SIZE))
        return contents

    def drawComplexControl(self, control, option, painter, widget=None) -> None:  # noqa: N802 - Qt's name
        super().drawComplexControl(control, option, painter, widget)
        if control == QStyle.ComplexControl.CC_Slider and option.subControls & QStyle.SubControl.SC_SliderHandle:
            # Over Fusion's handle, its edge in the placeholder text's colour, as a check box's (3:1 and more).
            handle = self.subControlRect(control, option, QStyle.SubControl.SC_SliderHandle, widget)
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(_edge_colour(option), 1.0))
            painter.drawRoundedRect(QRectF(handle).adjusted(0.5, 0.5, -1.5, -1.5), 2.0, 2.0)
            painter.restore()

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt's name
        super().drawPrimitive(element, option, painter, widget)
        box = element == QStyle.PrimitiveElement.PE_IndicatorCheckBox
        if box or element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            # Over Fusion's faint edge, one in the placeholder text's colour: 4.5:1 or more on every theme's base.
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(_edge_colour(option), 1.0))
            rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
            if box:
                painter.drawRect(rect.adjusted(0, 0, -1, -1))
            else:
                painter.drawEllipse(rect.adjusted(0.5, 0.5, -1, -1))
            painter.restore()


def _edge_colour(option):
    """The placeholder text's colour (4.5:1 or more on every theme's window and base), a disabled control's
    from the Disabled group."""
    group = QPalette.ColorGroup.Disabled if not option.state & QStyle.StateFlag.State_Enabled else \
        QPalette.ColorGroup.Active
    return option.palette.color(group, QPalette.ColorRole.PlaceholderText)
