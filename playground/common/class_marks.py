"""Each class's marker shape (no Qt), so that a class is told by its shape as well as its Okabe-Ito colour
(WCAG 1.4.1: a student who cannot tell orange from blue still tells a circle from a square). Every plot and
legend that shows a class uses the same shape for it: the decision boundary's points, the class picker,
the confusion matrix's rows and columns, the legends.

A training point is drawn filled, a test point hollow: the fill says train or test, the shape the class.
"""

from __future__ import annotations

# pyqtgraph's names for the shapes, in class order (up to 8 classes, as many as `class_colours` has).
CLASS_SYMBOLS = ("o", "s", "d", "t1", "star", "t", "+", "x")
# The same shapes as text, for legends, buttons and labels: filled, then hollow where Unicode has one.
CLASS_GLYPHS = ("●", "■", "◆", "▲", "★", "▼", "✚", "✖")
HOLLOW_GLYPHS = ("○", "□", "◇", "△", "☆", "▽", "✚", "✖")


def class_glyph(label: int, hollow: bool = False) -> str:
    """The text mark of class ``label``: its shape, filled (a training point) or hollow (a test point)."""
    return (HOLLOW_GLYPHS if hollow else CLASS_GLYPHS)[label % len(CLASS_GLYPHS)]


def class_symbol(label: int) -> str:
    """pyqtgraph's symbol for class ``label``'s points."""
    return CLASS_SYMBOLS[label % len(CLASS_SYMBOLS)]
