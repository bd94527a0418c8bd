"""Property tests: hypothesis builds random programs (expression DAGs with shared subexpressions)
over a few leaves, runs each on the engine and on PyTorch float64, and compares the output and
every leaf's gradient.

- `Value`: random scalar expression DAGs over up to four leaves, every scalar op, numbers on
  either side. Operands are drawn from all earlier nodes, so diamonds, ``x*x`` and
  "an operand that is also an ancestor of the other operand" arise naturally.
- `Tensor`: random compositions over leaves of random broadcastable shapes: elementwise ops
  with broadcasting, matmul against new leaves (1-D, 2-D and batched), reductions over random
  axes with and without keepdims, the softmax family, reshape, transpose, indexing (slices and
  integer arrays with repeats), concatenate and stack; a random upstream gradient seeds
  ``backward(gradient=...)``.

Domains are restricted structurally where an op needs it (log and fractional powers get
``a*a + 0.5``, divisors are ``±(b*b + 0.5)``), and programs whose values leave [-1e6, 1e6]
or whose gradients exceed 1e9 are rejected (`assume`): such programs measure float64
conditioning, not the engine. The error measure is `oracles.grad_error` (norm-wise relative
with a floor of one; its docstring says why) and the bar is 1e-12.

The worst error seen is printed (visible under ``pytest -q`` too) and recorded with
``record_property`` at the end of each test. Derandomized, so CI is deterministic.
"""

import os
import sys

import numpy as np
import torch
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine import Tensor, Value, no_grad

sys.path.insert(0, os.path.dirname(__file__))
import oracles  # noqa: E402  (helpers next to this file; tests/ is not a package)

EXAMPLES = 400  # per test; two tests, 800 examples per run
PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
VALUE_LIMIT = 1e6  # reject programs whose values leave [-1e6, 1e6]
GRAD_LIMIT = 1e9  # ... or whose gradients exceed this: conditioning, not correctness

# The worst error of each test: [error, description, comparisons], module level as the brief asks.
WORST_VALUE = [0.0, "", 0]
WORST_TENSOR = [0.0, "", 0]


def _track(worst: list, err: float, what: str) -> None:
    worst[2] += 1
    if err >= worst[0]:
        worst[0], worst[1] = err, what


def _report(worst: list, name: str, record_property, capsys) -> None:
    record_property(f"worst_relative_difference_{name}", worst[0])
    record_property(f"comparisons_{name}", worst[2])
    with capsys.disabled():
        print(f"\n[{name}] worst engine-vs-torch gradient difference {worst[0]:.3g} over {worst[2]} comparisons")
    assert worst[2] > EXAMPLES // 2  # most examples really ran (few rejections)
    assert worst[0] <= oracles.TORCH_RTOL


def _finite_and_bounded(arrays) -> bool:
    return all(np.all(np.isfinite(a)) and np.all(np.abs(a) <= VALUE_LIMIT) for a in arrays)


# =====================================================================================================
# Scalars

SCALAR_UNARY = {
    "neg": lambda a: -a,
    "exp": lambda a: a.exp(),
    "log": lambda a: (a * a + 0.5).log(),
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "relu": lambda a: a.relu(),
    "sin": lambda a: a.sin(),
    "cos": lambda a: a.cos(),
    "abs": lambda a: a.abs(),
    "square": lambda a: a**2,
    "cube": lambda a: a**3,
    "sqrt": lambda a: (a * a + 0.5) ** 0.5,
    "pow -1.5": lambda a: (a * a + 0.5) ** -1.5,
}
SCALAR_BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b * b + 0.5),
    "div negative": lambda a, b: a / (-0.5 - b * b),
    "pow": lambda a, b: (a * a + 0.5) ** b,
}
# c is a Python number
SCALAR_WITH_NUMBER = {
    "x + c": lambda a, c: a + c,
    "c + x": lambda a, c: c + a,
    "x - c": lambda a, c: a - c,
    "c - x": lambda a, c: c - a,
    "c * x": lambda a, c: c * a,
    "x * c": lambda a, c: a * c,
    "x / c": lambda a, c: a / c,
    "c / x": lambda a, c: c / (a * a + 0.5),
    "c ** x": lambda a, c: abs(c) ** a,
}


