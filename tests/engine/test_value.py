"""The scalar engine `engine.Value`: every op against finite differences and PyTorch float64,
the micrograd API, graph shapes that catch accumulation bugs, IEEE results, `backward_steps`,
a million-op chain and the absence of reference cycles."""

import gc
import math
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from engine import BackwardStep, Value

sys.path.insert(0, os.path.dirname(__file__))
import oracles  # noqa: E402  (helpers next to this file; tests/ is not a package)

BUCKET = "value"
POINTS = [-2.5, -1.0, -0.3, 0.4, 1.0, 2.0, 3.7]
POSITIVE = [0.2, 0.5, 1.0, 1.7, 3.0]
NONZERO = [-2.5, -0.7, 0.3, 1.0, 2.2]

# name, function, points. Kinked functions (relu, abs) are sampled away from their kink.
UNARY = [
    ("neg", lambda x: -x, POINTS),
    ("exp", lambda x: x.exp(), POINTS),
    ("log", lambda x: x.log(), POSITIVE),
    ("tanh", lambda x: x.tanh(), POINTS),
    ("sigmoid", lambda x: x.sigmoid(), POINTS),
    ("relu", lambda x: x.relu(), POINTS),
    ("sin", lambda x: x.sin(), POINTS),
    ("cos", lambda x: x.cos(), POINTS),
    ("abs", lambda x: x.abs(), POINTS),
    ("builtin abs", lambda x: abs(x), POINTS),
    ("pow 2", lambda x: x**2, POINTS),
    ("pow 3", lambda x: x**3, POINTS),
    ("pow 2.0", lambda x: x**2.0, POINTS),
    ("pow 0.5", lambda x: x**0.5, POSITIVE),
    ("pow -1", lambda x: x**-1, NONZERO),
    ("pow -2.5", lambda x: x**-2.5, POSITIVE),
    ("pow 0", lambda x: x**0, POINTS),
    ("pow 1", lambda x: x**1, POINTS),
    # numbers on either side of every binary operator
    ("x + 2", lambda x: x + 2, POINTS),
    ("2 + x", lambda x: 2 + x, POINTS),
    ("x - 2", lambda x: x - 2, POINTS),
    ("2 - x", lambda x: 2 - x, POINTS),
    ("2.5 - x", lambda x: 2.5 - x, POINTS),
    ("x * 3", lambda x: x * 3, POINTS),
    ("3 * x", lambda x: 3 * x, POINTS),
    ("-1.5 * x", lambda x: -1.5 * x, POINTS),
    ("x / 4", lambda x: x / 4, POINTS),
    ("2 / x", lambda x: 2 / x, NONZERO),
    ("-3.5 / x", lambda x: -3.5 / x, NONZERO),
    ("2 ** x", lambda x: 2**x, POINTS),
    ("0.5 ** x", lambda x: 0.5**x, POINTS),
    ("2.5 ** x", lambda x: 2.5**x, POINTS),
]

PAIRS = [(2.0, 3.0), (-1.5, 0.7), (0.3, -2.2), (-1.2, -0.4), (4.0, 1.0)]
POSITIVE_BASES = [(2.0, 3.0), (0.5, -1.3), (1.7, 0.0), (3.0, -2.0), (0.9, 2.5)]

BINARY = [
    ("a + b", lambda a, b: a + b, PAIRS),
    ("a - b", lambda a, b: a - b, PAIRS),
    ("b - a", lambda a, b: b - a, PAIRS),
    ("a * b", lambda a, b: a * b, PAIRS),
    ("a / b", lambda a, b: a / b, PAIRS),
    ("b / a", lambda a, b: b / a, PAIRS),
    ("a ** b", lambda a, b: a**b, POSITIVE_BASES),
    ("tanh(a) * sigmoid(b)", lambda a, b: a.tanh() * b.sigmoid(), PAIRS),
    ("exp(a) / (1 + b * b)", lambda a, b: a.exp() / (1 + b * b), PAIRS),
    ("log(a * a + b * b)", lambda a, b: (a * a + b * b).log(), PAIRS),
    ("sin(a * b) + cos(a - b)", lambda a, b: (a * b).sin() + (a - b).cos(), PAIRS),
    ("relu(a) * abs(b)", lambda a, b: a.relu() * b.abs(), PAIRS),
]


