"""L1 and L2 regularisation of a network's weights, as the TF Playground offers them (None / L1 / L2
with a rate).

As in the TF Playground only the weights are regularised (its links), not the biases (its nodes):
a bias shifts a unit, it does not make the function any less smooth, and shrinking it would pull
every boundary towards the origin. Here the weights are the parameters PyTorch names ``*.weight``
(a `Linear`'s matrix).

Two ways to use it:

- as a term of the objective, built in the graph: ``loss + rate * l1_penalty(weights(model))``,
  whose gradient autograd finds, ``rate * sign(w)`` (``l2_penalty`` is ``sum w^2 / 2``, gradient
  ``rate * w``);
- as the training loop applies it (`Regularization`, which `engine.train.train` takes): L2 adds
  ``rate * w`` to each weight's gradient after the backward pass, which is the same as the objective
  term and as ``torch.optim``'s ``weight_decay`` on the weights alone; L1 takes the proximal step
  after the optimizer's step, ``w <- sign(w) * max(|w| - t, 0)`` (a soft threshold) with
  ``t = rate * optimizer.step_scale(w)``: ``lr * rate`` for SGD, ``lr * rate / (sqrt(v_hat) + eps)``
  per weight for Adam.

Why the proximal step for L1: the subgradient ``rate * sign(w)`` never lets a weight rest at 0; it
overshoots zero each step and the weight jitters around it (by about ``lr * rate`` with SGD) plus
whatever the loss gradient adds. The soft threshold sets a weight that would cross zero to exactly 0,
and keeps it there while the loss pulls on it with less than ``rate``: the sparse solution L1 is
chosen for, and wires a diagram can fade out because they are 0, not 3e-4. With SGD this is close to
what the TF Playground does (a weight its L1 step would carry across zero is set to 0), less two of its
rules: such a weight is dead for good there (here a weight the loss needs can grow back), and its L1 step
takes the sign of the weight before the gradient step (here the threshold pulls towards 0 after it).
`engine.tf_playground_train.PlaygroundSGD` is its rule exactly.

Why scaled by the optimizer: Adam moves every weight by about ``lr`` a step whatever the size of its
gradient, so a fixed threshold ``lr * rate`` (rate < 1) is outrun and almost nothing reaches 0. The
proximal step in Adam's own per-weight scale keeps a zero weight at 0 exactly while its mean gradient
``|m_hat|`` is below ``rate``, which is the condition for a zero weight at a minimum of
``loss + rate * sum |w|``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..tensor import Tensor

REGULARIZATIONS = ("none", "l1", "l2")


def weights(model) -> list[Tensor]:
    """What L1 and L2 regularise: the parameters named ``*.weight`` of ``model`` (a `Linear`'s matrix), or those
    a model that knows better names itself, with a ``weights()`` method (a network without layers)."""
    if callable(getattr(model, "weights", None)):
        found = list(model.weights())
    else:
        found = [p for name, p in model.named_parameters() if name.rsplit(".", 1)[-1] == "weight"]
    if not found:
        raise ValueError("the model has no weight to regularise (a parameter named 'weight')")
    return found


def l1_penalty(params) -> Tensor:
    """``sum |w|`` over every tensor in ``params``, as a graph node: its gradient is ``sign(w)`` (0 at 0)."""
    params = list(params)
    total = params[0].abs().sum()
    for p in params[1:]:
        total = total + p.abs().sum()
    return total


def l2_penalty(params) -> Tensor:
    """``sum w^2 / 2`` over every tensor in ``params`` (the TF Playground's L2), gradient ``w``."""
    params = list(params)
    total = (params[0] * params[0]).sum()
    for p in params[1:]:
        total = total + (p * p).sum()
    return 0.5 * total


def soft_threshold_(params, threshold) -> None:
    """In place, ``w <- sign(w) * max(|w| - threshold, 0)``: the proximal step of ``threshold * |w|``.
    ``threshold`` is a number or an array of each weight's shape. A weight within ``threshold`` of zero
    becomes exactly 0 (``+0.0``); nan stays nan."""
    if not np.all(np.asarray(threshold) >= 0):
        raise ValueError(f"threshold must be >= 0, got {threshold}")
    for p in params:
        w = p.data
        shrunk = np.abs(w) - threshold
        # max(nan, 0) is nan in numpy, so a nan weight is not hidden as 0
        np.copysign(np.maximum(shrunk, 0.0), w, out=w)
        w[shrunk <= 0] = 0.0  # +0.0, not copysign's -0.0 for a negative weight


@dataclass(frozen=True)
class Regularization:
    """A choice of the TF Playground's Regularization ('none', 'l1' or 'l2') and its rate.

    ``Regularization("l1", 0.001)``; `engine.train.train` takes ``regularization="l1", rate=0.001``
    and builds one.
    """

    kind: str = "none"
    rate: float = 0.0

    def __post_init__(self):
        kind = "none" if self.kind is None else str(self.kind).lower()
        if kind not in REGULARIZATIONS:
            raise ValueError(f"regularization must be one of {REGULARIZATIONS}, not {self.kind!r}")
        if not (isinstance(self.rate, (int, float)) and not isinstance(self.rate, bool)) or not self.rate >= 0:
            raise ValueError(f"the regularization rate must be a number >= 0, got {self.rate!r}")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rate", float(self.rate))

    @property
    def active(self) -> bool:
        return self.kind != "none" and self.rate > 0

    def penalty(self, params) -> Tensor:
        """``rate * sum |w|`` or ``rate * sum w^2 / 2`` as a graph node (0 for 'none'); its gradient is
        what `add_gradient` adds."""
        params = list(params)
        if self.kind == "l1":
            return self.rate * l1_penalty(params)
        if self.kind == "l2":
            return self.rate * l2_penalty(params)
        return Tensor(0.0)

    def add_gradient(self, params) -> None:
        """After the backward pass, add the penalty's gradient to each parameter's: ``rate * w`` for L2,
        ``rate * sign(w)`` for L1 (the subgradient; the training loop uses `proximal_step` for L1)."""
        if not self.active:
            return
        for p in params:
            term = self.rate * (p.data if self.kind == "l2" else np.sign(p.data))
            p.grad = term if p.grad is None else p.grad + term

    def proximal_step(self, params, optimizer) -> None:
        """After ``optimizer``'s step, L1's soft threshold by ``rate`` times the optimizer's step scale:
        ``lr * rate`` for SGD (the TF Playground's rule), ``lr * rate / (sqrt(v_hat) + eps)`` per weight
        for Adam (nothing for 'none' and 'l2')."""
        if self.kind != "l1" or self.rate <= 0:
            return
        for p in params:
            soft_threshold_([p], self.rate * optimizer.step_scale(p))
