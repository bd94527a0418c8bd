"""Training as the TF Playground trains (`engine.tf_playground_train`, the losses `tanh_half_mse`/`half_mse` of
`engine.train`, the start `engine.nn.init.tf_playground_`): the loss and its gradient by hand and against
PyTorch float64; the start's distribution and draw order; and the proof of the setting, epochs of our SGD
reproduced by a plain-Python transcription of nn.ts's per-example forwardProp, backProp and updateWeights
and of playground.ts's oneStep, and by the TF Playground's own code (tf_playground_oracle.json)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

import engine.tf_playground as tp
from engine import Tensor
from engine.nn import Linear, Regularization, Sequential, Tanh, init
from engine.nn import functional as F
from engine.nn.regularization import weights
from engine.optim import SGD
from engine.train import binary_loss, classification_loss, half_mse, regression_loss, tanh_half_mse

ORACLE = json.loads((Path(__file__).parent / "data" / "tf_playground_oracle.json").read_text())
NAMES = {"x": "x1", "y": "x2", "xSquared": "x1^2", "ySquared": "x2^2", "xTimesY": "x1*x2",
         "sinX": "sin x1", "sinY": "sin x2"}


# -- a transcription of nn.ts (per example, in plain Python) and of playground.ts oneStep --------

ACT = {
    "tanh": (math.tanh, lambda x: 1 - math.tanh(x) ** 2),
    "relu": (lambda x: max(0.0, x), lambda x: 0.0 if x <= 0 else 1.0),
    "sigmoid": (lambda x: 1 / (1 + math.exp(-x)), lambda x: (1 / (1 + math.exp(-x))) * (1 - 1 / (1 + math.exp(-x)))),
    "linear": (lambda x: x, lambda x: 1.0),
}


class Node:
    def __init__(self, activation, bias):
        self.activation, self.bias = activation, bias
        self.inputs, self.outputs = [], []
        self.total_input = self.output = self.output_der = self.input_der = 0.0
        self.acc_input_der, self.n_acc = 0.0, 0


class Link:
    def __init__(self, source, dest, weight):
        self.source, self.dest, self.weight = source, dest, weight
        self.dead, self.acc, self.n_acc = False, 0.0, 0


def ts_network(model, activation, regression):
    """buildNetwork's layers of nodes and links, with the weights and biases of our ``model``."""
    linears = [m for m in model.modules if isinstance(m, Linear)]
    layers = [[Node(None, 0.0) for _ in range(linears[0].in_features)]]
    for k, layer in enumerate(linears):
        last = k == len(linears) - 1
        act = ACT["linear" if last and regression else "tanh" if last else activation]
        nodes = []
        for i in range(layer.out_features):
            node = Node(act, float(layer.bias.data[i]))
            for j, source in enumerate(layers[-1]):
                link = Link(source, node, float(layer.weight.data[i, j]))
                source.outputs.append(link)
                node.inputs.append(link)
            nodes.append(node)
        layers.append(nodes)
    return layers


def ts_forward(network, inputs):
    for node, value in zip(network[0], inputs):
        node.output = value
    for layer in network[1:]:
        for node in layer:
            node.total_input = node.bias
            for link in node.inputs:
                node.total_input += link.weight * link.source.output
            node.output = node.activation[0](node.total_input)
    return network[-1][0].output


def ts_backward(network, target):
    out = network[-1][0]
    out.output_der = out.output - target  # Errors.SQUARE.der
    for k in range(len(network) - 1, 0, -1):
        for node in network[k]:
            node.input_der = node.output_der * node.activation[1](node.total_input)
            node.acc_input_der += node.input_der
            node.n_acc += 1
        for node in network[k]:
            for link in node.inputs:
                if link.dead:
                    continue
                link.acc += node.input_der * link.source.output
                link.n_acc += 1
        if k == 1:
            continue
        for node in network[k - 1]:
            node.output_der = sum(link.weight * link.dest.input_der for link in node.outputs)


