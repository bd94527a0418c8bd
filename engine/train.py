"""A Qt-free training loop: a generator of `TrainStep`s, for the GUI's worker thread and for scripts.

Each step trains on one batch and reports the loss and the train and test accuracies of
the weights that loss was computed with (before the optimizer's update); for a regression
problem a `RegressionStep` with the train and test loss, R² and mean absolute error instead.
Also the losses by name (`classification_loss`, `regression_loss`; the TF Playground's two,
`tanh_half_mse` and `half_mse`), predictions from logits,
a confusion matrix, and scikit-learn's `r2_score` and `mean_absolute_error`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .autograd import no_grad
from .data import as_generator
from .nn import functional as F
from .nn.regularization import Regularization, weights
from .tensor import Tensor


@dataclass(frozen=True)
class TrainStep:
    step: int
    loss: float
    train_accuracy: float
    test_accuracy: float | None


@dataclass(frozen=True)
class RegressionStep:
    """A regression step: the data loss of the batch (without the regularisation term, as the TF
    Playground shows it), the loss on the whole training and test sets, R² and mean absolute error,
    all for the weights before the step's update. Test figures are None without a test set."""

    step: int
    loss: float
    train_loss: float
    test_loss: float | None
    train_r2: float
    test_r2: float | None
    train_mae: float
    test_mae: float | None


def binary_loss(name: str) -> Callable[[Tensor, np.ndarray], Tensor]:
    """A loss for one logit per point and labels 0/1, by name: 'bce', 'hinge', 'mse' or 'tanh_half_mse'.

    All four put the decision boundary at logit 0: BCE with logits on 0/1 targets, the
    hinge and squared error on -1/+1 targets, and the TF Playground's half squared error of
    tanh(logit) on -1/+1 targets (`tanh_half_mse`).
    """
    if name == "bce":
        return lambda logits, y: F.binary_cross_entropy_with_logits(logits, y.reshape(logits.shape))
    if name == "hinge":
        return lambda logits, y: F.hinge_loss(logits, (2.0 * y - 1.0).reshape(logits.shape))
    if name == "mse":
        return lambda logits, y: F.mse_loss(logits, (2.0 * y - 1.0).reshape(logits.shape))
    if name == "tanh_half_mse":
        return tanh_half_mse
    raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(map(repr, BINARY_LOSSES))}")


def tanh_half_mse(logits: Tensor, y) -> Tensor:
    """The TF Playground's classification loss: its output unit is ``tanh`` of the logit, its error
    ``0.5 (output - t)^2`` per point (nn.ts Errors.SQUARE), averaged over the points, with t = +1 for a
    label > 0 and -1 otherwise (so labels 0/1 and -1/+1 both work). Its gradient for a logit z is
    ``(tanh z - t)(1 - tanh^2 z) / n``: the Playground's per-point derivative, averaged over the batch."""
    target = np.where(np.reshape(y, logits.shape) > 0, 1.0, -1.0)
    return F.half_mse_loss(logits.tanh(), target)


def half_mse(output: Tensor, y) -> Tensor:
    """The TF Playground's regression loss: ``0.5 (output - y)^2`` averaged over the points, on its linear
    output unit; gradient ``(output - y) / n``."""
    return F.half_mse_loss(output, np.reshape(y, output.shape))


BINARY_LOSSES = ("bce", "hinge", "mse", "tanh_half_mse")


def classification_loss(name: str) -> Callable[[Tensor, np.ndarray], Tensor]:
    """A binary loss by name (see `binary_loss`), or 'cross_entropy': softmax cross-entropy for one
    logit per class and labels 0..k-1, as ``torch.nn.functional.cross_entropy``."""
    if name == "cross_entropy":
        return lambda logits, y: F.cross_entropy(logits, y)
    if name in BINARY_LOSSES:
        return binary_loss(name)
    raise ValueError(f"unknown loss {name!r}; choose one of {', '.join(map(repr, (*BINARY_LOSSES, 'cross_entropy')))}")


REGRESSION_LOSSES = ("mse", "huber", "half_mse")


