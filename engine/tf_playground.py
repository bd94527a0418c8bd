"""The TF Playground, faithfully: its datasets, shuffle and split, its feature inputs (here), and its
network, initialisation, loss, update and epoch (`engine.tf_playground_train`, re-exported here), written
from the formulas of tensorflow/playground's src/dataset.ts, src/nn.ts, src/playground.ts and src/state.ts
(commit 02469bd); the code is ours. Qt-free, as the rest of the engine.

``make_dataset("xor", noise=35, percent_train=50, seed="0.84312")`` gives the points of the TF Playground
page whose URL says seed=0.84312; ``network(2, [3], "relu")`` with `PlaygroundSGD` and `epochs` trains
it as the page does. Its loss on its tanh output is `engine.train.tanh_half_mse` (`half_mse` for
regression); its start `engine.nn.init.tf_playground_`.

The datasets: six generators, each ``make_<name>(n_samples, noise, source)`` returning ``(X, y)`` in the
order the TF Playground generates the points (before its shuffle): ``X`` float64 (n, 2), ``y`` int64
+1/-1 for classification, float64 for regression. ``noise`` is the TF Playground's own: its slider's
value divided by 100 (0..0.5 from the slider, up to 0.8 from a URL). The uniform numbers come from a
uniform source (`engine.seedrandom`), drawn in the TypeScript's order, so the same draws give the same
points; points that take a fixed number of draws each are computed as numpy blocks, and the Gaussians,
whose polar method rejects a varying number of pairs, one at a time. Then its shuffle (a Fisher-Yates
of its own order, `permutation`), its split (the first ``floor(n * percent / 100)`` shuffled points
train), and `make_dataset`, all of it in one call.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np

from .seedrandom import SeedRandom, UniformSource, as_source
from .tf_playground_train import (
    ACTIVATIONS,
    LOSSES,
    PlaygroundSGD,
    PlaygroundStep,
    PlaygroundUpdate,
    epochs,
    format_loss,
    mean_loss,
    network,
    output,
    updates,
)

__all__ = [
    "ACTIVATIONS",
    "CLASSIFICATION_DATASETS",
    "DATASETS",
    "FEATURES",
    "LOSSES",
    "NUM_SAMPLES",
    "REGRESSION_DATASETS",
    "PlaygroundData",
    "PlaygroundSGD",
    "PlaygroundStep",
    "PlaygroundUpdate",
    "SeedRandom",
    "UniformSource",
    "as_source",
    "binary_labels",
    "epochs",
    "features",
    "format_loss",
    "make_circle",
    "make_dataset",
    "make_gauss",
    "make_reg_gauss",
    "make_reg_plane",
    "make_spiral",
    "make_xor",
    "mean_loss",
    "network",
    "normal_random",
    "output",
    "permutation",
    "problem_of",
    "split_index",
    "split_train_test",
    "updates",
]


def _uniform(u, a, b):
    # randUniform(a, b) = Math.random() * (b - a) + a, in that order of operations
    return u * (b - a) + a


def _linear_scale(x, domain, range_, clamp=False):
    """d3 v3's ``scale.linear()``: ``t = (x - d0) / (d1 - d0)`` (clamped to [0, 1] if asked), then the
    interpolation ``r0 * (1 - t) + r1 * t``, with d3's own order of operations."""
    (d0, d1), (r0, r1) = domain, range_
    t = (x - d0) / (d1 - d0)
    if clamp:
        t = np.maximum(0.0, np.minimum(1.0, t))
    return r0 * (1 - t) + r1 * t


def _count(n_samples):
    if not isinstance(n_samples, numbers.Integral) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive int, got {n_samples!r}")
    return int(n_samples)


def _per_class(n_samples):
    # Its class loops run `for (i = 0; i < numSamples / 2; i++)`: ceil(n / 2) points each, so an odd
    # n gives one point more than asked.
    return math.ceil(_count(n_samples) / 2)


def _check_noise(noise):
    if not isinstance(noise, numbers.Real) or isinstance(noise, bool) or not 0 <= noise <= 0.8:
        raise ValueError(f"noise is the TF Playground's slider value / 100, from 0 to 0.8, got {noise!r}")
    return float(noise)


def _labels(positive):
    return np.where(positive, 1, -1).astype(np.int64)


# -- classification ----------------------------------------------------------------------------


