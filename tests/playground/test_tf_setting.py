"""The training tab's TF Playground setting (issue 40, item 1), without Qt: its data, its loss, its initial weights
and its SGD through the tab's own session, step for step the TF Playground's (`engine.tf_playground`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import engine.tf_playground as tp
from playground.training.model.session import TrainingSession, TrainingSettings
from playground.training.model.setup_file import capture, from_dict, restore, to_dict

XOR = TrainingSettings(tf_playground=True, dataset="xor", loss="tf_square", optimizer="sgd", init="tf_playground",
                       noise=0.35, test_fraction=0.5, batch_size=10, hidden=(3,), activation="relu",
                       learning_rate=0.01, stop_when="never", features=("x1", "x2"))


def test_its_data_are_the_tf_playgrounds_points_and_labels():
    session = TrainingSession(XOR)
    made = tp.make_dataset("xor", 35, 50, seed=0)
    assert np.array_equal(session.data.X_train, made.X_train) and np.array_equal(session.data.X_test, made.X_test)
    assert np.array_equal(session.data.y_train, (made.y_train > 0).astype(int))  # its +1 is our class 1 (blue)
    assert session.data.extent == (-6.0, 6.0, -6.0, 6.0) and len(session.data.y_train) == 250
    spiral = TrainingSession(replace(XOR, dataset="spiral", noise=0.8, test_fraction=0.3))
    assert len(spiral.data.y_train) == 350 and spiral.settings.points == 500
    plane = TrainingSession(replace(XOR, problem="regression", dataset="plane", noise=0.0))
    assert plane.settings.points == 1200 and plane.data.classes == () and plane.data.y_train.dtype == np.float64


def test_its_initial_weights_and_its_training_are_the_tf_playgrounds_step_for_step():
    session = TrainingSession(XOR)
    start = session.state_dict()
    for name, values in start.items():  # its draw: weights uniform in [-0.5, 0.5), biases 0.1
        assert (np.all(values == 0.1) if name.endswith("bias") else np.all(np.abs(values) <= 0.5))
    # The engine's own TF Playground from the same first weights: three of its epochs are 75 of the tab's steps.
    model = tp.network(2, [3], "relu")
    model.load_state_dict(start)
    X_train, X_test = tp.features(session.data.X_train), tp.features(session.data.X_test)
    made = tp.make_dataset("xor", 35, 50, seed=0)
    steps = list(tp.epochs(model, tp.PlaygroundSGD(model.parameters(), lr=0.01), X_train, made.y_train, X_test,
                           made.y_test, batch_size=10, steps=3))
    session.train_steps(75)
    assert session.epoch == 3.0
    for name, values in model.state_dict().items():
        assert np.allclose(session.state_dict()[name], values, rtol=0, atol=1e-12)
    metrics = session.evaluate()
    assert metrics.test_loss == pytest.approx(steps[-1].test_loss, abs=1e-12)
    assert metrics.train_loss == pytest.approx(steps[-1].train_loss, abs=1e-12)


def test_l1_kills_weights_as_it_does_and_a_run_resumed_mid_pass_takes_its_very_steps():
    settings = replace(XOR, dataset="spiral", noise=0.2, hidden=(5,), regularization="l1", regularization_rate=0.03,
                       learning_rate=0.1, batch_size=7)
    session = TrainingSession(settings)
    session.train_steps(40)  # 35 updates a pass: mid-pass, with 5 points carried at its end
    assert any(np.any(session.optimizer.dead(p)) for p in session.model.parameters())
    again = restore(from_dict(to_dict(capture(session))))
    assert again.settings.tf_playground
    session.train_steps(50)
    again.train_steps(50)
    for name, values in session.state_dict().items():
        assert np.array_equal(again.state_dict()[name], values)


def test_the_boundary_is_its_tanh_output_on_the_probability_scale():
    session = TrainingSession(XOR)
    rows, columns = session.grid.shape
    logits = np.linspace(-3.0, 3.0, rows * columns).reshape(-1, 1)
    probability = session.grid._probabilities(logits)[0]
    assert np.allclose(probability.ravel(), 0.5 * (1.0 + np.tanh(logits.ravel())), atol=1e-6)  # not the sigmoid's


@pytest.mark.parametrize("changes, words", [
    ({"dataset": "moons"}, "no Two moons data"),
    ({"loss": "bce"}, "its own loss and plain SGD"),
    ({"optimizer": "adam"}, "its own loss and plain SGD"),
    ({"init": "xavier"}, "starts its weights its own way"),
    ({"noise": 0.9}, "noise goes up to 80"),
    ({"test_fraction": 0.95}, "10% to 90%"),
    ({"dataset": "blobs", "classes": 3, "loss": "cross_entropy"}, "two classes"),
])
def test_what_it_does_not_have_is_refused_in_words(changes, words):
    with pytest.raises(ValueError, match=words):
        replace(XOR, **changes)


def test_an_exported_script_takes_its_run_again_and_pytorch_agrees(tmp_path):
    import subprocess
    import sys

    from playground.training.model.export_script import training_script

    settings = replace(XOR, dataset="spiral", noise=0.3, batch_size=7, hidden=(5, 3), regularization="l1",
                       regularization_rate=0.03, learning_rate=0.1)
    session = TrainingSession(settings)
    script = tmp_path / "training.py"
    script.write_text(training_script(settings, session.data, use_torch=True))
    printed = subprocess.run([sys.executable, str(script), "80", "80"], capture_output=True, text=True, timeout=120,
                             cwd=str(tmp_path), env={**__import__("os").environ,
                                                     "PYTHONPATH": str(__import__("pathlib").Path(__file__)
                                                                       .resolve().parents[2])})
    assert printed.returncode == 0, printed.stderr
    last, worst = printed.stdout.strip().splitlines()[-2:]
    session.train_steps(80)
    metrics = session.evaluate()
    assert f"train loss {metrics.train_loss!r}" in last and f"test loss {metrics.test_loss!r}" in last
    assert float(worst.rsplit(" ", 1)[1]) < 1e-9


# The MLCC worksheets' Playground pages (their URLs' seeds and settings), and what the TF Playground's own code
# shows there: a replay of its open-source dataset.ts, nn.ts and playground.ts in node with its seedrandom
# (research notes, 2026-12-07), the first load's network. The tab's numbers must be its own, to three decimals.
MLCC_PAGES = [
    ("first network", dict(tf_seed="0.50819", dataset="xor", noise=0.35, learning_rate=0.01, hidden=(1,),
                           activation="linear"), [(0, "0.505", "0.516"), (500, "0.500", "0.497")]),
    ("initialization", dict(tf_seed="0.50819", dataset="xor", noise=0.35, learning_rate=0.01, hidden=(3,),
                            activation="relu"), [(0, "0.517", "0.528"), (500, "0.350", "0.312"),
                                                 (1000, "0.350", "0.310")]),
    ("spiral", dict(tf_seed="0.38953", dataset="spiral", noise=0.8, learning_rate=0.1, hidden=(3, 2),
                    activation="relu", regularization_rate=0.01), [(0, "0.533", None), (500, "0.523", None)]),
]


@pytest.mark.parametrize("page, changes, shown", MLCC_PAGES, ids=[page for page, _, _ in MLCC_PAGES])
def test_at_a_worksheets_own_seed_the_tab_shows_the_tf_playgrounds_own_numbers(page, changes, shown):
    session = TrainingSession(replace(XOR, **changes))
    at = 0
    for epoch, test_loss, train_loss in shown:
        session.train_steps(25 * (epoch - at))  # 250 training points in batches of 10: 25 steps an epoch
        at = epoch
        metrics = session.evaluate()
        assert tp.format_loss(metrics.test_loss) == test_loss, f"{page} at epoch {epoch}"
        if train_loss is not None:
            assert tp.format_loss(metrics.train_loss) == train_loss, f"{page} at epoch {epoch}"


def test_a_tf_seed_is_the_tf_playgrounds_own_and_refused_without_it():
    with pytest.raises(ValueError, match="needs tf_playground=True"):
        TrainingSettings(tf_seed="0.5")
    with pytest.raises(ValueError, match="at most 40 characters"):
        replace(XOR, tf_seed="x" * 41)
    page = tp.make_dataset("xor", 35, 50, seed="0.50819")
    assert np.array_equal(TrainingSession(replace(XOR, tf_seed="0.50819")).data.X_train, page.X_train)


def test_the_spiral_worksheets_second_goal_is_within_reach_of_a_network_a_student_can_set():
    # Lesson 14's Task 2 asks 0.3 or lower with sin(X1) and sin(X2) (its page hopes for 0.25, which its noise of 80
    # puts out of reach before the runs overfit): four tanh layers of 8 get there within 100 epochs.
    spiral = replace(XOR, tf_seed="0.38953", dataset="spiral", noise=0.8, learning_rate=0.03, hidden=(8, 8, 8, 8),
                     activation="tanh", features=("x1", "x2", "sin x1", "sin x2"))
    session = TrainingSession(spiral)
    session.train_steps(25 * 100)
    assert float(tp.format_loss(session.evaluate().test_loss)) <= 0.3
