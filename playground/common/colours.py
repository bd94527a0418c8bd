"""The app's data colours, as numbers (no Qt): the classes, the diverging map of a neuron, a probability or
an array's elements, and the shaded class regions, each for the light and the dark theme.

Classes take the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), chosen to stay
distinct for the common colour-vision deficiencies; its first two, orange and blue, are also the
TF Playground's two classes. A map runs from a pale class-0 orange (negative, or p = 0) through
the theme's neutral (zero, or p = 0.5) to a pale class-1 blue (positive, or p = 1).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .contrast import GRAPHICS_RATIO, readable, relative_luminance

OKABE_ITO = ("#E69F00", "#0072B2", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000")
DARK_BLACK = "#E0E0E0"  # Okabe-Ito's black would vanish on a dark background: light grey stands in
NEUTRAL = {False: (246, 246, 244), True: (44, 46, 50)}  # a map's middle: near the theme's background
PALE = 0.62  # how much of a class colour a pale shade keeps (the rest is the neutral)
# How light a pale shade may be (relative luminance): never darker than 0.2 in the light theme, never lighter
# than 0.22 in the dark ones, so that a point's outline and the line between classes stand 3:1 off every
# region (the light theme's black class and the dark theme's yellow and grey keep less of their colour).
PALE_LUMINANCE = {False: (0.2, 1.0), True: (0.0, 0.22)}
# How sure the network is, |2p - 1|, is shown raised to this power: an untrained network's outputs
# (p from 0.44 to 0.59 on the moons) would otherwise be a white page; a trained one's (near 0 or 1)
# look the same either way. A square-root-like curve, as for perceived lightness.
CONFIDENCE_GAMMA = 0.35
MISCLASSIFIED = "#DE473E"  # a middle-tone red: its ring stands 3:1 off a light and a dark plot
# A training point's outline: the Okabe-Ito orange, sky blue and yellow fall short of 3:1 on a light plot
# (WCAG 1.4.11), so every point is ringed in a colour that stands 3:1 off any region it may lie on.
POINT_OUTLINE = {False: "#202124", True: "#FFFFFF"}


def class_colours(dark: bool = False) -> tuple[str, ...]:
    """One colour per class label, in order (up to 8)."""
    return OKABE_ITO[:-1] + (DARK_BLACK if dark else OKABE_ITO[-1],)


@lru_cache(maxsize=2)
def class_line_colours(dark: bool = False) -> tuple[str, ...]:
    """Each class colour as a line or a hollow mark may wear it alone: as it is where it stands 3:1 off the
    theme's neutral, else deepened (light theme) or lightened (dark) just enough. The margin (3.2) covers the
    pages it is drawn on besides the plot's neutral: a window a shade darker (light) or a base lighter (dark)."""
    return tuple(readable(colour, NEUTRAL[dark], GRAPHICS_RATIO + 0.2) for colour in class_colours(dark))


