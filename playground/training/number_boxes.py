"""Number boxes that say what they did with a typed number.

Qt's spin boxes treat a number typed out of range in two silent ways: a QSpinBox refuses the
keystroke that takes it past the maximum, and on Enter any box falls back to its previous value.
A person who typed 100 as a learning rate then trains at 0.01 without knowing. These boxes take
any number while it is typed; on Enter or when focus leaves, a number out of range is clamped to
the nearest bound and `clamped` carries a sentence that says so ("Learning rate 100 is above the
maximum 10: set to 10"); text that is no number is refused with a sentence too.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

from ..common.numbers import format_number

ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def typed_text(box: QAbstractSpinBox) -> str:
    """What the person typed, without the box's prefix and suffix."""
    text = box.lineEdit().displayText().strip()
    prefix, suffix = box.prefix().strip(), box.suffix().strip()
    if prefix and text.startswith(prefix):
        text = text[len(prefix):]
    if suffix and text.endswith(suffix):
        text = text[:-len(suffix)]
    return text.strip()


def parse_number(box: QAbstractSpinBox, text: str) -> float | None:
    """The number in ``text`` (the box's locale, or Python's spelling: 1e-3, inf), or None."""
    value, ok = box.locale().toDouble(text)
    if ok:
        return value
    try:
        return float(text)
    except ValueError:
        return None


def correction(box: QAbstractSpinBox, what: str) -> tuple[float | None, str]:
    """What to do with the typed text before Qt reads it: (value to put in its place or None, message).

    A number in range, the special value's text, or an empty box: nothing (Qt reads it as usual,
    an empty box keeps its value). A number out of range: its nearest bound. Anything else: the
    value the box had, with a message that the text was no number."""
    text = typed_text(box)
    special = box.specialValueText()
    if not text or (special and text == special.strip()):
        return None, ""
    number = parse_number(box, text)
    low, high = box.minimum(), box.maximum()
    if number is None or math.isnan(number):
        return box.value(), f"{what}: {text!r} is not a number; it stays {shown(box, box.value())}"
    if low <= number <= high:
        return None, ""
    bound = high if number > high else low
    if shown(box, bound) != format_number(bound):  # the bound has a name ("Full batch"), not a number to compare
        return bound, f"{what} {format_number(number)} is out of range: set to {shown(box, bound)}"
    side = "above the maximum" if number > high else "below the minimum"
    return bound, f"{what} {format_number(number)} is {side} {format_number(bound)}: set to {format_number(bound)}"


def shown(box: QAbstractSpinBox, value: float) -> str:
    """A value as a person reads it in this box: the special text at the minimum, else the number."""
    if box.specialValueText() and value == box.minimum():
        return box.specialValueText()
    return format_number(value)


class _Clamping:
    """What the three boxes share; each concrete class declares the `clamped` signal (a signal
    belongs on the QObject class itself)."""

    what = "The value"

    def _accept_any_number(self, state, text: str, position: int):
        """Qt calls a number past the maximum Invalid and refuses the keystroke: call it Intermediate
        (not yet acceptable), so that Enter can clamp it with a message."""
        if state == QValidator.State.Invalid:
            stripped = text.strip().removeprefix(self.prefix().strip()).removesuffix(self.suffix().strip()).strip()
            if stripped in ("-", "+") or (stripped and parse_number(self, stripped) is not None):
                return QValidator.State.Intermediate, text, position
        return state, text, position

    def _correct_typed(self) -> None:
        value, message = correction(self, self.what)
        if value is None:
            return
        # The corrected text goes into the line edit; Qt then reads it as if it had been typed.
        self.lineEdit().setText(self.prefix() + self.textFromValue(value) + self.suffix()
                                if not (self.specialValueText() and value == self.minimum())
                                else self.specialValueText())
        if message:
            self.clamped.emit(message)

    def keyPressEvent(self, event) -> None:
        if event.key() in ENTER_KEYS:
            self._correct_typed()
        super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        self._correct_typed()
        super().focusOutEvent(event)


