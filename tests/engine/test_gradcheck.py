"""`engine.gradcheck`: passes on correct functions, and on a wrong gradient names the input and the element."""

import re

import numpy as np
import pytest

from engine import Tensor, Value
from engine.gradcheck import GradcheckError, gradcheck
from engine.nn import functional as F
from engine.tensor import make_result


def _bad_abs(x):
    """|x| with a wrong rule: the derivative is taken as 1 where x > 0 and 0 elsewhere (the -1 forgotten)."""
    return make_result(np.abs(x.data), "bad_abs", (x,), lambda node, g: (np.where(node._prev[0].data > 0, g, 0.0),))


def _double_rule(x):
    """3x with the rule of 2x."""
    return make_result(3.0 * x.data, "bad", (x,), lambda node, g: (2 * g,))


# --- correct functions pass --------------------------------------------------------------------------


@pytest.mark.parametrize("f, points", [
    (lambda a, b: a * b + a.tanh(), (0.7, -1.3)),
    (lambda a, b: (a / b).exp() - b.log(), (0.4, 2.5)),
    (lambda a, b: Value.sum([a * b, b.sigmoid(), a.exp()]) ** 2, (0.3, -0.8)),
    (lambda a, b: (a.relu() + b.abs()).sin() * b.cos(), (0.9, -0.6)),
])
def test_gradcheck_passes_on_correct_value_functions(f, points):
    inputs = [Value(p) for p in points]
    grads_before = [0.25, -4.0]
    for x, g in zip(inputs, grads_before):
        x.grad = g
    assert gradcheck(f, inputs) is True
    assert [x.data for x in inputs] == list(points)  # inputs restored after the perturbations
    assert [x.grad for x in inputs] == grads_before  # and their grads too


def test_gradcheck_accepts_a_single_value():
    assert gradcheck(lambda a: a.tanh() * 3.0, Value(0.2)) is True


@pytest.mark.parametrize("f, shapes", [
    (lambda x, w: (x @ w).tanh().sum(), [(4, 3), (3, 2)]),  # scalar output
    (lambda x, w: (x @ w).sigmoid(), [(4, 3), (3, 2)]),  # multi-output (4, 2)
    (lambda x, w: (x * w).log_softmax(axis=1), [(2, 3), (3,)]),  # broadcasting, multi-output
    (lambda x, w: F.linear(x, w).relu() + x.sum(axis=1, keepdims=True), [(5, 3), (2, 3)]),
    (lambda x, w: F.binary_cross_entropy_with_logits(x @ w, np.array([1.0, 0.0, 1.0]), reduction="none"),
     [(3, 2), (2,)]),
])
def test_gradcheck_passes_on_correct_tensor_functions(f, shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.normal(size=s) + 0.05 for s in shapes]
    inputs = [Tensor(a, requires_grad=True) for a in arrays]
    assert gradcheck(f, inputs) is True
    for x, a in zip(inputs, arrays):
        np.testing.assert_array_equal(x.data, a)  # perturbations undone exactly
        assert x.grad is None  # and the grads left as they were


def test_gradcheck_checks_only_inputs_that_require_grad():
    x = Tensor([0.5, -1.5, 2.0], requires_grad=True)
    c = Tensor([1.0, 2.0, 3.0])  # a constant: its "gradient" is never asked for
    assert gradcheck(lambda x, c: (x * c).exp(), (x, c)) is True
    with pytest.raises(ValueError, match="no input requires grad"):
        gradcheck(lambda c: c * 2, (Tensor([1.0]),))


def test_gradcheck_refuses_mixed_inputs():
    with pytest.raises(TypeError):
        gradcheck(lambda a, b: a, (Value(1.0), Tensor([1.0], requires_grad=True)))


# --- wrong gradients are caught and located -----------------------------------------------------------------


def _element(message):
    found = re.search(r"element (\(.*?\))", message.split("input", 1)[1])
    return found.group(1)