@st.composite
def scalar_programs(draw):
    """A list of steps: ("leaf", x) first, then ops over indices of earlier nodes."""
    n_leaves = draw(st.integers(1, 4))
    steps = [("leaf", draw(st.floats(-3, 3, allow_nan=False))) for _ in range(n_leaves)]
    for _ in range(draw(st.integers(1, 14))):
        n = len(steps)
        # favour recent nodes so programs get deep, but any earlier node may be reused
        pick = st.one_of(st.just(n - 1), st.integers(max(0, n - 3), n - 1), st.integers(0, n - 1))
        kind = draw(st.sampled_from(["unary", "binary", "binary", "number"]))
        if kind == "unary":
            steps.append(("unary", draw(st.sampled_from(list(SCALAR_UNARY))), draw(pick)))
        elif kind == "binary":
            steps.append(("binary", draw(st.sampled_from(list(SCALAR_BINARY))), draw(pick), draw(pick)))
        else:
            c = draw(st.sampled_from([0.5, 2, -1.5, 3.0, 1]))
            steps.append(("number", draw(st.sampled_from(list(SCALAR_WITH_NUMBER))), draw(pick), c))
    return steps


def run_scalar_program(steps, make_leaf):
    nodes, leaves = [], []
    for step in steps:
        if step[0] == "leaf":
            node = make_leaf(step[1])
            leaves.append(node)
        elif step[0] == "unary":
            node = SCALAR_UNARY[step[1]](nodes[step[2]])
        elif step[0] == "binary":
            node = SCALAR_BINARY[step[1]](nodes[step[2]], nodes[step[3]])
        else:
            node = SCALAR_WITH_NUMBER[step[1]](nodes[step[2]], step[3])
        nodes.append(node)
    return nodes, leaves


SCALAR_OPERANDS = {"leaf": (), "unary": (2,), "binary": (2, 3), "number": (2,)}


def sinks(steps, operands) -> list[int]:
    """Nodes no later step uses: each one reaches the loss, so no op in a program is dead code."""
    used = {step[k] for step in steps for k in operands[step[0]]}
    return [i for i in range(len(steps)) if i not in used]


def combine_scalar_sinks(steps, nodes):
    """The last node, plus every other sink with a weight of its own: one root that uses them all."""
    *others, last = sinks(steps, SCALAR_OPERANDS)
    out = nodes[last]
    for k, i in enumerate(others):
        out = out + nodes[i] * (0.5 - 0.25 * k)
    return out


@PROPERTY_SETTINGS
@given(steps=scalar_programs())
def _check_random_scalar_program(steps):
    nodes, leaves = run_scalar_program(steps, Value)
    assume(_finite_and_bounded([n.data for n in nodes]))
    out = combine_scalar_sinks(steps, nodes)
    out.backward()

    def torch_leaf(x):
        return torch.tensor(x, dtype=torch.float64, requires_grad=True)

    t_nodes, t_leaves = run_scalar_program(steps, torch_leaf)
    t_out = combine_scalar_sinks(steps, t_nodes)
    t_out.backward()
    want = [0.0 if t.grad is None else t.grad.item() for t in t_leaves]
    assume(all(abs(g) <= GRAD_LIMIT for g in want))
    what = f"program {steps}"
    _track(WORST_VALUE, oracles.assert_close_torch(out.data, t_out.item(), what=f"forward of {what}"), what)
    for i, (leaf, w) in enumerate(zip(leaves, want)):
        _track(WORST_VALUE, oracles.assert_close_torch(leaf.grad, w, what=f"leaf {i} of {what}"), what)


def test_random_scalar_expressions_match_torch(record_property, capsys):
    _check_random_scalar_program()
    _report(WORST_VALUE, "value", record_property, capsys)


# =====================================================================================================
# Tensors


def _broadcastable_to(draw, base):
    """A shape that broadcasts to ``base``: some leading axes dropped, some axes set to 1."""
    drop = draw(st.sampled_from([0, 1, len(base)]))  # full rank first: hypothesis favours it
    return tuple(1 if draw(st.booleans()) and draw(st.booleans()) else n for n in base[drop:])


