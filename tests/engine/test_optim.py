"""`engine.optim` against `torch.optim` step for step: the same start, the same loss computed in both engines
each step, 100 steps, every parameter within 1e-10 absolute; on Tensor parameters and on Value parameters."""

import math

import numpy as np
import pytest
import torch

import engine
from engine import Tensor, Value
from engine.nn import MLP, Linear, Sequential, Tanh
from engine.nn import functional as F
from engine.optim import SGD, Adam, AdamW

STEPS = 100
ATOL = 1e-10
WORST: dict[str, tuple[float, str]] = {}  # bucket -> (max |ours - torch| over all parameters, config)

CONFIGS = [
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1}, id="sgd"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.05, "momentum": 0.9}, id="sgd-momentum"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.05, "momentum": 0.9, "dampening": 0.1}, id="sgd-dampening"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.05, "momentum": 0.9, "nesterov": True}, id="sgd-nesterov"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "weight_decay": 1e-2}, id="sgd-weight-decay"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-2},
                 id="sgd-nesterov-weight-decay"),
    pytest.param(Adam, torch.optim.Adam, {}, id="adam-default"),
    pytest.param(Adam, torch.optim.Adam, {"lr": 0.01}, id="adam"),
    pytest.param(Adam, torch.optim.Adam, {"lr": 0.01, "weight_decay": 1e-2}, id="adam-weight-decay"),
    pytest.param(AdamW, torch.optim.AdamW, {"lr": 0.01}, id="adamw-default-decay"),
    pytest.param(AdamW, torch.optim.AdamW, {"lr": 0.01, "weight_decay": 0.1, "betas": (0.8, 0.99), "eps": 1e-6},
                 id="adamw-custom"),
]


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Tiny tensors: torch's worker threads only add spinning, which costs seconds on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _record(bucket, config, diff):
    if bucket not in WORST or diff > WORST[bucket][0]:
        WORST[bucket] = (diff, config)


# --- Tensor parameters -----------------------------------------------------------------------------------


def _tensor_pair(seed=0):
    engine.manual_seed(seed)
    ours = Sequential(Linear(3, 8), Tanh(), Linear(8, 8), Tanh(), Linear(8, 2))
    theirs = torch.nn.Sequential(
        torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)
    ).double()
    theirs.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in ours.state_dict().items()})
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(32, 3))
    Y = np.sin(X @ rng.normal(size=(3, 2)))
    return ours, theirs, X, Y


@pytest.mark.parametrize("ours_cls, torch_cls, kwargs", CONFIGS)
def test_tensor_parameters_follow_torch_optim_for_100_steps(ours_cls, torch_cls, kwargs, request):
    ours, theirs, X, Y = _tensor_pair()
    start = ours.state_dict()
    opt = ours_cls(ours.parameters(), **kwargs)
    topt = torch_cls(theirs.parameters(), **kwargs)
    x, tx, ty = Tensor(X), torch.from_numpy(X), torch.from_numpy(Y)
    arrays = [p.data for p in ours.parameters()]
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = F.mse_loss(ours(x), Y)
        loss.backward()
        opt.step()
        topt.zero_grad()
        tloss = torch.nn.functional.mse_loss(theirs(tx), ty)
        tloss.backward()
        topt.step()
        losses.append((loss.item(), tloss.item()))

    tparams = dict(theirs.named_parameters())
    diff = max(float(np.max(np.abs(p.data - tparams[name].detach().numpy()))) for name, p in ours.named_parameters())
    _record("tensor", request.node.callspec.id, diff)
    assert diff <= ATOL, f"max |engine - torch| = {diff:.3g}"
    # the losses agreed at every step, and training went somewhere: the comparison is not vacuous
    assert max(abs(a - b) for a, b in losses) <= ATOL
    assert losses[-1][0] < 0.9 * losses[0][0]
    moved = max(float(np.max(np.abs(p.data - start[name]))) for name, p in ours.named_parameters())
    assert moved > 1e-2
    # updated in place: the model and the optimizer keep sharing the arrays
    assert all(p.data is a for p, a in zip(ours.parameters(), arrays))


# --- Value parameters ---------------------------------------------------------------------------------------


