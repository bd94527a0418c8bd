"""Regression on the training tab's model, as in the TF Playground: the plane and the multi Gaussian (and a
CSV whose third column is a real number) learnt by one linear output under MSE or Huber, judged by R² and
the mean absolute error; setups and exported scripts carry it."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine import Tensor, no_grad
from engine.data import plane_target
from engine.train import mean_absolute_error, r2_score
from playground.training.model.export_script import training_script
from playground.training.model.points import load_values
from playground.training.model.session import TrainingSession
from playground.training.model.settings import Change, TrainingSettings
from playground.training.model.setup_file import capture, from_dict, to_dict

ROOT = Path(__file__).resolve().parents[2]


def regression(**changes) -> TrainingSettings:
    values = {"problem": "regression", "dataset": "plane", "loss": "mse", "steps_per_second": None, **changes}
    return TrainingSettings(**values)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("loss", ["mse", "huber"])
def test_regression_on_the_plane_reaches_a_test_r2_of_095(seed, loss):
    session = TrainingSession(regression(seed=seed, loss=loss))
    assert session.settings.layer_sizes == (2, 16, 16, 1) and session.data.classes == ()
    start, reached = time.perf_counter(), None
    while reached is None and session.step < 2000:
        session.train_steps(10)
        if session.evaluate().test_r2 >= 0.95:
            reached = session.step
    seconds = time.perf_counter() - start
    metrics = session.evaluate()
    print(f"seed {seed}, {loss}: test R² {metrics.test_r2:.3f} at step {reached} in {seconds:.2f} s, "
          f"test MAE {metrics.test_mae:.3f}")
    assert reached is not None and metrics.test_r2 >= 0.95
    assert np.isnan(metrics.train_accuracy) and np.isnan(metrics.test_accuracy)


def test_the_figures_are_the_engines_r2_and_mean_absolute_error_of_the_predictions():
    session = TrainingSession(regression(dataset="gaussians"))
    session.train_steps(150)
    metrics = session.evaluate()
    with no_grad():
        train_out = session.model(Tensor(session.F_train)).data[:, 0]
        test_out = session.model(Tensor(session.F_test)).data[:, 0]
    assert metrics.train_r2 == r2_score(session.data.y_train, train_out)
    assert metrics.test_r2 == r2_score(session.data.y_test, test_out)
    assert metrics.test_mae == mean_absolute_error(session.data.y_test, test_out)
    assert metrics.train_loss == pytest.approx(np.mean((train_out - session.data.y_train) ** 2), rel=1e-12)
    y = session.data.y_train
    assert y.dtype == np.float64 and -1.0 <= y.min() < 0 < y.max() <= 1.0  # six cones of height 1, signs alternating


def test_the_plane_is_drawn_as_the_predicted_value_not_a_probability():
    session = TrainingSession(regression(noise=0.0))
    session.train_steps(300)
    drawing = session.draw()
    value = drawing.probability
    print(f"drawn values {value.min():.2f} .. {value.max():.2f}")
    assert value.ndim == 2 and value.min() < -0.9 and value.max() > 0.9  # the plane runs -1.2 .. 1.2 over [-6, 6]²
    # the line drawn is where the prediction is 0: the diagonal x1 + x2 = 0 of the plane
    xs, ys = drawing.contour
    points = np.column_stack([np.concatenate(xs), np.concatenate(ys)]) if isinstance(xs, list) else None
    if points is None:
        points = np.column_stack([np.ravel(xs), np.ravel(ys)])
    points = points[np.isfinite(points).all(axis=1)]
    assert len(points) > 0 and np.max(np.abs(plane_target(points))) < 0.05


def test_regression_settings_refuse_classes_and_classification_losses():
    with pytest.raises(ValueError, match="needs real targets"):
        TrainingSettings(problem="regression", dataset="moons", loss="mse")
    with pytest.raises(ValueError, match="a regression minimises"):
        TrainingSettings(problem="regression", dataset="plane", loss="bce")
    with pytest.raises(ValueError, match="for a regression"):
        TrainingSettings(dataset="plane")
    with pytest.raises(ValueError, match="Huber loss is for a regression"):
        TrainingSettings(loss="huber")
    with pytest.raises(ValueError, match="no test accuracy to stop at"):
        regression(stop_when="test_accuracy", stop_at=0.9)
    assert regression().outputs == 1 and regression(dataset="csv").classes == 2


def test_switching_to_regression_is_new_data_and_a_new_network():
    session = TrainingSession()
    session.train_steps(20)
    change = session.apply(regression(steps_per_second=20))
    assert change == Change.DATA and session.step == 0 and session.data.y_train.dtype == np.float64
    with pytest.raises(ValueError, match="click adds no point"):
        session.add_point(0.0, 0.0, 1)
    assert session.misclassified().shape == (0, 2)


def write_values(path: Path) -> None:
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, size=(120, 2))
    y = 0.5 * X[:, 0] - 0.25 * X[:, 1] ** 2 + 0.3
    path.write_text("x1,x2,value\n" + "".join(f"{a!r},{b!r},{c!r}\n" for (a, b), c in zip(X.tolist(), y.tolist())))


def test_a_csv_with_a_real_third_column_is_learnt_as_a_regression(tmp_path):
    path = tmp_path / "values.csv"
    write_values(path)
    X, y = load_values(path)
    assert X.shape == (120, 2) and y.dtype == np.float64
    session = TrainingSession()
    change = session.set_values(X, y, "values.csv")
    assert change == Change.DATA and session.settings.problem == "regression" and session.settings.dataset == "csv"
    assert session.settings.loss == "mse" and session.data.name == "values.csv"
    session.train_steps(400)
    metrics = session.evaluate()
    print(f"CSV regression: test R² {metrics.test_r2:.3f}, MAE {metrics.test_mae:.3f}")
    assert metrics.test_r2 >= 0.9


@pytest.mark.parametrize("dataset", ["plane", "csv"])
def test_a_regression_setup_is_saved_and_opened_again_exactly(tmp_path, dataset):
    if dataset == "csv":
        write_values(tmp_path / "values.csv")
        session = TrainingSession(regression(loss="huber", steps_per_second=20))
        session.set_values(*load_values(tmp_path / "values.csv"), "values.csv")
    else:
        session = TrainingSession(regression(dataset="gaussians", loss="huber", noise=0.2))
    session.train_steps(40)
    document = to_dict(capture(session))
    assert document["settings"]["problem"] == "regression"
    setup = from_dict(document)
    assert setup.settings == session.settings
    assert all(np.array_equal(value, setup.weights[name]) for name, value in session.state_dict().items())
    if dataset == "csv":
        assert setup.data is not None and setup.data.classes == ()
        assert np.array_equal(setup.data.y_train, session.data.y_train) and setup.data.y_train.dtype == np.float64
    else:
        assert setup.data is None  # the generator and seed make the points again


def test_the_exported_regression_script_prints_the_sessions_losses_and_pytorch_agrees(tmp_path):
    settings = regression(loss="huber", regularization="l1", regularization_rate=0.001)
    session = TrainingSession(settings)
    script = tmp_path / "regression.py"
    script.write_text(training_script(settings, session.data, use_torch=True))
    losses = []
    for _ in range(20):
        session.train_steps(1)
        losses.append(session.evaluate().train_loss)
    done = subprocess.run([sys.executable, str(script), "20", "1"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    printed = [float(m.group(1)) for m in re.finditer(r"train loss (\S+)", done.stdout)]
    assert printed == losses
    assert float(done.stdout.strip().splitlines()[-1].split()[-1]) < 1e-12
