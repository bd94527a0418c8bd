"""The training panel's Qt-free model, issue 10's parts: k classes and softmax cross-entropy, weight
initialisation, learning-rate schedules, the one batched pass over the grid that draws the boundary
and every neuron's map, typed weights, and the wires drawn with numpy."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from engine import Tensor, no_grad
from engine.nn import init
from engine.optim import CosineAnnealingLR, StepLR
from playground.training.model.grid import class_boundaries, grid_resolution, upsample
from playground.training.model.network import build_model, layer_outputs, parameter_name
from playground.training.model.points import expand_features, grid_axes
from playground.training.model.session import TrainingSession
from playground.training.model.settings import Change, TrainingSettings, classify_change, fitting_loss
from playground.training.model.wires import MAX_WIRES, WireLayout, render_wires, rgba

SPIRAL_3 = TrainingSettings(dataset="spiral", classes=3, loss="cross_entropy", points=300, noise=0.05)


# -- k classes ----------------------------------------------------------------------------------------------


def test_a_three_arm_spiral_reaches_90_percent_with_2_16_16_3_tanh_and_adam():
    session = TrainingSession(SPIRAL_3)
    s = session.settings
    assert (s.architecture(), s.activation, s.optimizer) == ("2 → 16 → 16 → 3", "tanh", "adam")
    assert session.data.classes == ("orange", "blue", "green") and set(session.data.y_train) == {0, 1, 2}
    assert [p.data.shape for p in session.model.parameters()][-2:] == [(3, 16), (3,)]
    start = session.evaluate()
    session.train_steps(600)
    metrics = session.evaluate()
    assert metrics.test_accuracy >= 0.9 and metrics.train_loss < 0.5 * start.train_loss
    assert metrics.test_confusion.shape == (3, 3) and metrics.test_confusion.sum() == len(session.data.y_test)
    assert np.trace(metrics.test_confusion) / metrics.test_confusion.sum() == pytest.approx(metrics.test_accuracy)


@pytest.mark.parametrize("dataset, k", [("spiral", 2), ("spiral", 5), ("blobs", 2), ("blobs", 6)])
def test_spirals_and_blobs_have_the_classes_asked_for(dataset, k):
    loss = "bce" if k == 2 else "cross_entropy"
    session = TrainingSession(TrainingSettings(dataset=dataset, classes=k, loss=loss, points=240))
    labels = np.concatenate([session.data.y_train, session.data.y_test])
    assert sorted(set(labels)) == list(range(k)) and session.data.n_classes == k
    assert session.draw().probability.shape == ((150, 150) if k == 2 else (k, 150, 150))


def test_class_counts_and_losses_are_checked():
    spiral = TrainingSettings(dataset="spiral", classes=3, loss="cross_entropy")
    assert replace(spiral, dataset="moons").classes == 2  # two moons have two classes, whatever came before
    with pytest.raises(ValueError, match="Spiral dataset has 2 to 5 classes"):
        TrainingSettings(dataset="spiral", classes=6, loss="cross_entropy")
    with pytest.raises(ValueError, match="3 classes need the cross-entropy loss"):
        TrainingSettings(dataset="blobs", classes=3)
    two = TrainingSettings(loss="cross_entropy")  # two classes may use softmax too: two outputs
    assert two.outputs == 2 and two.architecture() == "2 → 16 → 16 → 2"
    assert TrainingSettings().outputs == 1


def test_what_a_change_of_classes_init_loss_or_schedule_resets():
    s = TrainingSettings(dataset="spiral")
    assert classify_change(s, replace(s, classes=3, loss="cross_entropy")) == Change.DATA
    assert classify_change(s, replace(s, init="xavier")) == Change.MODEL
    assert classify_change(s, replace(s, loss="cross_entropy")) == Change.MODEL  # one output becomes two
    assert classify_change(s, replace(s, loss="hinge")) == Change.TRAINING
    assert classify_change(s, replace(s, schedule="cosine", schedule_steps=40)) == Change.OPTIMIZER


def test_more_classes_take_cross_entropy_and_give_the_binary_loss_back():
    assert fitting_loss(3, "hinge", None) == ("cross_entropy", "hinge")
    assert fitting_loss(4, "cross_entropy", "hinge") == ("cross_entropy", "hinge")
    assert fitting_loss(2, "cross_entropy", "hinge") == ("hinge", None)
    assert fitting_loss(2, "cross_entropy", None) == ("cross_entropy", None)  # chosen by the person: kept
    assert fitting_loss(2, "mse", None) == ("mse", None)


def test_three_named_classes_from_a_file_switch_to_cross_entropy():
    session = TrainingSession()
    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.arange(30) % 3
    assert session.set_points(X, y, "pets.csv", ("cat", "dog", "emu")) == Change.DATA
    s = session.settings
    assert (s.dataset, s.classes, s.loss, s.outputs) == ("csv", 3, "cross_entropy", 3)
    assert session.data.classes == ("cat", "dog", "emu") and session.data.name == "pets.csv"
    session.add_point(0.0, 0.0, 2)
    assert session.data.y_train[-1] == 2
    with pytest.raises(ValueError, match="from 0 to 2"):
        session.add_point(0.0, 0.0, 3)
    with pytest.raises(ValueError, match="2 class names for 3 classes"):
        session.set_points(X, y, "pets.csv", ("cat", "dog"))
    with pytest.raises(ValueError, match="labels must be 0 to 2"):
        session.set_points(X, np.where(y == 1, 5, y), "gap.csv")


# -- initialisation -----------------------------------------------------------------------------------------


def test_zeros_initialisation_leaves_every_hidden_neuron_the_same():
    """The symmetry lesson: with every weight zero, the neurons of a layer get the same gradient and stay
    copies of each other, so the network can do no better than its biases."""
    session = TrainingSession(TrainingSettings(init="zeros"))
    session.train_steps(300)
    state = session.state_dict()
    for layer in (1, 2):
        weight, bias = state[parameter_name(layer, "weight")], state[parameter_name(layer, "bias")]
        assert np.all(weight == weight[0]) and np.all(bias == bias[0])
    maps = session.draw().maps
    for layer in (1, 2):
        assert np.all(maps[layer] == maps[layer][0])
    assert session.evaluate().test_accuracy < 0.8  # a constant: it cannot bend round the moons


@pytest.mark.parametrize("activation, gain", [("tanh", 5 / 3), ("relu", math.sqrt(2)), ("sigmoid", 1.0)])
def test_xavier_and_kaiming_draw_from_torch_s_ranges_with_zero_biases(activation, gain):
    xavier = build_model(2, (64, 64), activation, seed=1, init_scheme="xavier").state_dict()
    kaiming = build_model(2, (64, 64), activation, seed=1, init_scheme="kaiming").state_dict()
    hidden = xavier["2.weight"]
    assert np.abs(hidden).max() <= gain * math.sqrt(6 / 128) and np.abs(hidden).max() > 0.95 * gain * math.sqrt(6 / 128)
    assert np.abs(xavier["4.weight"]).max() <= math.sqrt(6 / 65)  # the output layer: linear, gain 1
    assert np.abs(kaiming["2.weight"]).max() <= math.sqrt(6 / 64) and kaiming["2.weight"].std() > 0.15
    assert all(np.all(model[f"{i}.bias"] == 0) for model in (xavier, kaiming) for i in (0, 2, 4))
    assert init.calculate_gain(activation) == pytest.approx(gain)


def test_the_default_initialisation_is_the_one_before_issue_10():
    default = build_model(2, (16, 16), "tanh", seed=3).state_dict()
    assert all(np.abs(default[f"{i}.weight"]).max() <= 1 / math.sqrt(n) for i, n in ((0, 2), (2, 16), (4, 16)))
    assert np.any(default["0.bias"] != 0)
    assert TrainingSession(TrainingSettings(seed=3)).state_dict().keys() == default.keys()


# -- learning-rate schedules --------------------------------------------------------------------------------


def test_step_decay_halves_the_rate_every_n_steps():
    session = TrainingSession(TrainingSettings(schedule="step", schedule_steps=10, schedule_gamma=0.5))
    assert isinstance(session.scheduler, StepLR) and session.optimizer.lr == 0.01
    session.train_steps(25)
    assert session.optimizer.lr == pytest.approx(0.0025) and session.evaluate().learning_rate == pytest.approx(0.0025)


def test_cosine_goes_down_to_zero_and_a_new_rate_lands_on_the_curve():
    session = TrainingSession(TrainingSettings(schedule="cosine", schedule_steps=40))
    assert isinstance(session.scheduler, CosineAnnealingLR)
    session.train_steps(20)
    assert session.optimizer.lr == pytest.approx(0.005)  # half way down
    before = session.state_dict()
    assert session.apply(replace(session.settings, learning_rate=0.1)) == Change.OPTIMIZER
    assert session.optimizer.lr == pytest.approx(0.05) and session.state_dict().keys() == before.keys()
    session.train_steps(20)
    assert session.optimizer.lr == pytest.approx(0.0, abs=1e-15)
    session.apply(replace(session.settings, schedule="constant"))
    assert session.scheduler is None and session.optimizer.lr == 0.1


# -- one pass over the grid ---------------------------------------------------------------------------------


def test_one_pass_gives_every_neuron_s_map_as_the_model_computes_it():
    session = TrainingSession(TrainingSettings(hidden=(5, 3)))
    session.train_steps(50)
    drawing = session.draw(focus=(2, 1))
    assert [m.shape[0] for m in drawing.maps] == [2, 5, 3, 1]
    r = drawing.maps[0].shape[-1]
    assert r >= 24
    # The sampled pixels' centres, run through the float64 model directly.
    grid = session.grid
    xs, ys = grid_axes(session.data.extent, grid.resolution)
    picked = np.arange(grid.resolution)[grid._sampled[:r] % grid.resolution]
    gx, gy = np.meshgrid(xs[picked], ys[picked])
    points = np.column_stack([gx.ravel(), gy.ravel()])
    with no_grad():
        outputs = layer_outputs(session.model, Tensor(expand_features(points, session.settings.features)))
    for layer in (1, 2):
        expected = outputs[layer - 1].T.reshape(-1, r, r)
        assert np.allclose(drawing.maps[layer], expected, atol=1e-4)
    probability = 1 / (1 + np.exp(-outputs[-1][:, 0]))
    assert np.allclose(drawing.maps[3][0], probability.reshape(r, r), atol=1e-4)
    assert np.allclose(drawing.maps[0][0], gx, atol=1e-6)  # the input x1 is x1
    # The hovered neuron at full resolution, and its level line.
    focus = drawing.focus
    assert (focus.layer, focus.index, focus.image.shape) == (2, 1, (150, 150))
    assert np.allclose(focus.image[grid._sampled // 150, grid._sampled % 150], drawing.maps[2][1].ravel(), atol=1e-6)
    assert focus.level == 0.0 and len(focus.contour[0]) > 0


def test_a_dead_relu_is_found_and_a_live_one_is_not():
    session = TrainingSession(TrainingSettings(hidden=(4,), activation="relu"))
    weight, bias = session.model[0].weight.data, session.model[0].bias.data
    weight[1] = 0.0
    bias[1] = -1.0            # zero over the whole plane: dead
    weight[2] = [1.0, 0.0]
    bias[2] = 0.0             # zero for x1 < 0 only: alive
    dead = session.draw().dead
    assert dead[1][1] and not dead[1][2]
    assert not dead[0].any() and not dead[2].any()
    assert not TrainingSession(TrainingSettings(hidden=(4,), activation="tanh", init="zeros")).draw().dead[1].any()


def test_a_large_network_is_drawn_on_a_coarser_grid_shown_at_full_size():
    big = TrainingSettings(hidden=(64,) * 6)
    assert grid_resolution(TrainingSettings()) == 150 and 60 <= grid_resolution(big) < 100
    drawing = TrainingSession(big).draw(focus=(6, 0))
    assert drawing.probability.shape == (150, 150) and drawing.focus.image.shape == (150, 150)
    assert all(m.shape[-1] >= 24 for m in drawing.maps) and len(drawing.maps) == 8


def test_upsampling_keeps_a_plane_a_plane():
    y, x = np.mgrid[0:10, 0:10].astype(np.float32)
    plane = 2 * x + 3 * y
    big = upsample(plane, 40)
    assert big.shape == (40, 40)
    centres = (np.arange(40) + 0.5) * 10 / 40 - 0.5
    inside = (centres >= 0) & (centres <= 9)
    expected = 2 * centres[None, :] + 3 * centres[:, None]
    assert np.allclose(big[np.ix_(inside, inside)], expected[np.ix_(inside, inside)], atol=1e-4)
    assert upsample(plane, 10) is plane


def test_class_boundaries_run_between_the_regions():
    xs = ys = np.linspace(-1, 1, 60)
    gx, gy = np.meshgrid(xs, ys)
    scores = np.stack([-gx, gx, 3 * gy])  # class 2 above y = 0.33 (about), 0 left, 1 right below it
    probability = np.exp(scores) / np.exp(scores).sum(axis=0)
    x, y = class_boundaries(probability, xs, ys)
    assert len(x) > 20
    winner = np.argmax(probability, axis=0)
    for px, py in zip(x, y):  # every point of a line has two classes within a pixel of it
        i, j = np.abs(ys - py).argmin(), np.abs(xs - px).argmin()
        assert len(set(winner[max(i - 1, 0):i + 2, max(j - 1, 0):j + 2].ravel())) >= 2


# -- what the diagram needs ---------------------------------------------------------------------------------


def test_gradients_are_the_whole_training_set_s_at_the_current_weights():
    session = TrainingSession()
    session.train_steps(10)
    gradients = session.gradients()
    loss = session.loss_fn(session.model(Tensor(session.F_train)), session.data.y_train)
    for p in session.model.parameters():
        p.grad = None
    loss.backward()
    for name, p in session.model.named_parameters():
        assert np.allclose(gradients[name], p.grad)


def test_a_typed_weight_changes_the_model_and_training_goes_on_from_it():
    session = TrainingSession()
    old = session.set_parameter("2.weight", (3, 5), 1.25)
    assert session.model[2].weight.data[3, 5] == 1.25 and old != 1.25
    assert session.set_parameter("2.weight", (3, 5), old) == 1.25
    session.set_parameter("0.bias", (0,), -0.5)
    assert session.state_dict()["0.bias"][0] == -0.5
    session.train_steps(3)
    assert session.step == 3
    with pytest.raises(KeyError):
        session.set_parameter("9.weight", (0, 0), 1.0)
    with pytest.raises(IndexError):
        session.set_parameter("2.weight", (16, 0), 1.0)
    with pytest.raises(ValueError, match="finite"):
        session.set_parameter("2.weight", (0, 0), math.nan)


def test_a_wire_is_drawn_where_it_runs_in_its_sign_s_colour():
    orange, blue = (230, 159, 0), (0, 114, 178)
    flat = (10.0, 50.0, np.array([20.0]), np.array([20.0]), np.array([2.0]))  # strongest: thickest, opaque
    image = rgba(render_wires([flat], 60, 40, orange, blue, thickest=4.0))
    assert image.shape == (40, 60, 4)
    assert np.all(image[18:22, 12:48, 3] == 255) and np.all(image[18:22, 12:48, :3] == blue)
    assert np.all(image[:15, :, 3] == 0) and np.all(image[25:, :, 3] == 0) and np.all(image[:, :9, 3] == 0)
    faint = rgba(render_wires([(10.0, 50.0, np.array([20.0]), np.array([20.0]), np.array([0.1]))], 60, 40,
                              orange, blue, thickest=4.0))
    assert 0 < faint[20, 30, 3] < 128 and np.allclose(faint[20, 30, :3], blue, atol=6)  # premultiplied: rounded
    steep = rgba(render_wires([(10.0, 14.0, np.array([2.0]), np.array([38.0]), np.array([1.0]))], 60, 40,
                              orange, blue, thickest=2.0))
    assert np.all(steep[5:35, 10:14, 3].max(axis=1) > 0)  # a steep wire leaves no gaps down its length


def test_only_the_largest_weights_are_drawn_in_a_huge_network():
    rng = np.random.default_rng(0)
    weights = rng.normal(size=(64, 64)) * 0.01
    weights[0, 0] = 3.0
    pairs = ((10.0, 90.0, np.linspace(0, 300, 64), np.linspace(0, 300, 64)),)
    layout = WireLayout(1, (64, 64), 100, 310, pairs * 2, 3.0, (230, 159, 0), (0, 114, 178))
    assert 2 * weights.size > MAX_WIRES
    image = rgba(layout.render([weights, weights]))
    assert image[0:4, 20:80, 3].max() > 200  # the one big weight, from neuron 0 to neuron 0, at the top