def _scalar_layers(model):
    """(rows of weights, biases) per layer, indices into model.parameters()."""
    index, layers = 0, []
    for layer in model.layers:
        rows, biases = [], []
        for neuron in layer.neurons:
            rows.append(list(range(index, index + len(neuron.w))))
            biases.append(index + len(neuron.w))
            index += len(neuron.w) + 1
        layers.append((rows, biases))
    return layers


def _torch_scalar_mlp(tparams, layers, X):
    h = X
    for i, (rows, biases) in enumerate(layers):
        W = torch.stack([torch.stack([tparams[k] for k in row]) for row in rows])
        b = torch.stack([tparams[k] for k in biases])
        h = h @ W.T + b
        if i < len(layers) - 1:
            h = torch.tanh(h)
    return h[:, 0]


@pytest.mark.parametrize("ours_cls, torch_cls, kwargs", CONFIGS)
def test_value_parameters_follow_torch_optim_for_100_steps(ours_cls, torch_cls, kwargs, request):
    engine.manual_seed(1)
    model = MLP(2, [4, 4, 1], activation="tanh", linear_output=True)
    params = model.parameters()
    layers = _scalar_layers(model)
    tparams = [torch.tensor(p.data, dtype=torch.float64, requires_grad=True) for p in params]
    rng = np.random.default_rng(1)
    X = rng.normal(size=(8, 2))
    Y = np.tanh(X[:, 0] - 2 * X[:, 1])
    tX, tY = torch.from_numpy(X), torch.from_numpy(Y)
    opt = ours_cls(params, **kwargs)
    topt = torch_cls(tparams, **kwargs)
    start = [p.data for p in params]
    losses = []
    for _ in range(STEPS):
        # mean squared error plus an L2 term, as micrograd's demo
        data_loss = sum((model(list(x)) - y) ** 2 for x, y in zip(X.tolist(), Y.tolist())) * (1.0 / len(X))
        loss = data_loss + 1e-3 * sum(p * p for p in params)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tloss = ((_torch_scalar_mlp(tparams, layers, tX) - tY) ** 2).mean() + 1e-3 * sum(p * p for p in tparams)
        topt.zero_grad()
        tloss.backward()
        topt.step()
        losses.append((loss.data, tloss.item()))

    diff = max(abs(p.data - t.item()) for p, t in zip(params, tparams))
    _record("value", request.node.callspec.id, diff)
    assert diff <= ATOL, f"max |engine - torch| = {diff:.3g}"
    assert max(abs(a - b) for a, b in losses) <= ATOL
    assert losses[-1][0] < 0.9 * losses[0][0]
    assert max(abs(p.data - s) for p, s in zip(params, start)) > 1e-2
    assert all(type(p.data) is float for p in params)


def test_value_optimizer_on_a_hand_made_loss_matches_torch():
    a, b, c = Value(1.5), Value(-0.5), Value(0.25)
    ta, tb, tc = (torch.tensor(v.data, dtype=torch.float64, requires_grad=True) for v in (a, b, c))
    opt = Adam([a, b, c], lr=0.05)
    topt = torch.optim.Adam([ta, tb, tc], lr=0.05)
    for _ in range(STEPS):
        loss = (a * b - 1) ** 2 + (a + c.tanh()) ** 2 + (c - b).exp()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tloss = (ta * tb - 1) ** 2 + (ta + tc.tanh()) ** 2 + (tc - tb).exp()
        topt.zero_grad()
        tloss.backward()
        topt.step()
    diff = max(abs(p.data - t.item()) for p, t in zip((a, b, c), (ta, tb, tc)))
    _record("value", "hand-made adam", diff)
    assert diff <= ATOL


# --- bookkeeping ---------------------------------------------------------------------------------------------


