"""`engine.train`: the two-moons acceptance test, the generator's contract, micrograd's scalar demo, and the
absence of garbage cycles after a training step."""

import gc
import itertools

import numpy as np
import pytest
import torch

import engine
from engine import Tensor, Value
from engine.data import make_moons, train_test_split
from engine.nn import MLP, Linear, Module, Sequential, Tanh
from engine.nn import functional as F
from engine.optim import SGD, Adam
from engine.train import TrainStep, accuracy, binary_loss, train


def _moons_model(seed):
    X, y = make_moons(200, noise=0.1, random_state=seed)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=seed)
    engine.manual_seed(seed)
    model = Sequential(Linear(2, 16), Tanh(), Linear(16, 16), Tanh(), Linear(16, 1))
    return model, X_train, X_test, y_train, y_test


# --- acceptance -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_moons_reaches_97_percent_test_accuracy_within_500_steps(seed):
    model, X_train, X_test, y_train, y_test = _moons_model(seed)
    assert len(X_train) == 150 and len(X_test) == 50
    optimizer = Adam(model.parameters(), lr=0.01)
    reached = None
    first = None
    for record in train(model, optimizer, binary_loss("bce"), X_train, y_train, X_test, y_test, steps=500):
        first = first or record
        if record.test_accuracy >= 0.97:
            reached = record
            break
    assert reached is not None, f"seed {seed}: test accuracy stayed below 0.97 for 500 steps"
    assert reached.loss < 0.5 * first.loss
    assert first.test_accuracy < 0.97  # it was learned, not given


def test_minibatch_training_runs_and_reduces_the_loss():
    model, X_train, X_test, y_train, y_test = _moons_model(0)
    optimizer = Adam(model.parameters(), lr=0.01)
    records = list(train(model, optimizer, binary_loss("bce"), X_train, y_train, X_test, y_test,
                         batch_size=16, steps=300, random_state=0))
    assert len(records) == 300
    early = np.mean([r.loss for r in records[:20]])
    late = np.mean([r.loss for r in records[-20:]])
    assert late < 0.5 * early
    assert records[-1].train_accuracy > 0.9 and records[-1].test_accuracy > 0.9
    # train accuracy is measured on the whole training set: a multiple of 1/150, not of 1/16
    def is_multiple_of(value, n):
        return abs(value * n - round(value * n)) < 1e-9

    assert all(is_multiple_of(r.train_accuracy, 150) for r in records)
    assert not all(is_multiple_of(r.train_accuracy, 16) for r in records)


class _Recorder(Module):
    """A linear model that remembers the batches it was trained on."""

    def __init__(self):
        self.linear = Linear(2, 1)
        self.batches = []

    def forward(self, x):
        if engine.is_grad_enabled():
            self.batches.append(x.data.copy())
        return self.linear(x)


