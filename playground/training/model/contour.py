"""Level lines of an image, free of Qt: where the decision boundary runs."""

from __future__ import annotations

import numpy as np


def contour_segments(grid: np.ndarray, level: float, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Marching squares on ``grid[i, j]`` sampled at ``(xs[j], ys[i])``: line segments where it crosses ``level``.

    Returns ``(x, y)`` with two points per segment (draw with ``connect='pairs'``). Vectorised:
    a 150 x 150 grid takes a fraction of a millisecond.
    """
    v = np.asarray(grid, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] < 2 or v.shape[1] < 2:
        return np.empty(0), np.empty(0)
    above = v > level
    # Only the cells the line crosses (a corner on each side) are worked on: a few hundred of 22,000.
    crossed = ((above[:-1, :-1] != above[:-1, 1:]) | (above[:-1, 1:] != above[1:, 1:])
               | (above[1:, :-1] != above[1:, 1:]) | (above[:-1, :-1] != above[1:, :-1]))
    i, j = np.nonzero(crossed)
    a, b, c, d = v[i, j], v[i, j + 1], v[i + 1, j + 1], v[i + 1, j]  # corners: bottom-left, -right, top-right, -left
    A, B, C, D = a > level, b > level, c > level, d > level
    x0, x1 = xs[j], xs[j + 1]
    y0, y1 = ys[i], ys[i + 1]

    def t(p, q):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (level - p) / (q - p)
        np.copyto(ratio, 0.5, where=np.isnan(ratio))  # an edge with both ends at the level: its middle
        return np.clip(ratio, 0.0, 1.0)

    # Edge crossings in the order bottom, right, top, left.
    crosses = np.stack([A != B, B != C, D != C, A != D], axis=-1)
    px = np.stack([x0 + t(a, b) * (x1 - x0), x1, x0 + t(d, c) * (x1 - x0), x0], axis=-1)
    py = np.stack([y0, y0 + t(b, c) * (y1 - y0), y1, y0 + t(a, d) * (y1 - y0)], axis=-1)

    count = crosses.sum(axis=-1)
    two = count == 2
    sub = crosses[two]
    first = np.argmax(sub, axis=1)
    second = 3 - np.argmax(sub[:, ::-1], axis=1)
    pxs, pys = px[two], py[two]
    rows = np.arange(len(sub))
    seg_x = [np.column_stack([pxs[rows, first], pxs[rows, second]])]
    seg_y = [np.column_stack([pys[rows, first], pys[rows, second]])]

    four = count == 4  # a saddle: the centre decides which corners the level line cuts off
    if np.any(four):
        centre_above = (a[four] + b[four] + c[four] + d[four]) / 4 > level
        same_as_a = centre_above == A[four]
        # a joined to c through the centre: cut off b (bottom-right) and d (top-left); else cut off a and c.
        pairs_1 = np.where(same_as_a[:, None], [0, 1], [3, 0])
        pairs_2 = np.where(same_as_a[:, None], [2, 3], [1, 2])
        pxf, pyf = px[four], py[four]
        rows = np.arange(len(pxf))
        for pairs in (pairs_1, pairs_2):
            seg_x.append(np.column_stack([pxf[rows, pairs[:, 0]], pxf[rows, pairs[:, 1]]]))
            seg_y.append(np.column_stack([pyf[rows, pairs[:, 0]], pyf[rows, pairs[:, 1]]]))
    return np.concatenate(seg_x).ravel(), np.concatenate(seg_y).ravel()