INVALID = [
    pytest.param(SGD, torch.optim.SGD, {"lr": -0.1}, id="sgd-negative-lr"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "nesterov": True}, id="sgd-nesterov-without-momentum"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "nesterov": True},
                 id="sgd-nesterov-with-dampening"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "momentum": -0.5}, id="sgd-negative-momentum"),
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "weight_decay": -1e-2}, id="sgd-negative-weight-decay"),
    pytest.param(Adam, torch.optim.Adam, {"lr": -1e-3}, id="adam-negative-lr"),
    pytest.param(Adam, torch.optim.Adam, {"lr": math.nan}, id="adam-nan-lr"),
    pytest.param(Adam, torch.optim.Adam, {"betas": (1.0, 0.999)}, id="adam-beta1-one"),
    pytest.param(Adam, torch.optim.Adam, {"betas": (0.9, -0.1)}, id="adam-negative-beta2"),
    pytest.param(Adam, torch.optim.Adam, {"eps": -1e-8}, id="adam-negative-eps"),
    pytest.param(Adam, torch.optim.Adam, {"weight_decay": -1e-2}, id="adam-negative-weight-decay"),
    pytest.param(AdamW, torch.optim.AdamW, {"lr": -1e-3}, id="adamw-negative-lr"),
    pytest.param(AdamW, torch.optim.AdamW, {"weight_decay": -1e-2}, id="adamw-negative-weight-decay"),
]


@pytest.mark.parametrize("ours_cls, torch_cls, kwargs", INVALID)
def test_invalid_hyperparameters_raise_value_error_where_torch_does(ours_cls, torch_cls, kwargs):
    with pytest.raises(ValueError):  # the oracle: torch rejects this configuration
        torch_cls([torch.zeros(2, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError):
        ours_cls([Tensor(np.zeros(2), requires_grad=True)], **kwargs)
    with pytest.raises(ValueError):
        ours_cls([Value(0.0)], **kwargs)


def test_invalid_lr_and_nesterov_messages():
    with pytest.raises(ValueError, match="Invalid learning rate: -0.1"):
        SGD([Value(1.0)], lr=-0.1)
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        SGD([Value(1.0)], lr=0.1, nesterov=True)


def test_empty_and_mixed_parameter_lists_are_refused():
    with pytest.raises(ValueError, match="empty"):
        SGD([], lr=0.1)
    with pytest.raises(TypeError):
        Adam([Value(1.0), Tensor([1.0], requires_grad=True)])


@pytest.mark.parametrize("ours_cls, torch_cls, kwargs", [
    pytest.param(SGD, torch.optim.SGD, {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1}, id="sgd"),
    pytest.param(Adam, torch.optim.Adam, {"lr": 0.1, "weight_decay": 0.1}, id="adam"),
    pytest.param(AdamW, torch.optim.AdamW, {"lr": 0.1}, id="adamw"),
])
def test_a_parameter_without_grad_is_skipped_as_in_torch(ours_cls, torch_cls, kwargs):
    rng = np.random.default_rng(0)
    A, B, C = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    a, b, c = (Tensor(v, requires_grad=True) for v in (A, B, C))
    ta, tb, tc = (torch.tensor(v, requires_grad=True) for v in (A, B, C))
    opt, topt = ours_cls([a, b, c], **kwargs), torch_cls([ta, tb, tc], **kwargs)
    for step in range(10):
        opt.zero_grad()
        topt.zero_grad()
        # c never takes part; b only on odd steps (its step count and moments must lag behind a's)
        loss = (a * a).sum() + ((a * b).sum() if step % 2 else 0.0)
        tloss = (ta * ta).sum() + ((ta * tb).sum() if step % 2 else 0.0)
        loss.backward()
        tloss.backward()
        assert (b.grad is None) == (tb.grad is None)
        opt.step()
        topt.step()
    assert c.grad is None
    np.testing.assert_array_equal(c.data, C)  # untouched, weight decay included
    for p, t in ((a, ta), (b, tb), (c, tc)):
        np.testing.assert_allclose(p.data, t.detach().numpy(), rtol=0, atol=ATOL)
    assert not np.allclose(b.data, B)


def test_a_shared_layer_is_stepped_once_per_step_as_in_torch():
    engine.manual_seed(0)
    shared = Linear(2, 2)
    model = Sequential(shared, Tanh(), shared)
    tshared = torch.nn.Linear(2, 2).double()
    tshared.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in shared.state_dict().items()})
    theirs = torch.nn.Sequential(tshared, torch.nn.Tanh(), tshared)
    X = np.random.default_rng(0).normal(size=(8, 2))
    opt, topt = SGD(model.parameters(), lr=0.1), torch.optim.SGD(theirs.parameters(), lr=0.1)
    for _ in range(5):
        opt.zero_grad()
        (model(Tensor(X)) ** 2).mean().backward()
        opt.step()
        topt.zero_grad()
        (theirs(torch.from_numpy(X)) ** 2).mean().backward()
        topt.step()
    np.testing.assert_allclose(shared.weight.data, tshared.weight.detach().numpy(), rtol=0, atol=ATOL)
    np.testing.assert_allclose(shared.bias.data, tshared.bias.detach().numpy(), rtol=0, atol=ATOL)


