"""Training as the TF Playground trains: its network, its update, its epoch, its losses as it shows them
(all of it also importable from `engine.tf_playground`).

- `network`: its fully connected net (nn.ts buildNetwork) as an engine `Sequential`: one activation for
  every hidden layer (`ACTIVATIONS`), one output unit, its initial weights (`engine.nn.init.tf_playground_`).
  The model returns the output unit's total input; its activation, tanh for classification and the
  identity for regression, is applied by the loss (`LOSSES`), so the model's output is a logit as
  everywhere else in the engine (`engine.train.predict`, the boundary at 0).
- `PlaygroundSGD`: nn.ts updateWeights: plain SGD on the batch's mean derivative, then its L1 or L2
  step on the weights only, L1's weight that crosses zero set to 0 and frozen there for good.
- `epochs`: playground.ts oneStep, repeated: one pass over the training points in their fixed order,
  an update after every ``batch_size`` points, the points left over carried into the next pass's
  first batch; then its train and test loss over every point (`mean_loss`), shown as `format_loss`.

Read from tensorflow/playground at commit 02469bd (src/nn.ts, src/playground.ts, src/state.ts).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from .autograd import no_grad
from .nn import Identity, Linear, ReLU, Sequential, Sigmoid, Tanh, init
from .nn.regularization import Regularization
from .optim import Optimizer
from .tensor import Tensor
from .train import half_mse, tanh_half_mse

__all__ = [
    "ACTIVATIONS",
    "LOSSES",
    "PlaygroundSGD",
    "PlaygroundStep",
    "PlaygroundUpdate",
    "epochs",
    "format_loss",
    "mean_loss",
    "network",
    "output",
    "updates",
]

# state.ts activations: relu, tanh, sigmoid, linear (nn.ts Activations); the engine's ReLU has its
# derivative 0 at 0 as nn.ts's (`x <= 0 ? 0 : 1`)
ACTIVATIONS = {"relu": ReLU, "tanh": Tanh, "sigmoid": Sigmoid, "linear": Identity}
# Its output unit (playground.ts reset: LINEAR for regression, TANH otherwise) with Errors.SQUARE
LOSSES = {"classification": tanh_half_mse, "regression": half_mse}


def network(n_inputs: int, hidden: Sequence[int] = (4, 2), activation: str = "tanh", *,
            uniform=None, generator: np.random.Generator | None = None) -> Sequential:
    """Its network of shape [n_inputs, *hidden, 1] (its default hidden layers are [4, 2], tanh):
    ``Linear`` and the activation per hidden layer, then ``Linear(.., 1)``, started as
    `engine.nn.init.tf_playground_` starts it (from the uniform source ``uniform`` if given)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
    sizes = [n_inputs, *hidden, 1]
    if any(not isinstance(size, int) or size < 1 for size in sizes):
        raise ValueError(f"every layer needs at least one unit, got {sizes}")
    layers = []
    for index, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        layers.append(Linear(fan_in, fan_out))
        if index < len(sizes) - 2:
            layers.append(ACTIVATIONS[activation]())
    return init.tf_playground_(Sequential(*layers), generator=generator, uniform=uniform)


def _check_problem(problem):
    if problem not in LOSSES:
        raise ValueError(f"problem must be one of {', '.join(LOSSES)}, not {problem!r}")


def output(model, X, problem: str = "classification") -> np.ndarray:
    """The TF Playground's output unit for each point, shape (n,): tanh of the model's logit for
    classification (in (-1, 1), the colour of its heat map), the model's output for regression."""
    _check_problem(problem)
    with no_grad():
        z = model(Tensor(np.asarray(X, dtype=np.float64))).data.reshape(-1)
    return np.tanh(z) if problem == "classification" else z


def mean_loss(model, X, y, problem: str = "classification") -> float:
    """playground.ts getLoss: every point's ``0.5 (output - label)^2``, averaged (nan for no points, as
    its 0 / 0): its "Training loss" and "Test loss"."""
    _check_problem(problem)
    if len(X) == 0:
        return math.nan
    with no_grad():
        return LOSSES[problem](model(Tensor(np.asarray(X, dtype=np.float64))), np.asarray(y)).item()