def _unary_cases():
    for name, f, points in UNARY:
        for x in points:
            yield pytest.param(f, x, id=f"{name}@{x}")


def _binary_cases():
    for name, f, pairs in BINARY:
        for a, b in pairs:
            yield pytest.param(f, a, b, id=f"{name}@{a},{b}")


# --- every op against finite differences and torch ------------------------------------------------


@pytest.mark.parametrize("f, x", list(_unary_cases()))
def test_unary_op_matches_finite_differences_and_torch(f, x):
    oracles.check_value(f, [x], BUCKET)


@pytest.mark.parametrize("f, a, b", list(_binary_cases()))
def test_binary_op_matches_finite_differences_and_torch(f, a, b):
    oracles.check_value(f, [a, b], BUCKET)


def test_pow_with_a_number_exponent_gives_the_exponent_no_gradient():
    x = Value(3.0)
    y = x**2
    y.backward()
    assert y.op == "**"
    assert y.parents[0] is x and y.parents[1].data == 2.0
    assert y.parents[1].grad == 0.0  # a constant: it gets no gradient
    assert x.grad == 6.0


def test_pow_with_a_value_exponent_differentiates_both():
    a, b = Value(2.0), Value(3.0)
    y = a**b
    y.backward()
    assert y.data == 8.0
    assert a.grad == 12.0  # b a^(b-1)
    assert b.grad == pytest.approx(8.0 * math.log(2.0), rel=1e-15)  # a^b ln a


# --- the micrograd API ---------------------------------------------------------------------------------


def test_a_leaf_has_data_grad_label_op_and_no_parents():
    x = Value(2, label="x")
    assert x.data == 2.0 and isinstance(x.data, float)
    assert x.grad == 0.0 and isinstance(x.grad, float)
    assert x.label == "x"
    assert x.op == ""
    assert tuple(x.parents) == ()
    assert Value(1.5).label == ""


@pytest.mark.parametrize(
    "build, op",
    [
        (lambda a, b: a + b, "+"),
        (lambda a, b: a - b, "-"),
        (lambda a, b: a * b, "*"),
        (lambda a, b: a / b, "/"),
        (lambda a, b: a**b, "**"),
    ],
)
def test_binary_ops_keep_their_operands_in_order(build, op):
    a, b = Value(2.0), Value(3.0)
    y = build(a, b)
    assert y.op == op
    assert tuple(y.parents) == (a, b)
    assert y.parents[0] is a and y.parents[1] is b


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sigmoid", "relu", "sin", "cos", "abs"])
def test_unary_ops_name_themselves_and_keep_their_operand(name):
    x = Value(0.5)
    y = getattr(x, name)()
    assert y.op == name
    assert len(y.parents) == 1 and y.parents[0] is x


def test_reversed_operands_put_the_number_first():
    x = Value(4.0)
    for y, expected in [(2 - x, -2.0), (2 / x, 0.5), (2**x, 16.0), (2 + x, 6.0), (2 * x, 8.0)]:
        assert y.data == expected
        assert y.parents[1] is x and y.parents[0].data == 2.0


def test_x_times_x_keeps_both_edges_and_gets_2x():
    x = Value(3.0)
    y = x * x
    assert len(y.parents) == 2 and y.parents[0] is x and y.parents[1] is x
    y.backward()
    assert x.grad == 6.0
    assert len(list(y.backward_steps())) == 2  # one chain-rule step per edge


def test_hand_traced_example():
    # ((a*b)+c)*(a+d) at a=2, b=3, c=4, d=5: e = 6, f = 10, g = 7, out = 70
    a, b, c, d = Value(2.0, label="a"), Value(3.0, label="b"), Value(4.0, label="c"), Value(5.0, label="d")
    e = a * b
    f = e + c
    g = a + d
    out = f * g
    out.backward()
    assert out.data == 70.0
    assert (a.grad, b.grad, c.grad, d.grad) == (31.0, 14.0, 7.0, 10.0)
    assert (out.grad, f.grad, g.grad, e.grad) == (1.0, 7.0, 10.0, 7.0)
    oracles.check_value(lambda a, b, c, d: ((a * b) + c) * (a + d), [2.0, 3.0, 4.0, 5.0], BUCKET)


