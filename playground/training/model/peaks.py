"""A long line drawn in a bounded number of points, every spike kept: bins of a power of two rows, each its
lowest and its highest value (the gradient health plot's lines, the loss curves' every step). Free of Qt."""

from __future__ import annotations

import numpy as np

MAX_SHOWN = 1000  # at most this many points go to the plot: two a pixel of a plot 500 pixels wide


def peak_bins(steps: np.ndarray, norms: np.ndarray, limit: int = MAX_SHOWN) -> tuple[np.ndarray, np.ndarray, int]:
    """At most ``limit`` points of ``norms`` (n, layers) at ``steps``: all of them when they fit, else bins
    of a power of two steps, each drawn as two points at its first step, each layer's lowest norm and its
    highest (a spike stays in sight, as one step among thousands). The bins start at the first step and
    their width changes only when the log doubles, so a full bin's points never change while the log
    grows: the plot keeps the picture of what it drew (`HealthLine`). Returns the steps, the norms and
    the steps per bin."""
    count = len(steps)
    if count <= limit:
        return steps.copy(), norms.copy(), 1
    width = 2
    while 2 * -(-count // width) > limit:
        width *= 2
    bins = -(-count // width)
    padded = np.full((bins * width, norms.shape[1]), np.nan)
    padded[:count] = norms
    with np.errstate(all="ignore"):  # a bin whose every norm is nan stays nan (not drawn)
        grouped = padded.reshape(bins, width, -1)
        low, high = np.fmin.reduce(grouped, axis=1), np.fmax.reduce(grouped, axis=1)
    return (np.repeat(steps[::width], 2), np.stack([low, high], axis=1).reshape(2 * bins, -1), width)