def _array(draw, shape):
    elements = st.floats(-2, 2, allow_nan=False, allow_subnormal=False)
    return draw(hnp.arrays(np.float64, shape, elements=elements))


TENSOR_UNARY = {
    "neg": lambda a: -a,
    "exp": lambda a: a.exp(),
    "log": lambda a: (a * a + 0.5).log(),
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "relu": lambda a: a.relu(),
    "abs": lambda a: a.abs(),
    "leaky_relu": lambda a: oracles.leaky_relu(a, 0.1),
    "square": lambda a: a**2,
    "cube": lambda a: a**3,
    "sqrt": lambda a: (a * a + 0.5) ** 0.5,
    "pow -1.5": lambda a: (a * a + 0.5) ** -1.5,
}
TENSOR_BINARY = dict(SCALAR_BINARY)
TENSOR_WITH_NUMBER = dict(SCALAR_WITH_NUMBER)
REDUCTIONS = {
    "sum": lambda a, axis, keep: a.sum(axis=axis, keepdims=keep),
    "mean": lambda a, axis, keep: a.mean(axis=axis, keepdims=keep),
    "max": lambda a, axis, keep: oracles.amax(a, axis=axis, keepdims=keep),
    "logsumexp": lambda a, axis, keep: oracles.logsumexp(a, axis=axis, keepdims=keep),
}


def _axis(draw, ndim):
    """None, one axis (maybe negative) or a tuple of distinct axes."""
    choice = draw(st.sampled_from(["none", "one", "tuple"]))
    if choice == "none" or ndim == 0:
        return None
    if choice == "one":
        return draw(st.integers(-ndim, ndim - 1))
    axes = draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True))
    return tuple(sorted(axes))


def _reduced_shape(shape, axis, keep):
    axes = range(len(shape)) if axis is None else [axis] if isinstance(axis, int) else axis
    axes = {a % len(shape) for a in axes} if shape else set()
    if keep:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


TENSOR_STEP_KINDS = [
    "unary",
    "binary",
    "binary",
    "number",
    "reduce",
    "softmax",
    "matmul",
    "reshape",
    "transpose",
    "transpose",
    "index",
    "join",
]