def ts_update(network, lr, reg, rate):
    for layer in network[1:]:
        for node in layer:
            if node.n_acc > 0:
                node.bias -= lr * node.acc_input_der / node.n_acc
                node.acc_input_der, node.n_acc = 0.0, 0
            for link in node.inputs:
                if link.dead:
                    continue
                w = link.weight
                regul_der = (-1.0 if w < 0 else 1.0 if w > 0 else 0.0) if reg == "l1" else w if reg == "l2" else 0.0
                if link.n_acc > 0:
                    link.weight = w - (lr / link.n_acc) * link.acc
                    new = link.weight - (lr * rate) * regul_der
                    if reg == "l1" and link.weight * new < 0:
                        link.weight, link.dead = 0.0, True
                    else:
                        link.weight = new
                    link.acc, link.n_acc = 0.0, 0


def ts_one_step(network, X, y, batch, lr, reg="none", rate=0.0):
    for i, (x, t) in enumerate(zip(X, y)):
        ts_forward(network, list(x))
        ts_backward(network, float(t))
        if (i + 1) % batch == 0:
            ts_update(network, lr, reg, rate)


def ts_loss(network, X, y):
    return sum(0.5 * (ts_forward(network, list(x)) - t) ** 2 for x, t in zip(X, y)) / len(X)


def ts_params(network):
    return [(np.array([[link.weight for link in node.inputs] for node in layer]),
             np.array([node.bias for node in layer]),
             np.array([[link.dead for link in node.inputs] for node in layer])) for layer in network[1:]]


def linears(model):
    return [m for m in model.modules if isinstance(m, Linear)]


def assert_same_network(model, network, atol, optimizer=None):
    for layer, (W, b, dead) in zip(linears(model), ts_params(network)):
        np.testing.assert_allclose(layer.weight.data, W, rtol=0, atol=atol)
        np.testing.assert_allclose(layer.bias.data, b, rtol=0, atol=atol)
        if optimizer is not None:
            assert np.array_equal(optimizer.dead(layer.weight), dead)


# -- the proof: epochs reproduced --------------------------------------------------------------


def test_one_epoch_on_xor_in_batches_of_10_is_the_tf_playgrounds():
    data = tp.make_dataset("xor", noise=35, percent_train=50, seed=0)
    model = tp.network(2, [3], "tanh", generator=np.random.default_rng(1))  # a 2-3-1 tanh network
    network = ts_network(model, "tanh", regression=False)
    before = linears(model)[0].weight.data.copy()
    optimizer = tp.PlaygroundSGD(model.parameters(), lr=0.03)
    step = next(tp.epochs(model, optimizer, data.X_train, data.y_train, data.X_test, data.y_test, batch_size=10))
    ts_one_step(network, data.X_train, data.y_train, batch=10, lr=0.03)
    assert step.epoch == 1 and len(data.X_train) == 250  # 25 updates
    assert np.abs(linears(model)[0].weight.data - before).max() > 1e-3  # it did train
    assert_same_network(model, network, atol=1e-10)
    assert step.train_loss == pytest.approx(ts_loss(network, data.X_train, data.y_train), abs=1e-12)
    assert step.test_loss == pytest.approx(ts_loss(network, data.X_test, data.y_test), abs=1e-12)


CASES = [  # dataset, features, hidden, activation, regularization, rate, lr, batch, epochs
    ("xor", ["x1", "x2"], [3], "relu", "none", 0.0, 0.03, 7, 3),  # 250 % 7 = 5 points carried each pass
    ("circle", ["x1", "x2", "x1^2", "x2^2"], [4, 2], "sigmoid", "l2", 0.03, 0.3, 13, 2),
    ("spiral", list(tp.FEATURES), [5, 3], "relu", "l1", 0.03, 0.1, 10, 3),
    ("gauss", ["x1", "x2", "x1*x2"], [2], "linear", "l1", 0.3, 0.03, 1, 1),
    ("reg-plane", ["x1", "x2"], [], "linear", "l1", 0.1, 0.003, 17, 2),
    ("reg-gauss", ["x1", "x2", "sin x1", "sin x2"], [6, 4], "tanh", "l2", 0.001, 0.01, 30, 2),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0]}-{case[3]}-{case[4]}-batch{case[7]}")
