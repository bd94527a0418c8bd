"""Scalar math with IEEE 754 results instead of Python's exceptions, as numpy and PyTorch give.

Python's floats raise on ``1/0``, ``math.log(-1)``, ``math.exp(1000)``, ``math.sin(inf)``
and return complex numbers for ``(-8) ** 0.5``; a learner's graph should show ``inf`` and
``nan`` instead. The fast path is the plain operation; the ``except`` branches cost nothing
until they run.
"""

import math

inf = math.inf
nan = math.nan


def div(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0.0 or a != a:
            return nan
        return math.copysign(inf, a) * math.copysign(1.0, b)


def pow(a: float, b: float) -> float:  # noqa: A001 - mirrors the builtin it replaces
    try:
        result = a**b
    except ZeroDivisionError:  # 0.0 ** negative
        return math.copysign(inf, a) if _is_odd_integer(b) else inf
    except OverflowError:
        return -inf if a < 0 and _is_odd_integer(b) else inf
    if isinstance(result, complex):  # negative base, fractional exponent
        return nan
    return result


def _is_odd_integer(b: float) -> bool:
    return math.isfinite(b) and b == int(b) and int(b) % 2 == 1


def exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return inf


def log(x: float) -> float:
    if x > 0.0:
        return math.log(x)
    if x == 0.0:
        return -inf
    return nan  # negative or nan


def sin(x: float) -> float:
    try:
        return math.sin(x)
    except ValueError:  # sin(inf)
        return nan


def cos(x: float) -> float:
    try:
        return math.cos(x)
    except ValueError:
        return nan


def sigmoid(x: float) -> float:
    # Two forms so that exp never overflows: 1/(1+e^-x) for x >= 0, e^x/(1+e^x) below.
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    if x != x:
        return nan
    z = math.exp(x)
    return z / (1.0 + z)
