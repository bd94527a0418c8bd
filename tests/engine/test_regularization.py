"""L1 and L2 regularisation (`engine.nn.regularization`) and their use in `engine.train.train`: the penalties
and their gradients against PyTorch float64, the proximal (soft-threshold) step, Adam's step scale, and the
TF Playground's claim that L1 drives most weights of a network to zero while it still learns."""

import numpy as np
import pytest
import torch

import engine
from engine import Tensor
from engine.data import make_moons, train_test_split
from engine.nn import Linear, Regularization, Sequential, Tanh
from engine.nn.regularization import l1_penalty, l2_penalty, soft_threshold_, weights
from engine.optim import SGD, Adam
from engine.train import binary_loss, train


def _net(seed, sizes=(2, 16, 16, 1)):
    engine.manual_seed(seed)
    layers = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers.append(Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(Tanh())
    return Sequential(*layers)


def _torch_copy(model):
    """A float64 torch copy of a Linear/Tanh Sequential with the same weights."""
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
    return torch.nn.Sequential(*layers)


def _moons(seed):
    X, y = make_moons(200, noise=0.1, random_state=seed)
    return train_test_split(X, y, random_state=seed)


# --- which parameters --------------------------------------------------------------------------------------


def test_only_the_weights_are_regularised_not_the_biases():
    model = _net(0, (2, 3, 1))
    found = weights(model)
    assert [p.shape for p in found] == [(3, 2), (1, 3)]
    assert all(p is q for p, q in zip(found, (model[0].weight, model[2].weight)))


# --- penalties and gradients against torch ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["l1", "l2"])
def test_penalised_objective_and_its_gradient_match_torch(kind):
    lam = 0.03
    X_train, _, y_train, _ = _moons(1)
    model = _net(1)
    w = weights(model)
    w[0].data[0, 0] = 0.0  # sign(0) = 0 in both
    tmodel = _torch_copy(model)
    logits = model(Tensor(X_train))
    loss = binary_loss("bce")(logits, y_train) + Regularization(kind, lam).penalty(w)
    loss.backward()
    tw = [tmodel[0].weight, tmodel[2].weight, tmodel[4].weight]
    penalty = sum(p.abs().sum() for p in tw) if kind == "l1" else 0.5 * sum((p * p).sum() for p in tw)
    tlogits = tmodel(torch.from_numpy(X_train))
    tloss = torch.nn.functional.binary_cross_entropy_with_logits(tlogits[:, 0], torch.from_numpy(y_train * 1.0))
    (tloss + lam * penalty).backward()
    assert abs(loss.item() - tloss.item() - lam * penalty.item()) <= 1e-12
    engine_params = model.parameters()
    for p, tp in zip(engine_params, tmodel.parameters()):
        np.testing.assert_allclose(p.grad, tp.grad.numpy(), rtol=1e-12, atol=1e-14)
    # the penalty's own part of a weight's gradient is lam * sign(w) (or lam * w), 0 for the zero weight
    term = lam * (np.sign(w[0].data) if kind == "l1" else w[0].data)
    assert term[0, 0] == 0.0


def test_add_gradient_is_the_penalty_gradient():
    for kind in ("l1", "l2"):
        model = _net(2, (2, 4, 1))
        w = weights(model)
        Regularization(kind, 0.1).penalty(w).backward()
        by_graph = [p.grad.copy() for p in w]
        for p in w:
            p.grad = None
        Regularization(kind, 0.1).add_gradient(w)
        for got, want in zip((p.grad for p in w), by_graph):
            np.testing.assert_array_equal(got, want)
    assert l1_penalty([Tensor([[-2.0, 0.5]])]).item() == 2.5
    assert l2_penalty([Tensor([[-2.0, 0.5]])]).item() == 0.5 * 4.25


def test_regularization_choices_are_checked():
    assert Regularization(None, 0.1).kind == "none" and not Regularization("L1", 0.0).active
    assert Regularization("L1", 0.001) == Regularization("l1", 0.001)
    with pytest.raises(ValueError, match="regularization must be one of"):
        Regularization("l3", 0.1)
    for rate in (-0.1, float("nan"), "0.1", True):
        with pytest.raises(ValueError, match="rate must be a number >= 0"):
            Regularization("l1", rate)


# --- the proximal step ---------------------------------------------------------------------------------------------


def test_soft_threshold_by_hand():
    w = Tensor(np.array([-0.5, -0.05, 0.0, 0.02, 0.3, np.nan]), requires_grad=True)
    soft_threshold_([w], 0.1)
    np.testing.assert_allclose(w.data[:5], [-0.4, 0.0, 0.0, 0.0, 0.2], rtol=1e-15)
    assert np.isnan(w.data[5]) and not np.signbit(w.data[1])  # +0.0, nan not hidden


def test_an_sgd_step_with_l1_is_the_gradient_step_then_the_soft_threshold():
    X_train, _, y_train, _ = _moons(3)
    model = _net(3)
    before = {name: p.data.copy() for name, p in model.named_parameters()}
    lr, rate = 0.5, 0.2
    tmodel = _torch_copy(model)
    tlogits = tmodel(torch.from_numpy(X_train))
    torch.nn.functional.binary_cross_entropy_with_logits(tlogits[:, 0], torch.from_numpy(y_train * 1.0)).backward()
    next(train(model, SGD(model.parameters(), lr=lr), binary_loss("bce"), X_train, y_train,
               regularization="l1", rate=rate))
    zeroed = 0
    for (name, p), tp in zip(model.named_parameters(), tmodel.parameters()):
        stepped = before[name] - lr * tp.grad.numpy()
        if name.endswith("weight"):  # TF Playground: a weight its L1 step would carry across 0 is set to 0
            want = np.where(np.abs(stepped) <= lr * rate, 0.0, stepped - lr * rate * np.sign(stepped))
            zeroed += int(np.sum(want == 0))
        else:
            want = stepped  # biases are not regularised
        np.testing.assert_allclose(p.data, want, rtol=1e-12, atol=1e-15)
    assert zeroed > 10


def test_adam_step_scale_is_what_the_step_multiplied_the_mean_gradient_by():
    model = _net(4, (2, 5, 1))
    optimizer = Adam(model.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    p = model[0].weight
    assert optimizer.step_scale(p) == 0.01  # not stepped yet
    for _ in range(3):
        for q in model.parameters():
            q.grad = rng.normal(size=q.shape) * rng.uniform(1e-4, 1, size=q.shape)
        before = p.data.copy()
        optimizer.step()
        m_hat = optimizer.state[0]["exp_avg"] / (1 - 0.9 ** optimizer.state[0]["step"])
        np.testing.assert_allclose(before - p.data, optimizer.step_scale(p) * m_hat, rtol=1e-12)
    assert SGD(model.parameters(), lr=0.3).step_scale(p) == 0.3
    with pytest.raises(ValueError, match="not one of this optimizer's parameters"):
        optimizer.step_scale(Tensor(np.zeros(2), requires_grad=True))


@pytest.mark.parametrize("gradient, stays_zero", [(0.0005, True), (-0.0009, True), (0.002, False), (-0.0011, False)])
def test_with_adam_a_zero_weight_stays_zero_while_its_mean_gradient_is_below_the_rate(gradient, stays_zero):
    """The L1 optimality condition: at a minimum of loss + rate |w|, w = 0 exactly when |dloss/dw| <= rate.
    Adam moves a zero weight by about lr whatever its gradient's size; the threshold lr rate / sqrt(v_hat)
    brings it back exactly when |m_hat| < rate."""
    w = Tensor(np.zeros((1, 1)), requires_grad=True)
    optimizer, regularization = Adam([w], lr=0.01), Regularization("l1", 0.001)
    for _ in range(20):
        w.grad = np.full((1, 1), gradient)
        optimizer.step()
        regularization.proximal_step([w], optimizer)
        assert (w.data[0, 0] == 0.0) == stays_zero
    if not stays_zero:  # it moved against the gradient, by lr (1 - rate / |g|) a step
        assert np.sign(w.data[0, 0]) == -np.sign(gradient)
        assert abs(w.data[0, 0]) == pytest.approx(20 * 0.01 * (1 - 0.001 / abs(gradient)), rel=1e-4)  # eps = 1e-8 aside


def test_l2_in_train_is_weight_decay_on_the_weights_alone():
    X_train, _, y_train, _ = _moons(5)
    model, twin = _net(5), _net(5)
    lr, rate = 0.1, 0.05
    steps = list(train(model, SGD(model.parameters(), lr=lr), binary_loss("bce"), X_train, y_train, steps=3,
                       regularization="l2", rate=rate))
    # the same with torch: SGD whose weight_decay applies to the weight tensors only
    tmodel = _torch_copy(twin)
    tw = [p for name, p in tmodel.named_parameters() if name.endswith("weight")]
    tb = [p for name, p in tmodel.named_parameters() if name.endswith("bias")]
    optimizer = torch.optim.SGD([{"params": tw, "weight_decay": rate}, {"params": tb}], lr=lr)
    for record in steps:
        optimizer.zero_grad()
        tloss = torch.nn.functional.binary_cross_entropy_with_logits(
            tmodel(torch.from_numpy(X_train))[:, 0], torch.from_numpy(y_train * 1.0))
        tloss.backward()
        optimizer.step()
        assert abs(record.loss - tloss.item()) <= 1e-12  # the reported loss is the data loss alone
    for p, tp in zip(model.parameters(), tmodel.parameters()):
        np.testing.assert_allclose(p.data, tp.detach().numpy(), rtol=1e-12, atol=1e-15)


# --- the TF Playground's claim ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_l1_drives_most_weights_of_a_2_16_16_1_network_to_zero_and_it_still_learns_the_moons(seed):
    X_train, X_test, y_train, y_test = _moons(seed)
    model = _net(seed)
    optimizer = Adam(model.parameters(), lr=0.01)
    *_, record = train(model, optimizer, binary_loss("bce"), X_train, y_train, X_test, y_test, steps=600,
                       regularization="l1", rate=0.001)
    w = np.concatenate([p.data.ravel() for p in weights(model)])
    assert len(w) == 2 * 16 + 16 * 16 + 16
    print(f"seed {seed}: {np.mean(np.abs(w) < 1e-3):.0%} of weights below 1e-3 ({np.mean(w == 0):.0%} exactly 0), "
          f"test accuracy {record.test_accuracy:.0%}")
    assert np.mean(w == 0.0) >= 0.5  # exactly zero, not merely small
    assert record.test_accuracy >= 0.95


@pytest.mark.parametrize("seed", range(3))
def test_without_l1_the_weights_stay_dense(seed):
    X_train, X_test, y_train, y_test = _moons(seed)
    model = _net(seed)
    for _ in train(model, Adam(model.parameters(), lr=0.01), binary_loss("bce"), X_train, y_train, steps=600):
        pass
    w = np.concatenate([p.data.ravel() for p in weights(model)])
    assert np.mean(np.abs(w) < 1e-3) < 0.05
