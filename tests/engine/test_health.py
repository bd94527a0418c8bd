"""`engine.nn.health`: per-layer weight-gradient norms (against PyTorch), saturated tanh/sigmoid units and
dead ReLUs counted by hand, and the vanishing gradient of six sigmoid layers that tanh does not show."""

import math

import numpy as np
import pytest
import torch

import engine
from engine import Tensor
from engine.data import make_moons
from engine.nn import Identity, LeakyReLU, Linear, ReLU, Sequential, Sigmoid, Tanh
from engine.nn.health import (
    SIGMOID_SATURATED,
    TANH_SATURATED,
    LayerHealth,
    dead_share,
    gradient_health,
    saturated_share,
    trace,
)
from engine.train import binary_loss


def _deep(activation, seed, width=8, hidden=6):
    engine.manual_seed(seed)
    layers = [Linear(2, width), activation()]
    for _ in range(hidden - 1):
        layers += [Linear(width, width), activation()]
    return Sequential(*layers, Linear(width, 1))


def _backward_on_moons(model, seed):
    X, y = make_moons(200, noise=0.1, random_state=seed)
    binary_loss("bce")(model(Tensor(X)), y).backward()
    return X, y


def _set(linear, weight, bias):
    linear.weight.data[...] = weight
    linear.bias.data[...] = bias


# --- the vanishing gradient ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_six_sigmoid_layers_make_the_first_layers_gradient_orders_of_magnitude_smaller(seed):
    model = _deep(Sigmoid, seed)
    X, _ = _backward_on_moons(model, seed)
    health = gradient_health(model, X)
    assert len(health) == 7 and [h.activation for h in health] == ["sigmoid"] * 6 + [None]
    ratio = health[-1].grad_norm / health[0].grad_norm
    hidden_ratio = health[-2].grad_norm / health[0].grad_norm
    print(f"sigmoid x 6, seed {seed}: last / first layer gradient {ratio:.3g}, last hidden / first {hidden_ratio:.3g}")
    assert ratio >= 100
    # and layer by layer it shrinks on the way down (each sigmoid's slope is at most 1/4)
    norms = [h.grad_norm for h in health]
    assert sum(a < b for a, b in zip(norms, norms[1:])) >= 5


@pytest.mark.parametrize("seed", range(5))
def test_six_tanh_layers_with_default_init_keep_the_gradient_within_a_factor_of_100(seed):
    model = _deep(Tanh, seed)
    X, _ = _backward_on_moons(model, seed)
    health = gradient_health(model, X)
    ratio = health[-1].grad_norm / health[0].grad_norm
    print(f"tanh x 6, seed {seed}: last / first layer gradient {ratio:.3g}")
    assert ratio < 100


# --- the numbers themselves ---------------------------------------------------------------------------------------


