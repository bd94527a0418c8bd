"""WCAG 2.x contrast (no Qt): a colour's relative luminance and the contrast ratio of two colours, the
numbers behind success criteria 1.4.3 (text: 4.5:1), 1.4.6 (text, enhanced: 7:1) and 1.4.11 (graphics that
carry meaning: 3:1). A colour is "#rrggbb" or an (r, g, b) triple of 0..255.

The formulas are WCAG 2.2's definitions of "relative luminance" and "contrast ratio"; the sRGB threshold
is 0.04045 (WCAG's text says 0.03928, from an older sRGB draft: no 8-bit channel lies between the two, so
both give the same numbers).
"""

from __future__ import annotations

from collections.abc import Sequence

Colour = str | Sequence[float]

TEXT_RATIO = 4.5  # 1.4.3: text (and images of text) against its background
ENHANCED_TEXT_RATIO = 7.0  # 1.4.6: the high-contrast theme's text
GRAPHICS_RATIO = 3.0  # 1.4.11: the parts of a graphic needed to understand it, a control's boundary and states


def rgb(colour: Colour) -> tuple[float, float, float]:
    """(r, g, b) from 0 to 255 of "#rrggbb" ("#rgb" too) or of a triple."""
    if isinstance(colour, str):
        digits = colour.lstrip("#")
        if len(digits) == 3:
            digits = "".join(2 * digit for digit in digits)
        if len(digits) != 6:
            raise ValueError(f"not a colour: {colour!r}")
        return tuple(float(int(digits[i:i + 2], 16)) for i in (0, 2, 4))
    red, green, blue = colour[:3]
    return float(red), float(green), float(blue)


def _linear(channel: float) -> float:
    """An sRGB channel (0..255) as linear light (0..1)."""
    c = channel / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: Colour) -> float:
    """0 for black, 1 for white: L = 0.2126 R + 0.7152 G + 0.0722 B of the linear channels."""
    red, green, blue = (_linear(channel) for channel in rgb(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: Colour, second: Colour) -> float:
    """(L1 + 0.05) / (L2 + 0.05), the lighter's luminance over the darker's: 1 (the same) to 21 (black on white).
    The order of the two does not matter."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def over(colour: Colour, alpha: float, background: Colour) -> tuple[float, float, float]:
    """``colour`` at opacity ``alpha`` (0..1) painted over an opaque ``background``: the colour seen, for a
    see-through label or a dimmed node."""
    return tuple(alpha * top + (1 - alpha) * bottom for top, bottom in zip(rgb(colour), rgb(background)))


def hex_colour(colour: Colour) -> str:
    """"#rrggbb" of a colour (channels rounded)."""
    return "#" + "".join(f"{round(min(255.0, max(0.0, channel))):02x}" for channel in rgb(colour))


def readable(colour: Colour, background: Colour, ratio: float) -> str:
    """``colour`` as it is if it stands out from ``background`` by ``ratio``; else the least mix of it with
    black (on a light background) or white (on a dark one) that does: the same hue, deepened or lightened
    just enough, so that a class keeps its colour where it already reads."""
    if contrast_ratio(colour, background) >= ratio:
        return hex_colour(colour)
    end = (0.0, 0.0, 0.0) if relative_luminance(background) > 0.18 else (255.0, 255.0, 255.0)
    start = rgb(colour)
    for step in range(1, 101):
        share = step / 100
        mixed = hex_colour(tuple((1 - share) * a + share * b for a, b in zip(start, end)))
        if contrast_ratio(mixed, background) >= ratio:
            return mixed
    return hex_colour(end)


def text_on(background: Colour, ratio: float) -> str | None:
    """Black or white, whichever stands further off ``background``; None if neither reaches ``ratio`` (a middle
    tone at 7:1: the words need a plate of their own)."""
    best = max(("#000000", "#ffffff"), key=lambda colour: contrast_ratio(colour, background))
    return best if contrast_ratio(best, background) >= ratio else None
