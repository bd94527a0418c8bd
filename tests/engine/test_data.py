"""Tests for engine.data: toy datasets, train_test_split and CSV input/output."""

import math
import os

import numpy as np
import pytest

from engine.data import (
    as_generator,
    load_csv,
    make_blobs,
    make_circles,
    make_moons,
    make_spiral,
    make_xor,
    save_csv,
    train_test_split,
)

GENERATORS = [make_moons, make_circles, make_xor, make_spiral, make_blobs]


def _check_shapes(X, y, n):
    assert X.shape == (n, 2) and X.dtype == np.float64
    assert y.shape == (n,) and y.dtype == np.int64
    assert np.all(np.isfinite(X))


# --- common behaviour of every generator ------------------------------------------------------------


@pytest.mark.parametrize("make", GENERATORS)
@pytest.mark.parametrize("n", [1, 2, 7, 100, 201])
def test_shapes_dtypes_and_balance(make, n):
    X, y = make(n, random_state=0)
    _check_shapes(X, y, n)
    counts = np.bincount(y, minlength=2)
    assert counts.sum() == n and len(counts) == 2
    if make is not make_xor:  # xor's classes are balanced only on average
        assert abs(counts[0] - counts[1]) <= 1


@pytest.mark.parametrize("make", GENERATORS)
def test_same_seed_same_data_other_seed_other_data(make):
    X1, y1 = make(50, random_state=3)
    X2, y2 = make(50, random_state=3)
    X3, _ = make(50, random_state=4)
    assert np.array_equal(X1, X2) and np.array_equal(y1, y2)
    assert not np.array_equal(X1, X3)


@pytest.mark.parametrize("make", GENERATORS)
def test_accepts_generator_and_randomstate(make):
    X1, _ = make(30, random_state=np.random.default_rng(5))
    X2, _ = make(30, random_state=np.random.default_rng(5))
    X3, _ = make(30, random_state=np.random.RandomState(5))
    X4, _ = make(30, random_state=np.random.RandomState(5))
    assert np.array_equal(X1, X2) and np.array_equal(X3, X4)


def test_as_generator():
    rng = np.random.default_rng(1)
    assert as_generator(rng) is rng
    assert isinstance(as_generator(None), np.random.Generator)
    assert as_generator(7).random() == np.random.default_rng(7).random()
    assert as_generator(np.int64(7)).random() == np.random.default_rng(7).random()
    state = np.random.RandomState(0)
    assert as_generator(state).random() != as_generator(state).random()  # the RandomState advances
    with pytest.raises(TypeError, match="random_state"):
        as_generator("seed")


@pytest.mark.parametrize("make", [make_moons, make_circles, make_xor, make_spiral, make_blobs])
@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_bad_n_samples(make, n):
    with pytest.raises(ValueError, match="n_samples"):
        make(n)


@pytest.mark.parametrize("make", [make_moons, make_circles, make_xor, make_spiral])
def test_negative_noise_rejected(make):
    with pytest.raises(ValueError, match="noise"):
        make(10, noise=-0.1)


# --- moons and circles: scikit-learn's geometry -------------------------------------------------------
# Verified once, bit for bit, against sklearn.datasets (1.9.1) in a throwaway venv; here the same
# geometry is checked at specific points so scikit-learn need not be installed.


def _close(point, expected):
    np.testing.assert_allclose(point, expected, rtol=0, atol=1e-15)


def test_moons_geometry_at_key_points():
    X, y = make_moons(100, shuffle=False)
    outer, inner = X[:50], X[50:]
    assert np.array_equal(y, np.repeat([0, 1], 50))
    assert tuple(outer[0]) == (1.0, 0.0)
    assert outer[-1][0] == -1.0 and abs(outer[-1][1]) < 1e-15  # cos(pi) = -1, sin(pi) ~ 1.2e-16
    assert tuple(inner[0]) == (0.0, 0.5)
    assert inner[-1][0] == 2.0 and abs(inner[-1][1] - 0.5) < 1e-15
    t = np.pi * 10 / 49  # the 11th of 50 evenly spaced angles in [0, pi]
    _close(outer[10], (math.cos(t), math.sin(t)))
    _close(inner[10], (1 - math.cos(t), 1 - math.sin(t) - 0.5))


def test_moons_odd_n_and_tuple_split():
    X, y = make_moons(101, shuffle=False)
    assert np.array_equal(y, np.repeat([0, 1], [50, 51]))  # outer moon gets n // 2
    _, y = make_moons((3, 8), shuffle=False)
    assert np.array_equal(y, np.repeat([0, 1], [3, 8]))
    X, y = make_moons(1, shuffle=False)  # a single point: linspace gives the angle 0
    assert tuple(X[0]) == (0.0, 0.5) and y.tolist() == [1]