def test_diamond_graph_sums_both_paths():
    # a -> (b = 2a, c = a + 1) -> d = b * c = 2a^2 + 2a, dd/da = 4a + 2
    a = Value(3.0)
    b = a * 2
    c = a + 1
    d = b * c
    d.backward()
    assert d.data == 24.0
    assert a.grad == 14.0
    assert (b.grad, c.grad) == (4.0, 6.0)


def test_a_variable_used_many_times():
    x = Value(1.5)
    total = Value(0.0)
    for _ in range(100):
        total = total + x
    y = total * x  # 100 x^2, dy/dx = 200 x
    y.backward()
    assert x.grad == 300.0
    oracles.check_value(lambda x: x * x.tanh() + x.exp() * x - x / (x * x + 1) + (x**3).sin(), [0.8], BUCKET)


def test_an_operand_that_is_also_an_ancestor_of_the_other_operand():
    # y = x * (x + 1): x is y's first parent and also the parent of y's second parent. A
    # topological sort that marks nodes when pushed (not when expanded) processed x before
    # x + 1 and dropped the path through it (x.grad was 3).
    x = Value(2.0)
    y = x * (x + 1)
    y.backward()
    assert x.grad == 5.0  # 2x + 1 (torch: 5.0)


@pytest.mark.parametrize(
    "f, x",
    [
        pytest.param(lambda x: x * x.tanh(), 0.7, id="x*tanh(x)"),
        pytest.param(lambda x: x / (x * x + 1), -1.3, id="x/(x*x+1)"),
        pytest.param(lambda x: x ** (x.sigmoid()), 1.4, id="x**sigmoid(x)"),
        pytest.param(lambda x: x - (x + x.exp()).log(), 0.3, id="x-log(x+exp(x))"),
    ],
)
def test_operands_that_depend_on_each_other_match_torch(f, x):
    oracles.check_value(f, [x], BUCKET)


def test_sum_of_values_with_python_sum():
    xs = [Value(float(i)) for i in range(5)]
    y = sum(x * x for x in xs)  # starts from 0 + Value
    y.backward()
    assert y.data == 30.0
    assert [x.grad for x in xs] == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_backward_twice_adds_the_leaf_gradients_once_more():
    a, b = Value(2.0), Value(-3.0)
    h = a * b + a.tanh()
    out = h * h
    out.backward()
    first = (a.grad, b.grad)
    interior = (out.grad, h.grad)
    out.backward()
    assert (a.grad, b.grad) == (2 * first[0], 2 * first[1])
    assert (out.grad, h.grad) == interior  # interior nodes are reset, not accumulated
    assert out.grad == 1.0


def test_backward_on_a_leaf_sets_grad_one_and_accumulates():
    x = Value(5.0)
    x.backward()
    assert x.grad == 1.0
    x.backward()
    assert x.grad == 2.0


def test_leaves_not_in_the_graph_stay_at_zero():
    a, b, unused = Value(1.0), Value(2.0), Value(3.0)
    (a * b).backward()
    assert unused.grad == 0.0


def test_repr_shows_data_and_grad():
    x = Value(2.0, label="x")
    assert "2.0" in repr(x) and "x" in repr(x)


# --- IEEE results instead of exceptions ----------------------------------------------------------------

