"""`engine.nn`: tensor layers against torch.nn in float64, parameter bookkeeping (names, state
dicts, zero_grad), initialisation, seeding, and the scalar micrograd-style `Neuron`/`Layer`/`MLP`."""

import math

import numpy as np
import pytest
import torch

import engine
from engine import Tensor, Value
from engine.nn import MLP, Identity, Layer, LeakyReLU, Linear, Module, Neuron, ReLU, Sequential, Sigmoid, Tanh

RTOL = 1e-12


def close(got, want, rtol=RTOL):
    """Relative to the size of the array (floor one), as the torch oracles measure."""
    got = np.asarray(got, dtype=np.float64)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    error = float(np.max(np.abs(got - want))) / scale if want.size else 0.0
    assert error <= rtol, f"error {error:.3g} > {rtol:.1g}"


def t64(array, requires_grad=False):
    return torch.tensor(np.asarray(array, dtype=np.float64), requires_grad=requires_grad)


# --- Linear against torch.nn.functional.linear ------------------------------------------------------------


@pytest.mark.parametrize("shape", [(5, 3), (3,), (2, 4, 3)], ids=["(N,in)", "(in,)", "(B,N,in)"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no-bias"])
def test_linear_forward_and_backward_match_torch(shape, bias):
    rng = np.random.default_rng(7)
    engine.manual_seed(1)
    layer = Linear(3, 4, bias=bias)
    X = rng.normal(size=shape)
    x = Tensor(X, requires_grad=True)
    out = layer(x)
    upstream = rng.normal(size=out.shape)
    out.backward(upstream)

    tx = t64(X, True)
    tw = t64(layer.weight.data, True)
    tb = t64(layer.bias.data, True) if bias else None
    tout = torch.nn.functional.linear(tx, tw, tb)
    tout.backward(t64(upstream))

    assert out.shape == tuple(tout.shape)
    close(out.data, tout)
    close(x.grad, tx.grad)
    close(layer.weight.grad, tw.grad)
    if bias:
        close(layer.bias.grad, tb.grad)
    else:
        assert layer.bias is None
        assert [name for name, _ in layer.named_parameters()] == ["weight"]


def test_linear_rejects_a_wrong_input_width_naming_both_shapes():
    layer = Linear(3, 4)
    with pytest.raises(ValueError, match=r"\(5, 2\).*\(4, 3\)"):
        layer(Tensor(np.zeros((5, 2))))


def test_linear_default_init_is_uniform_within_one_over_sqrt_fan_in():
    engine.manual_seed(0)
    layer = Linear(64, 200)
    bound = 1.0 / math.sqrt(64)
    for p in (layer.weight.data, layer.bias.data):
        assert np.all(np.abs(p) <= bound)
        # uniform over the whole interval, not a narrower one: the extremes come close to the bound
        assert p.max() > 0.95 * bound and p.min() < -0.95 * bound
    assert layer.weight.shape == (200, 64) and layer.bias.shape == (200,)
    assert layer.weight.requires_grad and layer.bias.requires_grad
    # mean and spread of U(-b, b): 0 and b / sqrt(3)
    assert abs(layer.weight.data.mean()) < 0.05 * bound
    assert abs(layer.weight.data.std() - bound / math.sqrt(3)) < 0.05 * bound


def test_scalar_neuron_init_is_uniform_in_plus_minus_one_with_zero_bias():
    engine.manual_seed(0)
    neuron = Neuron(400)
    w = np.array([p.data for p in neuron.w])
    assert np.all(np.abs(w) <= 1.0) and w.max() > 0.95 and w.min() < -0.95
    assert neuron.b.data == 0.0


# --- Sequential against torch.nn.Sequential ------------------------------------------------------------------


def _pair(activation=Tanh, torch_activation=torch.nn.Tanh):
    engine.manual_seed(3)
    ours = Sequential(Linear(2, 16), activation(), Linear(16, 16), activation(), Linear(16, 1))
    theirs = torch.nn.Sequential(
        torch.nn.Linear(2, 16), torch_activation(), torch.nn.Linear(16, 16), torch_activation(), torch.nn.Linear(16, 1)
    ).double()
    return ours, theirs


def test_sequential_parameter_names_are_pytorchs():
    ours, theirs = _pair()
    names = [name for name, _ in ours.named_parameters()]
    assert names == ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    assert names == list(theirs.state_dict().keys())
    assert names == [name for name, _ in theirs.named_parameters()]
    assert [p.shape for p in ours.parameters()] == [tuple(p.shape) for p in theirs.parameters()]
    assert len(ours) == 5 and isinstance(ours[1], Tanh)


@pytest.mark.parametrize(
    "activation, torch_activation",
    [(Tanh, torch.nn.Tanh), (ReLU, torch.nn.ReLU), (Sigmoid, torch.nn.Sigmoid), (LeakyReLU, torch.nn.LeakyReLU)],
    ids=["tanh", "relu", "sigmoid", "leaky_relu"],
)
def test_sequential_with_our_state_dict_loaded_into_torch_gives_the_same_outputs_and_gradients(
    activation, torch_activation
):
    ours, theirs = _pair(activation, torch_activation)
    theirs.load_state_dict({name: torch.from_numpy(a.copy()) for name, a in ours.state_dict().items()})

    X = np.random.default_rng(0).normal(size=(32, 2))
    out = ours(Tensor(X))
    tout = theirs(t64(X))
    close(out.data, tout)

    # a loss that is not linear in the output, so every gradient depends on the forward values
    loss = (out * out).mean()
    tloss = (tout * tout).mean()
    loss.backward()
    tloss.backward()
    close(loss.item(), tloss.item())
    grads = dict(theirs.named_parameters())
    for name, p in ours.named_parameters():
        close(p.grad, grads[name].grad)


def test_a_layer_used_twice_is_one_set_of_parameters_as_in_torch():
    # weight sharing: torch's named_parameters()/parameters() list a shared parameter once (an optimizer given
    # it twice would step it twice); its state_dict keeps every name.
    shared = Linear(2, 2)
    ours = Sequential(shared, Tanh(), shared)
    tshared = torch.nn.Linear(2, 2).double()
    theirs = torch.nn.Sequential(tshared, torch.nn.Tanh(), tshared)
    assert [name for name, _ in theirs.named_parameters()] == ["0.weight", "0.bias"]
    assert [name for name, _ in ours.named_parameters()] == ["0.weight", "0.bias"]
    assert len(ours.parameters()) == len(list(theirs.parameters())) == 2
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


# --- activation modules ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, torch_module",
    [
        (Tanh(), torch.nn.Tanh()),
        (ReLU(), torch.nn.ReLU()),
        (Sigmoid(), torch.nn.Sigmoid()),
        (LeakyReLU(), torch.nn.LeakyReLU()),
        (LeakyReLU(0.2), torch.nn.LeakyReLU(0.2)),
        (Identity(), torch.nn.Identity()),
    ],
    ids=["tanh", "relu", "sigmoid", "leaky_relu", "leaky_relu(0.2)", "identity"],
)
def test_activation_modules_match_torch_including_at_zero(module, torch_module):
    X = np.array([[-40.0, -2.5, -0.3, 0.0], [0.0, 0.4, 3.0, 40.0]])
    x = Tensor(X, requires_grad=True)
    out = module(x)
    upstream = np.arange(1.0, 9.0).reshape(2, 4)
    out.backward(upstream)
    tx = t64(X, True)
    tout = torch_module(tx)
    tout.backward(t64(upstream))
    close(out.data, tout)
    close(x.grad, tx.grad)
    assert list(module.parameters()) == []


def test_a_sequential_with_identity_activations_is_one_affine_map():
    engine.manual_seed(3)
    model = Sequential(Linear(2, 8), Identity(), Linear(8, 8), Identity(), Linear(8, 1))
    W1, b1, W2, b2, W3, b3 = (p.data for p in model.parameters())
    X = np.random.default_rng(0).normal(size=(5, 2))
    # the product of the three layers, collapsed: W = W3 W2 W1, b = W3 (W2 b1 + b2) + b3
    W, b = W3 @ W2 @ W1, W3 @ (W2 @ b1 + b2) + b3
    np.testing.assert_allclose(model(Tensor(X)).data, X @ W.T + b, rtol=1e-13, atol=1e-15)
    assert repr(model).count("Identity()") == 2


def test_leaky_relu_keeps_its_slope():
    assert LeakyReLU().negative_slope == 0.01
    assert LeakyReLU(0.3)(Tensor([-2.0, 2.0])).tolist() == [-2.0 * 0.3, 2.0]


# --- state_dict / load_state_dict -------------------------------------------------------------------------


def test_state_dict_returns_copies():
    engine.manual_seed(0)
    model = Sequential(Linear(2, 3), Tanh(), Linear(3, 1))
    state = model.state_dict()
    before = model[0].weight.data.copy()
    state["0.weight"][...] = 123.0  # editing the copy leaves the model alone
    np.testing.assert_array_equal(model[0].weight.data, before)
    model[0].weight.data += 1.0  # and training the model leaves the copy alone
    assert np.all(state["0.weight"] == 123.0)
    for name, p in model.named_parameters():
        assert state[name] is not p.data


def test_load_state_dict_round_trips_and_copies_in_place():
    engine.manual_seed(0)
    a = Sequential(Linear(2, 5), ReLU(), Linear(5, 1))
    engine.manual_seed(1)
    b = Sequential(Linear(2, 5), ReLU(), Linear(5, 1))
    X = Tensor(np.random.default_rng(1).normal(size=(10, 2)))
    assert not np.array_equal(a(X).data, b(X).data)

    weight_array = b[0].weight.data
    state = a.state_dict()
    b.load_state_dict(state)
    np.testing.assert_array_equal(a(X).data, b(X).data)
    assert b[0].weight.data is weight_array  # written into the parameter, which optimizers hold
    state["0.weight"][...] = 0.0
    assert np.any(b[0].weight.data != 0.0)  # and the model does not alias the loaded arrays
    for (name_a, pa), (name_b, pb) in zip(a.named_parameters(), b.named_parameters()):
        assert name_a == name_b
        np.testing.assert_array_equal(pa.data, pb.data)


def test_load_state_dict_accepts_torch_tensors_state():
    _, theirs = _pair()
    ours, _ = _pair()
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    X = np.random.default_rng(2).normal(size=(4, 2))
    close(ours(Tensor(X)).data, theirs(t64(X)))


def test_load_state_dict_names_missing_and_unexpected_parameters():
    model = Sequential(Linear(2, 3), Tanh(), Linear(3, 1))
    state = model.state_dict()
    del state["2.bias"]
    with pytest.raises(KeyError, match=r"missing \['2\.bias'\]"):
        model.load_state_dict(state)
    state = model.state_dict()
    state["1.weight"] = np.zeros((3, 3))
    with pytest.raises(KeyError, match=r"unexpected \['1\.weight'\]"):
        model.load_state_dict(state)


def test_load_state_dict_names_the_parameter_and_both_shapes():
    model = Sequential(Linear(2, 3), Tanh(), Linear(3, 1))
    state = model.state_dict()
    state["2.weight"] = np.zeros((3, 1))  # transposed: same size, wrong layout
    with pytest.raises(ValueError, match=r"2\.weight.*\(3, 1\).*\(1, 3\)"):
        model.load_state_dict(state)
    state["2.weight"] = np.zeros(3)
    with pytest.raises(ValueError, match=r"2\.weight.*\(3,\).*\(1, 3\)"):
        model.load_state_dict(state)


def test_scalar_state_dict_holds_floats_and_round_trips():
    engine.manual_seed(0)
    a = MLP(2, [3, 1])
    engine.manual_seed(5)
    b = MLP(2, [3, 1])
    state = a.state_dict()
    assert list(state)[:3] == ["layers.0.neurons.0.w.0", "layers.0.neurons.0.w.1", "layers.0.neurons.0.b"]
    assert all(type(v) is float for v in state.values())
    b.load_state_dict(state)
    x = [0.3, -0.8]
    assert a(x).data == b(x).data
    assert [p.data for p in a.parameters()] == [p.data for p in b.parameters()]


# --- zero_grad, seeding -----------------------------------------------------------------------------------


def test_zero_grad_sets_value_grads_to_zero_and_tensor_grads_to_none():
    engine.manual_seed(0)
    net = Sequential(Linear(2, 3), Tanh(), Linear(3, 1))
    net(Tensor(np.ones((4, 2)))).sum().backward()
    assert all(p.grad is not None and np.any(p.grad != 0) for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())

    mlp = MLP(2, [3, 1])
    mlp([0.5, -1.0]).backward()
    assert any(p.grad != 0.0 for p in mlp.parameters())
    mlp.zero_grad()
    assert all(p.grad == 0.0 and type(p.grad) is float for p in mlp.parameters())


def test_manual_seed_makes_initialisation_reproducible():
    def build():
        return Sequential(Linear(2, 8), Tanh(), Linear(8, 1)).state_dict(), MLP(2, [4, 1]).state_dict()

    engine.manual_seed(42)
    first_tensor, first_scalar = build()
    engine.manual_seed(42)
    second_tensor, second_scalar = build()
    engine.manual_seed(43)
    other_tensor, other_scalar = build()
    for name in first_tensor:
        np.testing.assert_array_equal(first_tensor[name], second_tensor[name])
    assert first_scalar == second_scalar
    assert not np.array_equal(first_tensor["0.weight"], other_tensor["0.weight"])
    assert first_scalar != other_scalar
    # without reseeding, a second model differs from the first
    engine.manual_seed(42)
    build()
    third_tensor, _ = build()
    assert not np.array_equal(first_tensor["0.weight"], third_tensor["0.weight"])


# --- scalar MLP --------------------------------------------------------------------------------------------


def test_micrograd_demo_mlp_is_relu_relu_linear():
    engine.manual_seed(0)
    model = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    assert [n.activation for n in model.layers[0].neurons] == ["relu"] * 16
    assert [n.activation for n in model.layers[1].neurons] == ["relu"] * 16
    assert [n.activation for n in model.layers[2].neurons] == ["linear"]
    out = model([Value(0.5), Value(-1.5)])
    assert isinstance(out, Value)
    assert out.op == "dot"  # no activation on the output: it can be negative
    hidden = model.layers[1](model.layers[0]([Value(0.5), Value(-1.5)]))
    assert len(hidden) == 16 and all(h.op == "relu" for h in hidden)


def test_micrograd_demo_mlp_output_takes_both_signs():
    engine.manual_seed(0)
    model = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    outs = [model([x, y]).data for x in np.linspace(-3, 3, 7) for y in np.linspace(-3, 3, 7)]
    assert min(outs) < 0 < max(outs)


def test_default_mlp_applies_the_activation_everywhere():
    engine.manual_seed(0)
    model = MLP(2, [4, 3, 1])
    assert all(n.activation == "tanh" for layer in model.layers for n in layer.neurons)
    out = model([0.5, -1.5])
    assert out.op == "tanh" and -1.0 < out.data < 1.0
    relu_model = MLP(2, [4, 1], activation="relu")
    assert relu_model([0.5, -1.5]).op == "relu"


def test_parameter_count_of_2_16_16_1_is_337():
    model = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    params = model.parameters()
    assert len(params) == 337 == (2 * 16 + 16) + (16 * 16 + 16) + (16 + 1)
    assert len({id(p) for p in params}) == 337  # each once
    assert len(dict(model.named_parameters())) == 337
    assert all(isinstance(p, Value) for p in params)


def test_scalar_layer_and_neuron():
    engine.manual_seed(0)
    layer = Layer(3, 2, activation="sigmoid")
    out = layer([1.0, 2.0, 3.0])
    assert len(out) == 2 and all(0.0 < o.data < 1.0 and o.op == "sigmoid" for o in out)
    with pytest.raises(ValueError, match="unknown activation"):
        Neuron(2, activation="softplus")
    with pytest.raises(ValueError, match="2 inputs got 3"):
        Neuron(2)([1.0, 2.0, 3.0])


@pytest.mark.parametrize("activation, linear_output", [("relu", True), ("tanh", False), ("sigmoid", True)])
def test_scalar_mlp_forward_equals_plain_python_on_the_same_weights(activation, linear_output):
    engine.manual_seed(11)
    model = MLP(3, [5, 4, 2], activation=activation, linear_output=linear_output)
    functions = {
        "relu": lambda v: v if v > 0.0 else 0.0,
        "tanh": math.tanh,
        "sigmoid": lambda v: 1.0 / (1.0 + math.exp(-v)),
        "linear": lambda v: v,
    }
    x = [0.7, -1.3, 2.1]
    # weights as plain floats, straight from the state dict
    state = model.state_dict()
    h = list(x)
    for i, layer in enumerate(model.layers):
        nout = len(layer.neurons)
        act = "linear" if (linear_output and i == len(model.layers) - 1) else activation
        out = []
        for j in range(nout):
            total = state[f"layers.{i}.neurons.{j}.b"]
            for k in range(len(h)):
                total = total + state[f"layers.{i}.neurons.{j}.w.{k}"] * h[k]
            out.append(functions[act](total))
        h = out
    got = [v.data for v in model(x)]
    if activation == "sigmoid":  # a different (stable) formula for sigmoid: equal to rounding
        assert got == pytest.approx(h, rel=1e-15, abs=1e-15)
    else:
        assert got == h  # the same operations in the same order: bit for bit


def test_scalar_mlp_gradients_match_torch():
    engine.manual_seed(2)
    model = MLP(2, [4, 3, 1], activation="relu", linear_output=True)
    x = [0.6, -0.9]
    out = model(x)
    loss = out * out
    loss.backward()

    state = model.state_dict()
    tparams = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True) for name, v in state.items()}
    h = [torch.tensor(v, dtype=torch.float64) for v in x]
    for i, layer in enumerate(model.layers):
        last = i == len(model.layers) - 1
        new = []
        for j in range(len(layer.neurons)):
            total = tparams[f"layers.{i}.neurons.{j}.b"]
            for k in range(len(h)):
                total = total + tparams[f"layers.{i}.neurons.{j}.w.{k}"] * h[k]
            new.append(total if last else torch.relu(total))
        h = new
    tloss = h[0] * h[0]
    tloss.backward()
    assert loss.data == pytest.approx(tloss.item(), rel=1e-12)
    for name, p in model.named_parameters():
        assert p.grad == pytest.approx(tparams[name].grad.item(), rel=1e-12, abs=1e-12), name


