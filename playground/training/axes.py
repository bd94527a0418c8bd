"""The curve plots' value axes, with tick labels of our own.

pyqtgraph's log axis writes a decade as "%0.1g" and switches to a power only from 1e-5 on, so
one axis read 0.001, 0.0001 and 10⁻⁵; with less than a decade in view it labels every minor tick
(0.2 0.3 ... 0.9 in one pile). `LossAxis` labels whole decades only, all as powers of ten (10⁻³,
10⁰, 10¹), on a log scale, and numbers through the app's formatter on a linear one; with less than a
decade's two ends in view (the TF Playground's losses, 0.4 to 0.6) the numbers in it that fit (0.4, 0.5, 0.6).
`PercentAxis` labels 0 and 100 whatever the plot's height (and 20, 40, ... when they fit), so a
curve at 100% has its tick. `StepAxis` labels the step the curves start at when that is not 0.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from ..common.numbers import format_number

SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 5 x 10^k at or above ``value``."""
    exponent = math.floor(math.log10(value))
    for mantissa in (1, 2, 5, 10):
        if mantissa * 10.0**exponent >= value:
            return mantissa * 10.0**exponent
    return 10.0 ** (exponent + 1)
MIN_DECADE_PIXELS = 18   # labelled decades at least this far apart: else every second (or fifth) one
PERCENT_STEPS = (20, 50, 100)
MIN_LABEL_PIXELS = 16    # a percentage label needs this much height
MIN_STEP_LABEL_PIXELS = 40  # a step label's room beside the first step's


def power_of_ten(exponent: int) -> str:
    """3 -> "10³", -5 -> "10⁻⁵" (the exponent through the app's formatter)."""
    return "10" + format_number(exponent).translate(SUPERSCRIPTS)


MANTISSA_SPACING = 1e-3  # (the spacing said with `within_decade_ticks`' values, which label them as numbers)


def within_decade_ticks(low: float, high: float, size: float) -> list[float]:
    """Log ticks (log10 of the values) for a view of less than a decade's two ends, ``size`` pixels tall: the
    multiples of the coarsest of 5, 2, 1 x 10^k that puts two or more in view (0.4 0.6 0.8; 0.45 0.5 0.55), where
    their labels stay `MIN_DECADE_PIXELS` apart; else the one value nearest the middle (one at least, always)."""
    bottom, top = 10.0**low, 10.0**high
    pixels = size / max(high - low, 1e-12)
    previous: list[float] = []
    for exponent in range(math.floor(math.log10(max(top - bottom, 1e-300))), -300, -1):
        for mantissa in (5, 2, 1):
            step = mantissa * 10.0**exponent
            values = [k * step for k in range(math.ceil(bottom / step - 1e-9), math.floor(top / step + 1e-9) + 1)]
            ticks = [math.log10(v) for v in values if v > 0]
            if len(ticks) >= 2:
                if all((b - a) * pixels >= MIN_DECADE_PIXELS for a, b in zip(ticks, ticks[1:])):
                    return ticks
                return previous or [min(ticks, key=lambda v: abs(v - (low + high) / 2))]
            previous = ticks or previous
    return [(low + high) / 2]


def within_decade_labels(values: list[float]) -> list[str]:
    """`within_decade_ticks`' values written to the decimals their step needs (0.45 0.5 0.55; 0.5001 0.5002)."""
    if len(values) < 2:
        return [format_number(v, 3) for v in values]
    step = min(b - a for a, b in zip(values, values[1:]))
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    return [f"{v:.{decimals}f}".rstrip("0").rstrip(".") if decimals else f"{v:.0f}" for v in values]


class EdgeLabelsAxis(pg.AxisItem):
    """A left axis whose labels at the very top and bottom of the plot are drawn, reaching half a line
    beyond it. pyqtgraph drops every label that does not fit inside the axis' bounding rectangle, and
    with a grid shown that rectangle ends where the plot ends: 100% and the top decade went missing."""

    OVERFLOW = 12  # pixels above and below

    def boundingRect(self):  # noqa: N802 - Qt's name
        return super().boundingRect().adjusted(0, -self.OVERFLOW, 0, self.OVERFLOW)


class LossAxis(EdgeLabelsAxis):
    """The loss plot's left axis: decades as powers of ten on a log scale, formatted numbers on a linear one."""

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803 - pyqtgraph's names
        if not self.logMode:
            return super().tickValues(minVal, maxVal, size)
        low, high = sorted((minVal, maxVal))
        first, last = math.ceil(low - 1e-9), math.floor(high + 1e-9)
        decades = max(last - first, 1)
        stride = next((s for s in (1, 2, 5, 10, 20) if size / decades * s >= MIN_DECADE_PIXELS), 50)
        major = [float(e) for e in range(first, last + 1) if e % stride == 0]
        if len(major) < 2:  # less than a decade's two ends in view (losses between 0.4 and 0.6): its numbers
            return [(MANTISSA_SPACING, within_decade_ticks(low, high, size))]
        minor = []
        if stride == 1 and size / decades >= 4 * MIN_DECADE_PIXELS:  # room for 2x, 3x, ... between decades
            for e in range(math.floor(low), last + 1):
                minor.extend(v for v in e + np.log10(np.arange(2, 10)) if low <= v <= high)
        return [(float(stride), major), (None, minor)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        if self.logMode:
            if spacing is None:  # the minor ticks: unlabelled
                return [""] * len(values)
            if spacing == MANTISSA_SPACING:
                return within_decade_labels([10.0**v for v in values])
            return [power_of_ten(round(v)) for v in values]
        return [format_number(round(v * scale, 12)) for v in values]


class PercentAxis(EdgeLabelsAxis):
    """The accuracy plot's left axis: 0 to 100 in steps of 20, or of 50 (or 100) on a short plot, so
    that 0 and 100 are always labelled and no two labels overlap."""

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803 - pyqtgraph's names
        step = next((s for s in PERCENT_STEPS if size * s / max(maxVal - minVal, 1e-9) >= MIN_LABEL_PIXELS), 100)
        return [(float(step), [float(v) for v in range(0, 101, step)])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        return [format_number(v) for v in values]


class StepAxis(pg.AxisItem):
    """The curve plots' step axis. Curves that start past step 0 (a setup opened mid-run carries its weights
    and its step, not the curves that led there) have that step labelled where they begin, so the axis says
    where the run picked up; a label too close to it makes room."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.start = 0.0

    def set_start(self, step: float) -> None:
        if step != self.start:
            self.start = float(step)
            self.picture = None  # pyqtgraph's cached drawing of the ticks
            self.update()

    def tickValues(self, minVal: float, maxVal: float, size: float):  # noqa: N802, N803 - pyqtgraph's names
        levels = super().tickValues(minVal, maxVal, size)
        if not self.start or not levels or not minVal <= self.start <= maxVal:
            return levels
        spacing, major = levels[0]
        room = MIN_STEP_LABEL_PIXELS * (maxVal - minVal) / max(size, 1.0)
        major = sorted([v for v in major if abs(v - self.start) >= room] + [self.start])
        return [(spacing, major), *levels[1:]]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph's name
        return [format_number(round(v * scale, 9)) for v in values]
