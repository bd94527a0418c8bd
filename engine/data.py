"""Toy 2-D datasets for classification and regression, a train/test split and CSV input/output.

Every generator returns ``(X, y)``: ``X`` float64 of shape (n, 2) and ``y`` of shape (n,):
int64 labels 0..k-1 for the classification sets, float64 real targets for the regression
sets (`make_plane`, `make_gaussians`, the TF Playground's two). ``random_state`` may be
None, an int, a ``numpy.random.Generator`` or a ``numpy.random.RandomState``.
"""

import csv
import math
import numbers
import os
import secrets

import numpy as np

__all__ = [
    "as_generator",
    "make_moons",
    "make_circles",
    "make_xor",
    "make_spiral",
    "make_blobs",
    "make_plane",
    "make_gaussians",
    "plane_target",
    "gaussians_target",
    "train_test_split",
    "load_csv",
    "save_csv",
]


def as_generator(random_state=None):
    """Return a ``numpy.random.Generator`` for None, an int, a Generator or a RandomState."""
    if random_state is None or isinstance(random_state, numbers.Integral):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        # Seed from a draw rather than sharing its private bit generator; the
        # RandomState still advances, so repeated calls give different data.
        return np.random.default_rng(int(random_state.randint(2**63 - 1, dtype=np.int64)))
    raise TypeError(f"random_state must be None, an int, a Generator or a RandomState, got {random_state!r}")


def _check_count(n_samples):
    if not isinstance(n_samples, numbers.Integral) or isinstance(n_samples, bool) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive int, got {n_samples!r}")
    return int(n_samples)


def _split_counts(n_samples):
    """(first, second) class sizes from an int (first = n // 2) or a 2-tuple."""
    if isinstance(n_samples, numbers.Integral):
        n = _check_count(n_samples)
        return n // 2, n - n // 2
    if isinstance(n_samples, tuple) and len(n_samples) == 2:
        first, second = (int(v) for v in n_samples)
        if first < 0 or second < 0 or first + second < 1:
            raise ValueError(f"n_samples must be two counts >= 0 with a positive sum, got {n_samples}")
        return first, second
    raise ValueError(f"n_samples must be an int or a tuple of two ints, got {n_samples!r}")


def _finish(X, y, rng, noise, shuffle):
    """Shuffle, then add Gaussian noise; return contiguous float64/int64 arrays."""
    if noise is not None and not noise >= 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    # Skip the draw for zero noise so noiseless data stays exactly on its curve.
    if noise:
        X = X + rng.normal(scale=noise, size=X.shape)
    return X, y


def _two_classes(n0, n1):
    return np.concatenate([np.zeros(n0, dtype=np.int64), np.ones(n1, dtype=np.int64)])


def make_moons(n_samples=100, noise=None, random_state=None, shuffle=True):
    """Two interleaving half circles (scikit-learn's geometry); outer moon is label 0."""
    n_out, n_in = _split_counts(n_samples)
    t_out = np.linspace(0, np.pi, n_out)
    t_in = np.linspace(0, np.pi, n_in)
    x = np.concatenate([np.cos(t_out), 1 - np.cos(t_in)])
    # Keep scikit-learn's operation order, (1 - sin) - 0.5, for bit-identical output.
    y_coord = np.concatenate([np.sin(t_out), 1 - np.sin(t_in) - 0.5])
    X = np.column_stack([x, y_coord])
    return _finish(X, _two_classes(n_out, n_in), as_generator(random_state), noise, shuffle)


def make_circles(n_samples=100, noise=None, random_state=None, factor=0.8, shuffle=True):
    """A unit circle (label 0) around a smaller circle of radius ``factor`` (label 1)."""
    if not 0 <= factor < 1:
        raise ValueError(f"factor must be in [0, 1), got {factor}")
    n_out, n_in = _split_counts(n_samples)
    # endpoint=False so the first and last point of a circle do not coincide.
    t_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    t_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    x = np.concatenate([np.cos(t_out), np.cos(t_in) * factor])
    y_coord = np.concatenate([np.sin(t_out), np.sin(t_in) * factor])
    X = np.column_stack([x, y_coord])
    return _finish(X, _two_classes(n_out, n_in), as_generator(random_state), noise, shuffle)


def make_xor(n_samples=200, noise=0.0, random_state=None):
    """Uniform points in [-1, 1]^2; label 1 where x1 and x2 share a sign (before noise)."""
    rng = as_generator(random_state)
    X = rng.uniform(-1.0, 1.0, size=(_check_count(n_samples), 2))
    y = X[:, 0] * X[:, 1] > 0
    # Points are i.i.d., so their order is already random: no shuffle needed.
    return _finish(X, y, rng, noise, shuffle=False)