# --- Value.sum -----------------------------------------------------------------------------------------


def test_value_sum_equals_the_chained_sum_exactly_with_one_node():
    rng = np.random.default_rng(0)
    numbers = (rng.normal(size=50) * 10.0 ** rng.integers(-8, 8, 50)).tolist()
    terms = [Value(v) for v in numbers]
    total = Value.sum(terms)
    chained = terms[0]
    for t in terms[1:]:
        chained = chained + t
    assert total.data == chained.data  # same order of additions: bit for bit
    assert total.op == "sum" and total.parents == tuple(terms)


def test_value_sum_gradient_is_one_per_occurrence():
    a, b, c = Value(2.0), Value(-3.0), Value(0.5)
    total = Value.sum([a, b * c, a, 4.0])  # numbers become constants, a repeated term counts twice
    assert total.data == 2.0 + -1.5 + 2.0 + 4.0
    out = total * total
    out.backward()
    assert a.grad == 2 * total.data * 2
    assert b.grad == 2 * total.data * c.data
    assert c.grad == 2 * total.data * b.data
    with pytest.raises(ValueError):
        Value.sum([])


def test_value_sum_of_one_term_and_of_a_generator():
    a = Value(3.0)
    assert Value.sum([a]).data == 3.0
    s = Value.sum(x * x for x in (a, Value(2.0)))
    s.backward()
    assert s.data == 13.0 and a.grad == 6.0


