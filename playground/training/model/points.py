"""The points a network learns, free of Qt: the built-in datasets, a person's CSV, the train/test
split, the input features computed from (x1, x2), and the grid the plane is drawn on."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

import numpy as np

from engine.data import (
    load_csv,
    make_blobs,
    make_circles,
    make_gaussians,
    make_moons,
    make_plane,
    make_spiral,
    make_xor,
    train_test_split,
)
from engine.tf_playground import FEATURES as TF_FEATURES

from .settings import MAX_CLASSES, MAX_POINTS

# The built-in datasets' classes are named by the colour the panel draws them in (its palette's order).
COLOUR_NAMES = ("orange", "blue", "green", "purple", "red", "sky blue", "yellow", "black")

# The feature inputs are the TF Playground's seven (its playground.ts INPUTS), under the app's names.
_FEATURE_FUNCTIONS = TF_FEATURES
# The same features as Python source, for an exported script (a test holds the two tables together).
FEATURE_FORMULAS = {"x1": "x1", "x2": "x2", "x1^2": "x1 * x1", "x2^2": "x2 * x2", "x1*x2": "x1 * x2",
                    "sin x1": "np.sin(x1)", "sin x2": "np.sin(x2)"}


@dataclass(frozen=True)
class SplitData:
    """Points in the plane (x1, x2) split for training and testing, and the square they are drawn in."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    extent: tuple[float, float, float, float]  # x_min, x_max, y_min, y_max
    name: str = ""
    classes: tuple[str, ...] = COLOUR_NAMES[:2]  # the name of each label 0..k-1

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    def copy(self) -> SplitData:
        return replace(self, X_train=self.X_train.copy(), y_train=self.y_train.copy(),
                       X_test=self.X_test.copy(), y_test=self.y_test.copy())

    def all_points(self) -> tuple[np.ndarray, np.ndarray]:
        return np.concatenate([self.X_train, self.X_test]), np.concatenate([self.y_train, self.y_test])


BLOB_SPACING = 2.4  # between neighbouring centres: blobs of the default spread just touch


def blob_centres(k: int) -> np.ndarray:
    """Two centres on the diagonal, as the TF Playground's; more of them evenly round a circle, as far
    from their neighbours as `BLOB_SPACING`."""
    if k == 2:
        return np.array([[-1.0, -1.0], [1.0, 1.0]])
    angles = np.pi / 2 + 2 * np.pi * np.arange(k) / k
    radius = BLOB_SPACING / (2 * np.sin(np.pi / k))
    return radius * np.column_stack([np.cos(angles), np.sin(angles)])


def make_dataset(name: str, points: int, noise: float, seed: int, classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """One of the built-in datasets, all of them roughly within [-1.5, 2.5]^2; ``classes`` is the
    number of spiral arms or blob centres (the others have two classes)."""
    if name == "moons":
        return make_moons(points, noise=noise, random_state=seed)
    if name == "circles":
        return make_circles(points, noise=noise, factor=0.5, random_state=seed)
    if name == "xor":
        return make_xor(points, noise=noise, random_state=seed)
    if name == "spiral":
        # 3 / k turns: k arms keep the two-arm spiral's gap between neighbouring arms (a third of the radius).
        return make_spiral(points, noise=noise, random_state=seed, turns=3.0 / classes, n_classes=classes)
    # The regression datasets, as the TF Playground's: points in [-6, 6]^2 and a real target about -1.2..1.2
    # (`engine.data.make_plane`, `make_gaussians`), the noise moving where the target is read.
    if name == "plane":
        return make_plane(points, noise=noise, random_state=seed)
    if name == "gaussians":
        return make_gaussians(points, noise=noise, random_state=seed)
    if name == "blobs":
        return make_blobs(points, centers=blob_centres(classes), cluster_std=0.3 + 2.0 * noise, random_state=seed)
    raise ValueError(f"no built-in dataset {name!r}")


def square_extent(X: np.ndarray) -> tuple[float, float, float, float]:
    """A square around the points with a margin, so the boundary shows a little beyond the data."""
    low, high = X.min(axis=0), X.max(axis=0)
    centre = (low + high) / 2
    half = max(float(np.max(high - low)) / 2, 0.5) * 1.15 + 0.1
    return (float(centre[0] - half), float(centre[0] + half), float(centre[1] - half), float(centre[1] + half))


def split(X: np.ndarray, y: np.ndarray, test_fraction: float, seed: int, name: str = "",
          classes: tuple[str, ...] | None = None, regression: bool = False) -> SplitData:
    """A regression's targets are real numbers: its data has no classes (``classes == ()``)."""
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_fraction, random_state=seed)
    if regression:
        classes = ()
    elif classes is None:
        classes = COLOUR_NAMES[:int(np.max(y)) + 1]
    classes = tuple(classes)
    return SplitData(X_train, y_train, X_test, y_test, square_extent(X), name, classes)