class IntBox(_Clamping, QSpinBox):
    """A QSpinBox that clamps a typed number with a message; ``what`` names it in that message."""

    clamped = Signal(str)

    def __init__(self, what: str, low: int, high: int, parent=None):
        super().__init__(parent)
        self.what = what
        self.setRange(low, high)
        self.setKeyboardTracking(False)  # a typed number counts on Enter or leaving the box

    def validate(self, text: str, position: int):
        return self._accept_any_number(*super().validate(text, position))


class FloatBox(_Clamping, QDoubleSpinBox):
    """A QDoubleSpinBox that clamps a typed number with a message."""

    clamped = Signal(str)

    def __init__(self, what: str, low: float, high: float, parent=None):
        super().__init__(parent)
        self.what = what
        self.setRange(low, high)
        self.setKeyboardTracking(False)

    def validate(self, text: str, position: int):
        return self._accept_any_number(*super().validate(text, position))


class LogSpinBox(FloatBox):
    """A positive number stepped on a log scale: 0.001, 0.003, 0.01, 0.03, ...; any value can be typed."""

    LADDER = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0, 3.0, 10.0)

    def __init__(self, minimum: float = 1e-5, maximum: float = 10.0, value: float = 0.01, parent=None,
                 what: str = "Learning rate"):
        super().__init__(what, minimum, maximum, parent)
        self.setDecimals(10)
        self.setRange(minimum, maximum)
        self.setValue(value)

    def stepBy(self, steps: int) -> None:
        value = self.value()
        ladder = [v for v in self.LADDER if self.minimum() <= v <= self.maximum()]
        if steps > 0:
            above = [v for v in ladder if v > value * (1 + 1e-9)]
            target = above[min(steps, len(above)) - 1] if above else self.maximum()
        else:
            below = [v for v in ladder if v < value * (1 - 1e-9)]
            target = below[-min(-steps, len(below))] if below else self.minimum()
        self.setValue(target)

    def stepEnabled(self):
        flags = QDoubleSpinBox.StepEnabledFlag.StepNone
        if self.value() < self.maximum():
            flags |= QDoubleSpinBox.StepEnabledFlag.StepUpEnabled
        if self.value() > self.minimum():
            flags |= QDoubleSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def textFromValue(self, value: float) -> str:
        return format_number(value)

    def valueFromText(self, text: str) -> float:
        number = parse_number(self, text.strip())
        return self.value() if number is None else number

    def validate(self, text: str, position: int):
        stripped = text.strip()
        number = parse_number(self, stripped)
        if number is None:
            ok = stripped == "" or all(ch in "0123456789.eE+-" for ch in stripped)
            return (QValidator.State.Intermediate if ok else QValidator.State.Invalid), text, position
        if math.isfinite(number) and self.minimum() <= number <= self.maximum():
            return QValidator.State.Acceptable, text, position
        return QValidator.State.Intermediate, text, position


class PercentBox(FloatBox):
    """A share typed and shown in percent, "20" or "12.5" (never "20.00"), stepped by 5; `share` is the value
    over 100."""

    def __init__(self, what: str, low: float, high: float, parent=None):
        super().__init__(what, low, high, parent)
        self.setDecimals(2)
        self.setSingleStep(5.0)
        self.setSuffix(" %")

    @property
    def share(self) -> float:
        return round(self.value() / 100.0, 4)

    def textFromValue(self, value: float) -> str:
        return format_number(value)

    def valueFromText(self, text: str) -> float:
        """The number in ``text``, with or without the box's suffix ("20% dropout", "20 %", "20")."""
        text = text.strip()
        if self.specialValueText() and text == self.specialValueText():
            return self.minimum()
        text = text.removesuffix(self.suffix().strip()).strip().removesuffix("%").strip()
        number = parse_number(self, text)
        return self.value() if number is None else number
