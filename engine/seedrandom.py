"""Where the TF Playground setting's uniform random numbers come from: a *uniform source*.

The TF Playground draws every random number with ``Math.random()``: its data, its shuffle and its
initial weights. A uniform source stands for that call here: any callable ``source(n)`` that returns
the next ``n`` numbers in [0, 1) as a float64 array, in the order they are drawn. The generators
take a block where the TF Playground loops over points, so a source must give the same numbers
whether asked for them one at a time or ``n`` at a time (a numpy ``Generator``'s ``random`` does:
one 64-bit output per double, nothing buffered). A test feeds the same draws to the engine and to a
transcription of the TypeScript; a teacher's TF Playground link is reproduced with `SeedRandom`.

`SeedRandom` is the TF Playground's own stream: on loading a page it calls ``Math.seedrandom(seed)``
with the ``seed`` of its URL (a string such as ``"0.84312"``), which replaces ``Math.random`` by
seedrandom 2.4's generator: RC4 keyed with the seed's characters, its first 256 bytes dropped, each
double made of 7 or more of its bytes. Written here from the algorithm's description (the key
mixing, the RC4 key schedule and output, and the way the bytes fill a double's 52 bits), with the
same float arithmetic, so each draw is the same double as the page's.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np

__all__ = ["SeedRandom", "UniformSource", "as_source"]

UniformSource = Callable[[int], np.ndarray]

_WIDTH = 256  # each RC4 output is a byte, 0 <= x < 256
_MASK = _WIDTH - 1
_CHUNKS = 6  # a double starts from six bytes (48 bits) ...
_START_DENOMINATOR = float(_WIDTH**_CHUNKS)  # 2^48
_SIGNIFICANCE = float(2**52)  # ... and takes more until it has 52 significant bits
_OVERFLOW = 2 * _SIGNIFICANCE  # 2^53


def _mix_key(seed: str) -> list[int]:
    """seedrandom's ``mixkey``: the RC4 key (at most 256 bytes) from the seed's UTF-16 code units.
    Each unit is added to a running ``smear`` that XORs in 19 times the key byte it overwrites, so
    a seed longer than 256 units folds back onto the key's first bytes."""
    raw = seed.encode("utf-16-le", "surrogatepass")  # JavaScript's charCodeAt counts UTF-16 units
    units = [int.from_bytes(raw[k:k + 2], "little") for k in range(0, len(raw), 2)]
    key: list[int] = []
    smear = 0
    for j, unit in enumerate(units):
        slot = j & _MASK
        old = key[slot] if slot < len(key) else 0  # an unset byte reads as 0 in JavaScript's ^=
        smear ^= old * 19
        byte = (smear + unit) & _MASK
        if slot < len(key):
            key[slot] = byte
        else:
            key.append(byte)
    return key


class SeedRandom:
    """``Math.random`` after the TF Playground's ``Math.seedrandom(seed)``: a uniform source.

    ``SeedRandom("hello.")()`` gives 0.9282578795792454, then 0.3752569768646784 (seedrandom's own
    documented example). `random` draws one number; calling the source with ``n`` draws ``n``.
    """

    def __init__(self, seed: str):
        if not isinstance(seed, str):
            raise TypeError(f"the TF Playground's seed is the text of its URL, a str, not {seed!r}")
        self.seed = seed
        key = _mix_key(seed) or [0]  # an empty key is treated as [0]
        # RC4's key schedule
        s = list(range(_WIDTH))
        j = 0
        for i in range(_WIDTH):
            t = s[i]
            j = (j + key[i % len(key)] + t) & _MASK
            s[i] = s[j]
            s[j] = t
        self._s, self._i, self._j = s, 0, 0
        self._bytes(_WIDTH)  # RC4-drop[256]: the first bytes of RC4 are the least random

    def _bytes(self, count: int) -> int:
        """The next ``count`` RC4 output bytes as one big-endian integer (< 256^count)."""
        s, i, j = self._s, self._i, self._j
        r = 0
        for _ in range(count):
            i = (i + 1) & _MASK
            t = s[i]
            j = (j + t) & _MASK
            s[i] = s[j]
            s[j] = t
            r = r * _WIDTH + s[(s[i] + t) & _MASK]
        self._i, self._j = i, j
        return r

    def random(self) -> float:
        """One double in [0, 1), every bit of its mantissa random. The arithmetic is on floats, as in
        JavaScript, where every intermediate is an integer below 2^61 times a power of two: exact."""
        n = float(self._bytes(_CHUNKS))  # a numerator below 2^48
        d = _START_DENOMINATOR
        x = 0
        while n < _SIGNIFICANCE:  # fill up 52 significant bits, a byte at a time
            n = (n + x) * _WIDTH
            d *= _WIDTH
            x = self._bytes(1)
        while n >= _OVERFLOW:  # shift right until exactly 53 bits are left, so nothing rounds up
            n /= 2
            d /= 2
            x >>= 1
        return (n + x) / d

    def __call__(self, n: int) -> np.ndarray:
        return np.fromiter((self.random() for _ in range(n)), dtype=np.float64, count=n)

    def __repr__(self) -> str:
        return f"SeedRandom({self.seed!r})"


def as_source(seed=None) -> UniformSource:
    """A uniform source from ``seed``: None (fresh entropy), an int or a ``numpy.random.Generator``
    (numpy's stream), a str (the TF Playground's own stream for that URL seed, `SeedRandom`), or a
    uniform source already (returned as it is, so that one stream can go on from data to weights)."""
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        return np.random.default_rng(seed).random
    if isinstance(seed, np.random.Generator):
        return seed.random
    if isinstance(seed, str):
        return SeedRandom(seed)
    if callable(seed):
        return seed
    raise TypeError(f"seed must be None, an int, a numpy Generator, a str (a TF Playground seed) or a "
                    f"uniform source, got {seed!r}")