def test_epochs_with_carried_points_and_l1_l2_are_the_tf_playgrounds(case):
    name, names, hidden, activation, reg, rate, lr, batch, n_epochs = case
    problem = tp.problem_of(name)
    data = tp.make_dataset(name, 20, 50, seed=2, n_samples=300)
    X_train, X_test = tp.features(data.X_train, names), tp.features(data.X_test, names)
    model = tp.network(len(names), hidden, activation, generator=np.random.default_rng(3))
    network = ts_network(model, activation, problem == "regression")
    optimizer = tp.PlaygroundSGD(model.parameters(), lr, reg, rate, regularized=weights(model))
    steps = list(tp.epochs(model, optimizer, X_train, data.y_train, X_test, data.y_test, batch, problem, n_epochs))
    for _ in range(n_epochs):
        ts_one_step(network, X_train, data.y_train, batch, lr, reg, rate)
    assert [s.epoch for s in steps] == list(range(1, n_epochs + 1))
    assert_same_network(model, network, atol=1e-10, optimizer=optimizer)
    assert steps[-1].train_loss == pytest.approx(ts_loss(network, X_train, data.y_train), abs=1e-12)
    if reg == "l1" and name == "spiral":
        assert sum(optimizer.dead(m.weight).sum() for m in linears(model)) > 0  # its dead links, reproduced


def test_our_sgd_on_the_mean_loss_is_its_update_and_our_l2_its_l2():
    data = tp.make_dataset("circle", 25, 50, seed=4)
    for reg, rate in (("none", 0.0), ("l2", 0.1)):
        model = tp.network(2, [4], "tanh", generator=np.random.default_rng(5))
        network = ts_network(model, "tanh", regression=False)
        optimizer, regularization = SGD(model.parameters(), lr=0.1), Regularization(reg, rate)
        loss_fn = binary_loss("tanh_half_mse")
        for start in range(0, 250, 10):  # one epoch, plain engine pieces: mean loss, backward, L2, step
            optimizer.zero_grad()
            loss_fn(model(Tensor(data.X_train[start:start + 10])), data.y_train[start:start + 10]).backward()
            regularization.add_gradient(weights(model))
            optimizer.step()
        ts_one_step(network, data.X_train, data.y_train, 10, 0.1, reg, rate)
        assert_same_network(model, network, atol=1e-10)


def test_our_l1_soft_threshold_differs_from_its_l1_where_the_gradient_flips_a_sign():
    # One weight, w = 0.01, gradient 1, lr 0.1, rate 0.5: the gradient step takes w to -0.09. The TF
    # Playground's L1 step uses the sign of w *before* it (+): -0.09 - 0.05 = -0.14, no crossing. The
    # soft threshold shrinks -0.09 towards 0: -0.04.
    def one_step(optimizer_kind):
        w = Tensor(np.array([[0.01]]), requires_grad=True)
        w.grad = np.array([[1.0]])
        if optimizer_kind == "playground":
            tp.PlaygroundSGD([w], lr=0.1, regularization="l1", rate=0.5, regularized=[w]).step()
        else:
            optimizer = SGD([w], lr=0.1)
            optimizer.step()
            Regularization("l1", 0.5).proximal_step([w], optimizer)
        return float(w.data[0, 0])

    assert one_step("playground") == pytest.approx(-0.14, abs=1e-15)
    assert one_step("engine") == pytest.approx(-0.04, abs=1e-15)