def test_optimizer_zero_grad_clears_tensor_grads_to_none_and_value_grads_to_zero():
    t = Tensor([1.0, 2.0], requires_grad=True)
    (t * t).sum().backward()
    SGD([t], lr=0.1).zero_grad()
    assert t.grad is None
    v = Value(3.0)
    (v * v).backward()
    SGD([v], lr=0.1).zero_grad()
    assert v.grad == 0.0


def test_changing_lr_between_steps_takes_effect():
    v = Value(1.0)
    opt = SGD([v], lr=1.0)
    v.grad = 2.0
    opt.lr = 0.25
    opt.step()
    assert v.data == 0.5


def test_report_max_parameter_difference_against_torch_optim(record_property, capsys):
    if not WORST:
        pytest.skip("no torch comparison ran in this session")
    with capsys.disabled():
        for bucket, (diff, config) in sorted(WORST.items()):
            record_property(f"max_parameter_difference_{bucket}", diff)
            print(f"\n[optim/{bucket}] max |engine - torch.optim| after {STEPS} steps: {diff:.3g} ({config})")
    assert all(diff <= ATOL for diff, _ in WORST.values())


# --- learning-rate schedules against torch.optim.lr_scheduler ----------------------------------------------

from engine.optim import CosineAnnealingLR, StepLR  # noqa: E402

SCHEDULES = [
    pytest.param(StepLR, torch.optim.lr_scheduler.StepLR, {"step_size": 3, "gamma": 0.5}, id="step"),
    pytest.param(StepLR, torch.optim.lr_scheduler.StepLR, {"step_size": 1}, id="step-every-epoch"),
    pytest.param(CosineAnnealingLR, torch.optim.lr_scheduler.CosineAnnealingLR, {"T_max": 10}, id="cosine"),
    pytest.param(CosineAnnealingLR, torch.optim.lr_scheduler.CosineAnnealingLR, {"T_max": 7, "eta_min": 0.001},
                 id="cosine-eta-min"),
]


@pytest.mark.parametrize("ours, theirs, kwargs", SCHEDULES)
def test_schedules_match_torch_step_for_step(ours, theirs, kwargs):
    """45 epochs (past the cosine's half period, where it rises again), and the weights they train."""
    rng = np.random.default_rng(3)
    start = rng.normal(size=4)
    p_torch = torch.nn.Parameter(torch.tensor(start))
    p_ours = Tensor(start.copy(), requires_grad=True)
    torch_opt, our_opt = torch.optim.SGD([p_torch], lr=0.1, momentum=0.9), SGD([p_ours], lr=0.1, momentum=0.9)
    torch_sched, our_sched = theirs(torch_opt, **kwargs), ours(our_opt, **kwargs)
    for _ in range(45):
        assert our_sched.get_last_lr()[0] == pytest.approx(torch_sched.get_last_lr()[0], rel=1e-12, abs=1e-15)
        assert our_sched.last_epoch == torch_sched.last_epoch
        (p_torch**2).sum().backward()
        our_opt.zero_grad()
        (p_ours * p_ours).sum().backward()
        torch_opt.step()
        our_opt.step()
        torch_opt.zero_grad()
        torch_sched.step()
        our_sched.step()
    assert np.allclose(p_ours.data, p_torch.detach().numpy(), rtol=1e-12, atol=1e-14)


def test_a_resumed_schedule_lands_where_stepping_would():
    stepped = SGD([Tensor(np.zeros(2), requires_grad=True)], lr=0.2)
    schedule = CosineAnnealingLR(stepped, T_max=20)
    for _ in range(13):
        schedule.step()
    resumed = SGD([Tensor(np.zeros(2), requires_grad=True)], lr=0.05)
    resumed.initial_lr = 0.2
    assert CosineAnnealingLR(resumed, T_max=20, last_epoch=12).get_last_lr() == schedule.get_last_lr()
    with pytest.raises(KeyError, match="initial_lr"):
        StepLR(SGD([Tensor(np.zeros(2), requires_grad=True)], lr=0.1), step_size=2, last_epoch=3)