def rgb(colour: str) -> np.ndarray:
    colour = colour.lstrip("#")
    return np.array([int(colour[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def pale(colour: str, dark: bool = False) -> np.ndarray:
    """A class colour mixed with the theme's neutral, for areas (points keep the full colour)."""
    neutral, low, high = np.array(NEUTRAL[dark], dtype=np.float64), *PALE_LUMINANCE[dark]
    share = PALE
    shade = share * rgb(colour) + (1 - share) * neutral
    while share > 0 and not low <= relative_luminance(tuple(shade)) <= high:
        share = max(0.0, share - 0.02)
        shade = share * rgb(colour) + (1 - share) * neutral
    return shade


@lru_cache(maxsize=8)
def diverging_lut(dark: bool = False, size: int = 256) -> np.ndarray:
    """(size, 3) uint8: pale orange -> neutral -> pale blue (shared: do not write to it)."""
    colours = class_colours(dark)
    ends = np.stack([pale(colours[0], dark), np.array(NEUTRAL[dark], dtype=np.float64), pale(colours[1], dark)])
    t = np.linspace(0.0, 2.0, size)
    low = np.minimum(t.astype(int), 1)
    fraction = (t - low)[:, None]
    lut = np.round(ends[low] * (1 - fraction) + ends[low + 1] * fraction).astype(np.uint8)
    lut.setflags(write=False)
    return lut


@lru_cache(maxsize=4)
def strong_diverging_lut(dark: bool = False, size: int = 256) -> np.ndarray:
    """(size, 3) uint8: the diverging map's hues at full strength, orange -> neutral -> blue: a regression's
    points, on the same scale as the pale picture under them."""
    colours = class_colours(dark)
    ends = np.stack([rgb(colours[0]), np.array(NEUTRAL[dark], dtype=np.float64), rgb(colours[1])])
    t = np.linspace(0.0, 2.0, size)
    low = np.minimum(t.astype(int), 1)
    fraction = (t - low)[:, None]
    lut = np.round(ends[low] * (1 - fraction) + ends[low + 1] * fraction).astype(np.uint8)
    lut.setflags(write=False)
    return lut


def value_levels(values: np.ndarray) -> tuple[float, float]:
    """A regression's colour scale: symmetric about 0 (neutral at 0, as the TF Playground's), as far as the
    largest value goes (1 for values all 0 or none)."""
    values = np.asarray(values, dtype=np.float64)
    finite = values[np.isfinite(values)]
    reach = float(np.max(np.abs(finite))) if finite.size else 0.0
    reach = reach if reach > 0 else 1.0
    return -reach, reach


def probability_contrast(p: np.ndarray) -> np.ndarray:
    """P(class 1) moved away from 0.5 by `CONFIDENCE_GAMMA`: 0.55 -> 0.72, 0.9 -> 0.96; 0.5, 0 and 1 stay."""
    p = np.asarray(p, dtype=np.float32)
    lead = 2 * p - 1
    return 0.5 + 0.5 * np.sign(lead) * np.abs(lead) ** np.float32(CONFIDENCE_GAMMA)


@lru_cache(maxsize=4)
def probability_lut(dark: bool = False, size: int = 256) -> np.ndarray:
    """(size, 3) uint8: the diverging map for P(class 1) from 0 to 1, with `probability_contrast`."""
    index = np.round(probability_contrast(np.linspace(0.0, 1.0, size)) * (size - 1)).astype(int)
    lut = diverging_lut(dark, size)[index]
    lut.setflags(write=False)
    return lut


def map_index(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """Each value's row (uint8) of a 256-row map spanning ``low`` to ``high`` (clipped; no value: the
    middle). ``low`` and ``high`` may be arrays that broadcast against ``values`` (one range per map)."""
    low, high = np.asarray(low, dtype=np.float32), np.asarray(high, dtype=np.float32)
    scale = np.float32(255.0) / np.where(high > low, high - low, np.float32(1.0))
    index = (np.asarray(values, dtype=np.float32) - low) * scale + np.float32(0.5)
    np.clip(index, 0, 255, out=index)
    np.copyto(index, np.float32(127.5), where=np.isnan(index))  # (`nan_to_num` seeks infinities too: twice the time)
    return index.astype(np.uint8)


def map_rgb(values: np.ndarray, low: float, high: float, dark: bool = False) -> np.ndarray:
    """Values coloured on the diverging map from ``low`` to ``high`` (clipped): (..., 3) uint8. ``low`` and
    ``high`` may be arrays that broadcast against ``values`` (one range per map)."""
    return diverging_lut(dark)[map_index(values, low, high)]


def map_words(values: np.ndarray, low: float, high: float, dark: bool = False) -> np.ndarray:
    """As `map_rgb`, each colour one 0xffRRGGBB word: Qt's own pixel format (``Format_RGB32``), the one it
    paints without converting."""
    return diverging_words(dark)[map_index(values, low, high)]


@lru_cache(maxsize=4)
def diverging_words(dark: bool = False) -> np.ndarray:
    """`diverging_lut` as 0xffRRGGBB words (256,)."""
    words = rgb_words(diverging_lut(dark))
    words.setflags(write=False)
    return words


def rgb_words(rgb: np.ndarray) -> np.ndarray:
    """(..., 3) uint8 colours as (...) uint32 words 0xffRRGGBB."""
    rgb = np.asarray(rgb, dtype=np.uint32)
    return np.uint32(0xFF000000) | (rgb[..., 0] << np.uint32(16)) | (rgb[..., 1] << np.uint32(8)) | rgb[..., 2]


def tint_rgb(values: np.ndarray, colour: str, dark: bool = False) -> np.ndarray:
    """Values from 0 to 1 as the theme's neutral (0) to a pale ``colour`` (1): (..., 3) uint8."""
    neutral = np.array(NEUTRAL[dark], dtype=np.float64)
    share = np.clip(np.nan_to_num(values), 0.0, 1.0)[..., None]
    return np.round(neutral + (pale(colour, dark) - neutral) * share).astype(np.uint8)


def class_regions_rgb(probability: np.ndarray, dark: bool = False, discrete: bool = False) -> np.ndarray:
    """k-class probabilities (k, R, R) as an (R, R, 3) uint8 image: each pixel in the pale colour of its
    most likely class, fading to the neutral as that class's lead shrinks to nothing (where all k are
    equally likely); ``discrete`` paints every pixel at full shade."""
    k = probability.shape[0]
    winner = np.argmax(probability, axis=0)
    neutral = np.array(NEUTRAL[dark], dtype=np.float64)
    tints = np.stack([pale(c, dark) for c in class_colours(dark)[:k]])
    if discrete:
        shade = np.ones(winner.shape)
    else:
        confidence = np.max(probability, axis=0)
        shade = np.clip((confidence - 1.0 / k) / (1.0 - 1.0 / k), 0.0, 1.0) ** CONFIDENCE_GAMMA
        shade = 0.15 + 0.85 * shade  # even a narrow lead shows whose region it is
    image = neutral + (tints[winner] - neutral) * shade[..., None]
    return np.round(image).astype(np.uint8)
