"""The points a network learns, free of Qt: the built-in datasets, a person's CSV, the train/test
split, the input features computed from (x1, x2), and the grid the plane is drawn on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from engine.data import (
    load_csv,
    make_blobs,
    make_circles,
    make_moons,
    make_spiral,
    make_xor,
    train_test_split,
)

_FEATURE_FUNCTIONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "x1": lambda x1, x2: x1,
    "x2": lambda x1, x2: x2,
    "x1^2": lambda x1, x2: x1 * x1,
    "x2^2": lambda x1, x2: x2 * x2,
    "x1*x2": lambda x1, x2: x1 * x2,
    "sin x1": lambda x1, x2: np.sin(x1),
    "sin x2": lambda x1, x2: np.sin(x2),
}


@dataclass(frozen=True)
class SplitData:
    """Points in the plane (x1, x2) split for training and testing, and the square they are drawn in."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    extent: tuple[float, float, float, float]  # x_min, x_max, y_min, y_max
    name: str = ""

    def copy(self) -> SplitData:
        return replace(self, X_train=self.X_train.copy(), y_train=self.y_train.copy(),
                       X_test=self.X_test.copy(), y_test=self.y_test.copy())

    def all_points(self) -> tuple[np.ndarray, np.ndarray]:
        return np.concatenate([self.X_train, self.X_test]), np.concatenate([self.y_train, self.y_test])


def make_dataset(name: str, points: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """One of the built-in datasets, all of them roughly within [-1.5, 2.5]^2."""
    if name == "moons":
        return make_moons(points, noise=noise, random_state=seed)
    if name == "circles":
        return make_circles(points, noise=noise, factor=0.5, random_state=seed)
    if name == "xor":
        return make_xor(points, noise=noise, random_state=seed)
    if name == "spiral":
        return make_spiral(points, noise=noise, random_state=seed)
    if name == "blobs":
        return make_blobs(points, centers=[[-1.0, -1.0], [1.0, 1.0]], cluster_std=0.3 + 2.0 * noise,
                          random_state=seed)
    raise ValueError(f"no built-in dataset {name!r}")


def square_extent(X: np.ndarray) -> tuple[float, float, float, float]:
    """A square around the points with a margin, so the boundary shows a little beyond the data."""
    low, high = X.min(axis=0), X.max(axis=0)
    centre = (low + high) / 2
    half = max(float(np.max(high - low)) / 2, 0.5) * 1.15 + 0.1
    return (float(centre[0] - half), float(centre[0] + half), float(centre[1] - half), float(centre[1] + half))


def split(X: np.ndarray, y: np.ndarray, test_fraction: float, seed: int, name: str = "") -> SplitData:
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_fraction, random_state=seed)
    return SplitData(X_train, y_train, X_test, y_test, square_extent(X), name)


def load_points(path) -> tuple[np.ndarray, np.ndarray]:
    """A person's CSV (``x1,x2,label`` rows) with two classes; ValueError with a message to show."""
    X, y = load_csv(path)  # its ValueError already names the file and the line
    check_points(X, y)
    return X, y


def check_points(X: np.ndarray, y: np.ndarray) -> None:
    classes = len(np.unique(y))
    if classes != 2:
        raise ValueError(f"the data has {classes} class{'es' if classes != 1 else ''}; "
                         "the training panel separates exactly two labels")
    if len(X) < 4:
        raise ValueError(f"the data has {len(X)} points; training and testing need at least 4")


def expand_features(X: np.ndarray, features: tuple[str, ...]) -> np.ndarray:
    """The network's inputs for points (x1, x2): one column per chosen feature."""
    X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([_FEATURE_FUNCTIONS[name](x1, x2) for name in features])


def grid_axes(extent, resolution: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates of a resolution x resolution image covering ``extent``."""
    x_min, x_max, y_min, y_max = extent
    xs = x_min + (np.arange(resolution) + 0.5) * (x_max - x_min) / resolution
    ys = y_min + (np.arange(resolution) + 0.5) * (y_max - y_min) / resolution
    return xs, ys
