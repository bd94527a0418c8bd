"""The linear activation ("Linear", `engine.nn.Identity`): without a non-linearity a network of any depth
is one linear map, so its boundary cannot bend and two moons stay out of reach."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine import Tensor, no_grad
from engine.nn import Identity
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings
from playground.training.model.setup_file import capture, from_dict, to_dict

WAIT = 20_000


@pytest.mark.parametrize("seed", range(3))
def test_a_linear_network_stays_below_90_percent_on_two_moons_where_tanh_solves_them(seed):
    linear = TrainingSession(TrainingSettings(seed=seed, activation="linear", steps_per_second=None))
    bent = TrainingSession(TrainingSettings(seed=seed, steps_per_second=None))
    linear.train_steps(1000)
    bent.train_steps(1000)
    flat, curved = linear.evaluate(), bent.evaluate()
    print(f"seed {seed}: linear train {flat.train_accuracy:.1%} test {flat.test_accuracy:.1%}; "
          f"tanh test {curved.test_accuracy:.1%}")
    assert flat.train_accuracy < 0.90 and flat.test_accuracy < 0.90
    assert curved.test_accuracy >= 0.97


def test_a_deep_linear_network_is_one_affine_map_of_its_inputs():
    session = TrainingSession(TrainingSettings(activation="linear", hidden=(8, 8, 8), steps_per_second=None))
    assert sum(isinstance(m, Identity) for m in session.model.modules) == 3
    session.train_steps(200)
    rng = np.random.default_rng(1)
    X = rng.uniform(-2, 2, size=(500, 2))
    with no_grad():
        logits = session.model(Tensor(X)).data[:, 0]
    design = np.column_stack([X, np.ones(len(X))])
    coefficients, *_ = np.linalg.lstsq(design, logits, rcond=None)
    residual = np.max(np.abs(design @ coefficients - logits))
    print(f"largest distance of the logits from a plane: {residual:.2e}")
    assert residual < 1e-9
    # and the boundary the tab draws for it crosses the plane once (a straight line, from the affine logit)
    probability = session.boundary()
    assert probability.min() < 0.5 < probability.max()


def test_a_setup_with_the_linear_activation_opens_again_exactly():
    session = TrainingSession(TrainingSettings(activation="linear", init="xavier"))
    session.train_steps(30)
    setup = from_dict(to_dict(capture(session)))
    assert setup.settings == session.settings and setup.settings.activation == "linear"
    assert all(np.array_equal(value, setup.weights[name]) for name, value in session.state_dict().items())


def test_linear_in_the_activation_combo_trains_a_network_without_a_bend(qtbot, panel):
    combo = panel.findChild(object, "activationCombo")
    assert combo.itemText(combo.findData("linear")) == "Linear"
    combo.setCurrentIndex(combo.findData("linear"))
    assert panel.settings.activation == "linear"
    panel.set_settings(replace(panel.settings, steps_per_second=None))
    panel.play()
    qtbot.waitUntil(lambda: panel.step >= 300, timeout=60_000)
    panel.pause()
    session = panel.worker.session
    assert all(isinstance(m, Identity) for m in session.model.modules[1::2][:2])
    assert session.evaluate().test_accuracy < 0.90