@st.composite
def tensor_programs(draw):
    """Steps over tensor nodes; shapes are tracked while drawing so every step is valid."""
    # hypothesis favours the first choice and small numbers: start from 2-D and 3-D shapes
    # (0-d operands still come in as broadcast partners and from reductions)
    base = tuple(draw(st.integers(1, 4)) for _ in range(draw(st.sampled_from([2, 3, 1]))))
    steps, shapes = [], []

    def add(step, shape):
        steps.append(step)
        shapes.append(tuple(shape))

    add(("leaf", _array(draw, base)), base)  # the first leaf has the full shape
    for _ in range(draw(st.integers(0, 2))):
        shape = _broadcastable_to(draw, base)
        add(("leaf", _array(draw, shape)), shape)

    target = len(steps) + draw(st.integers(1, 10))
    while len(steps) < target:  # a kind that does not fit the chosen node adds nothing: draw again
        n = len(steps)
        i = draw(st.one_of(st.just(n - 1), st.integers(max(0, n - 3), n - 1), st.integers(0, n - 1)))
        shape = shapes[i]
        kind = draw(st.sampled_from(TENSOR_STEP_KINDS))
        if kind == "unary":
            add(("unary", draw(st.sampled_from(list(TENSOR_UNARY))), i), shape)
        elif kind == "binary":
            # the other operand: an earlier node that broadcasts with this one, or a new leaf
            partners = [j for j in range(n) if _broadcasts(shape, shapes[j])]
            name = draw(st.sampled_from(list(TENSOR_BINARY)))
            if draw(st.booleans()):
                other = _broadcastable_to(draw, shape) if draw(st.booleans()) else shape
                add(("leaf", _array(draw, other)), other)
                j = len(steps) - 1
            else:
                j = draw(st.sampled_from(partners))
            left, right = (i, j) if draw(st.booleans()) else (j, i)
            add(("binary", name, left, right), np.broadcast_shapes(shapes[left], shapes[right]))
        elif kind == "number":
            c = draw(st.sampled_from([0.5, 2, -1.5, 3.0]))
            add(("number", draw(st.sampled_from(list(TENSOR_WITH_NUMBER))), i, c), shape)
        elif kind == "reduce":
            axis, keep = _axis(draw, len(shape)), draw(st.booleans())
            add(("reduce", draw(st.sampled_from(list(REDUCTIONS))), i, axis, keep), _reduced_shape(shape, axis, keep))
        elif kind == "softmax" and shape:
            axis = draw(st.integers(-len(shape), len(shape) - 1))
            add(("softmax", draw(st.sampled_from(["softmax", "log_softmax"])), i, axis), shape)
        elif kind == "matmul" and shape:
            _draw_matmul(draw, add, steps, shapes, i)
        elif kind == "reshape" and shape:
            new = (-1,) if draw(st.booleans()) else tuple(reversed(shape))
            add(("reshape", i, new), (int(np.prod(shape)),) if new == (-1,) else new)
        elif kind == "transpose" and len(shape) >= 2:
            axes = tuple(draw(st.permutations(list(range(len(shape)))))) if draw(st.booleans()) else None
            add(("transpose", i, axes), [shape[a] for a in axes] if axes else reversed(shape))
        elif kind == "index" and shape:
            index, out_shape = _draw_index(draw, shape)
            add(("index", i, index), out_shape)
        elif kind == "join" and shape:
            partners = [j for j in range(n) if shapes[j] == shape]
            j = draw(st.sampled_from(partners))  # may be i itself: the same tensor twice
            if draw(st.booleans()):
                axis = draw(st.integers(-len(shape), len(shape) - 1))
                new = list(shape)
                new[axis] *= 2
                add(("concatenate", i, j, axis), new)
            else:
                axis = draw(st.integers(-len(shape) - 1, len(shape)))
                new = list(shape)
                new.insert(axis % (len(shape) + 1), 2)
                add(("stack", i, j, axis), new)
    return steps


def _broadcasts(a, b) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def _draw_matmul(draw, add, steps, shapes, i):
    """x @ W or W @ x with a new leaf W of a fitting shape (vector, matrix or batched)."""
    shape = shapes[i]
    k = draw(st.integers(1, 3))
    batch = shape[-3] if len(shape) >= 3 else 2  # W's batch axis must broadcast with x's
    if draw(st.booleans()):  # x @ W: contracts x's last axis
        m = shape[-1]
        w_shape = draw(st.sampled_from([(m,), (m, k), (batch, m, k), (1, m, k)]))
        add(("leaf", _array(draw, w_shape)), w_shape)
        out = np.matmul(np.empty(shape), np.empty(w_shape)).shape
        add(("matmul", i, len(steps) - 1), out)
    else:  # W @ x: contracts x's second-to-last axis (or its only axis)
        m = shape[-2] if len(shape) >= 2 else shape[0]
        w_shape = draw(st.sampled_from([(m,), (k, m), (batch, k, m)]))
        add(("leaf", _array(draw, w_shape)), w_shape)
        out = np.matmul(np.empty(w_shape), np.empty(shape)).shape
        add(("matmul", len(steps) - 1, i), out)


def _draw_index(draw, shape):
    kind = draw(st.sampled_from(["int", "slice", "array", "column array", "ellipsis"]))
    n = shape[0]
    if kind == "int":
        index = draw(st.integers(-n, n - 1))
    elif kind == "slice":
        start = draw(st.integers(0, n - 1))
        index = slice(start, draw(st.integers(start + 1, n)), draw(st.integers(1, 2)))
    elif kind == "array":  # repeats accumulate
        index = np.array(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5)))
    elif kind == "column array" and len(shape) >= 2:
        index = (slice(None), np.array(draw(st.lists(st.integers(0, shape[1] - 1), min_size=1, max_size=4))))
    else:
        index = (Ellipsis, slice(0, 1))
    return index, np.empty(shape)[index].shape