def format_loss(loss: float) -> str:
    """A loss as the TF Playground shows it, JavaScript's ``toFixed(3)``: the exact value rounded to 3
    decimals with a tie rounded away from zero (0.0625 -> "0.063", where Python's format says "0.062"),
    "NaN" and "Infinity" as JavaScript spells them."""
    loss = float(loss)
    if math.isnan(loss):
        return "NaN"
    if math.isinf(loss):
        return "Infinity" if loss > 0 else "-Infinity"
    if abs(loss) >= 1e21:
        return repr(loss)  # toFixed gives up on fixed notation here, as JavaScript's String(x)
    if loss == 0:
        loss = 0.0  # (-0).toFixed(3) is "0.000"; a negative number that rounds to 0 keeps its "-"
    return str(Decimal(loss).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))


class PlaygroundSGD(Optimizer):
    """nn.ts updateWeights: SGD with the TF Playground's L1/L2 step on the weights.

    Each parameter moves by ``lr`` times its gradient; with the mean loss over a batch that is the
    Playground's ``(learningRate / numAccumulatedDers) * accErrorDer``. Then, for the parameters in
    ``regularized`` (the weights, its links: `engine.nn.regularization.weights`; never the biases, its
    nodes), the regularisation step ``w <- w - lr * rate * der(w_before)``, with the derivative of the
    weight *before* this step's gradient step (it reads it first): ``w_before`` for L2, its sign
    (0 at 0) for L1. A weight that L1's step carries across zero is set to 0 and is dead from then on:
    the Playground never updates it again (a reset makes a new optimizer).

    Where it differs from `engine.nn.Regularization` with `engine.optim.SGD`: L2 is the same update
    (to rounding); L1 there is a soft threshold by ``lr * rate`` after the step, which agrees while the
    gradient step keeps the weight's sign and the weight stays alive, and differs when the gradient
    step flips the sign (here L1 pushes on along the old sign's opposite, there towards zero) and when
    a zeroed weight is pulled by the loss (there it can grow back).
    """

    def __init__(self, params, lr: float = 0.03, regularization: str | None = "none", rate: float = 0.0,
                 regularized=()):
        super().__init__(params, lr)
        if self._scalar:
            raise TypeError("PlaygroundSGD updates Tensor parameters")
        self.regularization = Regularization(regularization, rate)
        chosen = {id(p) for p in regularized}
        known = {id(p) for p in self.params}
        if chosen - known:
            raise ValueError("regularized holds a tensor that is not among the optimizer's parameters")
        if self.regularization.kind != "none" and not chosen:
            raise ValueError("L1 or L2 needs the weights to regularise: pass regularized=weights(model)")
        self._regularized = [id(p) in chosen for p in self.params]

    def step(self) -> None:
        kind, lr, rate = self.regularization.kind, self.lr, self.regularization.rate
        for index, p in enumerate(self.params):
            if p.grad is None:
                continue
            w = p.data
            if not self._regularized[index] or kind == "none":
                w -= lr * p.grad  # a bias, or no regularisation: its plain step
                continue
            if kind == "l2":
                regul_der = w.copy()  # d/dw 0.5 w^2 = w
            else:
                regul_der = np.where(w < 0, -1.0, np.where(w > 0, 1.0, 0.0))  # d/dw |w|, 0 at 0
            stepped = w - lr * p.grad
            new = stepped - (lr * rate) * regul_der
            if kind == "l1":
                state = self.state[index]
                dead = np.asarray(state.get("dead", np.zeros(w.shape, dtype=bool)), dtype=bool)
                crossed = (stepped * new < 0) & ~dead  # crossed zero by the L1 step: 0, and dead
                new = np.where(crossed, 0.0, new)
                new = np.where(dead, w, new)  # a dead weight keeps its 0
                state["dead"] = dead | crossed
            w[...] = new

    def dead(self, param: Tensor) -> np.ndarray:
        """Which entries of ``param`` L1 has killed (all False for a parameter it never touched)."""
        for p, state in zip(self.params, self.state):
            if p is param:
                return np.asarray(state.get("dead", np.zeros(p.data.shape, dtype=bool)), dtype=bool).copy()
        raise ValueError("not a parameter of this optimizer")


