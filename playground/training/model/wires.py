"""The diagram's wires as one image, drawn with numpy (no Qt).

Qt's raster engine draws a translucent wide line in some 20-50 microseconds: the 304 wires of the
default network would take a good part of a frame, and the 20,000 of six layers of 64 a third of a
second. Wires between two columns all span the same pixel columns, so they are drawn column by
column at once: in each pixel column a wire covers a vertical run (its thickness, stretched by its
slope, plus the distance its centre line climbs across the column), which goes into a running-sum
("difference") array as a start and an end; one cumulative sum down the image then gives every
pixel's coverage. The two signs of weight are summed apart and mixed at the end; a negative weight's
wire is dashed as well as coloured (its ink left out of every few pixel columns), so that its sign
never rests on colour alone (WCAG 1.4.1: a student who cannot tell orange from blue). Very large
networks draw their `MAX_WIRES` largest weights: the rest are too faint to see.

The view says where the wires run (`WireLayout`); the training worker draws them with each frame's
weights, so the GUI thread only paints the finished image. The image is premultiplied ARGB in
32-bit words (Qt's ``Format_ARGB32_Premultiplied``), the one Qt paints without converting.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

WIRE_FULL = 2.0      # a weight this large or larger gets the thickest, most opaque wire
MAX_WIRES = 2000     # at most this many wires, the largest weights, are drawn
MIN_THICKNESS = 0.7  # pixels, the weakest wire's
MIN_OPACITY = 0.2
# Below this |w| a wire fades out, to nothing at 0: the weights L1 regularisation has set to exactly 0
# leave the diagram, and a weight on its way there fades as it goes.
FADE_BELOW = 0.01
# A negative weight's dashes, measured along x from the wire's left end: this many pixel columns drawn,
# then this many left out. Long enough to read as dashes on a wire 66 pixels long, even a faint one.
DASH_ON, DASH_OFF = 6, 4


def dash_mask(columns: np.ndarray, left_x: float) -> np.ndarray:
    """1.0 for the pixel ``columns`` where a negative weight's wire starting at ``left_x`` is drawn, 0.0 in
    its gaps."""
    phase = np.mod(columns - np.floor(left_x), DASH_ON + DASH_OFF)
    return (phase < DASH_ON).astype(np.float64)


def wire_style(weights: np.ndarray, thickest: float) -> tuple[np.ndarray, np.ndarray]:
    """Thickness (pixels) and opacity (0..1) per weight: both grow with |w| up to `WIRE_FULL`; the opacity
    fades to 0 as |w| goes below `FADE_BELOW` (a weight of exactly 0 draws nothing)."""
    size = np.abs(np.nan_to_num(weights))
    strength = np.clip(size / WIRE_FULL, 0.0, 1.0)
    fade = np.clip(size / FADE_BELOW, 0.0, 1.0)
    return (MIN_THICKNESS + (thickest - MIN_THICKNESS) * strength,
            (MIN_OPACITY + (1 - MIN_OPACITY) * strength) * fade)


def render_wires(groups, width: int, height: int, negative, positive, thickest: float = 5.0) -> np.ndarray:
    """The wires as an (height, width) uint32 image of premultiplied ARGB words (`rgba` reads them).

    ``groups`` holds, per pair of adjacent columns, ``(left_x, right_x, y_left, y_right, weights)``:
    every wire of the pair starts at ``left_x`` and ends at ``right_x`` (pixels), at heights
    ``y_left[i]`` and ``y_right[i]``, and has weight ``weights[i]``. Negative weights are drawn in
    ``negative`` (an RGB triple) and dashed, positive ones in ``positive`` and solid.
    """
    groups = [g for g in _strongest(groups) if len(g[4])]
    image = np.zeros((height, width), dtype=np.uint32)
    if not groups:
        return image
    # Only the columns wires cross are drawn (the rest stays transparent).
    start = max(int(np.floor(min(g[0] for g in groups))), 0)
    stop = min(int(np.ceil(max(g[1] for g in groups))), width)
    if stop <= start:
        return image
    span_width = stop - start
    indices, amounts = [], []
    for left_x, right_x, y_left, y_right, weights in groups:
        first, last = max(int(np.floor(left_x)), start), min(int(np.ceil(right_x)), stop)
        if last <= first:
            continue
        columns = np.arange(first, last)
        slope = (y_right - y_left) / max(right_x - left_x, 1e-9)
        thickness, opacity = wire_style(weights, thickest)
        # The centre line's height at the left and right edge of each pixel column, clipped to the wire.
        x_in = np.clip(columns, left_x, right_x)[None, :]
        x_out = np.clip(columns + 1, left_x, right_x)[None, :]
        y_in = y_left[:, None] + (x_in - left_x) * slope[:, None]
        y_out = y_left[:, None] + (x_out - left_x) * slope[:, None]
        reach = (thickness * np.sqrt(1 + slope * slope) / 2)[:, None]  # half the thickness, measured upright
        top = np.clip(np.minimum(y_in, y_out) - reach, 0, height)
        bottom = np.clip(np.maximum(y_in, y_out) + reach, 0, height)
        span = np.maximum(bottom - top, 1e-9)
        # The wire's ink in this column (its area there) spread evenly down its run.
        ink = (2 * reach * (x_out - x_in) / span) * opacity[:, None]
        ink = np.minimum(ink, opacity[:, None])
        sign = (weights > 0).astype(np.intp)
        ink = np.where(sign[:, None] == 0, ink * dash_mask(columns, left_x)[None, :], ink)
        index, amount = _runs(sign, top, bottom, ink, columns - start, span_width, (height + 1) * span_width)
        indices.append(index)
        amounts.append(amount)
    if not indices:
        return image
    plane = (height + 1) * span_width
    starts = np.bincount(np.concatenate(indices), weights=np.concatenate(amounts), minlength=2 * plane + span_width)
    coverage = np.cumsum(starts[:2 * plane].reshape(2, height + 1, span_width), axis=1, dtype=np.float32)
    image[:, start:stop] = _mix(np.maximum(coverage[:, :height], 0.0), negative, positive)
    return image


def _runs(sign, top, bottom, ink, columns, width, plane) -> tuple[np.ndarray, np.ndarray]:
    """A run of ``ink`` from row ``top`` to ``bottom`` (fractional) in each column, as entries of the
    running sums (each sign in its own ``plane``): whole rows as a start and an end, the partly
    covered first and last rows in proportion."""
    first, last = np.floor(top).astype(np.intp), np.floor(bottom).astype(np.intp)
    cut_top = top - first                   # the part of the first row above the run
    cut_bottom = last + 1 - bottom          # the part of the last row below it
    base = columns[None, :] + (sign * plane)[:, None]
    index = np.concatenate([(first * width + base).ravel(), (last * width + base).ravel()])
    index = np.concatenate([index, index + width])
    amount = np.concatenate([(ink * (1 - cut_top)).ravel(), (-ink * cut_bottom).ravel(),
                             (ink * cut_top).ravel(), (-ink * (1 - cut_bottom)).ravel()])
    return index, amount


def _strongest(groups):
    """The groups with only their `MAX_WIRES` largest weights (all of them in a smaller network)."""
    total = sum(len(g[4]) for g in groups)
    if total <= MAX_WIRES:
        return groups
    every = np.concatenate([np.abs(np.nan_to_num(g[4])) for g in groups])
    cutoff = np.partition(every, total - MAX_WIRES)[total - MAX_WIRES]
    kept = []
    for left_x, right_x, y_left, y_right, weights in groups:
        keep = np.abs(np.nan_to_num(weights)) >= cutoff
        kept.append((left_x, right_x, y_left[keep], y_right[keep], weights[keep]))
    return kept


def _mix(coverage: np.ndarray, negative, positive) -> np.ndarray:
    """Two coverages -> premultiplied ARGB words: the colours in proportion to their coverage (256
    shades between them), as opaque as their sum (at most 1, in 256 steps): one look-up per pixel
    in a table of every shade at every opacity."""
    negative_ink, positive_ink = coverage
    total = negative_ink + positive_ink
    share = np.divide(positive_ink, np.maximum(total, np.float32(1e-6)))
    shade = (share * np.float32(255.0) + np.float32(0.5)).astype(np.uint16)
    alpha = (np.minimum(total, np.float32(1.0)) * np.float32(255.0) + np.float32(0.5)).astype(np.uint16)
    table = _premultiplied(tuple(int(c) for c in negative), tuple(int(c) for c in positive))
    return table[(shade << np.uint16(8)) | alpha]


@lru_cache(maxsize=16)
def _premultiplied(negative: tuple[int, int, int], positive: tuple[int, int, int]) -> np.ndarray:
    """65,536 words: shade s (0 = ``negative``, 255 = ``positive``) at opacity a, at index s * 256 + a,
    as premultiplied ARGB: a << 24 | (r a / 255) << 16 | (g a / 255) << 8 | (b a / 255)."""
    t = np.linspace(0.0, 1.0, 256)[:, None, None]
    colours = np.array(negative, dtype=np.float64) * (1 - t) + np.array(positive, dtype=np.float64) * t  # (256, 1, 3)
    alpha = np.arange(256, dtype=np.float64)[None, :, None]
    channels = np.round(colours * alpha / 255.0).astype(np.uint32)  # (256 shades, 256 opacities, 3)
    words = (alpha[..., 0].astype(np.uint32) << np.uint32(24)) | (channels[..., 0] << np.uint32(16)) \
        | (channels[..., 1] << np.uint32(8)) | channels[..., 2]
    words = words.reshape(-1)
    words.setflags(write=False)
    return words


def rgba(image: np.ndarray) -> np.ndarray:
    """A wire image's words as (height, width, 4) uint8 straight (not premultiplied) R, G, B, A."""
    alpha = (image >> np.uint32(24)).astype(np.float64)
    channels = [(image >> np.uint32(shift)) & np.uint32(255) for shift in (16, 8, 0)]
    scale = np.divide(255.0, alpha, out=np.zeros_like(alpha), where=alpha > 0)
    straight = [np.clip(np.round(c * scale), 0, 255) for c in channels]
    return np.stack([*straight, alpha], axis=-1).astype(np.uint8)


@dataclass(frozen=True)
class WireLayout:
    """Where the diagram's wires run, as the view has laid them out, for whoever draws them (the worker,
    off the GUI thread): per pair of adjacent columns, the x where its wires leave and arrive and the
    heights of the neurons on either side."""

    serial: int                      # which layout of the view this is (a newer one replaces it)
    sizes: tuple[int, ...]           # neurons per layer: the network it fits
    width: int
    height: int
    pairs: tuple[tuple[float, float, np.ndarray, np.ndarray], ...]  # left x, right x, left ys, right ys
    thickest: float
    negative: tuple[int, int, int]
    positive: tuple[int, int, int]

    def render(self, weights) -> np.ndarray:
        """The wires for ``weights`` (per layer 1..n+1, shaped out x in) as premultiplied ARGB words."""
        groups = []
        for (left_x, right_x, left_ys, right_ys), w in zip(self.pairs, weights):
            out, inp = w.shape
            groups.append((left_x, right_x, np.tile(left_ys, out), np.repeat(right_ys, inp), w.ravel()))
        return render_wires(groups, self.width, self.height, self.negative, self.positive, self.thickest)