def test_a_weight_l1_killed_stays_zero_whatever_its_gradient():
    w = Tensor(np.array([0.01, 0.5]), requires_grad=True)
    optimizer = tp.PlaygroundSGD([w], lr=0.1, regularization="l1", rate=0.2, regularized=[w])
    w.grad = np.array([0.0, 0.0])
    optimizer.step()  # 0.01 - 0.02 crosses zero: 0 and dead; 0.5 - 0.02 = 0.48
    np.testing.assert_allclose(w.data, [0.0, 0.48], atol=1e-15)
    w.grad = np.array([-10.0, 0.0])  # a pull that would revive it
    optimizer.step()
    assert w.data[0] == 0.0 and optimizer.dead(w).tolist() == [True, False]


def test_fewer_points_than_a_batch_never_update():
    model = tp.network(2, [2], generator=np.random.default_rng(0))
    before = model.state_dict()
    X, y = np.ones((5, 2)), np.ones(5)
    list(tp.epochs(model, tp.PlaygroundSGD(model.parameters(), 0.1), X, y, batch_size=10, steps=3))
    assert all(np.array_equal(before[k], v) for k, v in model.state_dict().items())


# -- the TF Playground's own code ----------------------------------------------------------------


@pytest.mark.parametrize("run", ORACLE["runs"], ids=lambda run: run["config"]["dataset"])
def test_the_tf_playgrounds_own_code_starts_and_trains_the_same_network(run):
    cfg = run["config"]
    problem = tp.problem_of(cfg["dataset"])
    source = tp.SeedRandom(cfg["seed"])  # the page's stream: its data, its shuffle, then its weights
    data = tp.make_dataset(cfg["dataset"], cfg["noise"], cfg["perc"], source, n_samples=cfg.get("n"))
    names = [NAMES[f] for f in cfg["features"]]
    model = tp.network(len(names), cfg["hidden"], cfg["activation"], uniform=source)
    for layer, want in zip(linears(model), run["initial"]):
        assert np.array_equal(layer.weight.data, np.array(want["W"]).reshape(layer.weight.shape))  # bit for bit
        assert np.all(layer.bias.data == 0.1)
    assert float(source(1)[0]) == run["next_draw"]  # and as many draws as the page took
    optimizer = tp.PlaygroundSGD(model.parameters(), cfg["lr"], cfg["regularization"].lower(), cfg["rate"],
                                 regularized=weights(model))
    X_train, X_test = tp.features(data.X_train, names), tp.features(data.X_test, names)
    assert tp.mean_loss(model, X_train, data.y_train, problem) == pytest.approx(run["losses"][0][0], abs=1e-12)
    steps = list(tp.epochs(model, optimizer, X_train, data.y_train, X_test, data.y_test, cfg["batch"], problem,
                           cfg["epochs"]))
    for step, (train_loss, test_loss) in zip(steps, run["losses"][1:]):
        assert step.train_loss == pytest.approx(train_loss, abs=1e-12)
        assert step.test_loss == pytest.approx(test_loss, abs=1e-12)
    for layer, want in zip(linears(model), run["final"]):
        np.testing.assert_allclose(layer.weight.data, np.array(want["W"]).reshape(layer.weight.shape), atol=1e-12)
        np.testing.assert_allclose(layer.bias.data, want["b"], atol=1e-12)
        dead = np.array(want["dead"], dtype=bool).reshape(layer.weight.shape)
        assert np.array_equal(optimizer.dead(layer.weight), dead)


# -- the loss ------------------------------------------------------------------------------------


