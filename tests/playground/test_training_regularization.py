"""Regularisation None / L1 / L2 on the training tab, as in the TF Playground: the session trains with
the engine's `Regularization` (weights only), L1 drives most weights to exactly zero and their wires
fade out of the diagram, and setups (old ones with a weight decay too) keep it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.nn.regularization import weights as weight_tensors
from playground.training.model.session import TrainingSession
from playground.training.model.settings import Change, TrainingSettings
from playground.training.model.setup_file import capture, from_dict, to_dict
from playground.training.model.wires import FADE_BELOW, WireLayout, rgba, wire_style

WAIT = 20_000


def weight_values(session: TrainingSession) -> np.ndarray:
    return np.concatenate([p.data.ravel() for p in weight_tensors(session.model)])


# -- the session ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_l1_drives_half_the_weights_of_a_2_16_16_1_network_to_zero_and_it_still_learns_the_moons(seed):
    session = TrainingSession(TrainingSettings(seed=seed, regularization="l1", regularization_rate=0.001,
                                               steps_per_second=None))
    assert session.settings.layer_sizes == (2, 16, 16, 1)
    session.train_steps(600)
    w = weight_values(session)
    metrics = session.evaluate()
    print(f"seed {seed}: {np.mean(np.abs(w) < 1e-3):.0%} of the weights below 1e-3 ({np.mean(w == 0):.0%} exactly 0), "
          f"test accuracy {metrics.test_accuracy:.1%}")
    assert np.mean(np.abs(w) < 1e-3) >= 0.5
    assert metrics.test_accuracy >= 0.95
    biases = np.concatenate([p.data.ravel() for name, p in session.model.named_parameters() if name.endswith("bias")])
    assert np.mean(biases == 0) < 0.5  # the biases are not regularised


def test_without_regularisation_the_weights_stay_dense_and_l2_shrinks_them():
    plain = TrainingSession(TrainingSettings(steps_per_second=None))
    shrunk = TrainingSession(TrainingSettings(regularization="l2", regularization_rate=0.03, steps_per_second=None))
    plain.train_steps(600)
    shrunk.train_steps(600)
    dense, small = weight_values(plain), weight_values(shrunk)
    print(f"|w| mean without: {np.abs(dense).mean():.3f}, with L2 0.03: {np.abs(small).mean():.3f}")
    assert np.mean(np.abs(dense) < 1e-3) < 0.05
    assert np.mean(small == 0) < 0.05  # L2 pulls, it does not zero
    assert np.linalg.norm(small) < 0.6 * np.linalg.norm(dense)


def test_a_regularisation_change_keeps_the_weights_and_takes_effect_on_the_next_steps():
    session = TrainingSession(TrainingSettings(steps_per_second=None))
    session.train_steps(100)
    before, optimizer = session.state_dict(), session.optimizer
    change = session.apply(replace(session.settings, regularization="l1", regularization_rate=0.01))
    assert change == Change.OPTIMIZER and session.optimizer is optimizer
    assert all(np.array_equal(value, session.state_dict()[name]) for name, value in before.items())
    assert np.mean(weight_values(session) == 0) == 0
    session.train_steps(200)
    assert np.mean(weight_values(session) == 0) > 0.5  # the new steps took L1's soft threshold


def test_the_settings_refuse_an_unknown_regularisation_or_a_bad_rate():
    with pytest.raises(ValueError, match="unknown regularization 'l3'"):
        TrainingSettings(regularization="l3")
    with pytest.raises(ValueError, match="regularization_rate must be between 0 and 10"):
        TrainingSettings(regularization="l1", regularization_rate=-0.1)
    with pytest.raises(ValueError, match="regularization_rate"):
        TrainingSettings(regularization="l1", regularization_rate=11.0)


# -- setups -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, rate", [("none", 0.0), ("l1", 0.003), ("l2", 0.3)])
def test_a_setup_keeps_its_regularisation_exactly(kind, rate):
    session = TrainingSession(TrainingSettings(regularization=kind, regularization_rate=rate))
    session.train_steps(20)
    document = to_dict(capture(session))
    assert document["settings"]["regularization"] == kind and document["settings"]["regularization_rate"] == rate
    setup = from_dict(document)
    assert setup.settings == session.settings
    assert setup.settings.regularization == kind and setup.settings.regularization_rate == rate


def old_setup(settings: dict) -> dict:
    return {"format": "autograd-playground-training-setup", "version": 1, "settings": settings}


def test_an_old_setup_with_a_weight_decay_opens_as_l2_at_that_rate():
    setup = from_dict(old_setup({"weight_decay": 0.02, "learning_rate": 0.03}))
    assert setup.settings.regularization == "l2" and setup.settings.regularization_rate == 0.02
    setup = from_dict(old_setup({"weight_decay": 0.0}))
    assert setup.settings.regularization == "none" and setup.settings.regularization_rate == 0.0
    with pytest.raises(ValueError, match="regularization"):
        from_dict(old_setup({"regularization": "dropout"}))


# -- the diagram ------------------------------------------------------------------------------------------------


def test_a_wire_fades_out_as_its_weight_goes_to_zero():
    _, opacity = wire_style(np.array([0.0, FADE_BELOW / 4, FADE_BELOW, 1.0]), 5.0)
    assert opacity[0] == 0.0 and 0.0 < opacity[1] < opacity[2] < opacity[3]
    pairs = ((10.0, 90.0, np.array([10.0, 60.0]), np.array([10.0, 60.0])),)
    layout = WireLayout(1, (2, 2), 100, 80, pairs, 3.0, (230, 159, 0), (0, 114, 178))
    weights = np.array([[1.0, 0.0], [0.0, 0.0]])  # only neuron 0 to neuron 0 is not zero
    image = rgba(layout.render([weights]))
    assert image[5:16, 20:80, 3].max(axis=0).min() > 0  # the wire along the top, unbroken
    assert image[40:70, 20:80, 3].max() == 0        # the wires at zero: nothing, not a faint line


# -- the panel ----------------------------------------------------------------------------------------


def test_the_regularisation_controls_set_the_kind_and_rate(qtbot, panel):
    combo = panel.findChild(object, "regularizationCombo")
    rate = panel.findChild(object, "regularizationRateInput")
    assert combo.accessibleName() and rate.accessibleName()
    assert panel.findChild(object, "weightDecayInput") is None  # replaced, not beside it
    assert [combo.itemText(i) for i in range(combo.count())] == ["None", "L1", "L2"]
    assert combo.currentData() == "none" and not rate.isEnabled()
    combo.setCurrentIndex(combo.findData("l1"))
    assert panel.settings.regularization == "l1" and panel.settings.regularization_rate == 0.001
    assert rate.isEnabled()
    rate.setValue(0.03)
    assert panel.settings.regularization_rate == 0.03
    combo.setCurrentIndex(combo.findData("l2"))
    assert panel.settings.regularization == "l2" and panel.settings.regularization_rate == 0.03
    panel.set_settings(replace(panel.settings, regularization="l1", regularization_rate=0.01))
    assert combo.currentData() == "l1" and rate.value() == 0.01


def test_l1_in_the_panel_fades_the_zeroed_wires_out_of_the_diagram(qtbot, panel):
    view = panel.network_view.canvas
    qtbot.waitUntil(lambda: view.wire_redraws > 0, timeout=WAIT)
    dense_ink = int(np.count_nonzero(view._wire_pixels >> np.uint32(24)))
    panel.set_settings(replace(panel.settings, regularization="l1", regularization_rate=0.003, steps_per_second=None))
    panel.play()
    qtbot.waitUntil(lambda: panel.step >= 600, timeout=60_000)
    panel.pause()
    # Read once the worker has stopped between steps: mid-step a weight L1 zeroes has left 0 for a moment.
    qtbot.waitUntil(lambda: panel._progress is not None and not panel._progress.running, timeout=WAIT)
    session = panel.worker.session
    zero = float(np.mean(weight_values(session) == 0))
    drawn = view.wire_redraws
    qtbot.waitUntil(lambda: view.wire_redraws > drawn or panel.step == session.step, timeout=WAIT)
    qtbot.wait(300)
    sparse_ink = int(np.count_nonzero(view._wire_pixels >> np.uint32(24)))
    print(f"{zero:.0%} of the weights at 0; wire pixels {dense_ink} at the start, {sparse_ink} after L1")
    assert zero >= 0.5
    assert sparse_ink < 0.7 * dense_ink