def regression_loss(name: str, delta: float = 1.0) -> Callable[[Tensor, np.ndarray], Tensor]:
    """A loss for one real output per point and real targets, by name: 'mse', 'huber' (with ``delta``) or
    'half_mse' (the TF Playground's, `half_mse`)."""
    if name == "mse":
        return lambda output, y: F.mse_loss(output, np.reshape(y, output.shape))
    if name == "huber":
        return lambda output, y: F.huber_loss(output, np.reshape(y, output.shape), delta=delta)
    if name == "half_mse":
        return half_mse
    raise ValueError(f"unknown regression loss {name!r}; choose one of {', '.join(map(repr, REGRESSION_LOSSES))}")


def r2_score(y_true, y_pred) -> float:
    """The coefficient of determination, ``1 - sum (y - pred)^2 / sum (y - mean y)^2``, as scikit-learn:
    for constant targets 1.0 if every prediction is exact, else 0.0; nan for fewer than two points."""
    y_true, y_pred = _paired("r2_score", y_true, y_pred)
    if len(y_true) < 2:
        return float("nan")
    residual = float(np.sum((y_true - y_pred) ** 2))
    total = float(np.sum((y_true - y_true.mean()) ** 2))
    if total == 0.0:
        return 1.0 if residual == 0.0 else 0.0
    return 1.0 - residual / total


def mean_absolute_error(y_true, y_pred) -> float:
    """``mean |y - pred|`` (nan for no points)."""
    y_true, y_pred = _paired("mean_absolute_error", y_true, y_pred)
    return float(np.mean(np.abs(y_true - y_pred))) if y_true.size else float("nan")


def _paired(name, y_true, y_pred):
    y_true = np.asarray(y_true, dtype=np.float64).reshape(-1)
    y_pred = np.asarray(y_pred, dtype=np.float64).reshape(-1)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"{name}: y_true and y_pred have different lengths: {len(y_true)} and {len(y_pred)}")
    return y_true, y_pred


def predict(logits: np.ndarray) -> np.ndarray:
    """Class labels from logits: logit > 0 for one output, argmax for several."""
    logits = np.asarray(logits)
    if logits.ndim == 2 and logits.shape[1] > 1:
        return logits.argmax(axis=1)
    return (logits.reshape(-1) > 0).astype(np.int64)


def accuracy(logits: np.ndarray, labels: np.ndarray) -> float:
    """Share of points classified right: logit > 0 for one output, argmax for several."""
    labels = np.asarray(labels)
    return float(np.mean(predict(logits) == labels)) if labels.size else float("nan")


def confusion_matrix(y_true, y_pred, n_classes: int) -> np.ndarray:
    """Counts (k, k): row i, column j is how many points of class i were predicted as class j
    (scikit-learn's orientation: rows are the truth)."""
    y_true, y_pred = np.asarray(y_true, dtype=np.int64).reshape(-1), np.asarray(y_pred, dtype=np.int64).reshape(-1)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred have different lengths: {len(y_true)} and {len(y_pred)}")
    for name, labels in (("y_true", y_true), ("y_pred", y_pred)):
        if labels.size and (labels.min() < 0 or labels.max() >= n_classes):
            raise ValueError(f"{name} holds labels outside 0..{n_classes - 1}")
    return np.bincount(y_true * n_classes + y_pred, minlength=n_classes * n_classes).reshape(n_classes, n_classes)


PROBLEMS = ("classification", "regression")