@dataclass(frozen=True)
class PlaygroundStep:
    """One of the TF Playground's steps: its "Epoch" counter after it, and the losses it then shows."""

    epoch: int
    train_loss: float
    test_loss: float  # nan without test points


@dataclass(frozen=True)
class PlaygroundUpdate:
    """One update of `updates`: the loss its batch had (the mean of 0.5·err² at the weights before it), and
    whether it ended a pass over the training points (the TF Playground's Epoch counter goes up then)."""

    loss: float
    points: int         # the batch's points (more than ``batch_size`` where a pass's remainder was carried)
    ends_epoch: bool


def updates(model, optimizer, X_train, y_train, batch_size: int = 10,
            problem: str = "classification", start: int = 0) -> Iterator[PlaygroundUpdate]:
    """playground.ts oneStep's updates one by one, for ever: every training point in turn (always the same order:
    the shuffle came once, with the data) adds its derivative, and after every ``batch_size``-th point of a pass
    the optimizer (`PlaygroundSGD`) updates on the mean of those derivatives. The ``n % batch_size`` points left
    at the end of a pass carry over: the next pass's first update averages them with its first ``batch_size``
    points (all at the same weights, as none changed in between). Fewer points than ``batch_size`` never make
    an update, as there: then nothing is yielded. ``start``: the updates already made (a run resumed at a step
    goes on where its pass stood, the remainder of the pass before carried if it begins a pass)."""
    _check_problem(problem)
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    loss_fn = LOSSES[problem]
    X_train, y_train = np.asarray(X_train, dtype=np.float64), np.asarray(y_train)
    n = len(X_train)
    if n < batch_size:  # (i + 1) % batch_size is never 0 within a pass: no update, ever
        return
    ends = list(range(batch_size, n + 1, batch_size))
    passes, skip = divmod(int(start), len(ends))
    # The indices of points whose derivatives wait for the next update: a pass's remainder, after the first pass.
    carried = np.arange(ends[-1], n) if passes and not skip else np.arange(0)
    while True:
        for end in ends[skip:]:
            begin = end - batch_size
            if len(carried):
                picked = np.concatenate([carried, np.arange(begin, end)])
                X_batch, y_batch, carried = X_train[picked], y_train[picked], np.arange(0)
            else:
                X_batch, y_batch = X_train[begin:end], y_train[begin:end]
            optimizer.zero_grad()
            loss = loss_fn(model(Tensor(X_batch)), y_batch)
            loss.backward()
            optimizer.step()
            last = end == ends[-1]
            if last:
                carried = np.arange(end, n)
            yield PlaygroundUpdate(loss.item(), len(X_batch), last)
        skip = 0


def epochs(model, optimizer, X_train, y_train, X_test=None, y_test=None, batch_size: int = 10,
           problem: str = "classification", steps: int | None = None) -> Iterator[PlaygroundStep]:
    """playground.ts oneStep, once per item: the "Epoch" counter goes up by one after a pass of `updates` over
    the training points, then its losses over all the training and all the test points (`mean_loss`).
    ``X_train`` and ``X_test`` are the network's inputs (`engine.tf_playground.features` of the points); labels
    +1/-1 (or 0/1) for classification, real for regression. Runs forever unless ``steps`` is given.
    """
    _check_problem(problem)
    X_train, y_train = np.asarray(X_train, dtype=np.float64), np.asarray(y_train)
    if X_test is None:
        X_test, y_test = X_train[:0], y_train[:0]
    stream = updates(model, optimizer, X_train, y_train, batch_size, problem)
    updating = len(X_train) >= batch_size
    epoch = 0
    while steps is None or epoch < steps:
        epoch += 1
        if updating:
            while not next(stream).ends_epoch:
                pass
        yield PlaygroundStep(epoch, mean_loss(model, X_train, y_train, problem),
                             mean_loss(model, X_test, y_test, problem))