def make_circle(n_samples=500, noise=0.0, source: UniformSource | None = None):
    """classifyCircleData: ceil(n/2) points at radius U(0, 2.5), then as many at radius U(3.5, 5),
    each at angle U(0, 2 pi), ``x = r sin(angle)``, ``y = r cos(angle)`` (4 draws a point: r, angle,
    noise x, noise y). The label says whether the point moved by ``U(-5, 5) * noise`` on each axis lies
    within 2.5 of the origin (+1) or not (-1): the points stay where they were drawn, their labels
    are noisy."""
    half, noise, draw = _per_class(n_samples), _check_noise(noise), as_source(source)
    radius = 5.0
    parts = []
    for low, high in ((0.0, radius * 0.5), (radius * 0.7, radius)):
        u = draw(4 * half).reshape(half, 4)
        r = _uniform(u[:, 0], low, high)
        angle = _uniform(u[:, 1], 0.0, 2 * math.pi)
        x, y = r * np.sin(angle), r * np.cos(angle)
        dx = x + _uniform(u[:, 2], -radius, radius) * noise  # minus the centre, 0
        dy = y + _uniform(u[:, 3], -radius, radius) * noise
        parts.append((x, y, _labels(np.sqrt(dx * dx + dy * dy) < radius * 0.5)))
    return _stack(parts)


def make_xor(n_samples=500, noise=0.0, source: UniformSource | None = None):
    """classifyXORData: x and y each U(-5, 5) pushed 0.3 away from 0 (so no point lies on an axis),
    label +1 where the point moved by ``U(-5, 5) * noise`` on each axis has ``x * y >= 0``, else -1
    (4 draws a point: x, y, noise x, noise y)."""
    n, noise, draw = _count(n_samples), _check_noise(noise), as_source(source)
    padding = 0.3
    u = draw(4 * n).reshape(n, 4)
    x, y = _uniform(u[:, 0], -5.0, 5.0), _uniform(u[:, 1], -5.0, 5.0)
    x = x + np.where(x > 0, padding, -padding)
    y = y + np.where(y > 0, padding, -padding)
    moved_x = x + _uniform(u[:, 2], -5.0, 5.0) * noise
    moved_y = y + _uniform(u[:, 3], -5.0, 5.0) * noise
    return _stack([(x, y, _labels(moved_x * moved_y >= 0))])


def normal_random(source: UniformSource, mean=0.0, variance=1.0) -> float:
    """normalRandom: one draw of N(mean, variance) by Marsaglia's polar method. Pairs
    ``v = 2 U - 1`` are drawn until ``s = v1^2 + v2^2 <= 1``; then ``sqrt(-2 log(s) / s) * v1`` (the
    pair's second normal, ``... * v2``, is thrown away, as the TF Playground does)."""
    while True:
        v1 = 2 * float(source(1)[0]) - 1
        v2 = 2 * float(source(1)[0]) - 1
        s = v1 * v1 + v2 * v2
        if not s > 1:
            break
    # s = 0 (v1 = v2 = 0) passes its test too: there JavaScript computes sqrt(inf) * 0 = NaN
    result = math.sqrt(-2 * math.log(s) / s) * v1 if s > 0 else math.nan
    return mean + math.sqrt(variance) * result


def make_gauss(n_samples=500, noise=0.0, source: UniformSource | None = None):
    """classifyTwoGaussData: ceil(n/2) points around (2, 2) labelled +1, then as many around (-2, -2)
    labelled -1, x then y each `normal_random` with the variance 0.5 + 7 noise (d3's scale from
    [0, 0.5] to [0.5, 4], not clamped: 6.1 for a URL's noise 80). Noise widens the clouds; the
    labels stay exact. A point at a time: the polar method's rejections make the draws per point vary."""
    half, noise, draw = _per_class(n_samples), _check_noise(noise), as_source(source)
    variance = _linear_scale(noise, (0.0, 0.5), (0.5, 4.0))
    parts = []
    for centre, label in ((2.0, 1), (-2.0, -1)):
        xy = np.array([[normal_random(draw, centre, variance), normal_random(draw, centre, variance)]
                       for _ in range(half)]).reshape(half, 2)
        parts.append((xy[:, 0], xy[:, 1], np.full(half, label, dtype=np.int64)))
    return _stack(parts)


def make_spiral(n_samples=500, noise=0.0, source: UniformSource | None = None):
    """classifySpiralData: two arms of ceil(n/2) points, point i at ``r = i / (n/2) * 5`` and angle
    ``t = 1.75 * i / (n/2) * 2 pi + delta`` (delta 0 for +1, pi for -1), ``x = r sin(t) + U(-1, 1) noise``,
    ``y = r cos(t) + U(-1, 1) noise`` (2 draws a point). Here noise moves the points, not the labels."""
    half_count, noise, draw = _per_class(n_samples), _check_noise(noise), as_source(source)
    n = _count(n_samples) / 2  # a float, as numSamples / 2 is in JavaScript
    i = np.arange(half_count, dtype=np.float64)
    parts = []
    for delta, label in ((0.0, 1), (math.pi, -1)):
        u = draw(2 * half_count).reshape(half_count, 2)
        r = i / n * 5
        t = 1.75 * i / n * 2 * math.pi + delta
        x = r * np.sin(t) + _uniform(u[:, 0], -1.0, 1.0) * noise
        y = r * np.cos(t) + _uniform(u[:, 1], -1.0, 1.0) * noise
        parts.append((x, y, np.full(half_count, label, dtype=np.int64)))
    return _stack(parts)


