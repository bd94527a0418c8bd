"""The diagram's neuron maps in colour, free of Qt: made in the worker's thread with each frame, so that
the GUI thread only hands finished pixels to Qt (colouring 386 maps of a 6 x 64 network took a quarter
of the GUI's time for a frame), in Qt's own pixel format (32-bit 0xffRRGGBB), which it paints without
converting.

An input's map spans its own range, symmetric about 0; a hidden neuron's spans -1 to 1; one output is
P(class 1) with the boundary plot's contrast; several outputs are each class's probability from the
theme's neutral to the class's colour. A bias is a colour on the hidden neurons' scale.

A graph's node maps (`node_images`) follow the same rules by what each node is: a tanh's span -1 to 1, a
sigmoid's 0 to 1, the output's are the probabilities (a regression's, its own range), and any other node's
its own range, symmetric about 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...common.colours import class_colours, map_rgb, map_words, probability_contrast, rgb_words, tint_rgb


@dataclass(frozen=True)
class NeuronImages:
    dark: bool                       # the theme they are coloured for
    maps: tuple[np.ndarray, ...]     # per layer 0..n+1: (neurons, r, r) uint32 0xffRRGGBB, row 0 at the top
    biases: tuple[np.ndarray, ...]   # per layer 1..n+1: (neurons, 3) uint8


def neuron_images(maps: tuple[np.ndarray, ...], biases: tuple[np.ndarray, ...], dark: bool) -> NeuronImages:
    """``maps`` (per layer: (neurons, r, r) with row 0 at the plane's bottom) and ``biases`` (per layer
    1..n+1) coloured for the ``dark`` or light theme."""
    last = len(maps) - 1
    coloured: list[np.ndarray | None] = [None] * len(maps)
    inputs = maps[0]
    reach = np.maximum(np.abs(inputs).reshape(len(inputs), -1).max(axis=1), 1e-9)[:, None, None]
    coloured[0] = map_words(inputs, -reach, reach, dark)
    hidden = list(range(1, last))
    if hidden:  # every hidden layer in one pass: one call's overhead instead of six
        together = map_words(np.concatenate([maps[layer] for layer in hidden]), -1.0, 1.0, dark)
        for layer, part in zip(hidden, np.split(together, np.cumsum([len(maps[h]) for h in hidden])[:-1])):
            coloured[layer] = part
    outputs = maps[last]
    if len(outputs) > 1:
        colours = class_colours(dark)
        coloured[last] = rgb_words(np.stack([tint_rgb(m, colours[c], dark) for c, m in enumerate(outputs)]))
    else:
        coloured[last] = map_words(probability_contrast(outputs), 0.0, 1.0, dark)
    flipped = tuple(np.ascontiguousarray(np.asarray(images)[:, ::-1]) for images in coloured)
    bias_colours = tuple(map_rgb(b, -1.0, 1.0, dark) for b in biases)
    return NeuronImages(dark, flipped, bias_colours)


def node_images(node_maps: dict[str, np.ndarray], kinds: dict[str, str], output: str, classify: bool,
                dark: bool) -> dict[str, np.ndarray]:
    """A graph's ``node_maps`` (node id -> (columns, r, r), row 0 at the plane's bottom) coloured for the theme:
    by each node's kind (``kinds``), the ``output`` node's as probabilities when ``classify``. Every node but a
    classifier's output is coloured in one pass, each map on its node's span: a graph's frame colours some fifty
    maps, and a pass a node cost twice as much in calls as in colouring."""
    coloured = {}
    spanned = [node_id for node_id in node_maps if not (node_id == output and classify)]
    if spanned:
        counts = np.array([len(node_maps[node_id]) for node_id in spanned])
        together = np.concatenate([np.asarray(node_maps[node_id], dtype=np.float32) for node_id in spanned])
        reach = np.where(np.isfinite(together), np.abs(together), np.float32(0)).reshape(len(together), -1)
        reach = np.maximum.reduceat(reach.max(axis=1, initial=0.0), np.cumsum(counts) - counts)
        low, high = np.empty(len(spanned), np.float32), np.empty(len(spanned), np.float32)
        for place, node_id in enumerate(spanned):
            low[place], high[place] = _span(kinds[node_id], float(reach[place]))
        words = map_words(together, np.repeat(low, counts)[:, None, None], np.repeat(high, counts)[:, None, None],
                          dark)[:, ::-1]
        for node_id, part in zip(spanned, np.split(words, np.cumsum(counts)[:-1])):
            coloured[node_id] = np.ascontiguousarray(part)
    if output in node_maps and classify:
        maps = node_maps[output]
        if len(maps) > 1:
            colours = class_colours(dark)
            exp = np.exp(maps - maps.max(axis=0, keepdims=True))
            probability = exp / exp.sum(axis=0, keepdims=True)
            words = rgb_words(np.stack([tint_rgb(m, colours[c % len(colours)], dark)
                                        for c, m in enumerate(probability)]))
        else:
            probability = 0.5 * (1.0 + np.tanh(0.5 * maps))  # sigmoid without overflow
            words = map_words(probability_contrast(probability), 0.0, 1.0, dark)
        coloured[output] = np.ascontiguousarray(np.asarray(words)[:, ::-1])
    return {node_id: coloured[node_id] for node_id in node_maps}


def _span(kind_name: str, reach: float) -> tuple[float, float]:
    """The values a node's maps span, from the first colour to the last: a tanh's -1 to 1, a sigmoid's 0 to 1,
    any other node's own largest size (``reach``) either side of 0."""
    if kind_name == "tanh":
        return -1.0, 1.0
    if kind_name == "sigmoid":
        return 0.0, 1.0
    reach = max(reach, 1e-9)
    return -reach, reach