def test_tanh_half_mse_by_hand_and_its_gradient_against_torch():
    logits = np.array([[0.3], [-1.2], [2.0], [0.0]])
    labels = np.array([1, -1, -1, 1])  # and the same as 0/1
    out = np.tanh(logits[:, 0])
    want = np.mean(0.5 * (out - labels) ** 2)
    z = Tensor(logits, requires_grad=True)
    loss = tanh_half_mse(z, labels)
    loss.backward()
    assert loss.item() == pytest.approx(want, abs=1e-15)
    assert classification_loss("tanh_half_mse")(Tensor(logits), (labels > 0).astype(int)).item() == loss.item()
    # by hand: d/dz = (tanh z - t)(1 - tanh^2 z) / n, nn.ts's outputDer * der(totalInput), averaged
    np.testing.assert_allclose(z.grad[:, 0], (out - labels) * (1 - out**2) / 4, rtol=0, atol=1e-15)
    zt = torch.tensor(logits, dtype=torch.float64, requires_grad=True)
    lt = (0.5 * (torch.tanh(zt) - torch.tensor(labels, dtype=torch.float64).reshape(4, 1)) ** 2).mean()
    lt.backward()
    assert loss.item() == pytest.approx(lt.item(), rel=1e-12)
    np.testing.assert_allclose(z.grad, zt.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_half_mse_by_hand_and_against_torch():
    pred, target = np.array([[0.5], [-0.25], [1.5]]), np.array([0.0, 0.25, 1.0])
    x = Tensor(pred, requires_grad=True)
    loss = regression_loss("half_mse")(x, target)
    loss.backward()
    assert loss.item() == pytest.approx((0.125 + 0.125 + 0.125) / 3, abs=1e-16)
    np.testing.assert_allclose(x.grad[:, 0], (pred[:, 0] - target) / 3, atol=1e-16)
    xt = torch.tensor(pred, dtype=torch.float64, requires_grad=True)
    (0.5 * torch.nn.functional.mse_loss(xt, torch.tensor(target).reshape(3, 1))).backward()
    np.testing.assert_allclose(x.grad, xt.grad.numpy(), rtol=1e-12)
    assert half_mse(Tensor(pred), target).item() == loss.item()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_half_mse_loss_node_and_its_rule_against_torch_and_finite_differences(reduction):
    rng = np.random.default_rng(10)
    x0, t0 = rng.normal(size=(5, 3)), rng.normal(size=(5, 3))
    weights_out = rng.normal(size=(5, 3))  # a random upstream gradient for "none"
    x, t = Tensor(x0, requires_grad=True), Tensor(t0, requires_grad=True)
    loss = F.half_mse_loss(x, t, reduction=reduction)
    (loss * weights_out).sum().backward() if reduction == "none" else loss.backward()
    xt = torch.tensor(x0, requires_grad=True)
    tt = torch.tensor(t0, requires_grad=True)
    lt = 0.5 * torch.nn.functional.mse_loss(xt, tt, reduction=reduction)
    (lt * torch.tensor(weights_out)).sum().backward() if reduction == "none" else lt.backward()
    np.testing.assert_allclose(loss.data, lt.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(x.grad, xt.grad.numpy(), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(t.grad, tt.grad.numpy(), rtol=1e-12, atol=1e-15)
    if reduction == "mean":  # central differences of the forward pass, one entry
        h, bumped = 1e-6, x0.copy()
        bumped[2, 1] += h
        up = F.half_mse_loss(Tensor(bumped), Tensor(t0)).item()
        bumped[2, 1] -= 2 * h
        down = F.half_mse_loss(Tensor(bumped), Tensor(t0)).item()
        assert x.grad[2, 1] == pytest.approx((up - down) / (2 * h), rel=1e-6)
    with pytest.raises(ValueError, match="shape"):
        F.half_mse_loss(x, Tensor(t0[:, :2]))


def test_mean_loss_and_output_are_its_get_loss_and_its_output_unit():
    model = tp.network(2, [3], generator=np.random.default_rng(6))
    X, y = np.random.default_rng(7).normal(size=(20, 2)), np.where(np.arange(20) % 2, 1, -1)
    network = ts_network(model, "tanh", regression=False)
    assert tp.mean_loss(model, X, y) == pytest.approx(ts_loss(network, X, y), abs=1e-14)
    np.testing.assert_allclose(tp.output(model, X), [ts_forward(network, list(x)) for x in X], atol=1e-14)
    assert math.isnan(tp.mean_loss(model, X[:0], y[:0]))  # its 0 / 0 with no test points


@pytest.mark.parametrize("value, shown", [  # what JavaScript's toFixed(3) printed for each
    (0.0625, "0.063"), (0.1875, "0.188"), (1.0005, "1.000"), (0.0005, "0.001"), (2.5e-4, "0.000"),
    (-0.0004, "-0.000"), (-0.0, "0.000"), (0.17749, "0.177"), (math.nan, "NaN"), (math.inf, "Infinity"),
    (1e21, "1e+21")])
def test_format_loss_is_javascripts_to_fixed_3(value, shown):
    assert tp.format_loss(value) == shown


# -- the start -----------------------------------------------------------------------------------


def test_its_start_weights_uniform_in_a_half_biases_a_tenth():
    model = Sequential(Linear(7, 400), Tanh(), Linear(400, 300), Tanh(), Linear(300, 1))
    init.tf_playground_(model, generator=np.random.default_rng(8))
    w = np.concatenate([m.weight.data.ravel() for m in linears(model)])
    assert -0.5 <= w.min() < -0.499 and 0.499 < w.max() < 0.5
    assert w.mean() == pytest.approx(0.0, abs=0.005) and w.var() == pytest.approx(1 / 12, rel=0.01)
    assert all(np.all(m.bias.data == 0.1) for m in linears(model))


def test_its_start_draws_layer_by_layer_neuron_by_neuron_input_by_input():
    draws = np.random.default_rng(9).random(100)
    position = [0]

    def source(n):
        position[0] += n
        return draws[position[0] - n:position[0]]

    model = tp.network(3, [4, 2], "relu", uniform=source)
    W1, W2, W3 = (m.weight.data for m in linears(model))
    # nn.ts: for each layer, for each node i, for each node j before it, link (j -> i): W[i, j]
    assert np.array_equal(W1, draws[:12].reshape(4, 3) - 0.5)
    assert np.array_equal(W2, draws[12:20].reshape(2, 4) - 0.5)
    assert np.array_equal(W3, draws[20:22].reshape(1, 2) - 0.5)
    assert position[0] == 22


@pytest.mark.parametrize("batch_size", [10, 7])
def test_its_updates_one_by_one_are_its_epochs(batch_size):
    # The app trains update by update (a step is one update); a pass of them is the TF Playground's epoch.
    data = tp.make_dataset("xor", 35, 50, seed=3)
    X, X_test = tp.features(data.X_train), tp.features(data.X_test)
    by_epoch, by_update = (tp.network(2, [3], "relu", generator=np.random.default_rng(0)) for _ in range(2))
    passes = tp.epochs(by_epoch, tp.PlaygroundSGD(by_epoch.parameters(), lr=0.03), X, data.y_train, X_test,
                       data.y_test, batch_size=batch_size)
    stream = tp.updates(by_update, tp.PlaygroundSGD(by_update.parameters(), lr=0.03), X, data.y_train, batch_size)
    for _ in range(3):
        next(passes)
        taken = []
        while not taken or not taken[-1].ends_epoch:
            taken.append(next(stream))
        assert len(taken) == len(X) // batch_size
        assert sum(update.points for update in taken) in (len(X) - len(X) % batch_size, len(X))  # the rest carried
    for a, b in zip(by_epoch.parameters(), by_update.parameters()):
        assert np.array_equal(a.data, b.data)


@pytest.mark.parametrize("start", [0, 5, 35, 36, 70])
def test_updates_resumed_at_a_step_go_on_where_its_pass_stood(start):
    data = tp.make_dataset("spiral", 20, 50, seed=1)
    X = tp.features(data.X_train)
    whole, resumed = (tp.network(2, [3], "tanh", generator=np.random.default_rng(4)) for _ in range(2))
    one = tp.updates(whole, tp.PlaygroundSGD(whole.parameters(), lr=0.1), X, data.y_train, 7)
    for _ in range(start):
        next(one)
    resumed.load_state_dict(whole.state_dict())
    other = tp.updates(resumed, tp.PlaygroundSGD(resumed.parameters(), lr=0.1), X, data.y_train, 7, start=start)
    for _ in range(80):
        assert next(one) == next(other)
    for a, b in zip(whole.parameters(), resumed.parameters()):
        assert np.array_equal(a.data, b.data)