def make_spiral(n_samples=200, noise=0.0, random_state=None, turns=1.5, shuffle=True, n_classes=2):
    """``n_classes`` interleaved spiral arms (labels 0..k-1) with radius growing linearly up to 1.

    Arm c starts at angle 2*pi*c/k; with two arms they are half a turn apart, as the classic
    two-spiral problem. Each arm gets n // k points, the last n % k arms one more.
    """
    if not isinstance(n_classes, numbers.Integral) or isinstance(n_classes, bool) or n_classes < 1:
        raise ValueError(f"n_classes must be a positive int, got {n_classes!r}")
    k = int(n_classes)
    if k == 2:
        counts = _split_counts(n_samples)
    else:
        n = _check_count(n_samples)
        counts = [n // k + (1 if c >= k - n % k else 0) for c in range(k)]
    parts = []
    for label, count in enumerate(counts):
        # Radius (i + 1) / count avoids every arm starting on the same origin point.
        r = np.arange(1, count + 1) / max(count, 1)
        theta = 2 * np.pi * turns * r + 2 * np.pi * label / k
        parts.append(np.column_stack([r * np.cos(theta), r * np.sin(theta)]))
    X = np.concatenate(parts)
    y = np.repeat(np.arange(k, dtype=np.int64), counts)
    return _finish(X, y, as_generator(random_state), noise, shuffle)


def make_blobs(
    n_samples=200, centers=2, cluster_std=1.0, center_box=(-5.0, 5.0), random_state=None, shuffle=True
):
    """Isotropic Gaussian blobs; ``centers`` is a count (drawn in ``center_box``) or a (k, 2) array."""
    n_samples = _check_count(n_samples)
    rng = as_generator(random_state)
    if isinstance(centers, numbers.Integral):
        if centers < 1:
            raise ValueError(f"centers must be at least 1, got {centers}")
        low, high = center_box
        centers = rng.uniform(low, high, size=(int(centers), 2))
    centers = np.asarray(centers, dtype=np.float64)
    if centers.ndim != 2 or centers.shape[1] != 2 or len(centers) == 0:
        raise ValueError(f"centers must be an int or an array of shape (k, 2), got shape {centers.shape}")
    k = len(centers)
    std = np.asarray(cluster_std, dtype=np.float64)
    if std.shape not in ((), (k,)) or np.any(std < 0):
        raise ValueError(f"cluster_std must be one number >= 0 or {k} of them, got {cluster_std!r}")
    std = np.broadcast_to(std, (k,))
    # Like scikit-learn: n // k per blob, the first n % k blobs get one extra point.
    counts = np.full(k, n_samples // k)
    counts[: n_samples % k] += 1
    y = np.repeat(np.arange(k, dtype=np.int64), counts)
    X = centers[y] + rng.normal(size=(n_samples, 2)) * std[y, None]
    return _finish(X, y, rng, None, shuffle)


# -- regression: the TF Playground's two sets ---------------------------------------------------
#
# Points uniform in the square [-radius, radius]^2 (radius 6 in the TF Playground). The target
# is a function of the point; ``noise`` (the Playground's 0..50 % slider as a fraction, 0..0.5)
# moves the point at which the target is read by up to noise * radius on each axis, uniformly,
# while the point is drawn where it was: the targets are noisy, the inputs are not.

GAUSSIAN_CENTRES = np.array([[-4.0, 2.5], [0.0, 2.5], [4.0, 2.5], [-4.0, -2.5], [0.0, -2.5], [4.0, -2.5]])
GAUSSIAN_SIGNS = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])


def _regression_points(n_samples, noise, random_state, radius):
    n = _check_count(n_samples)
    if not noise >= 0:
        raise ValueError(f"noise must be >= 0, got {noise}")
    if not radius > 0:
        raise ValueError(f"radius must be > 0, got {radius}")
    rng = as_generator(random_state)
    X = rng.uniform(-radius, radius, size=(n, 2))
    read_at = X + rng.uniform(-radius, radius, size=(n, 2)) * noise if noise else X
    return X, read_at


def plane_target(points):
    """The plane's noiseless target at ``points`` (n, 2): ``(x1 + x2) / 10``."""
    points = np.asarray(points, dtype=np.float64)
    return (points[:, 0] + points[:, 1]) / 10.0


