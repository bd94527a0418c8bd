"""The expression box's tensor grammar (issue 19): literals, generators, @, .T, reductions; refusals in shapes."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.graph.arrays import Generator
from playground.graph.evaluate import evaluate
from playground.graph.expression import ExpressionError, parse_expression

ISSUE_EXAMPLE = "X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))"


def by_label(document):
    return {node.label: node for node in document.nodes if node.label}


def test_the_issue_example_builds_the_layer_and_evaluates_as_torch():
    document = parse_expression(ISSUE_EXAMPLE)
    nodes = by_label(document)
    assert (nodes["X"].kind, nodes["W"].kind, nodes["b"].kind) == ("input", "parameter", "parameter")
    assert nodes["W"].generator == Generator("randn", (2, 2), 0) and nodes["b"].generator == Generator("zeros", (2,))
    assert nodes["L"].kind == "reduce_sum" and document.shape_of(nodes["L"].id) == ()
    evaluation = evaluate(document)
    x = torch.tensor([[1.0, 2], [3, 4], [5, 6]], dtype=torch.float64)
    w = torch.tensor(np.random.default_rng(0).standard_normal((2, 2)), requires_grad=True)
    b = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    loss = torch.tanh(x @ w + b).sum()
    loss.backward()
    assert float(evaluation.results[nodes["L"].id].value) == pytest.approx(loss.item(), abs=1e-12)
    np.testing.assert_allclose(evaluation.results[nodes["W"].id].grad, w.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(evaluation.results[nodes["b"].id].grad, b.grad.numpy(), atol=1e-12)


@pytest.mark.parametrize("text, expected", [
    ("mean([[1, 2], [3, 5]], axis=0)", [2.0, 3.5]),
    ("sum([[1, 2], [3, 5]], axis=1, keepdims=True)", [[3.0], [8.0]]),
    ("reshape(arange(6), (3, 2)) @ ones(2)", [1.0, 5.0, 9.0]),
    ("reshape(arange(6), 2, -1).T @ [1, 10]", [30.0, 41.0, 52.0]),
    ("eye(2) * 3 + 1", [[4.0, 1.0], [1.0, 4.0]]),
    ("x = [1, 2]; x ** 2 - x", [0.0, 2.0]),
    ("sum(softmax([[1, 1], [0, 0]], axis=1), axis=1)", [1.0, 1.0]),
    ("sum(a, b, c)", 3.0),  # adding operands, as before
    ("x = [3, 4]; sum(x)", 7.0),  # one array operand: its elements
    ("mse([1, 2], [1, 4])", 2.0),
    ("cross_entropy([[0, 0]], [1])", float(np.log(2))),
])
def test_tensor_expressions_compute_what_numpy_says(text, expected):
    evaluation = evaluate(parse_expression(text))
    np.testing.assert_allclose(evaluation.results[evaluation.output].value, expected, atol=1e-12)


@pytest.mark.parametrize("text, words, column", [
    ("A = ones(4, 3); B = ones(2, 2); A @ B", "(4, 3) @ (2, 2): the inner sizes 3 and 2 differ", 34),
    ("[1, 2] + [1, 2, 3]", "(2,) + (3,): sizes 2 and 3 of the last axis differ", 7),
    ("x = [[1, 2], [3]]", "every row of a list of rows needs the same length", 4),
    ("[[[1]]]", "at most 2 dimensions", 2),
    ("zeros(5000)", "holds 5,000 elements; at most 4,096", 0),
    ("randn(2, seed=1.5)", "a seed must be a whole number", 14),
    ("zeros(2, seed=1)", "zeros takes only sizes", 9),
    ("softmax(ones(2), dim=0)", "softmax takes axis=", 17),
    ("x = ones(3); sum(x, axis=2)", "sum: axis must be a whole number from -2 to 1", 13),
    ("reshape(ones(6), 4, 2)", "reshape (6,) into (4, 2): 6 elements cannot fill 8", 0),
    ("[1, 2].shape", "attribute access ('.shape') is not supported", 6),
    ("mse(ones(2), ones(3))", "mse((2,), (3,)): the prediction and the target need the same shape", 0),
])
def test_tensor_expressions_are_refused_in_shapes_at_the_right_place(text, words, column):
    with pytest.raises(ExpressionError) as caught:
        parse_expression(text)
    assert words in caught.value.message and caught.value.column == column


# The grammar fuzzed: random texts of tensor tokens either give a document that evaluates or an
# ExpressionError, never another exception.
TOKENS = ["x", "W", "b", "[1, 2]", "[[1, 2], [3, 4]]", "zeros(2)", "ones(2, 2)", "randn(2, seed=1)", "eye(2)",
          "arange(4)", " @ ", " + ", " * ", " - ", " / ", " ** ", ".T", "sum(", "mean(", "softmax(", "reshape(",
          ", axis=0", ", axis=1", ", keepdims=True", ", (4,)", ", 2, 2", ")", "(", "tanh(", "exp(", "log(", "; ",
          "= ", "-", "2", "0.5", "[", "]", ",", "mse(", "cross_entropy("]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12))
def test_fuzzed_tensor_text_parses_or_says_why(tokens):
    text = "".join(tokens)
    try:
        document = parse_expression(text)
    except ExpressionError as error:
        assert error.message
        return
    evaluation = evaluate(document)
    assert evaluation.output is not None
    for node_id, shape in document.shapes().items():
        value = evaluation.results[node_id].value
        if value is not None:
            assert np.shape(value) == shape, (text, node_id)