def test_a_detached_term_is_caught_naming_the_input_and_element():
    # w*x + x*x with one factor of x*x detached: the engine's gradient for x is w + x where the true one is
    # w + 2x. The error x is largest, relative to the tolerance, where x is largest: that entry is reported.
    x = Tensor([[0.5, 1.0, 0.25], [2.0, 3.5, 0.75]], requires_grad=True)
    w = Tensor([1.0, 1.0, 1.0], requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(lambda w, x: (w * x).sum() + (x * x.detach()).sum(), (w, x))
    message = str(info.value)
    assert "input 1" in message
    assert "element (1, 1)" in message
    assert "analytical" in message and "numerical" in message
    assert gradcheck(lambda w, x: (w * x).sum() + (x * x.detach()).sum(), (w, x), raise_exception=False) is False


def test_a_wrong_rule_is_caught_at_the_single_wrong_element():
    x = Tensor([[0.5, 1.0, 0.25], [2.0, 3.5, 0.75], [1.5, -0.4, 1.25]], requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(lambda x: _bad_abs(x).sum(), (x,))
    message = str(info.value)
    assert "input 0" in message and _element(message) == "(2, 1)"
    # the analytical entry is the wrong 0, the numerical one the right -1
    number = r"(?:np\.float64\()?([-0-9.e+]+)\)?"
    found = re.search(rf"analytical {number}, numerical {number}", message)
    assert float(found.group(1)) == 0.0
    assert float(found.group(2)) == pytest.approx(-1.0, abs=1e-6)


def test_a_wrong_rule_on_a_multi_output_function_names_output_and_input_elements():
    x = Tensor([0.3, 0.6], requires_grad=True)
    with pytest.raises(GradcheckError, match=r"output element \d+ with respect to input 0, element \(\d+,\)"):
        gradcheck(lambda x: _double_rule(x) * 1.0, (x,))
    assert gradcheck(_double_rule, (x,), raise_exception=False) is False


def test_a_wrong_element_is_located_in_the_right_input_when_a_constant_comes_first():
    # The reported element must be unravelled with the shape of the input that has it, not with the shape
    # of the first input.
    c = Tensor([1.0, 2.0])  # constant, does not require grad
    x = Tensor([[0.5, 1.0, 0.25, 2.0], [3.5, 0.75, 1.5, 1.25], [0.5, -0.4, 1.0, 2.0]], requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(lambda c, x: _bad_abs(x).sum() + c.sum(), (c, x))
    assert _element(str(info.value)) == "(2, 1)"


def test_a_wrong_value_function_is_caught():
    # Value(b.data) is b cut from the graph, as a detach: d/db (a * b * b) loses one of its two terms
    def f(a, b):
        return a * b * Value(b.data)

    a, b = Value(1.5), Value(-2.0)
    with pytest.raises(GradcheckError, match=r"input 1, element \(\)"):
        gradcheck(f, (a, b))
    assert gradcheck(f, (a, b), raise_exception=False) is False
    assert gradcheck(lambda a, b: a * b * b, (a, b)) is True


def test_tolerances_are_applied():
    x = Tensor([1.0, 2.0], requires_grad=True)

    def slightly_off(x):  # the rule is off by 1e-4 relative
        return make_result(x.data * 1.0, "off", (x,), lambda node, g: (g * (1 + 1e-4),))

    assert gradcheck(slightly_off, (x,)) is True  # within rtol 1e-3
    assert gradcheck(slightly_off, (x,), rtol=1e-6, atol=1e-8, raise_exception=False) is False


def test_nan_gradient_is_a_failure():
    x = Tensor([1.0, 2.0], requires_grad=True)

    def nan_rule(x):
        return make_result(x.data * 2, "nan", (x,), lambda node, g: (g * np.nan,))

    assert gradcheck(nan_rule, (x,), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="analytical.*nan"):
        gradcheck(nan_rule, (x,))


def test_a_fully_detached_function_fails_the_check_rather_than_crashing():
    # the engine's gradient is zero (no graph at all), the true one is 2: torch reports a GradcheckError
    x = Tensor([1.0, 2.0], requires_grad=True)
    assert gradcheck(lambda x: x.detach() * 2, (x,), raise_exception=False) is False
    with pytest.raises(GradcheckError):
        gradcheck(lambda x: x.detach() * 2, (x,))


# --- engine bugs that gradcheck surfaces ----------------------------------------------------------------


def test_gradcheck_on_an_input_whose_data_is_not_c_contiguous():
    # Tensor(X.T) keeps numpy's Fortran order; perturbing a reshape(-1) copy would change nothing and the
    # numerical Jacobian would come out as zero.
    X = np.arange(1.0, 7.0).reshape(2, 3) / 7
    x = Tensor(X.T, requires_grad=True)
    assert gradcheck(lambda x: (x * x).sum(), (x,)) is True
    np.testing.assert_array_equal(x.data, X.T)


@pytest.mark.parametrize("f, point", [
    (lambda x: x * x.exp(), 0.5),  # the second operand depends on the first
    (lambda x: x + x.tanh(), -0.7),
])
def test_gradcheck_on_operands_that_depend_on_each_other(f, point):
    # correct functions; a wrong backward order in the engine makes gradcheck reject them
    assert gradcheck(f, (Value(point),)) is True
    assert gradcheck(f, (Tensor([point, 0.3], requires_grad=True),)) is True


def test_gradcheck_on_a_sum_whose_terms_share_an_operand():
    assert gradcheck(lambda a, b: Value.sum([a, a * b, b.sigmoid()]) ** 2, (Value(0.3), Value(-0.8))) is True