# -- regression --------------------------------------------------------------------------------

# regressGaussian's six cones: centre and sign
_REG_GAUSSIANS = ((-4.0, 2.5, 1.0), (0.0, 2.5, -1.0), (4.0, 2.5, 1.0),
                  (-4.0, -2.5, -1.0), (0.0, -2.5, 1.0), (4.0, -2.5, -1.0))


def _regression_points(n_samples, noise, source):
    """x, y uniform in [-6, 6]^2 and the point moved by ``U(-6, 6) * noise`` on each axis, where the
    target is read (4 draws a point: x, y, noise x, noise y)."""
    n, noise, draw = _count(n_samples), _check_noise(noise), as_source(source)
    radius = 6.0
    u = draw(4 * n).reshape(n, 4)
    x, y = _uniform(u[:, 0], -radius, radius), _uniform(u[:, 1], -radius, radius)
    return x, y, x + _uniform(u[:, 2], -radius, radius) * noise, y + _uniform(u[:, 3], -radius, radius) * noise


def make_reg_plane(n_samples=1200, noise=0.0, source: UniformSource | None = None):
    """regressPlane: the target ``(x + y) / 10`` (d3's scale from [-10, 10] to [-1, 1]) read at the
    noisy point; the inputs are not noisy."""
    x, y, at_x, at_y = _regression_points(n_samples, noise, source)
    return _stack([(x, y, _linear_scale(at_x + at_y, (-10.0, 10.0), (-1.0, 1.0)))])


def make_reg_gauss(n_samples=1200, noise=0.0, source: UniformSource | None = None):
    """regressGaussian: six cones of radius 2 in two rows (x = -4, 0, 4; y = +-2.5; signs + - + above,
    - + - below), each ``sign * max(0, 1 - d / 2)`` at distance d (d3's clamped scale from [0, 2] to
    [1, 0]); the target at the noisy point is the cone largest in absolute value, the first of equals
    (0 farther than 2 from every centre)."""
    x, y, at_x, at_y = _regression_points(n_samples, noise, source)
    cones = []
    for cx, cy, sign in _REG_GAUSSIANS:
        dx, dy = at_x - cx, at_y - cy
        cones.append(sign * _linear_scale(np.sqrt(dx * dx + dy * dy), (0.0, 2.0), (1.0, 0.0), clamp=True))
    cones = np.stack(cones, axis=1)
    # its loop keeps a cone only if strictly larger in |.| than the one kept so far, starting from 0
    largest = np.argmax(np.abs(cones), axis=1)
    picked = cones[np.arange(len(x)), largest]
    return _stack([(x, y, np.where(np.abs(picked) > 0, picked, 0.0))])


def _stack(parts):
    X = np.column_stack([np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])])
    return np.ascontiguousarray(X, dtype=np.float64), np.concatenate([p[2] for p in parts])


# Its names, as state.ts has them (and its URLs say: dataset=xor, regDataset=reg-plane)
CLASSIFICATION_DATASETS = {"circle": make_circle, "xor": make_xor, "gauss": make_gauss, "spiral": make_spiral}
REGRESSION_DATASETS = {"reg-plane": make_reg_plane, "reg-gauss": make_reg_gauss}
DATASETS = {**CLASSIFICATION_DATASETS, **REGRESSION_DATASETS}
# playground.ts: NUM_SAMPLES_CLASSIFY = 500, NUM_SAMPLES_REGRESS = 1200
NUM_SAMPLES = {"classification": 500, "regression": 1200}


def problem_of(name: str) -> str:
    """'classification' or 'regression' for a dataset name of `DATASETS`."""
    if name in CLASSIFICATION_DATASETS:
        return "classification"
    if name in REGRESSION_DATASETS:
        return "regression"
    raise ValueError(f"unknown TF Playground dataset {name!r}; choose one of {', '.join(DATASETS)}")


# -- shuffle and split -------------------------------------------------------------------------


