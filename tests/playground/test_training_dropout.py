"""A different activation and a dropout rate per hidden layer (issue 40, item 4; tensorflow/playground #50), free
of Qt: the settings and how they follow the layers, what a change resets, the network built from them, a run
with dropout (the steps drop units, every figure and picture is the network's own), setups, and the exported
script checked against PyTorch."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engine import Tensor, no_grad
from engine.nn import Dropout, LeakyReLU, ReLU, Sequential, Sigmoid, Tanh, gradient_health
from playground.training.model.export_script import training_script
from playground.training.model.health import limited_neurons
from playground.training.model.network import build_model, model_for, weights_document
from playground.training.model.session import TrainingSession
from playground.training.model.settings import Change, TrainingSettings, classify_change, starts_over_words
from playground.training.model.setup_file import (
    SetupFormatError,
    capture,
    from_dict,
    from_text,
    restore,
    to_dict,
    to_text,
)

ROOT = Path(__file__).resolve().parents[2]


def three_layers(**changes) -> TrainingSettings:
    return TrainingSettings(hidden=(8, 8, 4), activations=("relu", "tanh", "leaky_relu"), dropout=(0.2, 0.0, 0.5),
                            **changes)


# -- the settings -----------------------------------------------------------------------------------


def test_every_layer_takes_the_common_activation_and_no_dropout_unless_told():
    s = TrainingSettings(hidden=(8, 8, 4))
    assert s.activations == () and s.dropout == ()
    assert s.layer_activations == ("tanh", "tanh", "tanh") and s.layer_dropout == (0.0, 0.0, 0.0)
    assert not s.has_dropout and s.activation_words() == "Tanh" and s.dropout_words() == "no dropout"
    mixed = three_layers()
    assert mixed.layer_activations == ("relu", "tanh", "leaky_relu") and mixed.layer_dropout == (0.2, 0.0, 0.5)
    assert mixed.activation == "tanh" and mixed.has_dropout
    assert mixed.activation_words() == "ReLU, Tanh, Leaky ReLU" and mixed.dropout_words() == "dropout 20%, 0%, 50%"


def test_layers_all_alike_keep_one_activation_and_no_rate_at_all():
    s = TrainingSettings(hidden=(8, 8), activation="tanh", activations=("relu", "relu"), dropout=(0, 0))
    assert s.activation == "relu" and s.activations == () and s.dropout == ()
    assert s == TrainingSettings(hidden=(8, 8), activation="relu")  # the same network, the same settings
    rates = TrainingSettings(hidden=(4, 4), dropout=(0, 0.5)).dropout
    assert rates == (0.0, 0.5) and all(type(rate) is float for rate in rates)


def test_layers_added_or_removed_at_the_end_keep_the_others_and_a_new_one_takes_the_common_activation():
    s = three_layers()
    longer = replace(s, hidden=(8, 8, 4, 4))
    assert longer.layer_activations == ("relu", "tanh", "leaky_relu", "tanh")
    assert longer.layer_dropout == (0.2, 0.0, 0.5, 0.0)
    shorter = replace(s, hidden=(8,))
    assert shorter.activation == "relu" and shorter.activations == () and shorter.dropout == (0.2,)
    assert replace(s, hidden=()).activations == () and replace(s, hidden=()).dropout == ()


def test_a_layer_inserted_or_removed_anywhere_takes_its_neighbours_along():
    s = three_layers()
    inserted = s.with_layers((8, 6, 8, 4), (0, None, 1, 2))  # a new layer after layer 1
    assert inserted.layer_activations == ("relu", "tanh", "tanh", "leaky_relu")
    assert inserted.layer_dropout == (0.2, 0.0, 0.0, 0.5)
    removed = s.with_layers((8, 4), (0, 2))  # layer 2 taken out
    assert removed.layer_activations == ("relu", "leaky_relu") and removed.layer_dropout == (0.2, 0.5)
    with pytest.raises(ValueError, match="2 origins for 3 hidden layers"):
        s.with_layers((8, 8, 8), (0, 1))


@pytest.mark.parametrize("changes, words", [
    ({"activations": ("relu", "swish")}, "unknown activation 'swish'"),
    ({"dropout": (0.95, 0.0)}, "dropout rates are shares from 0 to 0.9"),
    ({"dropout": (-0.1, 0.0)}, "dropout rates are shares from 0 to 0.9"),
    ({"dropout": (True, 0.0)}, "dropout rates are shares"),
    ({"dropout": ("0.2", 0.0)}, "dropout rates are shares"),
])
def test_a_bad_activation_or_rate_is_refused_saying_what_it_must_be(changes, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        TrainingSettings(hidden=(8, 8), **changes)


def test_another_activation_starts_over_and_another_dropout_rate_trains_the_same_weights_on():
    s = three_layers()
    assert classify_change(s, replace(s, activations=("relu", "relu", "leaky_relu"))) == Change.MODEL
    assert starts_over_words(s, replace(s, activations=("relu", "relu", "leaky_relu"))) == "Another activation"
    assert classify_change(s, replace(s, dropout=(0.3, 0.0, 0.5))) == Change.TRAINING
    assert not Change.TRAINING.resets_weights
    graph = replace(s, network="graph")  # a graph has no layers: the layer form's rows change nothing of it
    assert classify_change(graph, replace(graph, activations=("tanh", "tanh", "relu"), dropout=())) == Change.NONE


# -- the network ----------------------------------------------------------------------------------------


def test_dropout_sits_in_its_activations_slot_and_the_weights_keep_their_names():
    s = three_layers()
    model = model_for(s)
    plain = model_for(replace(s, dropout=()))
    assert list(model.state_dict()) == list(plain.state_dict()) == [
        f"{index}.{kind}" for index in (0, 2, 4, 6) for kind in ("weight", "bias")]
    assert all(np.array_equal(a, b) for a, b in zip(model.state_dict().values(), plain.state_dict().values()))
    slots = model.modules[1::2]
    assert isinstance(slots[0], Sequential) and isinstance(slots[0][0], ReLU) and slots[0][1].p == 0.2
    assert isinstance(slots[1], Tanh)  # no dropout: the activation alone, as before
    assert isinstance(slots[2][0], LeakyReLU) and slots[2][1].p == 0.5
    assert not model.training and not slots[0][1].training  # built to be evaluated: no unit drops
    x = Tensor(np.random.default_rng(0).normal(size=(50, 2)))
    with no_grad():
        np.testing.assert_array_equal(model(x).data, plain(x).data)
    assert [h.activation for h in gradient_health(model, x=x.data)] == ["relu", "tanh", "leaky_relu", None]


def test_each_layers_initialisation_follows_its_own_activation():
    # Xavier's gain is the activation's: a sigmoid layer's weights are drawn as a sigmoid network's would be.
    mixed = build_model(2, (8, 8), ("relu", "sigmoid"), seed=3, init_scheme="xavier")
    relu = build_model(2, (8, 8), "relu", seed=3, init_scheme="xavier")
    sigmoid = build_model(2, (8, 8), "sigmoid", seed=3, init_scheme="xavier")
    np.testing.assert_array_equal(mixed[0].weight.data, relu[0].weight.data)
    np.testing.assert_array_equal(mixed[2].weight.data, sigmoid[2].weight.data)
    assert isinstance(mixed[1], ReLU) and isinstance(mixed[3], Sigmoid)


def test_limited_neurons_are_counted_by_each_layers_activation():
    saturated = np.array([[1.0, 0.0]] * 10)  # a tanh unit at its end; a ReLU unit zero on every point
    assert limited_neurons([saturated, saturated], ("tanh", "relu")) == (2, 4)
    assert limited_neurons([saturated, saturated], "tanh") == (2, 4)


def test_the_weights_document_says_each_layers_activation_and_dropout():
    s = three_layers()
    document = weights_document(s, model_for(s).state_dict(), 0)
    assert document["version"] == 3
    assert document["architecture"]["activations"] == ["relu", "tanh", "leaky_relu"]
    assert document["architecture"]["dropout"] == [0.2, 0.0, 0.5]


# -- a run with dropout --------------------------------------------------------------------------------


def run(settings: TrainingSettings, steps: int) -> tuple[TrainingSession, np.ndarray]:
    session = TrainingSession(settings, resolution=40)
    losses = [session.train_steps(1).losses.losses[0] for _ in range(steps)]
    return session, np.array(losses)


def test_the_steps_drop_units_and_every_figure_is_the_networks_own():
    settings = TrainingSettings(hidden=(16, 16), dropout=(0.2, 0.0), steps_per_second=None)
    dropped, losses = run(settings, 15)
    plain, plain_losses = run(replace(settings, dropout=()), 15)
    assert not np.allclose(losses, plain_losses)  # the training loss is the loss with the step's dropped units
    again, again_losses = run(settings, 15)
    np.testing.assert_array_equal(losses, again_losses)  # the masks come from the seed: the same run again
    # The figures: the weights trained with dropout, evaluated without it, are what a network without
    # dropout holding those weights gives, and they do not change from one look to the next.
    twin = TrainingSession(replace(settings, dropout=()), resolution=40)
    twin.model.load_state_dict(dropped.state_dict())
    first, second, reference = dropped.evaluate(), dropped.evaluate(), twin.evaluate()
    assert first.test_accuracy == second.test_accuracy == reference.test_accuracy
    assert first.train_loss == reference.train_loss and first.test_loss == reference.test_loss
    assert dropped.evaluate().train_loss != losses[-1]  # the curve's report is the loss without dropout
    drawing, redrawn, without = dropped.draw((1, 3)), dropped.draw((1, 3)), twin.draw((1, 3))
    np.testing.assert_array_equal(drawing.probability, redrawn.probability)  # no mask in a picture
    np.testing.assert_array_equal(drawing.probability, without.probability)
    for ours, theirs in zip(drawing.maps, without.maps):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(drawing.focus.image, without.focus.image)
    gradients, twin_gradients = dropped.gradients(), twin.gradients()
    assert all(np.array_equal(gradients[name], twin_gradients[name]) for name in gradients)
    assert not dropped.model.training  # between the steps the network is evaluated


def test_a_full_batchs_step_loss_with_dropout_is_drawn_as_a_batchs_not_as_the_train_loss():
    settings = TrainingSettings(hidden=(8,), dropout=(0.5,))
    session = TrainingSession(settings, resolution=20)
    assert session.train_steps(3).losses.whole is False
    assert TrainingSession(replace(settings, dropout=()), resolution=20).train_steps(3).losses.whole is True


def test_another_dropout_rate_keeps_the_weights_and_the_optimizers_state():
    session = TrainingSession(TrainingSettings(hidden=(8, 8), steps_per_second=None), resolution=20)
    session.train_steps(10)
    weights, state, step = session.state_dict(), session.optimizer.state_dict(), session.step
    assert session.apply(replace(session.settings, dropout=(0.0, 0.3))) == Change.TRAINING
    assert session.step == step
    assert all(np.array_equal(weights[k], v) for k, v in session.state_dict().items())
    assert session.optimizer.state_dict()["state"][0]["step"] == state["state"][0]["step"]
    slot = session.model.modules[3]
    assert isinstance(slot, Sequential) and isinstance(slot[1], Dropout) and slot[1].p == 0.3
    before = session.evaluate().test_loss
    session.train_steps(5)  # trains on, with the new rate
    assert session.step == step + 5 and session.evaluate().test_loss != before
    assert session.apply(replace(session.settings, dropout=())) == Change.TRAINING
    assert isinstance(session.model.modules[3], Tanh)


def test_a_run_saved_with_dropout_goes_on_with_the_very_steps_it_would_have_taken():
    settings = three_layers(batch_size=20, steps_per_second=None)
    session = TrainingSession(settings, resolution=20)
    session.train_steps(7)
    setup = capture(session)  # anchors the minibatches and the masks at step 7
    resumed = restore(from_text(to_text(setup)), resolution=20)
    ours, theirs = session.train_steps(9).losses.losses, resumed.train_steps(9).losses.losses
    np.testing.assert_array_equal(ours, theirs)
    assert all(np.array_equal(v, resumed.state_dict()[k]) for k, v in session.state_dict().items())


# -- setups --------------------------------------------------------------------------------------------


def test_a_setup_keeps_each_layers_activation_and_dropout_exactly():
    session = TrainingSession(three_layers(), resolution=20)
    session.train_steps(5)
    document = to_dict(capture(session))
    assert document["settings"]["activations"] == ["relu", "tanh", "leaky_relu"]
    assert document["settings"]["dropout"] == [0.2, 0.0, 0.5]
    opened = from_dict(document)
    assert opened.settings == session.settings
    assert all(np.array_equal(opened.weights[k], v) for k, v in session.state_dict().items())


def test_a_setup_of_the_usual_network_is_written_as_before_and_an_old_one_still_opens():
    document = to_dict(capture(TrainingSession(TrainingSettings(), resolution=20), with_weights=False))
    assert "activations" not in document["settings"] and "dropout" not in document["settings"]
    old = {"format": "autograd-playground-training-setup", "version": 1,
           "settings": {"hidden": [4, 4], "activation": "relu"}, "data": None}
    setup = from_dict(old)
    assert setup.settings.layer_activations == ("relu", "relu") and setup.settings.dropout == ()


@pytest.mark.parametrize("settings, message", [
    ({"hidden": [4, 4], "activations": ["relu", "swish"]}, "settings.activations[1]: expected 'tanh'"),
    ({"hidden": [4, 4], "dropout": [0.2, 0.95]}, "settings.dropout[1]: expected a number ≤ 0.9, got 0.95"),
    ({"hidden": [4, 4], "dropout": [0.2, "x"]}, "settings.dropout[1]"),
    ({"hidden": [4, 4], "dropout": "0.2"}, "settings.dropout: expected a list"),
    ({"hidden": [4, 4], "activations": ["relu"]},
     "settings.activations: 1 activations for 2 hidden layers (one per hidden layer, or none)"),
    ({"hidden": [4], "dropout": [0.1, 0.2]}, "settings.dropout: 2 dropout rates for 1 hidden layer"),
])
def test_a_bad_layer_setting_in_a_setup_is_refused_naming_the_field(settings, message):
    document = {"format": "autograd-playground-training-setup", "version": 1, "settings": settings, "data": None}
    with pytest.raises(SetupFormatError) as refused:
        from_dict(document)
    assert message in str(refused.value)


# -- the exported script --------------------------------------------------------------------------------


def test_an_exported_script_with_dropout_takes_the_tabs_run_again_and_pytorch_matches_it(tmp_path):
    settings = TrainingSettings(hidden=(8, 8, 4), activations=("relu", "tanh", "sigmoid"), dropout=(0.2, 0.0, 0.5),
                                batch_size=20, optimizer="adam", learning_rate=0.03, regularization="l2",
                                regularization_rate=0.001, steps_per_second=None)
    session = TrainingSession(settings, resolution=20)
    script = tmp_path / "dropout.py"
    script.write_text(training_script(settings, session.data, use_torch=True))
    losses = []
    for _ in range(30):
        session.train_steps(1)
        losses.append(session.evaluate().train_loss)
    done = subprocess.run([sys.executable, str(script), "30", "1"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    printed = [float(m.group(1)) for m in re.finditer(r"train loss (\S+)", done.stdout)]
    assert printed == losses  # the same masks, the same steps, the same numbers as the tab
    difference = float(done.stdout.strip().splitlines()[-1].split()[-1])
    print("largest difference between the engine and PyTorch over 30 steps with dropout:", difference)
    assert difference < 1e-9
    assert losses[-1] < losses[0]  # and it learns