def train(model, optimizer, loss_fn, X_train, y_train, X_test=None, y_test=None, batch_size: int | None = None,
          steps: int | None = None, random_state=None, scheduler=None, *, problem: str = "classification",
          regularization: str | Regularization | None = None, rate: float = 0.0
          ) -> Iterator[TrainStep | RegressionStep]:
    """Train ``model`` with ``optimizer`` on ``loss_fn(logits, labels)``; yields a `TrainStep` per step.

    ``batch_size=None`` trains on the whole training set each step; otherwise each epoch
    visits the points in a new random order. A ``scheduler`` (`engine.optim.StepLR`, ...) is
    stepped after every optimizer step. Runs forever unless ``steps`` is given: the caller
    stops pulling when it is done.

    ``problem="regression"`` (one real output, ``loss_fn`` from `regression_loss`) yields
    `RegressionStep`s: losses, R² and mean absolute error in place of accuracies.

    ``regularization`` ('none', 'l1' or 'l2', or a `Regularization`) with ``rate`` regularises the
    weights (not the biases), as the TF Playground: L2 adds ``rate * w`` to each weight's gradient,
    L1 soft-thresholds the weights by ``rate`` times the optimizer's step scale (``lr`` for SGD) after
    each optimizer step (see `engine.nn.regularization`). The loss reported is the data loss alone.
    """
    if problem not in PROBLEMS:
        raise ValueError(f"problem must be one of {PROBLEMS}, not {problem!r}")
    regression = problem == "regression"
    if not isinstance(regularization, Regularization):
        regularization = Regularization(regularization, rate)
    regularized = weights(model) if regularization.active else []
    X_train, y_train = np.asarray(X_train, dtype=np.float64), np.asarray(y_train)
    has_test = X_test is not None and len(X_test) > 0
    if has_test:
        X_test, y_test = np.asarray(X_test, dtype=np.float64), np.asarray(y_test)
    n = len(X_train)
    if n == 0:
        raise ValueError("train: the training set is empty")
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise ValueError(f"batch_size must be a positive integer or None (full batch), not {batch_size!r}")
    full_batch = batch_size is None or batch_size >= n
    rng = as_generator(random_state)
    order, position = np.arange(n), n

    step = 0
    while steps is None or step < steps:
        if full_batch:
            X_batch, y_batch = X_train, y_train
        else:
            if position + batch_size > n:  # a new epoch
                order, position = rng.permutation(n), 0
            picked = order[position:position + batch_size]
            position += batch_size
            X_batch, y_batch = X_train[picked], y_train[picked]

        logits = model(Tensor(X_batch))
        loss = loss_fn(logits, y_batch)
        with no_grad():
            if regression:
                record = _regression_record(model, loss_fn, logits, loss, full_batch, X_train, y_train,
                                            X_test, y_test, has_test)
            elif full_batch:
                train_accuracy = accuracy(logits.data, y_batch)
            else:
                train_accuracy = accuracy(model(Tensor(X_train)).data, y_train)
            if not regression:
                test_accuracy = accuracy(model(Tensor(X_test)).data, y_test) if has_test else None
        optimizer.zero_grad()
        loss.backward()
        if regularization.kind == "l2":  # L2 through the gradient; L1 after the step, as a proximal step
            regularization.add_gradient(regularized)
        optimizer.step()
        regularization.proximal_step(regularized, optimizer)
        if scheduler is not None:
            scheduler.step()
        step += 1
        if regression:
            yield RegressionStep(step, loss.item(), *record)
        else:
            yield TrainStep(step, loss.item(), train_accuracy, test_accuracy)


def _regression_record(model, loss_fn, output, loss, full_batch, X_train, y_train, X_test, y_test, has_test):
    """(train_loss, test_loss, train_r2, test_r2, train_mae, test_mae) of the current weights."""
    if output.ndim == 2 and output.shape[1] != 1:
        raise ValueError(f"regression needs one output per point, the model gives {output.shape[1]}")
    if full_batch:
        train_output, train_loss = output.data, loss.item()
    else:
        train_output = model(Tensor(X_train)).data
        train_loss = loss_fn(Tensor(train_output), y_train).item()
    test_loss = test_r2 = test_mae = None
    if has_test:
        test_output = model(Tensor(X_test)).data
        test_loss = loss_fn(Tensor(test_output), y_test).item()
        test_r2, test_mae = r2_score(y_test, test_output), mean_absolute_error(y_test, test_output)
    return (train_loss, test_loss, r2_score(y_train, train_output), test_r2,
            mean_absolute_error(y_train, train_output), test_mae)