def test_each_minibatch_epoch_visits_every_point_once_in_a_new_order():
    X = np.arange(64.0).reshape(32, 2)
    y = np.arange(32) % 2
    model = _Recorder()
    steps = list(train(model, SGD(model.parameters(), lr=0.0), binary_loss("bce"), X, y, batch_size=8, steps=12,
                       random_state=3))
    assert len(steps) == 12 and len(model.batches) == 12
    rows = [tuple(batch[:, 0].astype(int) // 2) for batch in model.batches]
    epochs = [sorted(itertools.chain(*rows[i:i + 4])) for i in range(0, 12, 4)]
    assert all(epoch == list(range(32)) for epoch in epochs)
    orders = [list(itertools.chain(*rows[i:i + 4])) for i in range(0, 12, 4)]
    assert orders[0] != orders[1] != orders[2]


def test_steps_n_yields_exactly_n_steps_numbered_from_one():
    model, X_train, X_test, y_train, y_test = _moons_model(0)
    optimizer = Adam(model.parameters(), lr=0.01)
    records = list(train(model, optimizer, binary_loss("bce"), X_train, y_train, X_test, y_test, steps=7))
    assert [r.step for r in records] == [1, 2, 3, 4, 5, 6, 7]
    assert all(isinstance(r, TrainStep) for r in records)
    assert list(train(model, optimizer, binary_loss("bce"), X_train, y_train, steps=0)) == []
    endless = train(model, optimizer, binary_loss("bce"), X_train, y_train)
    assert len(list(itertools.islice(endless, 25))) == 25
    assert next(endless).step == 26


def test_a_step_reports_the_loss_and_accuracy_of_the_weights_before_its_update():
    model, X_train, X_test, y_train, y_test = _moons_model(1)
    with engine.no_grad():
        logits = model(Tensor(X_train))
        loss = F.binary_cross_entropy_with_logits(logits, y_train.reshape(-1, 1).astype(float)).item()
        train_acc = accuracy(logits.data, y_train)
        test_acc = accuracy(model(Tensor(X_test)).data, y_test)
    before = model.state_dict()
    record = next(train(model, Adam(model.parameters(), lr=0.01), binary_loss("bce"), X_train, y_train,
                        X_test, y_test))
    assert record.loss == loss and record.train_accuracy == train_acc and record.test_accuracy == test_acc
    assert any(np.any(model.state_dict()[k] != before[k]) for k in before)  # and then it updated


def test_without_a_test_set_test_accuracy_is_none():
    model, X_train, _, y_train, _ = _moons_model(0)
    record = next(train(model, SGD(model.parameters(), lr=0.1), binary_loss("bce"), X_train, y_train))
    assert record.test_accuracy is None
    with pytest.raises(ValueError, match="empty"):
        next(train(model, SGD(model.parameters(), lr=0.1), binary_loss("bce"), np.zeros((0, 2)), np.zeros(0)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the mean of an empty batch, while this is not refused
@pytest.mark.parametrize("batch_size", [0, -4])
def test_a_batch_size_below_one_is_refused(batch_size):
    # as torch.utils.data.DataLoader; otherwise every step trains on an empty batch and reports a nan loss
    model, X_train, _, y_train, _ = _moons_model(0)
    with pytest.raises(ValueError):
        next(train(model, SGD(model.parameters(), lr=0.1), binary_loss("bce"), X_train, y_train,
                   batch_size=batch_size))


@pytest.mark.parametrize("name, torch_loss", [
    ("bce", lambda z, y: torch.nn.functional.binary_cross_entropy_with_logits(z, y)),
    ("hinge", lambda z, y: torch.clamp(1 - (2 * y - 1) * z, min=0).mean()),
    ("mse", lambda z, y: torch.nn.functional.mse_loss(z, 2 * y - 1)),
])
def test_binary_losses_take_labels_0_1(name, torch_loss):
    logits = np.array([[2.0], [-0.5], [0.3], [-3.0]])
    labels = np.array([1, 0, 0, 1])
    z = Tensor(logits, requires_grad=True)
    loss = binary_loss(name)(z, labels)
    loss.backward()
    tz = torch.tensor(logits, requires_grad=True)
    tloss = torch_loss(tz, torch.tensor(labels, dtype=torch.float64).reshape(-1, 1))
    tloss.backward()
    assert loss.item() == pytest.approx(tloss.item(), rel=1e-12)
    np.testing.assert_allclose(z.grad, tz.grad.numpy(), rtol=1e-12)
    with pytest.raises(ValueError, match="unknown loss"):
        binary_loss("softmax")


def test_accuracy_for_one_logit_and_for_several():
    assert accuracy(np.array([[1.0], [-1.0], [0.5], [0.0]]), np.array([1, 0, 0, 0])) == 0.75
    assert accuracy(np.array([[0.1, 0.9, 0.0], [2.0, 1.0, 0.0]]), np.array([1, 2])) == 0.5


# --- micrograd's demo on the scalar engine ----------------------------------------------------------------


def _micrograd_loss(model, X, y):
    inputs = [[Value(a) for a in row] for row in X.tolist()]
    scores = [model(x) for x in inputs]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y.tolist(), scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    acc = float(np.mean([(yi > 0) == (si.data > 0) for yi, si in zip(y.tolist(), scores)]))
    return data_loss + reg_loss, acc


def test_micrograd_demo_reaches_100_percent_train_accuracy():
    # demo.ipynb: make_moons(100, noise=0.1), y in {-1, 1}, MLP(2, [16, 16, 1]) with relu hidden layers, SVM
    # hinge loss + 1e-4 L2, SGD with lr 1.0 - 0.9 k / 100 for 100 steps.
    # Not every seed gets there: of seeds 0..11 and 1337 (one seed for both manual_seed and make_moons), all
    # reach 100% except 9 and 1337, which settle at 99% (loss 0.034 and 0.033, still creeping down) with one
    # outer-moon point that the noise pushed towards the inner moon, (0.88, -0.29) and (1.18, -0.17), on the
    # wrong side. Their gradients agree with torch's to 5e-16 at all 100 steps: that is where this
    # optimisation goes in 100 steps, not an engine fault. One run costs ~13 s, so one seed is run here.
    seed = 0
    engine.manual_seed(seed)
    X, y = make_moons(100, noise=0.1, random_state=seed)
    y = y * 2 - 1
    model = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    optimizer = SGD(model.parameters(), lr=1.0)
    history = []
    for k in range(100):
        loss, acc = _micrograd_loss(model, X, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.lr = 1.0 - 0.9 * k / 100
        optimizer.step()
        history.append((loss.data, acc))
    final_loss, final_acc = _micrograd_loss(model, X, y)
    assert final_acc == 1.0, f"train accuracy {final_acc}"
    assert history[0][1] < 1.0
    assert final_loss.data < 0.05 < history[0][0]


# --- no garbage cycles ---------------------------------------------------------------------------------------


def _garbage_after(step):
    """Objects the cyclic collector finds unreachable after ``step()``, with collection off meanwhile."""
    gc.collect()
    gc.disable()
    try:
        step()
        return gc.collect()
    finally:
        gc.enable()


def test_the_garbage_check_sees_a_cycle():
    def make_cycle():
        a = []
        a.append(a)

    assert _garbage_after(make_cycle) > 0


def test_a_tensor_training_step_leaves_no_garbage():
    model, X_train, _, y_train, _ = _moons_model(0)
    optimizer = Adam(model.parameters(), lr=0.01)
    x, target = Tensor(X_train), y_train.reshape(-1, 1).astype(float)

    def step():
        loss = F.binary_cross_entropy_with_logits(model(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        assert loss.item() > 0
        del loss

    step()  # the first step creates the optimizer's state; measure a later one
    assert _garbage_after(step) == 0


def test_a_train_generator_step_leaves_no_garbage():
    model, X_train, X_test, y_train, y_test = _moons_model(0)
    optimizer = Adam(model.parameters(), lr=0.01)

    def step():
        steps = train(model, optimizer, binary_loss("bce"), X_train, y_train, X_test, y_test, batch_size=32)
        next(steps)
        next(steps)
        del steps

    assert _garbage_after(step) == 0


def test_a_scalar_training_step_leaves_no_garbage():
    engine.manual_seed(0)
    X, y = make_moons(20, noise=0.1, random_state=0)
    model = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    optimizer = SGD(model.parameters(), lr=0.5)

    def step():
        loss, _ = _micrograd_loss(model, X, y * 2 - 1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        del loss

    assert _garbage_after(step) == 0


# --- more than two classes, schedules ------------------------------------------------------------------------

from engine.data import make_blobs, make_spiral  # noqa: E402
from engine.optim import StepLR  # noqa: E402
from engine.train import classification_loss, confusion_matrix, predict  # noqa: E402


def test_cross_entropy_by_name_matches_torch():
    rng = np.random.default_rng(0)
    logits, labels = rng.normal(size=(7, 3)), rng.integers(0, 3, 7)
    ours = classification_loss("cross_entropy")(Tensor(logits), labels).item()
    theirs = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(labels)).item()
    assert ours == pytest.approx(theirs, rel=1e-12)
    assert classification_loss("bce")(Tensor(np.array([[0.3]])), np.array([1])).item() > 0
    with pytest.raises(ValueError, match="unknown loss"):
        classification_loss("focal")


def test_predict_and_confusion_matrix():
    assert predict(np.array([[0.2], [-1.0]])).tolist() == [1, 0]
    assert predict(np.array([[0.1, 0.5, -2], [3, 0, 0]])).tolist() == [1, 0]
    matrix = confusion_matrix([0, 0, 1, 2, 2, 2], [0, 1, 1, 2, 0, 2], 3)
    assert matrix.tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 2]]  # rows: the truth, columns: the prediction
    assert confusion_matrix([], [], 2).tolist() == [[0, 0], [0, 0]]
    with pytest.raises(ValueError, match="outside 0..1"):
        confusion_matrix([0, 2], [0, 1], 2)


def test_blobs_with_four_centres_learn_with_softmax_cross_entropy():
    X, y = make_blobs(240, centers=[[-2, -2], [2, 2], [-2, 2], [2, -2]], cluster_std=0.5, random_state=1)
    engine.manual_seed(0)
    model = Sequential(Linear(2, 8), Tanh(), Linear(8, 4))
    steps = list(train(model, Adam(model.parameters(), lr=0.05), classification_loss("cross_entropy"), X, y,
                       steps=200))
    assert steps[-1].loss < 0.1 * steps[0].loss and steps[-1].train_accuracy >= 0.98


def test_a_scheduler_is_stepped_after_every_optimizer_step():
    X, y = make_spiral(60, n_classes=3, random_state=0)
    engine.manual_seed(0)
    model = Sequential(Linear(2, 4), Tanh(), Linear(4, 3))
    optimizer = SGD(model.parameters(), lr=0.4)
    schedule = StepLR(optimizer, step_size=5, gamma=0.5)
    for _ in train(model, optimizer, classification_loss("cross_entropy"), X, y, steps=12, scheduler=schedule):
        pass
    assert schedule.last_epoch == 12 and optimizer.lr == pytest.approx(0.4 * 0.5**2)
