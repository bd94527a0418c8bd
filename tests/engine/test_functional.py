"""`engine.nn.functional` losses against torch.nn.functional in float64: value and input gradient for every
reduction, extreme logits, shape checks and reduction names."""

import os
import sys

import mpmath
import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from engine import Tensor
from engine.nn import functional as F

sys.path.insert(0, os.path.dirname(__file__))
from oracles import check_tensor  # noqa: E402  (helpers next to this file; tests/ is not a package)

RTOL = 1e-12
REDUCTIONS = ["mean", "sum", "none"]


def rel_close(got, want, rtol=RTOL, atol=0.0):
    """Elementwise |got - want| <= atol + rtol |want|, non-finite entries equal."""
    got = np.asarray(got, dtype=np.float64)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.all(np.isfinite(got) == np.isfinite(want)), (got, want)
    finite = np.isfinite(want)
    assert np.array_equal(got[~finite], want[~finite])
    diff = np.abs(got[finite] - want[finite])
    bound = atol + rtol * np.abs(want[finite])
    assert np.all(diff <= bound), f"worst {np.max(diff - bound):.3g} over the bound; got {got}, want {want}"


def run_both(engine_loss, torch_loss, x, target, reduction, torch_target=None, **kwargs):
    """Loss value and input gradient from both engines, with a random upstream gradient for 'none'."""
    xt = Tensor(x, requires_grad=True)
    out = engine_loss(xt, target, reduction=reduction, **kwargs)
    upstream = np.random.default_rng(5).normal(size=out.shape) if reduction == "none" else np.ones(())
    out.backward(upstream)
    tx = torch.tensor(x, requires_grad=True)
    ttarget = torch.tensor(target) if torch_target is None else torch_target
    tout = torch_loss(tx, ttarget, reduction=reduction, **kwargs)
    tout.backward(torch.tensor(upstream))
    return out, xt.grad, tout, tx.grad


SHAPES = [(7,), (4, 3), (2, 3, 2)]


# --- mse_loss -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss_matches_torch(shape, reduction):
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=shape), rng.normal(size=shape)
    out, grad, tout, tgrad = run_both(F.mse_loss, TF.mse_loss, x, y, reduction)
    assert out.shape == tuple(tout.shape)
    rel_close(out.data, tout)
    rel_close(grad, tgrad)


def test_mse_loss_gradient_reaches_a_target_that_requires_grad():
    x, y = Tensor([1.0, 2.0], requires_grad=True), Tensor([0.5, 4.0], requires_grad=True)
    F.mse_loss(x, y).backward()
    tx, ty = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([0.5, 4.0], requires_grad=True)
    TF.mse_loss(tx, ty).backward()
    rel_close(x.grad, tx.grad)
    rel_close(y.grad, ty.grad)


# --- binary_cross_entropy_with_logits -----------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_with_logits_matches_torch(shape, reduction):
    rng = np.random.default_rng(1)
    x = rng.normal(size=shape) * 3
    y = rng.integers(0, 2, size=shape).astype(np.float64)
    out, grad, tout, tgrad = run_both(F.binary_cross_entropy_with_logits, TF.binary_cross_entropy_with_logits,
                                      x, y, reduction)
    assert out.shape == tuple(tout.shape)
    rel_close(out.data, tout)
    rel_close(grad, tgrad)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_with_logits_matches_torch_for_soft_targets(reduction):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(5, 4)) * 4
    y = rng.uniform(size=(5, 4))
    out, grad, tout, tgrad = run_both(F.binary_cross_entropy_with_logits, TF.binary_cross_entropy_with_logits,
                                      x, y, reduction)
    rel_close(out.data, tout)
    rel_close(grad, tgrad)


EXTREME = np.array([1000.0, -1000.0, 30.0, -30.0, 710.0, -710.0, 40.0, -40.0, 0.0])


def _exact_bce(x, y):
    """softplus(x) - x*y, as max(x, 0) - x*y + log(1 + e^-|x|) in 50 digits (no cancellation)."""
    with mpmath.workdps(50):
        x = mpmath.mpf(x)
        return float(max(x, 0) - x * y + mpmath.log1p(mpmath.exp(-abs(x))))


@pytest.mark.parametrize("label", [0.0, 1.0])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_with_logits_at_extreme_logits_is_finite_and_matches_torch(label, reduction):
    y = np.full_like(EXTREME, label)
    out, grad, tout, tgrad = run_both(F.binary_cross_entropy_with_logits, TF.binary_cross_entropy_with_logits,
                                      EXTREME, y, reduction)
    assert np.all(np.isfinite(out.data)) and np.all(np.isfinite(grad))
    # torch computes a loss near 0 (a confident right answer) only to about 1e-15 absolutely (at label 0,
    # logit -30 it gives 9.24e-14 where the loss is 9.36e-14), and flushes sigmoid(-710) = 4.5e-309 in the
    # gradient to 0 where the engine keeps the subnormal: hence the absolute tolerances.
    rel_close(out.data, tout, atol=1e-14)
    rel_close(grad, tgrad, atol=1e-300)
    # and the engine is right to 1e-15 relative, even where torch is not
    exact = np.array([_exact_bce(x, label) for x in EXTREME])
    if reduction == "none":
        rel_close(out.data, exact, rtol=1e-15)
    else:
        want = exact.sum() if reduction == "sum" else exact.mean()
        rel_close(out.data, want, rtol=1e-15)


