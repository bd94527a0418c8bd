"""`engine.paths`: a gradient as the sum over paths from the output down to a node, each path the
product of its local derivatives. Checked on lesson 2's graph by hand, against a brute-force
enumeration and the backward pass on random graphs, and on graphs with 2^50 paths."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from engine import Tensor, Value, paths
from tests.engine.test_backward_paths import build, programs

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def lesson_two():
    a, b, c, d = Value(2.0, "a"), Value(3.0, "b"), Value(4.0, "c"), Value(5.0, "d")
    t1 = a * b
    t2 = t1 + c
    t3 = a + d
    L = t2 * t3
    L.backward()
    return L, a, b, t1, t2, t3


def test_a_grad_is_31_as_7_times_1_times_3_plus_10_times_1():
    L, a, b, t1, t2, t3 = lesson_two()
    found = paths(L, a)
    assert found.count == 2 and found.total == 31.0 == a.grad
    through_t1, through_t3 = found.paths  # the larger first
    assert through_t1.nodes == (L, t2, t1, a) and through_t1.locals == (7.0, 1.0, 3.0) and through_t1.product == 21
    assert through_t3.nodes == (L, t3, a) and through_t3.locals == (10.0, 1.0) and through_t3.product == 10
    assert through_t1.indices == (0, 0, 0) and through_t3.indices == (1, 0)
    assert found.rest_count == 0 and found.rest_total == 0.0
    assert paths(L, b).total == 14.0 == b.grad and len(paths(L, b)) == 1


def test_x_times_x_has_two_paths_one_per_operand():
    x = Value(3.0)
    y = x * x
    found = paths(y, x)
    assert found.count == 2 and [p.indices for p in found] == [(0,), (1,)] and found.total == 6.0


def test_the_output_itself_has_one_empty_path_and_an_unrelated_node_none():
    L, *_ = lesson_two()
    own = paths(L, L)
    assert own.count == 1 and own.total == 1.0 and own.paths[0].nodes == (L,) and own.paths[0].product == 1.0
    stranger = paths(L, Value(1.0))
    assert stranger.count == 0 and stranger.total == 0.0 and not stranger.paths


def _brute_force(output, node):
    """Every path by plain recursion over the graph: the reference for small graphs."""
    found = []

    def walk(above, product, trail):
        if above is node:
            found.append((product, trail))
            return
        if above._backward is None:
            return
        shares = above._backward(above, product)  # the share each operand gets, as backward() forms it
        for index, (below, local) in enumerate(zip(above._prev, type(above)._local_derivatives(above))):
            if local is not None:
                walk(below, shares[index], (*trail, index))

    walk(output, 1.0, ())
    return found


@SETTINGS
@given(steps=programs())
def test_on_random_graphs_the_paths_add_up_to_the_backward_gradient(steps):
    root, nodes, leaves = build(steps)
    root.backward()
    for leaf in leaves:
        if paths(root, leaf, largest=0).count > 2_000:  # no brute force over that many: the sums alone
            summed = paths(root, leaf, largest=0).total
            if math.isfinite(leaf.grad):
                assert abs(summed - leaf.grad) <= 1e-12 * max(1.0, abs(leaf.grad))
            else:
                assert not math.isfinite(summed)
            continue
        found = paths(root, leaf)
        want = _brute_force(root, leaf)
        assert found.count == len(want)
        assert sorted(p.indices for p in found) == sorted(trail for _, trail in want)
        if not math.isfinite(leaf.grad):
            assert not math.isfinite(found.total)
            continue  # nan and inf: the sums agree only as IEEE does, no tolerance to speak of
        assert abs(found.total - leaf.grad) <= 1e-12 * max(1.0, abs(leaf.grad))
        if not all(math.isfinite(p.product) for p in found):
            continue  # an infinite share cancelled by the rule of a ReLU at 0 further up
        listed = math.fsum(p.product for p in found)
        assert abs(listed - leaf.grad) <= 1e-12 * max(1.0, math.fsum(abs(p.product) for p in found))


@SETTINGS
@given(steps=programs())
def test_the_largest_k_are_the_k_largest_of_all_and_the_rest_adds_up(steps):
    root, nodes, leaves = build(steps)
    root.backward()
    for leaf in leaves:
        if paths(root, leaf, largest=0).count > 2_000:
            continue
        shares = _brute_force(root, leaf)
        everything = sorted(abs(p) for p, _ in shares if not math.isnan(p))
        if len(everything) != len(shares):
            continue
        top = paths(root, leaf, largest=3)
        assert [abs(p.product) for p in top] == sorted(everything, reverse=True)[:3]
        assert top.count == len(everything) and top.rest_count == max(0, len(everything) - 3)
        if math.isfinite(top.total):
            assert abs(math.fsum(p.product for p in top) + top.rest_total - top.total) <= 1e-12 * max(
                1.0, math.fsum(everything))


def diamond_ladder(rungs: int):
    """x feeds two branches that meet again, ``rungs`` times over: 2^rungs paths from top to x."""
    x = Value(0.3, "x")
    node = x
    for _ in range(rungs):
        node = (node * 1.01) + node.tanh()
    return node, x


def test_an_exploding_number_of_paths_is_counted_and_summed_and_the_largest_listed():
    top, x = diamond_ladder(50)
    top.backward()
    found = paths(top, x, largest=5)
    assert found.count == 2**50
    assert len(found) == 5 and found.rest_count == 2**50 - 5
    assert abs(found.total - x.grad) <= 1e-12 * abs(x.grad)
    sizes = [abs(p.product) for p in found]
    assert sizes == sorted(sizes, reverse=True)
    # The largest path here takes the x*1.01 branch at every rung (1.01 beats tanh' < 1).
    assert found.paths[0].product == pytest.approx(1.01**50, rel=1e-12)
    with pytest.raises(ValueError, match="1,125,899,906,842,624 paths"):
        paths(top, x)


def test_a_chain_of_a_hundred_thousand_ops_has_one_path_and_no_recursion():
    x = Value(0.5)
    node = x
    for _ in range(100_000):
        node = node * 1.0
    found = paths(node, x)
    assert found.count == 1 and found.total == 1.0 and len(found.paths[0].nodes) == 100_001


def test_tensor_graphs_are_refused_with_the_reason():
    w = Tensor(np.ones((2, 2)), requires_grad=True)
    with pytest.raises(TypeError, match="Jacobian"):
        paths((w @ w).sum(), w)
