"""The TF Playground's datasets (`engine.tf_playground`): each generator against an independent,
point-by-point transcription of tensorflow/playground's src/dataset.ts fed the same uniform draws; its
shuffle and split; its seedrandom stream; and, from tf_playground_oracle.json, what its own TypeScript
made for a URL seed (data/make_tf_playground_oracle.js says how that file was made)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

import engine.tf_playground as tp

ORACLE = json.loads((Path(__file__).parent / "data" / "tf_playground_oracle.json").read_text())
NAMES = {"x": "x1", "y": "x2", "xSquared": "x1^2", "ySquared": "x2^2", "xTimesY": "x1*x2",
         "sinX": "sin x1", "sinY": "sin x2"}


class Draws:
    """A uniform source over fixed numbers, counting what was drawn: the engine takes blocks, the
    transcription one at a time (``rand()``), from two copies of the same numbers."""

    def __init__(self, seed, n=200_000):
        self.values = np.random.default_rng(seed).random(n)
        self.position = 0

    def __call__(self, n):
        out = self.values[self.position:self.position + n]
        assert len(out) == n, "ran out of draws"
        self.position += n
        return out

    def rand(self):
        return float(self(1)[0])


# -- a transcription of dataset.ts, one point and one Math.random() at a time -------------------


def ts_rand_uniform(rand, a, b):
    return rand() * (b - a) + a


def ts_normal_random(rand, mean, variance):
    while True:
        v1 = 2 * rand() - 1
        v2 = 2 * rand() - 1
        s = v1 * v1 + v2 * v2
        if s <= 1:
            break
    return mean + math.sqrt(variance) * (math.sqrt(-2 * math.log(s) / s) * v1)


def d3_linear(x, d0, d1, r0, r1, clamp=False):
    t = (x - d0) / (d1 - d0)
    if clamp:
        t = max(0.0, min(1.0, t))
    return r0 * (1 - t) + r1 * t


def ts_circle(n, noise, rand):
    points = []
    radius = 5
    for low, high in ((0, radius * 0.5), (radius * 0.7, radius)):
        i = 0
        while i < n / 2:
            r = ts_rand_uniform(rand, low, high)
            angle = ts_rand_uniform(rand, 0, 2 * math.pi)
            x, y = r * math.sin(angle), r * math.cos(angle)
            nx = ts_rand_uniform(rand, -radius, radius) * noise
            ny = ts_rand_uniform(rand, -radius, radius) * noise
            label = 1 if math.hypot(x + nx, y + ny) < radius * 0.5 else -1
            points.append((x, y, label))
            i += 1
    return points


def ts_xor(n, noise, rand):
    points = []
    for _ in range(n):
        x = ts_rand_uniform(rand, -5, 5)
        x += 0.3 if x > 0 else -0.3
        y = ts_rand_uniform(rand, -5, 5)
        y += 0.3 if y > 0 else -0.3
        nx = ts_rand_uniform(rand, -5, 5) * noise
        ny = ts_rand_uniform(rand, -5, 5) * noise
        points.append((x, y, 1 if (x + nx) * (y + ny) >= 0 else -1))
    return points


def ts_gauss(n, noise, rand):
    variance = d3_linear(noise, 0, 0.5, 0.5, 4)
    points = []
    for c, label in ((2, 1), (-2, -1)):
        i = 0
        while i < n / 2:
            x = ts_normal_random(rand, c, variance)
            y = ts_normal_random(rand, c, variance)
            points.append((x, y, label))
            i += 1
    return points


def ts_spiral(n, noise, rand):
    points = []
    half = n / 2
    for delta, label in ((0, 1), (math.pi, -1)):
        i = 0
        while i < half:
            r = i / half * 5
            t = 1.75 * i / half * 2 * math.pi + delta
            x = r * math.sin(t) + ts_rand_uniform(rand, -1, 1) * noise
            y = r * math.cos(t) + ts_rand_uniform(rand, -1, 1) * noise
            points.append((x, y, label))
            i += 1
    return points


def ts_reg_plane(n, noise, rand):
    points = []
    for _ in range(n):
        x, y = ts_rand_uniform(rand, -6, 6), ts_rand_uniform(rand, -6, 6)
        nx, ny = ts_rand_uniform(rand, -6, 6) * noise, ts_rand_uniform(rand, -6, 6) * noise
        points.append((x, y, d3_linear((x + nx) + (y + ny), -10, 10, -1, 1)))
    return points


def ts_reg_gauss(n, noise, rand):
    gaussians = [(-4, 2.5, 1), (0, 2.5, -1), (4, 2.5, 1), (-4, -2.5, -1), (0, -2.5, 1), (4, -2.5, -1)]

    def label_at(x, y):
        label = 0
        for cx, cy, sign in gaussians:
            new = sign * d3_linear(math.hypot(x - cx, y - cy), 0, 2, 1, 0, clamp=True)
            if abs(new) > abs(label):
                label = new
        return label

    points = []
    for _ in range(n):
        x, y = ts_rand_uniform(rand, -6, 6), ts_rand_uniform(rand, -6, 6)
        nx, ny = ts_rand_uniform(rand, -6, 6) * noise, ts_rand_uniform(rand, -6, 6) * noise
        points.append((x, y, label_at(x + nx, y + ny)))
    return points


def ts_shuffle(items, rand):
    items = list(items)
    counter = len(items)
    while counter > 0:
        index = math.floor(rand() * counter)
        counter -= 1
        items[counter], items[index] = items[index], items[counter]
    return items


TRANSCRIPTIONS = {"circle": ts_circle, "xor": ts_xor, "gauss": ts_gauss, "spiral": ts_spiral,
                  "reg-plane": ts_reg_plane, "reg-gauss": ts_reg_gauss}


# -- the generators ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TRANSCRIPTIONS))
@pytest.mark.parametrize("noise", [0.0, 0.25, 0.5, 0.8])
@pytest.mark.parametrize("n", [500, 7])
def test_generator_makes_the_transcriptions_points_from_the_same_draws(name, noise, n):
    ours, theirs = Draws(1), Draws(1)
    X, y = tp.DATASETS[name](n, noise, ours)
    want = np.array(TRANSCRIPTIONS[name](n, noise, theirs.rand))
    assert X.shape == (len(want), 2) and y.shape == (len(want),)
    np.testing.assert_allclose(X, want[:, :2], rtol=0, atol=1e-12)
    np.testing.assert_allclose(y, want[:, 2], rtol=0, atol=1e-12)
    assert ours.position == theirs.position  # the same number of draws, so what follows draws alike
    if tp.problem_of(name) == "classification":
        assert y.dtype == np.int64 and set(np.unique(y)) <= {-1, 1}
        # an odd count gives ceil(n / 2) points per class in the two-class loops, as `i < n / 2` does
        assert len(y) == (n if name == "xor" else 2 * math.ceil(n / 2))
    else:
        assert y.dtype == np.float64 and len(y) == n


def test_circle_labels_are_exact_without_noise_and_flip_near_the_border_with_it():
    X, y = tp.make_circle(500, 0.0, Draws(2))
    r = np.hypot(X[:, 0], X[:, 1])
    assert np.all(y[:250] == 1) and np.all(y[250:] == -1) and r[:250].max() <= 2.5 and r[250:].min() >= 3.5
    assert r.max() <= 5.0
    X, y = tp.make_circle(500, 0.5, Draws(2))
    wrong = (y == 1) != (np.hypot(X[:, 0], X[:, 1]) < 2.5)
    assert 0 < wrong.sum() < 150  # the labels are read at the moved point, the points stay


def test_xor_points_keep_off_the_axes_and_balance_their_labels():
    X, y = tp.make_xor(500, 0.0, Draws(3))
    assert np.all(np.abs(X) >= 0.3) and np.all(np.abs(X) <= 5.3)
    assert np.array_equal(y, np.where(X[:, 0] * X[:, 1] >= 0, 1, -1))
    assert 200 < np.sum(y == 1) < 300


def test_gauss_variance_grows_with_noise_as_its_scale_says():
    for noise, variance in ((0.0, 0.5), (0.5, 4.0), (0.8, 6.1)):
        X, y = tp.make_gauss(4000, noise, Draws(4, 40_000))
        assert np.array_equal(y, np.repeat([1, -1], 2000))
        assert np.var(X[:2000], axis=0) == pytest.approx([variance, variance], rel=0.1)
        assert np.mean(X[:2000], axis=0) == pytest.approx([2, 2], abs=0.15)


def test_normal_random_rejects_pairs_outside_the_unit_circle():
    # (0.9, 0.9) gives v = (0.8, 0.8), s = 1.28 > 1: rejected; (0.75, 0.5) gives v = (0.5, 0), s = 0.25
    source = Draws(0)
    source.values[:4] = [0.9, 0.9, 0.75, 0.5]
    assert tp.normal_random(source, 1.0, 4.0) == pytest.approx(1.0 + 2.0 * math.sqrt(-2 * math.log(0.25) / 0.25) * 0.5)
    assert source.position == 4


def test_spiral_arms_without_noise_lie_on_their_curve():
    X, y = tp.make_spiral(500, 0.0, Draws(5))
    i = np.arange(250)
    r, t = i / 250 * 5, 1.75 * i / 250 * 2 * np.pi
    np.testing.assert_allclose(X[:250], np.column_stack([r * np.sin(t), r * np.cos(t)]), atol=1e-12)
    np.testing.assert_allclose(X[250:], -X[:250], atol=1e-12)  # the other arm, half a turn on
    assert np.array_equal(y, np.repeat([1, -1], 250))


def test_regression_targets_range_and_read_at_the_moved_point():
    X, y = tp.make_reg_plane(1200, 0.0, Draws(6))
    np.testing.assert_allclose(y, (X[:, 0] + X[:, 1]) / 10, atol=1e-15)
    assert np.abs(X).max() <= 6 and np.abs(y).max() <= 1.2
    X, y = tp.make_reg_gauss(1200, 0.0, Draws(6))
    assert -1 <= y.min() < -0.5 and 0.5 < y.max() <= 1
    far = np.min(np.hypot(X[:, :1] - np.array([-4, 0, 4]), 0 * X[:, :1] + np.abs(X[:, 1:]) - 2.5), axis=1) > 2
    assert np.all(y[far] == 0) and far.any()


def test_noise_changes_the_labels_not_the_points_for_circle_xor_and_regression():
    for name in ("circle", "xor", "reg-plane", "reg-gauss"):
        X0, y0 = tp.DATASETS[name](300, 0.0, Draws(7))
        X1, y1 = tp.DATASETS[name](300, 0.3, Draws(7))
        assert np.array_equal(X0, X1) and not np.array_equal(y0, y1), name


# -- shuffle, split, the one call --------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 10, 500])
def test_permutation_is_its_fisher_yates(n):
    ours, theirs = Draws(8), Draws(8)
    assert tp.permutation(n, ours).tolist() == ts_shuffle(range(n), theirs.rand)
    assert ours.position == theirs.position == n


@pytest.mark.parametrize("percent", range(10, 100, 10))
def test_split_sizes_for_every_ratio_of_its_slider(percent):
    for name, n in (("xor", 500), ("reg-plane", 1200)):
        data = tp.make_dataset(name, 0, percent, 0)
        assert len(data.X_train) == len(data.y_train) == n * percent // 100
        assert len(data.X_test) == len(data.y_test) == n - n * percent // 100
    assert tp.split_index(501, 33) == 165  # Math.floor(501 * 33 / 100) = floor(165.33)


def test_make_dataset_is_generate_then_shuffle_then_split_from_one_stream():
    source, again = Draws(9), Draws(9)
    data = tp.make_dataset("spiral", 35, 40, source)
    X, y = tp.make_spiral(500, 0.35, again)
    order = np.array(ts_shuffle(range(500), again.rand))
    assert np.array_equal(np.concatenate([data.X_train, data.X_test]), X[order])
    assert np.array_equal(np.concatenate([data.y_train, data.y_test]), y[order])
    assert len(data.X_train) == 200 and source.position == again.position


def test_make_dataset_seeds_and_refusals():
    a, b = tp.make_dataset("gauss", 10, 50, 3), tp.make_dataset("gauss", 10, 50, 3)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert not np.array_equal(a.X_train, tp.make_dataset("gauss", 10, 50, 4).X_train)
    assert np.array_equal(tp.binary_labels(a.y_train), (a.y_train == 1).astype(np.int64))
    with pytest.raises(ValueError, match="unknown TF Playground dataset"):
        tp.make_dataset("moons")
    with pytest.raises(ValueError, match="noise"):
        tp.make_dataset("xor", noise=90)
    with pytest.raises(ValueError, match="percent_train"):
        tp.make_dataset("xor", percent_train=95)
    with pytest.raises(ValueError, match="noise"):
        tp.make_xor(10, noise=35)  # a generator takes the share, 0.35


def test_features_in_its_order_whatever_the_order_asked():
    X = np.array([[0.5, -2.0], [3.0, 1.0]])
    got = tp.features(X, ["sin x2", "x1", "x1*x2", "x2^2"])
    np.testing.assert_array_equal(got, np.column_stack([X[:, 0], X[:, 1] ** 2, X[:, 0] * X[:, 1], np.sin(X[:, 1])]))
    assert tp.features(X, list(tp.FEATURES)).shape == (2, 7)
    with pytest.raises(ValueError, match="features"):
        tp.features(X, ["x1", "cos x1"])


# -- its own random stream and its own code ----------------------------------------------------


def test_seedrandom_gives_its_documented_numbers():
    assert tp.SeedRandom("hello.")(3).tolist() == ORACLE["seedrandom_hello"]
    assert tp.SeedRandom("hello.").random() == 0.9282578795792454  # seedrandom's README
    assert tp.SeedRandom("").random() != tp.SeedRandom("x").random()
    with pytest.raises(TypeError):
        tp.SeedRandom(12345)


def _checksum(X, y):
    return float(np.sum(np.arange(1, len(y) + 1) * (X[:, 0] + 2 * X[:, 1] + 3 * y)))


@pytest.mark.parametrize("run", ORACLE["runs"], ids=lambda run: run["config"]["dataset"])
def test_the_tf_playgrounds_own_code_made_the_same_data_for_its_url_seed(run):
    cfg = run["config"]
    data = tp.make_dataset(cfg["dataset"], cfg["noise"], cfg["perc"], cfg["seed"], n_samples=cfg.get("n"))
    assert (len(data.X_train), len(data.X_test)) == (run["n_train"], run["n_test"])
    for X, y, head in ((data.X_train, data.y_train, run["train_head"]), (data.X_test, data.y_test, run["test_head"])):
        np.testing.assert_allclose(np.column_stack([X[:5], y[:5]]), np.array(head), rtol=0, atol=1e-12)
    scale = np.sum(np.arange(1, 1202)) * 30  # the checksum's terms are at most about (i + 1) * 30
    assert abs(_checksum(data.X_train, data.y_train) - run["train_checksum"]) < 1e-13 * scale
    assert abs(_checksum(data.X_test, data.y_test) - run["test_checksum"]) < 1e-13 * scale
