"""One formatter for every number a person reads: about four significant figures, nan and inf by name."""

from __future__ import annotations

import math

import pytest

from playground.common.numbers import format_number, full_number


@pytest.mark.parametrize("x, shown", [
    (55.480000000000004, "55.48"),  # the gradient the properties panel showed in full
    (30.999999992786798, "31"),  # the gradient check's finite difference
    (0.660016975203545, "0.66"),  # the tensor animator's value
    (0.7071067811865476, "0.7071"),
    (-3.0, "-3"),
    (123456789.0, "123456789"),
    (1.5e-7, "1.5e-07"),
    (2.5e15, "2.5e+15"),
    (math.nan, "nan"),
    (math.inf, "inf"),
    (-math.inf, "-inf"),
    (None, "—"),
])
def test_numbers_are_shown_to_about_four_significant_figures(x, shown):
    assert format_number(x) == shown


def test_full_precision_reads_back_exactly():
    for x in (55.480000000000004, 0.1, -2.0, 1e300, math.pi):
        assert float(full_number(x)) == x
    assert full_number(math.nan) == "nan" and full_number(None) == "—"