def permutation(n: int, source: UniformSource | None = None) -> np.ndarray:
    """The order dataset.ts's ``shuffle`` leaves ``n`` items in: ``data[permutation(n, source)]`` is the
    shuffled data. Its Fisher-Yates runs a counter from n down to 1: it draws ``floor(U * counter)``,
    counts down, then swaps the item at the counter with the drawn one (n draws)."""
    if not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"n must be an int >= 0, got {n!r}")
    counters = np.arange(n, 0, -1, dtype=np.float64)
    picks = np.floor(as_source(source)(int(n)) * counters).astype(np.int64)
    order = np.arange(n)
    # Each swap depends on the ones before it, so this part is a loop.
    for counter, index in zip(range(n - 1, -1, -1), picks.tolist()):
        order[counter], order[index] = order[index], order[counter]
    return order


def split_index(n: int, percent_train) -> int:
    """How many of ``n`` points train: ``Math.floor(data.length * percTrainData / 100)``."""
    return math.floor(n * percent_train / 100)


def split_train_test(X, y, percent_train):
    """The first `split_index` points train, the rest test (no shuffle here: the TF Playground
    shuffled the data before): ``X_train, y_train, X_test, y_test``."""
    k = split_index(len(X), percent_train)
    return X[:k], y[:k], X[k:], y[k:]


class PlaygroundData(NamedTuple):
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def make_dataset(name: str, noise=0, percent_train=50, seed=None, *, n_samples: int | None = None) -> PlaygroundData:
    """The dataset as the TF Playground makes it: generate, shuffle, split (playground.ts generateData).

    ``name`` is its own (`DATASETS`: circle, xor, gauss, spiral, reg-plane, reg-gauss); ``noise`` its
    slider's value, 0 to 50 (or up to 80, which its URLs allow), divided by 100 here as it does;
    ``percent_train`` its "Ratio of training to test data", 10 to 90; ``n_samples`` 500 for
    classification, 1200 for regression unless given. ``seed``: a str is a TF Playground URL's seed
    (its own random stream, `SeedRandom`: the very points of that page), an int or a numpy Generator
    numpy's stream, None fresh entropy; a uniform source goes on being drawn from, so the same source
    then gives the initial weights (`engine.nn.init.tf_playground_`) as the page draws them next.

    Returns ``X_train, y_train, X_test, y_test`` (a `PlaygroundData`), labels +1/-1 (int64) for
    classification, real (float64) for regression.
    """
    problem = problem_of(name)
    if not isinstance(noise, numbers.Real) or isinstance(noise, bool) or not 0 <= noise <= 80:
        raise ValueError(f"noise is the TF Playground's slider value, 0 to 50 (80 from a URL), got {noise!r}")
    if (not isinstance(percent_train, numbers.Real) or isinstance(percent_train, bool)
            or not 10 <= percent_train <= 90):
        raise ValueError(f"percent_train is the TF Playground's training ratio, 10 to 90 %, got {percent_train!r}")
    source = as_source(seed)
    X, y = DATASETS[name](NUM_SAMPLES[problem] if n_samples is None else n_samples, noise / 100, source)
    order = permutation(len(X), source)
    return PlaygroundData(*split_train_test(X[order], y[order], percent_train))


def binary_labels(y) -> np.ndarray:
    """+1/-1 labels as the rest of the engine's 0/1 (`engine.train.accuracy`, `predict`): +1 -> 1, -1 -> 0."""
    return (np.asarray(y) > 0).astype(np.int64)


# -- its feature inputs ------------------------------------------------------------------------

# playground.ts INPUTS, in its order (its state keys x, y, xSquared, ySquared, xTimesY, sinX, sinY);
# the names are the app's (`playground.training.model.settings.FEATURES`).
FEATURES = {
    "x1": lambda x1, x2: x1,
    "x2": lambda x1, x2: x2,
    "x1^2": lambda x1, x2: x1 * x1,
    "x2^2": lambda x1, x2: x2 * x2,
    "x1*x2": lambda x1, x2: x1 * x2,
    "sin x1": lambda x1, x2: np.sin(x1),
    "sin x2": lambda x1, x2: np.sin(x2),
}


def features(X, names=("x1", "x2")) -> np.ndarray:
    """The network's inputs for points ``X`` (n, 2): one column per chosen feature, always in the TF
    Playground's order (its constructInput walks INPUTS, not the order chosen), so the first layer's
    weights meet their features in the order the TF Playground draws them."""
    names = list(names)
    unknown = [name for name in names if name not in FEATURES]
    if unknown or not names or len(set(names)) != len(names):
        raise ValueError(f"features must be distinct names among {', '.join(FEATURES)}, got {names}")
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([f(x1, x2) for name, f in FEATURES.items() if name in names])
