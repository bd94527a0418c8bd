"""engine.data's regression sets (the TF Playground's plane and multi gaussian) and CSVs whose third
column is a real number."""

import numpy as np
import pytest

from engine.data import gaussians_target, load_csv, make_gaussians, make_plane, plane_target, save_csv

REGRESSION = [make_plane, make_gaussians]


@pytest.mark.parametrize("make", REGRESSION)
@pytest.mark.parametrize("n", [1, 7, 300])
def test_shapes_dtypes_and_square(make, n):
    X, y = make(n, random_state=0)
    assert X.shape == (n, 2) and X.dtype == np.float64
    assert y.shape == (n,) and y.dtype == np.float64
    assert np.all(np.abs(X) <= 6.0) and np.all(np.isfinite(y))


@pytest.mark.parametrize("make", REGRESSION)
def test_seeded_and_noise_moves_targets_not_points(make):
    X1, y1 = make(200, noise=0.0, random_state=3)
    X2, y2 = make(200, noise=0.0, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    Xn, yn = make(200, noise=0.3, random_state=3)
    np.testing.assert_array_equal(Xn, X1)  # the points are drawn first, the noise after
    assert not np.array_equal(yn, y1)


def test_plane_is_the_sum_over_ten():
    X, y = make_plane(500, random_state=1)
    np.testing.assert_allclose(y, (X[:, 0] + X[:, 1]) / 10.0, rtol=0, atol=0)
    assert y.min() < -1.0 and y.max() > 1.0  # the square's corners reach +-1.2


def test_plane_noise_reads_the_target_up_to_noise_times_radius_away():
    X, y = make_plane(2000, noise=0.5, random_state=2)
    shift = y * 10.0 - X.sum(axis=1)  # the sum of the two offsets, each in [-3, 3]
    assert np.all(np.abs(shift) <= 6.0) and np.abs(shift).max() > 4.0
    assert abs(shift.mean()) < 0.2


def test_gaussians_at_centres_between_and_far():
    centres = [(-4, 2.5, 1), (0, 2.5, -1), (4, 2.5, 1), (-4, -2.5, -1), (0, -2.5, 1), (4, -2.5, -1)]
    X, y = make_gaussians(4000, random_state=4)
    for cx, cy, sign in centres:
        d = np.hypot(X[:, 0] - cx, X[:, 1] - cy)
        near = d < 1.0  # within 1 of a centre the bump is 1 - d/2 >= 0.5 and no other comes close
        np.testing.assert_allclose(y[near], sign * (1.0 - d[near] / 2.0), rtol=1e-15)
    # every point at least 2 from every centre is 0
    cx, cy = np.array([c[0] for c in centres]), np.array([c[1] for c in centres])
    d_all = np.hypot(X[:, None, 0] - cx, X[:, None, 1] - cy)
    far = d_all.min(axis=1) >= 2.0
    assert far.sum() > 500 and np.all(y[far] == 0.0)
    assert y.min() >= -1.0 and y.max() <= 1.0


def test_gaussians_take_the_bump_largest_in_absolute_value():
    points = [
        [1.5, 2.5],  # 1.5 from the - bump at (0, 2.5): -0.25; 2.5 from the + bump at (4, 2.5): 0
        [2.0, 2.5],  # 2 from both: 0
        [2.5, 2.5],  # 1.5 from the + bump: +0.25
        [-4.0, 0.0],  # 2.5 from (-4, +-2.5): 0
        [-4.0, 0.5],  # 2 from (-4, 2.5) (+, 0) and 3 from (-4, -2.5): 0
        [-4.0, 1.5],  # 1 from (-4, 2.5): +0.5
        [0.0, -2.5],  # the centre of a + bump
        [4.0, -2.5],  # the centre of a - bump
        [-6.0, 6.0],  # far from all
    ]
    np.testing.assert_array_equal(gaussians_target(points), [-0.25, 0, 0.25, 0, 0, 0.5, 1, -1, 0])
    np.testing.assert_array_equal(plane_target([[1, 2], [-6, -6]]), [0.3, -1.2])


@pytest.mark.parametrize("make", REGRESSION)
@pytest.mark.parametrize("bad", [{"noise": -0.1}, {"noise": float("nan")}, {"radius": 0.0}, {"n_samples": 0}])
def test_bad_arguments_are_refused(make, bad):
    with pytest.raises(ValueError):
        make(**{"n_samples": 10, **bad})


# --- CSV with a real third column -----------------------------------------------------------------------------


def test_regression_csv_round_trip_is_exact(tmp_path):
    X, y = make_gaussians(50, noise=0.2, random_state=5)
    X2, y2 = load_csv(save_csv(tmp_path / "g.csv", X, y), target="regression")
    assert y2.dtype == np.float64
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)


def test_regression_csv_reads_reals_with_header_comments_and_separators(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("x,y,value\n# a comment\n0,1,0.5\n\n2;3;-1e-3\n4\t5\t7\n", encoding="utf-8")
    X, y = load_csv(path, target="regression")
    np.testing.assert_array_equal(X, [[0, 1], [2, 3], [4, 5]])
    np.testing.assert_array_equal(y, [0.5, -1e-3, 7.0])
    # the same file read for classes has three classes
    _, labels = load_csv(path)
    assert labels.tolist() == [1, 0, 2]


@pytest.mark.parametrize("value, message", [
    ("nan", "line 3: target 'nan' is not finite"),
    ("-inf", "line 3: target '-inf' is not finite"),
    ("big", "line 3: target 'big' is not a number"),
    ("", "line 3: the target is empty"),
])
def test_regression_csv_refuses_a_bad_target_naming_the_line(tmp_path, value, message):
    path = tmp_path / "bad.csv"
    path.write_text(f"x1,x2,y\n1,2,3\n4,5,{value}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_csv(path, target="regression")


def test_regression_csv_refuses_bad_options(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("1,2,3\n", encoding="utf-8")
    with pytest.raises(ValueError, match="target must be one of"):
        load_csv(path, target="ranking")
    with pytest.raises(ValueError, match="a regression target has none"):
        load_csv(path, return_classes=True, target="regression")


def test_save_refuses_a_non_finite_real_target(tmp_path):
    with pytest.raises(ValueError, match="y contains nan or inf"):
        save_csv(tmp_path / "a.csv", np.zeros((2, 2)), np.array([0.5, np.inf]))
