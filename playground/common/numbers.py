"""How every number a person reads is written: one formatter for the whole app.

``format_number`` gives about four significant figures in ``g`` style (``55.48``, ``0.66``,
``1.235e+08``), whole numbers without a point, and ``nan`` / ``inf`` / ``-inf`` by name.
``full_number`` gives the shortest text that reads back exactly, for tooltips and hover
readouts, where a person asks for every digit.
"""

from __future__ import annotations

import math

DIGITS = 4


def format_number(x: float | None, digits: int = DIGITS) -> str:
    """Short form for a card, a label or a table: 0.7071, -3, 55.48, 1.235e+08, nan, inf."""
    if x is None:
        return "—"
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 1e12:
        return str(int(x))
    return f"{x:.{digits}g}"


def full_number(x: float | None) -> str:
    """Full precision for tooltips: the shortest repr that reads back exactly (2, 0.7071067811865476)."""
    if x is None:
        return "—"
    x = float(x)
    if math.isfinite(x) and x == int(x) and abs(x) < 1e16:
        return str(int(x))
    return repr(x)