def test_module_without_forward_says_so():
    with pytest.raises(NotImplementedError, match="Module defines no forward"):
        Module()(1)


# --- engine.nn.init against torch.nn.init ------------------------------------------------------------------

from engine.nn import init  # noqa: E402


@pytest.mark.parametrize("nonlinearity, param", [
    ("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None), ("relu", None),
    ("leaky_relu", None), ("leaky_relu", 0.2), ("leaky_relu", 0), ("selu", None)])
def test_calculate_gain_matches_torch(nonlinearity, param):
    assert init.calculate_gain(nonlinearity, param) == pytest.approx(torch.nn.init.calculate_gain(nonlinearity, param),
                                                                      rel=1e-15)


def test_calculate_gain_refuses_what_torch_refuses():
    for args in (("softplus",), ("leaky_relu", "0.1"), ("leaky_relu", True)):
        with pytest.raises(ValueError):
            torch.nn.init.calculate_gain(*args)
        with pytest.raises(ValueError):
            init.calculate_gain(*args)


@pytest.mark.parametrize("shape", [(30, 20), (8, 4, 3, 3)], ids=["linear", "conv"])
def test_fans_match_torch(shape):
    ours = init._calculate_fan_in_and_fan_out(Tensor(np.zeros(shape)))
    assert ours == torch.nn.init._calculate_fan_in_and_fan_out(torch.zeros(shape))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(Tensor(np.zeros(5)))


INITIALISERS = [
    pytest.param("xavier_uniform_", {}, "uniform", id="xavier_uniform"),
    pytest.param("xavier_uniform_", {"gain": 5 / 3}, "uniform", id="xavier_uniform-tanh-gain"),
    pytest.param("xavier_normal_", {}, "normal", id="xavier_normal"),
    pytest.param("kaiming_uniform_", {}, "uniform", id="kaiming_uniform"),
    pytest.param("kaiming_uniform_", {"a": math.sqrt(5)}, "uniform", id="kaiming_uniform-linear-default"),
    pytest.param("kaiming_uniform_", {"nonlinearity": "relu", "mode": "fan_out"}, "uniform",
                 id="kaiming_uniform-fan_out"),
    pytest.param("kaiming_normal_", {"nonlinearity": "relu"}, "normal", id="kaiming_normal"),
]


@pytest.mark.parametrize("name, kwargs, kind", INITIALISERS)
def test_initialisers_draw_from_torch_s_distribution(name, kwargs, kind):
    """Same shape, same formula: the bounds of a uniform (its extremes over 120,000 draws) and the
    standard deviation of both kinds agree with PyTorch's to sampling accuracy."""
    shape = (300, 400)
    ours = getattr(init, name)(Tensor(np.zeros(shape)), **kwargs, generator=np.random.default_rng(0))
    theirs = getattr(torch.nn.init, name)(torch.zeros(shape, dtype=torch.float64), **kwargs,
                                          generator=torch.Generator().manual_seed(0))
    assert isinstance(ours, Tensor)
    ours, theirs = ours.data, theirs.numpy()
    assert ours.std() == pytest.approx(theirs.std(), rel=0.01)
    assert abs(ours.mean()) < 0.01 * theirs.std() * 3
    if kind == "uniform":
        assert np.abs(ours).max() == pytest.approx(np.abs(theirs).max(), rel=1e-3)


def test_the_linear_default_is_kaiming_uniform_with_a_sqrt_5():
    """PyTorch's Linear draws its weight with kaiming_uniform_(a=sqrt(5)): U(+-1/sqrt(fan_in))."""
    bound = 1 / math.sqrt(50)
    weight = Tensor(np.zeros((20, 50)))
    init.kaiming_uniform_(weight, a=math.sqrt(5), generator=np.random.default_rng(1))
    assert np.abs(weight.data).max() <= bound and np.abs(weight.data).max() > 0.99 * bound
    layer = torch.nn.Linear(50, 20)
    assert np.abs(layer.weight.detach().numpy()).max() <= bound


def test_initialisers_fill_in_place_and_keep_the_dtype():
    weight = Tensor(np.zeros((3, 4)), dtype=np.float32)
    data = weight.data
    assert init.xavier_uniform_(weight) is weight and weight.data is data and data.dtype == np.float32
    assert np.any(data != 0)
    assert np.all(init.zeros_(weight).data == 0) and np.all(init.ones_(weight).data == 1)
    assert np.all(init.constant_(weight, 0.25).data == 0.25)
    array = np.zeros((2, 2))
    assert init.normal_(array, 3.0, 0.0) is array and np.all(array == 3.0)


def test_initialisers_use_the_engine_s_seeded_generator_by_default():
    engine.manual_seed(5)
    first = init.kaiming_uniform_(Tensor(np.zeros((4, 4)))).data.copy()
    engine.manual_seed(5)
    assert np.array_equal(init.kaiming_uniform_(Tensor(np.zeros((4, 4)))).data, first)


def test_kaiming_refuses_an_unknown_mode():
    with pytest.raises(ValueError, match="Mode fan_both not supported"):
        init.kaiming_uniform_(Tensor(np.zeros((2, 2))), mode="fan_both")
