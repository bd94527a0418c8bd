"""A combo box whose closed text is never cut: it asks for the width its longest entry needs, in the font it
has now (Qt keeps the size it worked out once, so a combo filled later or shown in presentation mode's
larger font stays as narrow as it first was, and its text ends mid-word)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox


class WholeEntriesCombo(QComboBox):
    def _whole_width(self) -> int:
        """The combo's width with its longest entry written out whole: the text, and the style's frame and
        arrow around it."""
        longest = max((self.fontMetrics().horizontalAdvance(self.itemText(i)) for i in range(self.count())),
                      default=0)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option,
                                             QSize(longest, self.fontMetrics().height()), self)
        return size.width()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        return QSize(max(hint.width(), self._whole_width()), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._whole_width()), hint.height())
