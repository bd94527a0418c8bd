"""The TF Playground setting ("Data and loss as in the TF Playground"): what a run is when it is ticked. Free of Qt.

The MLCC worksheets quote the TensorFlow Playground's numbers ("test loss 0.177 or lower"); with this setting the
training tab's numbers mean the same (`engine.tf_playground`, read from its source):

- the data its generators make (circle, XOR, Gaussian, spiral; plane and multi Gaussian to regress) on its
  [-6, 6] square, 500 points to classify and 1,200 to regress, its noise (the slider's 0-50, a URL's up to 80,
  divided by 100) and its ratio of training to test points (10-90%), shuffled once with the data;
- labels +1 and -1 (shown as the two classes) on a tanh output unit, a regression's target on a linear one, and
  the loss the mean of ½ (output - label)² (`engine.train.tanh_half_mse`, `half_mse`);
- weights drawn from U(-0.5, 0.5) and biases 0.1 (`engine.nn.init.tf_playground_`), or all zeros;
- plain SGD after every batch, its L1 and L2 as it applies them (`engine.tf_playground.PlaygroundSGD`), the batches
  consecutive runs of the fixed order, a pass's remainder carried into the next pass's first update
  (`engine.tf_playground.updates`): one of the tab's steps is one update, and a pass over the training points
  (its "Epoch") is as many steps as there are batches in it;
- its losses shown with three decimals (`format_loss`, as its `toFixed(3)`).

What it did not have stays on offer beside it (other activations, one per layer, dropout, Repeat).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import engine.tf_playground as tp
from engine.nn import init
from engine.nn.regularization import weights
from engine.train import TrainStep, classification_loss, half_mse, regression_loss, tanh_half_mse

from .points import COLOUR_NAMES, SplitData, make_dataset, split
from .settings import DATASETS, TF_DATASETS

__all__ = ["TF_EXTENT", "TF_NAMES", "data_for", "loss_for", "page_first_weights", "percent_train", "tf_data",
           "tf_optimizer", "tf_steps"]

TF_NAMES = {"circles": "Circle", "xor": "Exclusive or", "blobs": "Gaussian", "spiral": "Spiral", "plane": "Plane",
            "gaussians": "Multi Gaussian"}
TF_EXTENT = (-6.0, 6.0, -6.0, 6.0)  # its heat map's domain: every dataset lies in it


def percent_train(test_fraction: float) -> int:
    """Its "ratio of training to test data" for our test share (a half: 50)."""
    return int(round(100 * (1.0 - test_fraction)))


def tf_data(settings) -> SplitData:
    """The points of ``settings`` as the TF Playground makes them (its classes as ours: -1 is class 0, +1 class 1)."""
    made = _made(settings, tp.as_source(settings.tf_seed or settings.seed))
    if settings.regression:
        y_train, y_test, classes = made.y_train.astype(np.float64), made.y_test.astype(np.float64), ()
    else:  # its -1 (orange) is our class 0, its +1 (blue) our class 1
        y_train, y_test = (np.asarray(y > 0, dtype=np.int64) for y in (made.y_train, made.y_test))
        classes = COLOUR_NAMES[:2]
    return SplitData(made.X_train, y_train, made.X_test, y_test, TF_EXTENT,
                     f"{TF_NAMES[settings.dataset]} (TF Playground)", classes)


def data_for(settings) -> SplitData:
    """The points the settings' generator makes (not a CSV): the TF Playground's, or the tab's own."""
    if settings.tf_playground:
        return tf_data(settings)
    s = settings
    X, y = make_dataset(s.dataset, s.points, s.noise, s.seed, s.classes)
    return split(X, y, s.test_fraction, s.seed, DATASETS[s.dataset], regression=s.regression)


def loss_for(settings):
    """The loss of ``settings``: the TF Playground's square error (`tanh_half_mse` to classify, `half_mse` to regress),
    or one of the engine's by name."""
    if settings.loss == "tf_square":
        return half_mse if settings.regression else tanh_half_mse
    return regression_loss(settings.loss) if settings.regression else classification_loss(settings.loss)


def _made(settings, source):
    return tp.make_dataset(TF_DATASETS[settings.dataset], round(100 * settings.noise, 6),
                           percent_train(settings.test_fraction), seed=source, n_samples=settings.points)


def page_first_weights(model, settings) -> bool:
    """With a TF Playground URL's seed: the page's very first weights, drawn from its stream where its data left it
    (as the page draws them once its data are made); True if drawn. Other initial weights (an ``init_seed``: a
    Reset, a Repeat's run) come from the tab's own draw."""
    if not (settings.tf_playground and settings.tf_seed and settings.init == "tf_playground"
            and settings.init_seed is None and not settings.trains_graph):
        return False
    source = tp.as_source(settings.tf_seed)
    _made(settings, source)  # the draws its data took
    init.tf_playground_(model, uniform=source)
    return True


def tf_optimizer(settings, model):
    """Its SGD, with its L1 or L2 on the weights (a graph's weights, a layer's `Linear` weights) at its rate."""
    return tp.PlaygroundSGD(model.parameters(), lr=settings.learning_rate, regularization=settings.regularization,
                            rate=settings.regularization_rate,
                            regularized=_weights(model) if settings.regularization != "none" else ())


def _weights(model):
    own = getattr(model, "weights", None)
    return own() if callable(own) else weights(model)


def tf_steps(model, optimizer, X_train, y_train, settings, scheduler=None, start: int = 0) -> Iterator[TrainStep]:
    """Its updates, one a step, as `engine.train.train` yields its steps: each step's loss (of its batch, at the
    weights before it), the accuracies left unknown (nan: the session reports them over the whole sets). A full
    batch (``batch_size`` None) is one update a pass, over every training point. ``start``: the steps taken so far
    (the order goes on where their pass stood)."""
    problem = "regression" if settings.regression else "classification"
    batch = settings.batch_size if settings.batch_size is not None else max(len(X_train), 1)
    step = start
    for update in tp.updates(model, optimizer, X_train, y_train, batch, problem, start):
        step += 1
        if scheduler is not None:
            scheduler.step()
        yield TrainStep(step, update.loss, float("nan"), None)
    while True:  # fewer points than a batch: its updates never come, and the weights stay
        yield TrainStep(step, tp.mean_loss(model, X_train, y_train, problem), float("nan"), None)