IEEE_CASES = [
    ("1 / 0", lambda x: 1 / x, 0.0, math.inf),
    ("-1 / 0", lambda x: -1 / x, 0.0, -math.inf),
    ("x / 0", lambda x: x / 0, 3.0, math.inf),
    ("-x / 0", lambda x: -x / 0, 3.0, -math.inf),
    ("0 / 0", lambda x: x / x, 0.0, math.nan),
    ("log(-1)", lambda x: x.log(), -1.0, math.nan),
    ("log(0)", lambda x: x.log(), 0.0, -math.inf),
    ("exp(1000)", lambda x: x.exp(), 1000.0, math.inf),
    ("exp(-1000)", lambda x: x.exp(), -1000.0, 0.0),
    ("(-8) ** (1/3)", lambda x: x ** (1 / 3), -8.0, math.nan),
    ("0 ** -1", lambda x: x**-1, 0.0, math.inf),
    ("10 ** 400", lambda x: x**400, 10.0, math.inf),
    ("(-10) ** 401", lambda x: x**401, -10.0, -math.inf),
    ("2 ** 5000", lambda x: 2**x, 5000.0, math.inf),
    ("sin(inf)", lambda x: x.sin(), math.inf, math.nan),
    ("cos(inf)", lambda x: x.cos(), math.inf, math.nan),
    ("tanh(inf)", lambda x: x.tanh(), math.inf, 1.0),
    ("sigmoid(1000)", lambda x: x.sigmoid(), 1000.0, 1.0),
    ("sigmoid(-1000)", lambda x: x.sigmoid(), -1000.0, 0.0),
    ("sigmoid(-inf)", lambda x: x.sigmoid(), -math.inf, 0.0),
    ("tanh(-1000)", lambda x: x.tanh(), -1000.0, -1.0),
    ("exp(1000) - exp(1000)", lambda x: x.exp() - x.exp(), 1000.0, math.nan),
    ("x ** 0 at 0", lambda x: x**0, 0.0, 1.0),
    ("x ** y at 0, 0", lambda x: x ** (x * 1), 0.0, 1.0),
    ("x ** y at 0, -1", lambda x: x ** (x - 1), 0.0, math.inf),
    ("(-2) ** Value(3)", lambda x: (x - 4) ** (x + 1), 2.0, -8.0),  # d/dexponent = a^b ln(a) = nan
]


@pytest.mark.parametrize("f, x, expected", [pytest.param(f, x, e, id=name) for name, f, x, e in IEEE_CASES])
def test_ieee_results_and_gradients_match_torch(f, x, expected):
    data, grads = oracles.value_grads(f, [x])  # no exception
    if math.isnan(expected):
        assert math.isnan(data)
    else:
        assert data == expected
    want_data, want_grads = oracles.value_torch(f, [x])
    assert oracles.grad_error(data, want_data) == 0.0
    assert oracles.grad_error(grads, want_grads) <= oracles.TORCH_RTOL, (grads, want_grads)


def test_relu_of_nan_is_nan_as_in_torch_and_the_tensor_engine():
    assert math.isnan(torch.relu(torch.tensor(math.nan)).item())
    assert math.isnan(Value(math.nan).relu().data)


# --- backward_steps -------------------------------------------------------------------------------------


def _graphs():
    """Fresh (root, leaves) graphs of several shapes, as builders."""

    def hand_traced():
        a, b, c, d = (Value(v) for v in (2.0, 3.0, 4.0, 5.0))
        return ((a * b) + c) * (a + d), [a, b, c, d]

    def diamond_with_constants():
        x, y = Value(0.7), Value(-1.3)
        u = x * y
        return (u.tanh() + u.sigmoid()) * (2 - x) / (1 + y * y) + x**2 + 2**y, [x, y]

    def square():
        x = Value(-1.5)
        return x * x, [x]

    def deep_reuse():
        x = Value(0.3)
        h = x
        for i in range(20):
            h = (h * x + 0.1 * i).sin() + h.exp().log()
        return h, [x]

    def operand_is_ancestor_of_the_other():
        x = Value(2.0)
        return x * (x + 1), [x]

    return [hand_traced, diamond_with_constants, square, deep_reuse, operand_is_ancestor_of_the_other]


@pytest.mark.parametrize("build", _graphs(), ids=lambda b: getattr(b, "__name__", "graph"))
def test_backward_steps_apply_the_chain_rule_exactly(build):
    root, leaves = build()
    steps = list(root.backward_steps())
    assert steps and all(isinstance(s, BackwardStep) for s in steps)
    running = {}
    finished = set()
    for s in steps:
        assert s.contribution == s.upstream * s.local  # exactly, no tolerance
        assert s.parent in s.node.parents
        assert s.upstream == s.node.grad  # the node's complete gradient is what flows on
        # the parent's running total adds exactly this contribution
        expected_total = s.contribution if s.parent not in running else running[s.parent] + s.contribution
        assert s.total == expected_total
        running[s.parent] = s.total
        # topological: a node passes its gradient on only after all of its own has arrived
        assert s.parent not in finished
        finished.add(s.node)
    for leaf in leaves:
        assert running[leaf] == leaf.grad  # the last total per leaf is the leaf's grad
    assert steps[0].node is root and steps[0].upstream == 1.0