def test_gradient_norms_are_the_weight_gradients_norms_as_torch_computes_them():
    model = _deep(Tanh, 3, width=5, hidden=3)
    X, y = _backward_on_moons(model, 3)
    layers = []
    for module in model.modules:
        if isinstance(module, Linear):
            linear = torch.nn.Linear(module.in_features, module.out_features, dtype=torch.float64)
            with torch.no_grad():
                linear.weight.copy_(torch.from_numpy(module.weight.data))
                linear.bias.copy_(torch.from_numpy(module.bias.data))
            layers.append(linear)
        else:
            layers.append(torch.nn.Tanh())
    tmodel = torch.nn.Sequential(*layers)
    logits = tmodel(torch.from_numpy(X))[:, 0]
    torch.nn.functional.binary_cross_entropy_with_logits(logits, torch.from_numpy(y * 1.0)).backward()
    want = [torch.linalg.norm(m.weight.grad).item() for m in tmodel if isinstance(m, torch.nn.Linear)]
    got = [h.grad_norm for h in gradient_health(model)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert [h.name for h in gradient_health(model)] == ["0.weight", "2.weight", "4.weight", "6.weight"]
    assert gradient_health(model)[0].weight_norm == pytest.approx(np.linalg.norm(model[0].weight.data), rel=1e-15)


def test_before_any_backward_the_gradient_norm_is_nan_and_statistics_need_activations():
    model = _deep(Tanh, 0, width=3, hidden=2)
    health = gradient_health(model)
    assert all(math.isnan(h.grad_norm) for h in health)
    assert all(h.saturated is None and h.dead is None for h in health)


def test_saturated_tanh_and_sigmoid_units_counted_by_hand():
    x = np.array([[-1.0], [-0.1], [0.5], [2.0]])
    for activation, saturated_unit in ((Tanh, [True, False, True, True]), (Sigmoid, [True, False, True, True])):
        model = Sequential(Linear(1, 2), activation(), Linear(2, 1))
        _set(model[0], [[12.0], [0.1]], [0.0, 0.0])  # unit 0 steep: saturated except near 0; unit 1 flat: never
        layer = gradient_health(model, x)[0]
        assert layer.saturated == sum(saturated_unit) / 8
        assert layer.dead is None and gradient_health(model, x)[1].saturated is None  # the output has none


def test_the_saturation_thresholds_are_two_percent_of_the_largest_slope():
    assert TANH_SATURATED == pytest.approx(0.98995, abs=1e-5) and SIGMOID_SATURATED == pytest.approx(0.005025, abs=1e-6)
    assert 1 - TANH_SATURATED**2 == pytest.approx(0.02)
    assert SIGMOID_SATURATED * (1 - SIGMOID_SATURATED) / 0.25 == pytest.approx(0.02)
    assert saturated_share("tanh", np.array([0.99, -0.99, 0.989, 0.0])) == 0.5
    assert saturated_share("sigmoid", np.array([0.99, 0.996, 0.004, 0.5])) == 0.5  # 0.99 still has 4% of its slope
    assert saturated_share("relu", np.zeros(3)) is None and math.isnan(saturated_share("tanh", np.zeros((0, 3))))


def test_dead_relus_are_the_units_zero_on_every_point():
    x = np.array([[-1.0], [0.5], [2.0]])
    model = Sequential(Linear(1, 4), ReLU(), Linear(4, 1))
    # unit 0: relu(x), alive; unit 1: relu(-x - 5), dead; unit 2: relu(0), dead; unit 3: relu(x - 1.5), alive on one
    _set(model[0], [[1.0], [-1.0], [0.0], [1.0]], [0.0, -5.0, 0.0, -1.5])
    layer = gradient_health(model, x)[0]
    assert layer.activation == "relu" and layer.dead == 0.5 and layer.saturated is None
    # a dead unit's incoming weights get exactly no gradient
    out = model(Tensor(x))
    out.sum().backward()
    np.testing.assert_array_equal(model[0].weight.grad[1:3], 0.0)
    assert np.all(model[0].weight.grad[[0, 3]] != 0.0)
    assert dead_share("leaky_relu", np.zeros((3, 2))) is None


def test_activations_given_or_x_given_agree_and_are_checked():
    model = Sequential(Linear(2, 4), LeakyReLU(), Linear(4, 3), Identity(), Linear(3, 2), Sigmoid(), Linear(2, 1))
    X = np.random.default_rng(0).normal(size=(6, 2)) * 4
    outputs = trace(model, X)
    assert len(outputs) == 7 and outputs[-1].shape == (6, 1)
    out = model(Tensor(X))
    np.testing.assert_array_equal(outputs[-1], out.data)
    out.sum().backward()  # finite norms, so that the two answers compare equal
    assert gradient_health(model, X) == gradient_health(model, activations=outputs)
    kinds = [h.activation for h in gradient_health(model, X)]
    assert kinds == ["leaky_relu", "identity", "sigmoid", None]
    assert isinstance(gradient_health(model, X)[0], LayerHealth)
    with pytest.raises(ValueError, match="not both"):
        gradient_health(model, X, activations=outputs)
    with pytest.raises(ValueError, match="6 arrays for a model of 7 modules"):
        gradient_health(model, activations=outputs[:-1])
    with pytest.raises(TypeError, match="needs a Sequential"):
        gradient_health(Linear(2, 1))