def gaussians_target(points):
    """The multi gaussian's noiseless target at ``points`` (n, 2): six bumps in two rows at x1 = -4, 0, 4
    and x2 = +-2.5, signs alternating (+ - + on top, - + - below). Bump c gives
    ``sign_c * max(0, 1 - d_c / 2)`` at distance d_c from its centre (a cone of radius 2, not a bell
    curve, as in the Playground); the target is the bump largest in absolute value (the first on a
    tie), so 0 farther than 2 from every centre."""
    points = np.asarray(points, dtype=np.float64)
    distance = np.sqrt(((points[:, None, :] - GAUSSIAN_CENTRES[None, :, :]) ** 2).sum(axis=2))  # (n, 6)
    bumps = GAUSSIAN_SIGNS * np.clip(1.0 - distance / 2.0, 0.0, 1.0)
    largest = np.argmax(np.abs(bumps), axis=1)  # argmax keeps the first of equals
    return bumps[np.arange(len(points)), largest]


def make_plane(n_samples=200, noise=0.0, random_state=None, radius=6.0):
    """The TF Playground's "plane": `plane_target` (about -1.2..1.2 for radius 6) read at the point
    moved by the noise."""
    X, at = _regression_points(n_samples, noise, random_state, radius)
    return X, plane_target(at)


def make_gaussians(n_samples=200, noise=0.0, random_state=None, radius=6.0):
    """The TF Playground's "multi gaussian": `gaussians_target` read at the point moved by the noise."""
    X, at = _regression_points(n_samples, noise, random_state, radius)
    return X, gaussians_target(at)


def train_test_split(X, y, test_size=0.25, random_state=None, shuffle=True):
    """Split into ``X_train, X_test, y_train, y_test``; ``test_size`` is a fraction or a count."""
    X, y = np.asarray(X), np.asarray(y)
    if X.ndim == 0 or y.ndim == 0:
        raise ValueError("X and y must be arrays with one row per sample")
    n = len(X)
    if len(y) != n:
        raise ValueError(f"X and y have different lengths: len(X) = {n}, len(y) = {len(y)}")
    if isinstance(test_size, bool):
        raise ValueError(f"test_size must be a float in (0, 1) or an int count, got {test_size!r}")
    if isinstance(test_size, numbers.Integral):
        if not 1 <= test_size < n:
            raise ValueError(f"test_size={test_size} must be between 1 and n_samples - 1 = {n - 1}")
        n_test = int(test_size)
    elif isinstance(test_size, numbers.Real):
        if not 0 < test_size < 1:
            raise ValueError(f"test_size={test_size} as a fraction must be strictly between 0 and 1")
        n_test = math.ceil(test_size * n)  # rounding up, as scikit-learn does
    else:
        raise ValueError(f"test_size must be a float in (0, 1) or an int count, got {test_size!r}")
    if n_test >= n:
        raise ValueError(f"test_size={test_size} with {n} samples leaves no training samples")
    # Without shuffling the test set is the tail, as in scikit-learn.
    order = as_generator(random_state).permutation(n) if shuffle else np.arange(n)
    train, test = order[: n - n_test], order[n - n_test :]
    return X[train], X[test], y[train], y[test]


def _label_sort_key(labels):
    """Numbers when every label is numeric (so 2 < 10), otherwise the strings themselves."""
    values = {}
    for label in labels:
        try:
            value = int(label)
        except ValueError:
            try:
                value = float(label)
            except ValueError:
                return {label: label for label in labels}
        if value != value:  # NaN never equals itself, so it cannot order or group classes
            return {label: label for label in labels}
        values[label] = value
    return values


TARGETS = ("classification", "regression")


SPLIT_COLUMN = "split"  # save_csv's optional fourth column, and its values
SPLITS = ("train", "test")