MAX_CSV_BYTES = 20 * 2**20  # 100,000 rows of long numbers take about 6 MB
MAX_LABEL = 100  # characters in a label's name


def load_points(path) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """A person's CSV (``x1,x2,label`` rows) with 2 to `MAX_CLASSES` labels and at most `MAX_POINTS` rows:
    ``X, y, class names`` (labels in sorted order); ValueError with a message to show."""
    size = os.stat(path).st_size
    if size > MAX_CSV_BYTES:
        raise ValueError(f"{os.path.basename(path)} is {size / 2**20:.0f} MB: a CSV of points holds at most "
                         f"{MAX_CSV_BYTES // 2**20} MB")
    X, y, classes = load_csv(path, return_classes=True)  # its ValueError already names the file and the line
    if len(X) > MAX_POINTS:
        raise ValueError(f"{os.path.basename(path)} has {len(X):,} points; the training panel takes at most "
                         f"{MAX_POINTS:,}")
    long = next((name for name in classes if len(name) > MAX_LABEL), None)
    if long is not None:
        raise ValueError(f"{os.path.basename(path)}: the label {long[:40]!r}… is longer than {MAX_LABEL} characters")
    check_points(X, y)
    return X, y, tuple(classes)


def load_values(path) -> tuple[np.ndarray, np.ndarray]:
    """A person's CSV for a regression (``x1,x2,value`` rows, the value a real number) with at most
    `MAX_POINTS` rows: ``X, y``; ValueError with a message to show."""
    size = os.stat(path).st_size
    if size > MAX_CSV_BYTES:
        raise ValueError(f"{os.path.basename(path)} is {size / 2**20:.0f} MB: a CSV of points holds at most "
                         f"{MAX_CSV_BYTES // 2**20} MB")
    X, y = load_csv(path, target="regression")  # its ValueError names the file and the line
    if len(X) > MAX_POINTS:
        raise ValueError(f"{os.path.basename(path)} has {len(X):,} points; the training panel takes at most "
                         f"{MAX_POINTS:,}")
    check_values(X, y)
    return X, y


def check_values(X: np.ndarray, y: np.ndarray) -> None:
    """A regression's points: at least 4, a finite real target each."""
    if len(X) < 4:
        raise ValueError(f"the data has {len(X)} points; training and testing need at least 4")
    if len(y) != len(X) or not np.all(np.isfinite(y)):
        raise ValueError("every point needs a finite number as its value")


def check_points(X: np.ndarray, y: np.ndarray) -> None:
    """Labels 0..k-1, every one of them used, with 2 <= k <= `MAX_CLASSES`; at least 4 points."""
    labels = np.unique(y)
    classes = len(labels)
    if not 2 <= classes <= MAX_CLASSES:
        raise ValueError(f"the data has {classes} class{'es' if classes != 1 else ''}; "
                         f"the training panel separates 2 to {MAX_CLASSES} labels")
    if not np.array_equal(labels, np.arange(classes)):
        raise ValueError(f"the labels must be 0 to {classes - 1}, each used, not {labels.tolist()}")
    if len(X) < 4:
        raise ValueError(f"the data has {len(X)} points; training and testing need at least 4")


def expand_features(X: np.ndarray, features: tuple[str, ...]) -> np.ndarray:
    """The network's inputs for points (x1, x2): one column per chosen feature."""
    X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
    x1, x2 = X[:, 0], X[:, 1]
    return np.column_stack([_FEATURE_FUNCTIONS[name](x1, x2) for name in features])


def grid_axes(extent, resolution: int, rows: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates of an image covering ``extent``, ``resolution`` pixels wide and ``rows``
    tall (as many as wide by default)."""
    x_min, x_max, y_min, y_max = extent
    rows = resolution if rows is None else rows
    xs = x_min + (np.arange(resolution) + 0.5) * (x_max - x_min) / resolution
    ys = y_min + (np.arange(rows) + 0.5) * (y_max - y_min) / rows
    return xs, ys