def test_bce_with_logits_extreme_values_by_hand():
    x = Tensor([1000.0, -1000.0, 1000.0, -1000.0], requires_grad=True)
    out = F.binary_cross_entropy_with_logits(x, [1.0, 0.0, 0.0, 1.0], reduction="none")
    assert out.tolist() == [0.0, 0.0, 1000.0, 1000.0]
    out.backward(np.ones(4))
    assert x.grad.tolist() == [0.0, 0.0, 1.0, -1.0]


def test_bce_with_logits_gradient_reaches_the_target_as_torch():
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=6), rng.uniform(size=6)
    x, y = Tensor(X, requires_grad=True), Tensor(Y, requires_grad=True)
    F.binary_cross_entropy_with_logits(x, y).backward()
    tx, ty = torch.tensor(X, requires_grad=True), torch.tensor(Y, requires_grad=True)
    TF.binary_cross_entropy_with_logits(tx, ty).backward()
    rel_close(x.grad, tx.grad)
    rel_close(y.grad, ty.grad)


# --- cross_entropy ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n, c", [(6, 3), (1, 5), (10, 2)])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_with_integer_labels_matches_torch(n, c, reduction):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(n, c)) * 3
    labels = rng.integers(0, c, size=n)
    out, grad, tout, tgrad = run_both(F.cross_entropy, TF.cross_entropy, x, labels, reduction,
                                      torch_target=torch.tensor(labels))
    assert out.shape == tuple(tout.shape)
    rel_close(out.data, tout)
    rel_close(grad, tgrad, atol=1e-16)  # softmax entries near 0: absolute rounding of about 1e-17


def test_cross_entropy_with_large_logits_and_repeated_labels():
    x = np.array([[1000.0, 0.0, -1000.0], [0.0, 0.0, 0.0], [-500.0, 500.0, 499.0], [3.0, 3.0, -2.0]])
    labels = np.array([0, 2, 2, 2])
    out, grad, tout, tgrad = run_both(F.cross_entropy, TF.cross_entropy, x, labels, "mean",
                                      torch_target=torch.tensor(labels))
    assert np.isfinite(out.item())
    rel_close(out.data, tout)
    rel_close(grad, tgrad, atol=1e-16)


def test_cross_entropy_rejects_bad_labels():
    x = Tensor(np.zeros((4, 3)), requires_grad=True)
    with pytest.raises(ValueError, match=r"\(4, 3\).*\(5,\)"):
        F.cross_entropy(x, np.zeros(5, dtype=int))
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        F.cross_entropy(x, np.array([0, 1, 3, 0]))
    with pytest.raises(ValueError, match="integer"):
        F.cross_entropy(x, np.array([0.0, 1.5, 2.0, 0.0]))
    with pytest.raises(ValueError):
        F.cross_entropy(Tensor(np.zeros(3)), np.array([0]))


# --- hinge_loss --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("margin", [1.0, 0.5])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_hinge_loss_matches_torch_clamp(margin, reduction):
    rng = np.random.default_rng(6)
    x = rng.normal(size=(9,)) * 2
    y = np.where(rng.uniform(size=9) < 0.5, -1.0, 1.0)
    assert np.all(np.abs(margin - y * x) > 1e-3)  # away from the kink, where torch.clamp and relu differ

    def torch_hinge(tx, ty, reduction, margin):
        loss = torch.clamp(margin - ty * tx, min=0)
        return {"mean": loss.mean, "sum": loss.sum, "none": lambda: loss}[reduction]()

    out, grad, tout, tgrad = run_both(F.hinge_loss, torch_hinge, x, y, reduction, margin=margin)
    assert out.shape == tuple(tout.shape)
    rel_close(out.data, tout)
    rel_close(grad, tgrad)
    assert np.any(grad == 0.0) and np.any(grad != 0.0)  # both sides of the hinge were exercised


# --- huber_loss --------------------------------------------------------------------------------------------


def _huber_case(shape, seed, delta):
    """Differences spread over both regions and kept 1e-3 away from the kink at |d| = delta, where
    central differences straddle two formulas."""
    rng = np.random.default_rng(seed)
    y = rng.normal(size=shape)
    d = rng.uniform(0.05, 3.0, size=shape) * delta * rng.choice([-1.0, 1.0], size=shape)
    d[np.abs(np.abs(d) - delta) < 1e-3] += 2e-3
    return y + d, y