def load_csv(path, return_classes=False, target="classification"):
    """Read rows ``x1,x2,label`` (optional header, ``#`` comments; a fourth column when the header names it
    ``split``, as `save_csv` writes the points' split, each row's ``train`` or ``test`` checked and the points
    read whole all the same); labels map to 0..k-1 in sorted order
    (numerically when every label is a number, so 2 < 10). With ``return_classes`` also returns the
    k label names in that order, each as first written in the file: ``X, y, classes``.

    ``target="regression"`` reads the third column as a real number instead: ``y`` is float64, and
    a value that is not a finite number is refused with its line, as a coordinate is."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}, not {target!r}")
    regression = target == "regression"
    if regression and return_classes:
        raise ValueError("return_classes needs class labels; a regression target has none")
    name = os.fspath(path)
    # utf-8-sig strips the byte-order mark that spreadsheet programs often write.
    try:
        with open(name, encoding="utf-8-sig", newline="") as f:
            lines = f.read().splitlines()
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    header_allowed = True
    with_split = False
    points, labels = [], []
    for lineno, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{name}, line {lineno}"
        # Guessed per row: numbers never hold a separator, so one row says which it uses.
        fields = [field.strip() for field in next(csv.reader([text], delimiter=_guess_delimiter(text)))]
        if header_allowed:
            header_allowed = False
            if not _is_number(fields[0]):
                # A header row: its first field is not a number. A fourth column named split (save_csv's
                # test=) says which points were test points; the points are read whole all the same.
                with_split = len(fields) == 4 and fields[3].lower() == SPLIT_COLUMN
                continue
        expected = 4 if with_split else 3
        if len(fields) != expected:
            found = f"{len(fields)} field" + ("" if len(fields) == 1 else "s")
            names = "x1, x2, label, split" if with_split else "x1, x2, label"
            raise ValueError(f"{where}: found {found}, expected {expected} ({names})")
        if with_split and fields[3].lower() not in SPLITS:
            raise ValueError(f"{where}: split {fields[3]!r} is neither train nor test")
        coords = []
        for field in fields[:2]:
            try:
                value = float(field)
            except ValueError:
                raise ValueError(f"{where}: coordinate {field!r} is not a number") from None
            if not math.isfinite(value):
                raise ValueError(f"{where}: coordinate {field!r} is not finite (nan or inf)")
            coords.append(value)
        if not fields[2]:
            raise ValueError(f"{where}: the {'target' if regression else 'label'} is empty")
        points.append(coords)
        labels.append(_real_target(fields[2], where) if regression else fields[2])
    if not points:
        raise ValueError(f"{name}: no data rows found (expected rows of x1,x2,{'target' if regression else 'label'})")
    if regression:
        return np.array(points, dtype=np.float64).reshape(-1, 2), np.array(labels, dtype=np.float64)
    keys = _label_sort_key(labels)
    classes = sorted(set(keys.values()))
    index = {key: i for i, key in enumerate(classes)}
    y = np.array([index[keys[label]] for label in labels], dtype=np.int64)
    X = np.array(points, dtype=np.float64).reshape(-1, 2)
    if not return_classes:
        return X, y
    names = {}
    for label in labels:  # "1" and "1.0" are one class: it keeps the first spelling
        names.setdefault(keys[label], label)
    return X, y, [names[key] for key in classes]


def _real_target(field, where):
    try:
        value = float(field)
    except ValueError:
        raise ValueError(f"{where}: target {field!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: target {field!r} is not finite (nan or inf)")
    return value


def _guess_delimiter(text):
    """The separator that splits ``text`` into 3 fields, else the first one present, else a comma."""
    candidates = (",", ";", "\t")
    for d in candidates:
        if text.count(d) == 2:
            return d
    return next((d for d in candidates if d in text), ",")


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def save_csv(path, X, y, header=True, test=None, comment=None):
    """Write ``x1,x2,label`` rows atomically (temp file + ``os.replace``); return ``path``. A float ``y``
    (regression targets) is written exactly, for ``load_csv(path, target="regression")``.

    ``test``, a boolean per row, adds a fourth column ``split`` saying ``test`` or ``train`` (the header is
    then written whatever ``header`` says: the column is known by its name). ``comment`` is written first,
    each of its lines after ``# ``."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if test is not None:
        test = np.asarray(test, dtype=bool)
        if test.shape != (len(X),):
            raise ValueError(f"test must have shape ({len(X)},), got {test.shape}")
        header = True
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    if y.shape != (len(X),):
        raise ValueError(f"y must have shape ({len(X)},), got {y.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains nan or inf, which load_csv would reject")
    real = np.issubdtype(y.dtype, np.floating)
    if real and not np.all(np.isfinite(y)):
        raise ValueError("y contains nan or inf, which load_csv would reject")
    # repr of a Python float is the shortest text that reads back to the same bits.
    targets = [repr(float(v)) for v in y] if real else y.tolist()
    rows = [(repr(float(a)), repr(float(b)), label) for (a, b), label in zip(X, targets)]
    if test is not None:
        rows = [(*row, "test" if is_test else "train") for row, is_test in zip(rows, test)]
    name = os.fspath(path)
    directory, base = os.path.split(name)
    # Same directory so os.replace is a rename on one filesystem; a reader never sees half a file.
    tmp = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
    # os.open with 0o666 lets the umask decide permissions, as for a normally created file.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(fd, "w", encoding="utf-8", newline="") as f:
            # csv quotes a label holding a comma, which load_csv reads back.
            writer = csv.writer(f, lineterminator="\n")
            for line in (comment.splitlines() if comment else ()):
                f.write(f"# {line}\n")
            if header:
                writer.writerow(("x1", "x2", "label") + (("split",) if test is not None else ()))
            writer.writerows(rows)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, name)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path