def test_circles_geometry_at_key_points():
    X, y = make_circles(8, factor=0.5, shuffle=False)
    assert np.array_equal(y, [0, 0, 0, 0, 1, 1, 1, 1])
    assert tuple(X[0]) == (1.0, 0.0) and tuple(X[4]) == (0.5, 0.0)
    # endpoint=False: 4 points at quarter turns, so the last is at 3*pi/2, not back at angle 0.
    _close(X[3], (0.0, -1.0))
    _close(X[5], (0.0, 0.5))
    assert np.allclose(np.hypot(*X[:4].T), 1.0) and np.allclose(np.hypot(*X[4:].T), 0.5)
    _, y = make_circles(101, shuffle=False)
    assert np.bincount(y).tolist() == [50, 51]


def test_circles_rejects_bad_factor():
    for factor in (-0.1, 1.0, 2.0):
        with pytest.raises(ValueError, match="factor"):
            make_circles(10, factor=factor)


@pytest.mark.parametrize("make", [make_moons, make_circles])
def test_shuffle_is_a_permutation_and_noise_is_added(make):
    X0, y0 = make(60, shuffle=False)
    X1, y1 = make(60, random_state=0)
    assert not np.array_equal(X0, X1)
    order0, order1 = np.lexsort(X0.T), np.lexsort(X1.T)
    assert np.array_equal(X0[order0], X1[order1]) and np.array_equal(y0[order0], y1[order1])
    X2, _ = make(60, noise=0.1, random_state=0)
    assert 0.05 < np.std(X2 - X1) < 0.15  # same permutation, plus Gaussian noise of std 0.1


# --- xor, spiral, blobs -----------------------------------------------------------------------------


def test_xor_labels_follow_quadrants():
    X, y = make_xor(500, random_state=0)
    assert np.all(np.abs(X) <= 1.0)
    assert np.array_equal(y, (X[:, 0] * X[:, 1] > 0).astype(np.int64))
    assert 150 < y.sum() < 350


def test_xor_noise_moves_points_but_not_labels():
    X0, y0 = make_xor(300, random_state=2)
    X1, y1 = make_xor(300, noise=0.2, random_state=2)
    assert np.array_equal(y0, y1)  # labels come from the clean points
    assert 0.1 < np.std(X1 - X0) < 0.3


def test_spiral_shape():
    X, y = make_spiral(200, shuffle=False)
    assert np.all(np.abs(X) <= 1.0)
    r = np.hypot(X[:, 0], X[:, 1])
    assert np.all(np.diff(r[y == 0]) > 0) and np.all(np.diff(r[y == 1]) > 0)  # radius grows
    assert r.max() == pytest.approx(1.0)
    assert np.allclose(X[y == 0], -X[y == 1])  # the second arm is the first turned by pi


def test_spiral_turns_change_the_curve():
    X1, _ = make_spiral(100, shuffle=False, turns=1.0)
    X2, _ = make_spiral(100, shuffle=False, turns=2.0)
    assert not np.allclose(X1, X2)


