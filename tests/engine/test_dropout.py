"""`engine.nn.Dropout` and the training and evaluation modes of `Module`: inverted dropout as PyTorch's, its
gradient by central differences with a fixed mask and against PyTorch float64 with PyTorch's own mask."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine import Tensor
from engine.nn import Dropout, Linear, Module, ReLU, Sequential, Tanh, gradient_health
from tests.engine.oracles import assert_close_fd, assert_close_torch, tensor_fd, tensor_grads, upstream_for


class FixedDraws:
    """A generator whose uniform draws are given: the same mask at every call (for differences), or the
    mask another library drew."""

    def __init__(self, draws: np.ndarray):
        self.draws = np.asarray(draws, dtype=np.float64)
        self.calls = 0

    def random(self, shape):
        assert tuple(shape) == self.draws.shape, (shape, self.draws.shape)
        self.calls += 1
        return self.draws


def draws_keeping(keep: np.ndarray) -> np.ndarray:
    """Uniform draws that keep exactly where ``keep`` is true, for any p in (0, 0.95]."""
    return np.where(keep, 0.95, 0.0)


def test_training_mode_zeroes_with_probability_p_and_scales_the_rest_by_one_over_one_minus_p():
    x = Tensor(np.random.default_rng(0).uniform(0.5, 1.5, size=(400, 250)))
    out = Dropout(0.3, generator=np.random.default_rng(1))(x).data
    kept = out != 0
    assert abs(kept.mean() - 0.7) < 0.005  # 100,000 draws: the standard error is 0.0014
    np.testing.assert_array_equal(out[kept], x.data[kept] * (1 / 0.7))  # the inverted scale, as PyTorch takes it


def test_the_mask_is_the_generators_draws_at_least_p():
    x = Tensor(np.arange(1.0, 7.0).reshape(2, 3))
    out = Dropout(0.5, generator=FixedDraws([[0.1, 0.5, 0.9], [0.49, 0.51, 0.0]]))(x).data
    np.testing.assert_array_equal(out, [[0.0, 4.0, 6.0], [0.0, 10.0, 0.0]])


def test_p_zero_and_evaluation_mode_pass_the_input_on_unchanged_and_draw_nothing():
    x = Tensor(np.ones((3, 4)))
    draws = FixedDraws(np.zeros((3, 4)))
    assert Dropout(0.0, generator=draws)(x) is x
    layer = Dropout(0.6, generator=draws)
    assert layer.eval() is layer and not layer.training
    assert layer(x) is x
    assert draws.calls == 0
    layer.train()
    assert layer(x).data.sum() == 0.0 and draws.calls == 1


def test_p_one_drops_everything_and_passes_no_gradient_as_pytorch():
    x = Tensor(np.full((2, 2), 3.0), requires_grad=True)
    out = Dropout(1.0, generator=np.random.default_rng(0))(x)
    out.sum().backward()
    np.testing.assert_array_equal(out.data, np.zeros((2, 2)))
    np.testing.assert_array_equal(x.grad, np.zeros((2, 2)))
    torch_out = torch.nn.functional.dropout(torch.full((2, 2), 3.0, dtype=torch.float64), p=1.0, training=True)
    np.testing.assert_array_equal(torch_out.numpy(), out.data)


@pytest.mark.parametrize("p", [-0.1, 1.5, True])
def test_a_probability_outside_zero_to_one_is_refused(p):
    with pytest.raises(ValueError, match="between 0 and 1"):
        Dropout(p)


def test_gradient_by_central_differences_with_a_fixed_mask():
    rng = np.random.default_rng(3)
    x, w = rng.normal(size=(5, 3)), rng.normal(size=(3, 4))
    draws = FixedDraws(rng.uniform(size=(5, 4)))
    dropout = Dropout(0.4, generator=draws)

    def f(x, w):
        return dropout((x @ w).tanh())

    upstream = upstream_for((5, 4))
    _, grads = tensor_grads(f, [x, w], seed=upstream)
    for got, want in zip(grads, tensor_fd(f, [x, w], seed=upstream)):
        assert_close_fd(got, want, what="dropout(tanh(x @ w))")
    assert draws.calls > 1 and 0 < (draws.draws >= 0.4).mean() < 1  # one mask, some kept and some dropped


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_the_same_mask_gives_pytorchs_output_bit_for_bit(p):
    x = np.random.default_rng(4).uniform(0.1, 2.0, size=(40, 30))  # no zero: PyTorch's zeros are its mask
    torch.manual_seed(11)
    torch_out = torch.nn.functional.dropout(torch.tensor(x), p=p, training=True).numpy()
    keep = torch_out != 0.0
    assert 0 < keep.mean() < 1
    out = Dropout(p, generator=FixedDraws(draws_keeping(keep)))(Tensor(x)).data
    np.testing.assert_array_equal(out, torch_out)


@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
def test_gradient_against_pytorch_float64_with_pytorchs_own_mask(p):
    rng = np.random.default_rng(4)
    x, w = rng.uniform(0.1, 2.0, size=(6, 5)), rng.normal(size=(5, 7))
    upstream = rng.normal(size=(6, 7))
    torch.manual_seed(11)
    tx, tw = (torch.tensor(a, requires_grad=True) for a in (x, w))
    torch_out = torch.nn.functional.dropout(torch.relu(tx @ tw) + 1.0, p=p, training=True)  # no zero before
    torch_out.backward(torch.tensor(upstream))
    keep = torch_out.detach().numpy() != 0.0  # where PyTorch kept
    assert 0 < keep.mean() < 1
    ex, ew = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
    out = Dropout(p, generator=FixedDraws(draws_keeping(keep)))((ex @ ew).relu() + 1.0)
    out.backward(upstream)
    assert_close_torch(out.data, torch_out.detach().numpy(), what="dropout: output")  # products: BLAS's rounding
    assert_close_torch(ex.grad, tx.grad.numpy(), what="dropout: x")
    assert_close_torch(ew.grad, tw.grad.numpy(), what="dropout: w")


def test_train_and_eval_reach_every_module_inside_as_pytorchs():
    slot = Sequential(Tanh(), Dropout(0.2))
    model = Sequential(Linear(2, 3), slot, Linear(3, 1))
    assert model.training and slot.training and slot[1].training  # PyTorch's start
    assert list(model.children()) == model.modules
    assert model.eval() is model
    assert not any(m.training for m in (model, slot, slot[0], slot[1], model[0], model[2]))
    model.train()
    assert all(m.training for m in (model, slot, slot[1]))

    class Holder(Module):  # modules kept in attributes and in lists, as a scalar MLP keeps its layers
        def __init__(self):
            self.first = Dropout(0.5)
            self.rest = [Dropout(0.1), (Dropout(0.3),)]

    holder = Holder().eval()
    assert [d.training for d in (holder.first, holder.rest[0], holder.rest[1][0])] == [False, False, False]


def test_an_activation_slot_with_dropout_keeps_the_parameter_names_and_its_gradient_health():
    rng = np.random.default_rng(5)
    plain = Sequential(Linear(2, 4), ReLU(), Linear(4, 4), Tanh(), Linear(4, 1))
    dropped = Sequential(Linear(2, 4), Sequential(ReLU(), Dropout(0.5)), Linear(4, 4), Tanh(), Linear(4, 1))
    assert list(dropped.state_dict()) == list(plain.state_dict()) == [
        "0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    dropped.load_state_dict(plain.state_dict())
    x = rng.normal(size=(30, 2))
    dropped.eval()
    np.testing.assert_array_equal(dropped(Tensor(x)).data, plain(Tensor(x)).data)  # evaluated: no dropout
    health = gradient_health(dropped, x=x)
    assert [h.activation for h in health] == ["relu", "tanh", None]
    assert health[0].dead == gradient_health(plain, x=x)[0].dead