@pytest.mark.parametrize("delta", [1.0, 0.3, 2.5])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_huber_loss_matches_torch_and_finite_differences(shape, reduction, delta):
    x, y = _huber_case(shape, 11, delta)
    d = x - y
    assert np.any(np.abs(d) < delta) and np.any(np.abs(d) > delta)  # both regions exercised
    grads = check_tensor(
        lambda a, b: F.huber_loss(a, b, reduction=reduction, delta=delta),
        [x, y], "huber_loss", what=f"{shape} {reduction} delta={delta}",
        seed="auto" if reduction == "none" else None,
        torch_f=lambda a, b: TF.huber_loss(a, b, reduction=reduction, delta=delta),
    )
    # the gradient is d clipped to +-delta (over n for the mean): an outlier pulls with delta, not d
    if reduction == "sum":
        np.testing.assert_array_equal(grads[0], np.clip(d, -delta, delta))
        np.testing.assert_array_equal(grads[1], -np.clip(d, -delta, delta))


def test_huber_loss_values_by_hand():
    x = Tensor(np.array([0.0, 0.5, -1.0, 3.0, -4.0]), requires_grad=True)
    loss = F.huber_loss(x, np.zeros(5), reduction="none", delta=1.0)
    np.testing.assert_array_equal(loss.data, [0.0, 0.125, 0.5, 2.5, 3.5])
    loss.sum().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.5, -1.0, 1.0, -1.0])
    # a small delta: delta * (|d| - delta / 2)
    assert F.huber_loss(Tensor(np.array([2.0])), np.zeros(1), delta=0.5).item() == 0.5 * (2.0 - 0.25)


@pytest.mark.parametrize("value", [np.inf, -np.inf, np.nan])
def test_huber_loss_at_non_finite_inputs_matches_torch(value):
    x = np.array([value, 0.25])
    out, grad, tout, tgrad = run_both(F.huber_loss, TF.huber_loss, x, np.zeros(2), "none")
    np.testing.assert_array_equal(out.data, tout.detach().numpy())  # nan where torch has nan
    np.testing.assert_array_equal(grad, tgrad.numpy())
    assert np.isfinite(grad[0]) == (not np.isnan(value))  # +-inf pulls with +-delta; nan stays nan


def test_huber_loss_refuses_a_delta_that_is_not_positive():
    for delta in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="delta must be > 0"):
            F.huber_loss(Tensor(np.ones(3)), np.zeros(3), delta=delta)


# --- shapes and reductions ------------------------------------------------------------------------------


@pytest.mark.parametrize("loss", [F.mse_loss, F.binary_cross_entropy_with_logits, F.hinge_loss, F.huber_loss],
                         ids=["mse", "bce", "hinge", "huber"])
@pytest.mark.parametrize("x_shape, y_shape", [((3,), (3, 1)), ((4, 1), (4,)), ((2, 3), (3, 2))])
def test_shape_mismatch_raises_naming_both_shapes(loss, x_shape, y_shape):
    x = Tensor(np.zeros(x_shape), requires_grad=True)
    with pytest.raises(ValueError) as info:
        loss(x, np.zeros(y_shape))
    assert str(x_shape) in str(info.value) and str(y_shape) in str(info.value)


@pytest.mark.parametrize("loss, target", [
    (F.mse_loss, np.zeros(3)),
    (F.binary_cross_entropy_with_logits, np.zeros(3)),
    (F.hinge_loss, np.ones(3)),
    (F.huber_loss, np.zeros(3)),
], ids=["mse", "bce", "hinge", "huber"])
@pytest.mark.parametrize("reduction", ["avg", "Mean", None, "elementwise_mean"])
def test_bad_reduction_raises(loss, target, reduction):
    with pytest.raises(ValueError, match="reduction"):
        loss(Tensor(np.ones(3), requires_grad=True), target, reduction=reduction)


def test_cross_entropy_bad_reduction_raises():
    with pytest.raises(ValueError, match="reduction"):
        F.cross_entropy(Tensor(np.ones((2, 3)), requires_grad=True), np.array([0, 1]), reduction="batchmean")


# --- linear (the functional form) --------------------------------------------------------------------------


def test_functional_linear_without_bias_matches_torch():
    rng = np.random.default_rng(8)
    X, W = rng.normal(size=(5, 3)), rng.normal(size=(2, 3))
    x, w = Tensor(X, requires_grad=True), Tensor(W, requires_grad=True)
    out = F.linear(x, w)
    out.backward(np.ones((5, 2)))
    tx, tw = torch.tensor(X, requires_grad=True), torch.tensor(W, requires_grad=True)
    tout = TF.linear(tx, tw)
    tout.backward(torch.ones(5, 2, dtype=torch.float64))
    rel_close(out.data, tout, atol=1e-15)
    rel_close(x.grad, tx.grad, atol=1e-15)
    rel_close(w.grad, tw.grad, atol=1e-15)