def test_blobs_given_centers():
    centers = np.array([[-10.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    X, y = make_blobs(301, centers=centers, cluster_std=0.5, random_state=0)
    _check_shapes(X, y, 301)
    assert np.bincount(y).tolist() == [101, 100, 100]
    for k in range(3):
        assert np.allclose(X[y == k].mean(axis=0), centers[k], atol=0.2)
        assert np.std(X[y == k] - centers[k]) == pytest.approx(0.5, rel=0.2)


def test_blobs_random_centers_in_box_and_per_center_std():
    X, y = make_blobs(3000, centers=3, cluster_std=[0.1, 0.2, 0.3], center_box=(0.0, 1.0), random_state=1)
    for k, std in enumerate([0.1, 0.2, 0.3]):
        mean = X[y == k].mean(axis=0)
        assert np.all((-0.05 < mean) & (mean < 1.05))
        assert np.std(X[y == k] - mean) == pytest.approx(std, rel=0.15)
    with pytest.raises(ValueError, match="cluster_std"):
        make_blobs(10, centers=3, cluster_std=[1.0, 2.0])
    with pytest.raises(ValueError, match="centers"):
        make_blobs(10, centers=np.zeros((2, 3)))


# --- train_test_split --------------------------------------------------------------------------------


@pytest.mark.parametrize(("test_size", "n_test"), [(0.25, 25), (0.3, 30), (0.01, 1), (0.333, 34), (10, 10)])
def test_split_sizes(test_size, n_test):
    X, y = np.arange(200.0).reshape(100, 2), np.arange(100)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, random_state=0)
    assert len(X_test) == len(y_test) == n_test  # a fraction is rounded up, as scikit-learn does
    assert len(X_train) == len(y_train) == 100 - n_test


def test_split_is_a_disjoint_permutation_keeping_rows_together():
    X, y = np.arange(200.0).reshape(100, 2), np.arange(100)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    assert not set(y_train) & set(y_test)
    assert sorted(np.concatenate([y_train, y_test])) == list(range(100))
    assert np.array_equal(X_train[:, 0], 2 * y_train) and np.array_equal(X_test[:, 0], 2 * y_test)
    assert sorted(y_test) != list(range(75, 100))  # shuffled, not just the tail


def test_split_is_seeded_and_unshuffled_takes_the_tail():
    X, y = np.zeros((20, 2)), np.arange(20)
    first, again = train_test_split(X, y, random_state=1), train_test_split(X, y, random_state=1)
    assert np.array_equal(first[3], again[3])
    _, _, y_train, y_test = train_test_split(X, y, test_size=5, shuffle=False)
    assert y_train.tolist() == list(range(15)) and y_test.tolist() == list(range(15, 20))


@pytest.mark.parametrize("test_size", [0.0, 1.0, -0.5, 1.5, 0, 20, 25, -1, True, "a"])
def test_split_rejects_bad_test_size(test_size):
    with pytest.raises(ValueError, match="test_size"):
        train_test_split(np.zeros((20, 2)), np.zeros(20), test_size=test_size)


def test_split_rejects_mismatched_lengths_naming_both():
    with pytest.raises(ValueError, match=r"10.*9"):
        train_test_split(np.zeros((10, 2)), np.zeros(9))


# --- CSV ----------------------------------------------------------------------------------------------


def _write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_save_load_round_trip_is_exact(tmp_path):
    X, y = make_moons(57, noise=0.3, random_state=0)
    X[0] = (1e-300, -123456789.123456789)  # extreme values must survive too
    for header in (True, False):
        X2, y2 = load_csv(save_csv(tmp_path / f"moons{header}.csv", X, y, header=header))
        assert np.array_equal(X, X2) and np.array_equal(y, y2) and y2.dtype == np.int64


def test_the_split_column_says_which_points_are_test_points_and_reads_back(tmp_path):
    X, y = make_moons(20, noise=0.1, random_state=1)
    test = np.arange(20) >= 14
    path = save_csv(tmp_path / "split.csv", X, y, header=False, test=test, comment="two lines\nof comment")
    lines = path.read_text().splitlines()
    assert lines[:3] == ["# two lines", "# of comment", "x1,x2,label,split"]
    assert [line.rsplit(",", 1)[1] for line in lines[3:]] == ["train"] * 14 + ["test"] * 6
    X2, y2 = load_csv(path)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    with pytest.raises(ValueError, match="test must have shape"):
        save_csv(tmp_path / "bad.csv", X, y, test=test[:3])


def test_save_is_atomic_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("old contents\n")
    save_csv(str(path), np.ones((2, 2)), np.array([0, 1]))
    assert path.read_text().splitlines() == ["x1,x2,label", "1.0,1.0,0", "1.0,1.0,1"]
    assert os.listdir(tmp_path) == ["d.csv"]


def test_save_quotes_string_labels(tmp_path):
    X = np.array([[0.1, 0.2], [0.3, 0.4]])
    _, y = load_csv(save_csv(tmp_path / "s.csv", X, np.array(["b, c", "a"]), header=False))
    assert y.tolist() == [1, 0]


def test_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "bin.csv"
    path.write_bytes(b"1,2,\xff\n")
    with pytest.raises(ValueError, match="bin.csv.*UTF-8"):
        load_csv(path)


def test_save_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match="shape"):
        save_csv(tmp_path / "a.csv", np.zeros((3, 3)), np.zeros(3))
    with pytest.raises(ValueError, match="shape"):
        save_csv(tmp_path / "a.csv", np.zeros((3, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="nan"):
        save_csv(tmp_path / "a.csv", np.array([[0.0, np.nan]]), np.zeros(1))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("header", ["", "x1,x2,label\n", "x,y,class\n", "a;b\n"])
def test_header_detection(tmp_path, header):
    X, y = load_csv(_write(tmp_path, header + "1,2,0\n3,4,1\n"))
    assert X.tolist() == [[1.0, 2.0], [3.0, 4.0]] and y.tolist() == [0, 1]


def test_comments_blank_lines_separators_and_bom(tmp_path):
    text = "\ufeff# made by hand\n\nx1;x2;label\n  \n1.5; -2 ;b\n# middle comment\n0;1e-3;a\n"
    X, y = load_csv(_write(tmp_path, text))
    assert X.tolist() == [[1.5, -2.0], [0.0, 0.001]] and y.tolist() == [1, 0]
    X, y = load_csv(_write(tmp_path, "1\t2\tx\n3\t4\ty\r\n", "tabs.tsv"))
    assert X.tolist() == [[1.0, 2.0], [3.0, 4.0]] and y.tolist() == [0, 1]


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        (["red", "blue", "red", "green"], [2, 0, 2, 1]),  # strings: alphabetical
        (["10", "2", "-1", "2"], [2, 1, 0, 1]),  # numbers: numerical, so 2 < 10
        (["1.5", "1", "0.5"], [2, 1, 0]),
        (["3", "x", "10"], [1, 2, 0]),  # mixed: compared as strings
        (["only", "only"], [0, 0]),  # a single class is allowed
    ],
)
def test_label_mapping(tmp_path, labels, expected):
    text = "".join(f"{i},{i},{label}\n" for i, label in enumerate(labels))
    _, y = load_csv(_write(tmp_path, text))
    assert y.tolist() == expected


def test_quoted_label_may_contain_the_separator(tmp_path):
    _, y = load_csv(_write(tmp_path, '1,2,"a, b"\n3,4,c\n'))
    assert y.tolist() == [0, 1]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("x1,x2,label\n1,2,0\n3,4\n", 3, "found 2 fields, expected 3"),
        ("1,2,0,7\n", 1, "found 4 fields, expected 3"),
        ("1,2,0\n1 2 0\n", 2, "found 1 field, expected 3"),
        ("# comment\n\n1,2,0\n1,abc,1\n", 4, "'abc' is not a number"),
        ("1,2,0\nfoo,2,1\n", 2, "'foo' is not a number"),  # only the first row may be a header
        ("1,2,0\n,2,1\n", 2, "'' is not a number"),
        ("1,2,0\n3,nan,1\n", 2, "not finite"),
        ("1,2,0\n-inf,4,1\n", 2, "not finite"),
        ("1,2,0\n3,4,\n", 2, "label is empty"),
        ("x1,x2,label,split\n1,2,0,train\n3,4,1\n", 3, "found 3 fields, expected 4 (x1, x2, label, split)"),
        ("x1,x2,label,split\n1,2,0,train\n3,4,1,validation\n", 3, "split 'validation' is neither train nor test"),
        ("x1,x2,label,group\n1,2,0,a\n", 2, "found 4 fields, expected 3"),
    ],
)
def test_malformed_rows_name_file_and_line(tmp_path, text, line, message):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError) as info:
        load_csv(path)
    assert f"{path}, line {line}:" in str(info.value)
    assert message in str(info.value)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "x1,x2,label\n"])