@pytest.mark.parametrize("build", _graphs(), ids=lambda b: getattr(b, "__name__", "graph"))
def test_backward_is_backward_steps_run_to_the_end(build):
    root_a, leaves_a = build()
    root_b, leaves_b = build()
    root_a.backward()
    for _ in root_b.backward_steps():
        pass
    assert [x.grad for x in leaves_a] == [x.grad for x in leaves_b]
    assert root_a.grad == root_b.grad == 1.0


def test_backward_steps_count_one_step_per_edge_and_are_lazy():
    a, b, c, d = (Value(v) for v in (2.0, 3.0, 4.0, 5.0))
    root = ((a * b) + c) * (a + d)
    gen = root.backward_steps()
    assert root.grad == 0.0 and a.grad == 0.0  # nothing happens until the first step is asked for
    first = next(gen)
    assert first.node is root and root.grad == 1.0
    assert first.parent is root.parents[0] and first.local == 7.0  # d(f*g)/df = g = a + d
    rest = list(gen)
    assert len(rest) + 1 == 8  # edges: out->f, out->g, f->e, f->c, e->a, e->b, g->a, g->d
    assert a.grad == 31.0


def test_backward_steps_of_a_number_exponent_skip_the_constant():
    x = Value(3.0)
    steps = list((x**2).backward_steps())
    assert len(steps) == 1 and steps[0].parent is x
    assert steps[0].local == 6.0 and steps[0].contribution == 6.0 and steps[0].total == 6.0


# --- scale: a million ops at the default recursion limit ------------------------------------------------

MILLION_CHAIN = textwrap.dedent(
    """
    import sys
    from engine import Value

    assert sys.getrecursionlimit() == 1000, sys.getrecursionlimit()
    x = Value(0.5)
    y = x
    for _ in range(1_000_000):
        y = y + x          # y = 1,000,001 x: one op per step, x used a million times
    y.backward()
    assert x.grad == 1_000_001.0, x.grad
    steps = 0
    z = x
    for _ in range(1_000_000):
        z = -z
    for _ in z.backward_steps():
        steps += 1
    assert steps == 1_000_000 and x.grad == 1_000_002.0, (steps, x.grad)
    del y, z               # a million-deep chain freed by reference counting
    print("ok")
    """
)


def test_a_million_op_chain_backpropagates_and_is_freed():
    # In a subprocess: a crash while freeing the chain must fail this test, not end the session.
    result = subprocess.run(
        [sys.executable, "-c", MILLION_CHAIN],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


# --- no reference cycles ----------------------------------------------------------------------------------


def _garbage_after(build) -> int:
    """Objects the cyclic collector finds after ``build()`` made and dropped a graph."""
    gc.collect()
    gc.disable()
    try:
        build()
        return gc.collect()
    finally:
        gc.enable()


def test_the_cycle_check_sees_a_cycle():
    # The method itself can fail: a closure capturing its own output (micrograd's pattern).
    def cyclic():
        out = Value(1.0)

        def _backward():
            out.grad += 1.0

        out._backward = _backward

    assert _garbage_after(cyclic) > 0


def test_a_spent_value_graph_leaves_no_reference_cycles():
    def build():
        a, b = Value(0.5), Value(-1.5)
        h = a
        for _ in range(50):
            h = (h * b + a).tanh() + (h - 2) / (b * b + 1) + (a**2).exp().log() + 2 ** h.sigmoid() + h.relu().abs()
            h = Value.dot([h, a], [b, h], bias=a) + Value.sum([h, b, 0.5])
        out = h.sin() * h.cos()
        out.backward()
        list(out.backward_steps())
        del out, h

    assert _garbage_after(build) == 0


# --- report ------------------------------------------------------------------------------------------------


def test_report_worst_gradient_difference_against_torch(record_property, capsys):
    worst = oracles.WORST.get(BUCKET)
    if not worst:
        pytest.skip("no torch comparison ran in this session")
    record_property("worst_relative_difference_value", worst[0])
    with capsys.disabled():
        print(f"\n[value] worst engine-vs-torch difference {worst[0]:.3g} over {worst[2]} comparisons ({worst[1]})")
    assert worst[0] <= oracles.TORCH_RTOL