def test_schedules_refuse_bad_periods():
    optimizer = SGD([Tensor(np.zeros(2), requires_grad=True)], lr=0.1)
    for make in (lambda: StepLR(optimizer, step_size=0), lambda: CosineAnnealingLR(optimizer, T_max=0)):
        with pytest.raises(ValueError):
            make()


@pytest.mark.parametrize("make", [
    lambda ps: Adam(ps, lr=0.05),
    lambda ps: SGD(ps, lr=0.1, momentum=0.9),
])
def test_an_optimizer_resumed_from_its_state_dict_takes_the_very_same_steps(make):
    rng = np.random.default_rng(3)
    start = [rng.normal(size=(3, 2)), rng.normal(size=(2,))]

    def loss_of(params):
        w, b = params
        return ((w.sum(axis=0) * b).tanh() ** 2).sum()

    def run(steps, params, optimizer):
        for _ in range(steps):
            optimizer.zero_grad()
            loss_of(params).backward()
            optimizer.step()

    straight = [Tensor(a, requires_grad=True) for a in start]
    run(10, straight, make(straight))
    first = [Tensor(a, requires_grad=True) for a in start]
    optimizer = make(first)
    run(4, first, optimizer)
    saved, weights = optimizer.state_dict(), [p.data.copy() for p in first]
    resumed = [Tensor(w, requires_grad=True) for w in weights]
    again = make(resumed)
    again.load_state_dict(saved)
    run(6, resumed, again)
    for a, b in zip(straight, resumed):
        assert np.array_equal(a.data, b.data)  # bit for bit, not close
    with pytest.raises(ValueError, match="shape"):
        make([Tensor(np.zeros((4, 4)), requires_grad=True), Tensor(np.zeros(2), requires_grad=True)]
             ).load_state_dict(saved)


@pytest.mark.parametrize("make", [
    lambda ps: Adam(ps, lr=0.05),
    lambda ps: Adam(ps, lr=0.05, weight_decay=0.1),
    lambda ps: AdamW(ps, lr=0.05),
    lambda ps: SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
], ids=["adam", "adam-weight-decay", "adamw", "sgd-nesterov-weight-decay"])
def test_parameters_stepped_together_take_the_steps_each_would_alone(make):
    """The optimizer updates small parameters that all have gradients as one flat vector (a large one
    alone): the same bits as its update rule applied to one parameter at a time, and each parameter's
    state reads as its own."""
    rng = np.random.default_rng(4)
    start = [rng.normal(size=(3, 2)), rng.normal(size=(2,)), np.array(rng.normal()), rng.normal(size=(1, 2)),
             rng.normal(size=(65, 65))]  # past _Flat.LARGEST

    def run(one_at_a_time: bool):
        params = [Tensor(a, requires_grad=True) for a in start]
        arrays = [p.data for p in params]
        optimizer = make(params)
        for _ in range(7):
            optimizer.zero_grad()
            w, b, s, r, big = params
            ((((w.sum(axis=0) * b + s).tanh() * r) ** 2).sum() + (big.tanh() ** 2).mean()).backward()
            if one_at_a_time:
                for p, state in zip(params, optimizer.state):
                    optimizer._update(state, p.data, p.grad)
            else:
                optimizer.step()
        assert all(p.data is a for p, a in zip(params, arrays))
        return [p.data for p in params], optimizer.state_dict()["state"]

    together, together_state = run(one_at_a_time=False)
    alone, alone_state = run(one_at_a_time=True)
    for a, b in zip(together, alone):
        assert np.array_equal(a, b)  # bit for bit
    assert together_state.keys() == alone_state.keys() == {0, 1, 2, 3, 4}
    for index, entry in together_state.items():
        assert entry.keys() == alone_state[index].keys()
        for name, value in entry.items():
            assert np.shape(value) == np.shape(alone_state[index][name])
            assert np.array_equal(value, alone_state[index][name])