def test_no_data_rows(tmp_path, text):
    path = _write(tmp_path, text)
    with pytest.raises(ValueError, match="no data rows") as info:
        load_csv(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_csv(tmp_path / "absent.csv")


# --- more than two classes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_spiral_has_k_arms_as_balanced_as_the_count_allows(k):
    X, y = make_spiral(202, noise=0.0, random_state=0, n_classes=k)
    counts = np.bincount(y, minlength=k)
    assert X.shape == (202, 2) and len(counts) == k and counts.max() - counts.min() <= 1 and counts.sum() == 202
    radius = np.hypot(X[:, 0], X[:, 1])
    for label in range(k):  # each arm is one spiral: its angle minus 3 pi r is the arm's constant offset
        arm = y == label
        offset = np.exp(1j * (np.arctan2(X[arm, 1], X[arm, 0]) - 3 * np.pi * radius[arm]))
        assert np.allclose(offset, np.exp(2j * np.pi * label / k), atol=1e-9)


def test_spiral_with_two_arms_is_the_classic_two_spiral_problem():
    X2, y2 = make_spiral(101, noise=0.2, random_state=4)
    X, y = make_spiral(101, noise=0.2, random_state=4, n_classes=2)
    assert np.array_equal(X, X2) and np.array_equal(y, y2)
    with pytest.raises(ValueError, match="n_classes"):
        make_spiral(10, n_classes=0)


def test_csv_class_names_come_back_in_label_order(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("x1,x2,label\n0,0,dog\n1,1,cat\n2,2,emu\n3,3,cat\n")
    X, y, classes = load_csv(path, return_classes=True)
    assert classes == ["cat", "dog", "emu"] and y.tolist() == [1, 0, 2, 0] and X.shape == (4, 2)
    path.write_text("0,0,10\n1,1,2\n2,2,2.0\n3,3,1\n")
    _, y, classes = load_csv(path, return_classes=True)
    assert classes == ["1", "2", "10"] and y.tolist() == [2, 1, 1, 0]  # numbers in numeric order, first spelling
