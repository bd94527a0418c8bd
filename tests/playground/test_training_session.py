"""The training panel's Qt-free model: settings, reset semantics, divergence, the boundary grid, exports."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from engine import Tensor, no_grad
from engine.optim import SGD, Adam
from playground.training.model.contour import contour_segments
from playground.training.model.network import build_model, weights_document
from playground.training.model.points import expand_features, grid_axes, load_points
from playground.training.model.session import TrainingSession
from playground.training.model.settings import CLASSIFICATION_DATASETS, Change, TrainingSettings, classify_change


def same_weights(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture
def trained():
    session = TrainingSession()
    session.train_steps(60)
    return session


def test_defaults_are_the_issue_s():
    s = TrainingSettings()
    assert (s.dataset, s.points, s.noise) == ("moons", 200, 0.1)
    assert s.architecture() == "2 → 16 → 16 → 1" and s.activation == "tanh"
    assert (s.loss, s.optimizer, s.learning_rate, s.batch_size) == ("bce", "adam", 0.01, None)
    session = TrainingSession(s)
    assert len(session.data.X_train) + len(session.data.X_test) == 200
    assert isinstance(session.optimizer, Adam)
    assert [p.data.shape for p in session.model.parameters()] == [(16, 2), (16,), (16, 16), (16,), (1, 16), (1,)]


def test_the_default_setup_learns_two_moons():
    session = TrainingSession()
    result = session.train_steps(400)
    assert result.steps == 400 and result.divergence is None and session.step == 400
    metrics = session.evaluate()
    assert metrics.test_accuracy >= 0.97 and metrics.train_accuracy >= 0.97
    assert metrics.train_loss < 0.1


@pytest.mark.parametrize("dataset", [d for d in CLASSIFICATION_DATASETS if d != "csv"])
def test_every_built_in_dataset_has_two_classes_in_a_square(dataset):
    session = TrainingSession(TrainingSettings(dataset=dataset, points=100))
    X, y = session.data.all_points()
    assert X.shape == (100, 2) and set(np.unique(y)) == {0, 1}
    x0, x1, y0, y1 = session.data.extent
    assert x1 - x0 == pytest.approx(y1 - y0)
    assert np.all((X[:, 0] > x0) & (X[:, 0] < x1) & (X[:, 1] > y0) & (X[:, 1] < y1))


def test_a_learning_rate_change_keeps_the_weights_and_the_optimizer_state(trained):
    before, optimizer = trained.state_dict(), trained.optimizer
    moments = [state["exp_avg"].copy() for state in optimizer.state]
    change = trained.apply(replace(trained.settings, learning_rate=0.003, regularization="l2",
                                   regularization_rate=1e-4))
    assert change == Change.OPTIMIZER and not change.resets_weights
    assert trained.optimizer is optimizer and optimizer.lr == 0.003
    assert same_weights(before, trained.state_dict()) and trained.step == 60
    assert all(np.array_equal(m, s["exp_avg"]) for m, s in zip(moments, optimizer.state))


def test_another_optimizer_keeps_the_weights_with_a_fresh_optimizer(trained):
    before = trained.state_dict()
    assert trained.apply(replace(trained.settings, optimizer="momentum", momentum=0.8)) == Change.OPTIMIZER_KIND
    assert isinstance(trained.optimizer, SGD) and trained.optimizer.momentum == 0.8
    assert same_weights(before, trained.state_dict()) and trained.step == 60
    trained.train_steps(5)
    assert trained.step == 65 and not same_weights(before, trained.state_dict())
    assert trained.apply(replace(trained.settings, momentum=0.5)) == Change.OPTIMIZER
    assert trained.optimizer.momentum == 0.5


def test_a_new_loss_or_batch_size_keeps_the_weights(trained):
    before = trained.state_dict()
    assert trained.apply(replace(trained.settings, loss="hinge", batch_size=16)) == Change.TRAINING
    assert same_weights(before, trained.state_dict())
    trained.train_steps(3)
    assert trained.step == 63


@pytest.mark.parametrize("changes, expected", [
    ({"noise": 0.2}, Change.DATA), ({"seed": 3}, Change.DATA), ({"test_fraction": 0.5}, Change.DATA),
    ({"hidden": (8,)}, Change.MODEL), ({"activation": "relu"}, Change.MODEL),
    ({"features": ("x1", "x2", "x1*x2")}, Change.MODEL),
])
def test_data_and_architecture_changes_start_over_from_the_seed(trained, changes, expected):
    new = replace(trained.settings, **changes)
    assert trained.apply(new) == expected and expected.resets_weights
    assert trained.step == 0
    assert same_weights(trained.state_dict(), TrainingSession(new).state_dict())


def test_the_seed_alone_decides_the_initial_weights():
    a = build_model(2, (16, 16), "tanh", seed=5).state_dict()
    b = build_model(2, (16, 16), "tanh", seed=5).state_dict()
    c = build_model(2, (16, 16), "tanh", seed=6).state_dict()
    assert same_weights(a, b) and not same_weights(a, c)
    bound = 1 / math.sqrt(16)
    assert np.abs(a["2.weight"]).max() <= bound  # PyTorch's default range


def test_classify_change_takes_the_largest_change():
    s = TrainingSettings()
    assert classify_change(s, s) == Change.NONE
    assert classify_change(s, replace(s, steps_per_second=50)) == Change.PACE
    assert classify_change(s, replace(s, learning_rate=0.1, hidden=(4,))) == Change.MODEL


def test_reset_goes_back_to_the_initial_weights_and_keeps_added_points(trained):
    trained.add_point(0.0, 2.0, 1)
    trained.reset()
    assert trained.step == 0 and len(trained.data.X_train) == 141
    assert same_weights(trained.state_dict(), TrainingSession().state_dict())


def test_an_added_point_joins_the_training_set_and_the_weights_stay(trained):
    before = trained.state_dict()
    trained.add_point(0.5, 1.75, 1)
    assert len(trained.data.X_train) == 141 and trained.data.y_train[-1] == 1
    assert np.array_equal(trained.data.X_train[-1], [0.5, 1.75]) and len(trained.F_train) == 141
    assert same_weights(before, trained.state_dict())
    trained.train_steps(1500)
    with no_grad():
        assert trained.model(Tensor([[0.5, 1.75]])).data.item() > 0  # it learned the lone blue point


def test_a_divergent_learning_rate_is_caught_and_the_weights_restored():
    session = TrainingSession(TrainingSettings(optimizer="sgd", loss="mse", learning_rate=10.0))
    before = session.state_dict()
    result = session.train_steps(50)
    assert result.divergence is not None and result.steps < 50
    assert not math.isfinite(result.divergence.loss) or result.divergence.loss > 1e5
    assert "learning rate 10" in result.divergence.message()
    assert session.step == 0 and same_weights(before, session.state_dict())
    assert np.all(np.isfinite(session.boundary()))


def test_a_nan_loss_counts_as_divergence():
    session = TrainingSession()
    session.train_steps(2)
    session.model[0].weight.data[0, 0] = np.nan
    result = session.train_steps(5)
    assert result.divergence is not None and math.isnan(result.divergence.loss)
    assert result.divergence.restored_step == 2 and session.step == 2
    assert "nan" in result.divergence.message()


def test_should_stop_is_checked_before_every_step():
    session = TrainingSession()
    calls = []

    def stop():
        calls.append(session.step)
        return session.step >= 3

    assert session.train_steps(100, stop).steps == 3 and calls == [0, 1, 2, 3]


def test_features_are_expanded_in_a_fixed_order():
    X = np.array([[1.0, 2.0], [-0.5, 0.25]])
    F = expand_features(X, ("x1", "x2", "x1^2", "x2^2", "x1*x2", "sin x1", "sin x2"))
    assert np.allclose(F[0], [1, 2, 1, 4, 2, math.sin(1), math.sin(2)])
    settings = TrainingSettings(features=("sin x2", "x1"))
    assert settings.features == ("x1", "sin x2") and settings.architecture() == "2 → 16 → 16 → 1"


def test_circles_are_learned_by_a_linear_model_on_squared_features():
    settings = TrainingSettings(dataset="circles", noise=0.05, features=("x1^2", "x2^2"), hidden=(),
                                learning_rate=0.1)
    session = TrainingSession(settings)
    session.train_steps(400)
    assert session.evaluate().test_accuracy >= 0.95


def test_the_boundary_is_the_model_on_a_fine_grid(trained):
    grid = trained.boundary()
    assert grid.shape == (150, 150) and grid.dtype == np.float32
    assert grid.min() >= 0 and grid.max() <= 1 and grid.min() < 0.1 and grid.max() > 0.9
    xs, ys = grid_axes(trained.data.extent, 150)
    with no_grad():
        logit = trained.model(Tensor([[xs[37], ys[101]]])).data.item()
    assert grid[101, 37] == pytest.approx(1 / (1 + math.exp(-logit)), abs=1e-5)  # row = y, column = x


def test_misclassified_lists_the_points_the_model_gets_wrong():
    session = TrainingSession()
    wrong = session.misclassified()
    assert 0 < len(wrong) < 200  # the untrained network
    metrics = session.evaluate()
    expected = round((1 - metrics.train_accuracy) * 140) + round((1 - metrics.test_accuracy) * 60)
    assert len(wrong) == expected


def test_contour_of_a_plane_is_a_straight_line():
    xs, ys = np.linspace(-1, 1, 41), np.linspace(-1, 1, 31)
    grid = np.broadcast_to(xs, (31, 41)) - 0.3  # level 0 at x = 0.3
    x, y = contour_segments(grid, 0.0, xs, ys)
    assert len(x) == 2 * 30 and np.allclose(x, 0.3)
    assert y.min() == pytest.approx(-1) and y.max() == pytest.approx(1)


def test_contour_of_a_cone_is_a_circle():
    xs = ys = np.linspace(-1, 1, 151)
    gx, gy = np.meshgrid(xs, ys)
    x, y = contour_segments(np.hypot(gx, gy), 0.5, xs, ys)
    assert len(x) > 100 and np.allclose(np.hypot(x, y), 0.5, atol=2e-3)
    saddle = np.array([[1.0, 0.0], [0.0, 1.0]])  # two crossings per line: the ambiguous case
    x, y = contour_segments(saddle, 0.5, np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    assert len(x) == 4


def test_a_csv_is_read_with_its_classes_or_refused(tmp_path):
    good = tmp_path / "points.csv"
    good.write_text("x1,x2,label\n0,0,a\n1,1,b\n0,1,a\n1,0,b\n2,2,b\n")
    X, y, classes = load_points(good)
    assert X.shape == (5, 2) and list(y) == [0, 1, 0, 1, 1] and classes == ("a", "b")
    bad = tmp_path / "bad.csv"
    bad.write_text("x1,x2,label\n0,0,0\n1,oops,1\n")
    with pytest.raises(ValueError, match="line 3"):
        load_points(bad)
    three = tmp_path / "three.csv"
    three.write_text("0,0,cat\n1,1,dog\n2,2,emu\n3,3,cat\n")
    X, y, classes = load_points(three)
    assert classes == ("cat", "dog", "emu") and list(y) == [0, 1, 2, 0]
    nine = tmp_path / "nine.csv"
    nine.write_text("".join(f"{i},{i},{i}\n" for i in range(9)))
    with pytest.raises(ValueError, match="9 classes; the training panel separates 2 to 8"):
        load_points(nine)
    one = tmp_path / "one.csv"
    one.write_text("0,0,a\n1,1,a\n2,2,a\n3,3,a\n")
    with pytest.raises(ValueError, match="1 class;"):
        load_points(one)


def test_a_persons_points_become_the_csv_dataset(tmp_path):
    session = TrainingSession()
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [5.0, 5.0], [4.0, 6.0]])
    y = np.array([0, 1, 0, 1, 1, 1])
    assert session.set_points(X, y, "mine.csv") == Change.DATA
    assert session.settings.dataset == "csv" and session.data.name == "mine.csv"
    assert len(session.data.X_train) + len(session.data.X_test) == 6
    assert session.apply(replace(session.settings, test_fraction=0.5)) == Change.DATA  # re-split, same points
    assert len(session.data.X_test) == 3
    with pytest.raises(ValueError, match="1 class"):
        session.set_points(X, np.zeros(6), "one.csv")


def test_the_weights_document_rebuilds_the_same_network(trained):
    document = json.loads(json.dumps(weights_document(trained.settings, trained.state_dict(), trained.step)))
    assert document["format"] == "autograd-playground-weights" and document["version"] == 3
    assert document["architecture"]["hidden"] == [16, 16] and document["step"] == 60
    assert document["architecture"]["activations"] == ["tanh", "tanh"] and document["architecture"]["dropout"] == [0, 0]
    model = build_model(len(document["architecture"]["inputs"]), tuple(document["architecture"]["hidden"]),
                        tuple(document["architecture"]["activations"]), seed=99,
                        dropout=tuple(document["architecture"]["dropout"])).eval()
    model.load_state_dict({k: np.array(v) for k, v in document["state_dict"].items()})
    points = Tensor(trained.F_test)
    with no_grad():
        assert np.allclose(model(points).data, trained.model(points).data)


def test_forks_share_the_data_and_the_initial_weights():
    base = TrainingSession(TrainingSettings(seed=4))
    sgd, adam = base.fork(optimizer="sgd", learning_rate=0.1), base.fork(optimizer="adam")
    assert same_weights(sgd.state_dict(), adam.state_dict())
    assert np.array_equal(sgd.data.X_train, base.data.X_train) and sgd.data.X_train is not base.data.X_train
    assert isinstance(sgd.optimizer, SGD) and sgd.optimizer.lr == 0.1


@pytest.mark.parametrize("bad", [
    {"dataset": "moon"}, {"points": 2}, {"noise": -1}, {"test_fraction": 1.0}, {"features": ()},
    {"hidden": (0,)}, {"hidden": (65,)}, {"learning_rate": 0.0}, {"learning_rate": 100.0}, {"momentum": 1.0},
    {"batch_size": 0}, {"optimizer": "rmsprop"}, {"loss": "l1"}, {"activation": "gelu"},
])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError):
        TrainingSettings(**bad)


def test_the_session_does_not_need_qt():
    code = ("import sys, playground.training.model.session as s; s.TrainingSession().train_steps(3); "
            "print(any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