def run_tensor_program(steps, make_leaf):
    nodes, leaves = [], []
    for step in steps:
        kind = step[0]
        if kind == "leaf":
            node = make_leaf(step[1])
            leaves.append(node)
        elif kind == "unary":
            node = TENSOR_UNARY[step[1]](nodes[step[2]])
        elif kind == "binary":
            node = TENSOR_BINARY[step[1]](nodes[step[2]], nodes[step[3]])
        elif kind == "number":
            node = TENSOR_WITH_NUMBER[step[1]](nodes[step[2]], step[3])
        elif kind == "reduce":
            node = REDUCTIONS[step[1]](nodes[step[2]], step[3], step[4])
        elif kind == "softmax":
            f = oracles.softmax if step[1] == "softmax" else oracles.log_softmax
            node = f(nodes[step[2]], step[3])
        elif kind == "matmul":
            node = nodes[step[1]] @ nodes[step[2]]
        elif kind == "reshape":
            node = nodes[step[1]].reshape(step[2])
        elif kind == "transpose":
            node = oracles.permute(nodes[step[1]], *(step[2] or ()))
        elif kind == "index":
            node = nodes[step[1]][step[2]]
        elif kind == "concatenate":
            node = oracles.concatenate([nodes[step[1]], nodes[step[2]]], step[3])
        else:
            node = oracles.stack([nodes[step[1]], nodes[step[2]]], step[3])
        nodes.append(node)
    return nodes, leaves


TENSOR_OPERANDS = {
    "leaf": (),
    "unary": (2,),
    "binary": (2, 3),
    "number": (2,),
    "reduce": (2,),
    "softmax": (2,),
    "matmul": (1, 2),
    "reshape": (1,),
    "transpose": (1,),
    "index": (1,),
    "concatenate": (1, 2),
    "stack": (1, 2),
}


def combine_tensor_sinks(steps, nodes):
    """A scalar loss that uses every sink: sum over sinks of (sink * a fixed random weight).sum().

    The weights (numpy constants, on the right of ``*``) make every output element's
    gradient distinct, so a gradient sent to the wrong element cannot go unnoticed.
    """
    loss = None
    for k, i in enumerate(sinks(steps, TENSOR_OPERANDS)):
        weight = oracles.upstream_for(tuple(nodes[i].shape), np.random.default_rng(k))
        if isinstance(nodes[i], torch.Tensor):
            weight = torch.from_numpy(weight)
        term = (nodes[i] * weight).sum()
        loss = term if loss is None else loss + term
    return loss


@PROPERTY_SETTINGS
@given(steps=tensor_programs())
def _check_random_tensor_program(steps):
    with no_grad():
        forward, _ = run_tensor_program(steps, Tensor)
    assume(_finite_and_bounded([n.data for n in forward]))

    nodes, leaves = run_tensor_program(steps, lambda a: Tensor(a.copy(), requires_grad=True))
    out = combine_tensor_sinks(steps, nodes)
    out.backward()

    t_nodes, t_leaves = run_tensor_program(steps, lambda a: torch.tensor(a, requires_grad=True))
    t_out = combine_tensor_sinks(steps, t_nodes)
    t_out.backward()
    want = [None if t.grad is None else t.grad.numpy() for t in t_leaves]
    assume(all(w is None or np.all(np.abs(w) <= GRAD_LIMIT) for w in want))

    what = f"program {steps}"
    _track(WORST_TENSOR, oracles.assert_close_torch(out.data, t_out.detach().numpy(), what=f"forward {what}"), what)
    for i, (leaf, w) in enumerate(zip(leaves, want)):
        if w is None:
            assert leaf.grad is None, f"leaf {i} got a grad torch never gives it: {what}"
            continue
        assert leaf.grad is not None and leaf.grad.shape == leaf.shape, f"leaf {i}: {what}"
        _track(WORST_TENSOR, oracles.assert_close_torch(leaf.grad, w, what=f"leaf {i} of {what}"), what)


def test_random_tensor_programs_match_torch(record_property, capsys):
    _check_random_tensor_program()
    _report(WORST_TENSOR, "tensor", record_property, capsys)
