"""A drawn graph as a network (`playground.graph.network`, `feeding`): which inputs the points feed, the
refusals with their reasons, and the batched evaluation, checked against the editor's own evaluation of the
same graph point by point (values, and gradients summed over the points). Qt-free."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine import Tensor
from playground.files.paths import EXAMPLES
from playground.graph import edits
from playground.graph.arrays import PREVIEW_POINTS, Generator, preview_points
from playground.graph.document import GraphDocument
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.graph.feeding import data_inputs, feed_of, feed_text
from playground.graph.file_io import load_document
from playground.graph.network import BATCH, GraphNetwork, GraphProblem, plan_training

NEURON = EXAMPLES / "neuron.json"
MLP = ("X = points(); W1 = randn(2, 16, seed=0); b1 = zeros(16); W2 = randn(16, 1, seed=1); b2 = zeros(1); "
       "out = tanh(X @ W1 + b1) @ W2 + b2")
SKIP = ("X = points(); W1 = randn(2, 8, seed=0); b1 = zeros(8); W2 = randn(8, 8, seed=1); b2 = zeros(8); "
        "W3 = randn(8, 1, seed=2); b3 = zeros(1); H1 = tanh(X @ W1 + b1); H2 = tanh(H1 @ W2 + b2) + H1; "
        "out = H2 @ W3 + b3")
POINTS = np.random.default_rng(3).uniform(-1.5, 2.5, size=(13, 2))


def by_name(document: GraphDocument, name: str) -> str:
    return next(node_id for node_id, shown in document.names().items() if shown == name)


# -- which inputs the points feed ------------------------------------------------------------------------


def test_the_starter_neurons_x1_and_x2_are_fed_by_their_names_and_its_weights_are_trained():
    document = load_document(NEURON)
    fed = data_inputs(document)
    assert sorted(document.name(node_id) for node_id in fed) == ["x1", "x2"]
    assert {document.name(node_id): feed for node_id, feed in fed.items()} == {"x1": "x1", "x2": "x2"}
    plan = plan_training(document)
    assert list(plan.parameter_names.values()) == ["w1", "w2", "b"]
    assert feed_text(document, by_name(document, "x1")) == "Fed by the training points: x₁ of each point (by its name)"


def test_points_makes_a_data_input_that_shows_a_preview_of_the_points():
    document = parse_expression("X = points(); W = randn(2, 1, seed=0); out = X @ W")
    x = by_name(document, "X")
    node = document.node(x)
    assert node.kind == "input" and node.generator == Generator("points", (PREVIEW_POINTS, 2))
    assert node.generator.call_text() == "points()" and Generator("points", (20,)).call_text() == "points(20)"
    assert np.array_equal(node.array, preview_points(PREVIEW_POINTS)) and node.array.shape == (8, 2)
    assert feed_of(document, x) == "points"
    with pytest.raises(ValueError, match=r"\(n, 2\)"):
        Generator("points", (4, 3))


def test_a_feed_chosen_by_hand_wins_over_the_name_and_is_one_undo_step():
    document = load_document(NEURON)
    x1 = by_name(document, "x1")
    edit = edits.set_feed(document, x1, "none")
    edit.apply(document)
    assert feed_of(document, x1) is None and feed_text(document, x1).startswith("Not fed")
    with pytest.raises(GraphProblem, match="Name an input x1 and x2, or X"):
        plan_training(_without(document, "x2"))
    edit.revert(document)
    assert feed_of(document, x1) == "x1"
    with pytest.raises(ValueError, match="only an input"):
        edits.set_feed(document, by_name(document, "w1"), "x1")


def _without(document: GraphDocument, name: str) -> GraphDocument:
    copy = document.copy()
    copy.set_feed(by_name(copy, name), "none")
    return copy


def test_a_feed_is_kept_by_the_graph_file_and_a_graph_without_one_stays_version_1():
    document = load_document(NEURON)
    assert document.to_dict()["version"] == 1
    document.set_feed(by_name(document, "x2"), "x1")
    data = json.loads(json.dumps(document.to_dict()))
    assert data["version"] == 2 and [n.get("feed") for n in data["nodes"] if n["label"] == "x2"] == ["x1"]
    again = GraphDocument.from_dict(data)
    assert feed_of(again, by_name(again, "x2")) == "x1"
    data["nodes"][0]["feed"] = "sideways"
    with pytest.raises(ValueError, match=r"nodes\[0\]\.feed"):
        GraphDocument.from_dict(data)


# -- refusals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("expression, outputs, reason", [
    ("a = 2; w = 3; out = a * w", 1, "Name an input x1 and x2, or X"),
    ("x1 = 1; x2 = 2; c = 3; out = x1 * c + x2", 1, "Nothing to train"),
    ("X = points(); W = randn(2, 1, seed=0); out = sum(X @ W)", 1,
     r"The output out has shape \(\), not a score for each point"),
    ("X = points(); W = randn(2, 3, seed=0); out = X @ W", 1,
     r"The output out has shape \(n, 3\): two classes or a regression need one score a point, \(n,\) or \(n, 1\)"),
    ("X = points(); W = randn(2, 1, seed=0); out = X @ W", 3,
     r"3 classes need 3 scores a point, one a class, \(n, 3\)"),
    ("X = [[1, 2, 3]]; W1 = randn(3, 16, seed=0); b = zeros(16); out = tanh(X @ W1 + b)", 1,
     r"The points do not fit the graph at t1 = X @ W1: \(n, 2\) @ \(3, 16\): the inner sizes 2 and 3 differ"),
    ("x1 = 1; w = 2; out = sin(x1 * w)", 1, "out is a sin, which works on single numbers"),
])
def test_a_graph_that_cannot_be_trained_says_why(expression, outputs, reason):
    with pytest.raises(GraphProblem, match=reason):
        plan_training(parse_expression(expression), outputs)


def test_an_empty_graph_and_an_unwired_port_are_refused():
    with pytest.raises(GraphProblem, match="empty"):
        plan_training(GraphDocument())
    document = parse_expression("x1 = 1; w = 2; out = x1 * w")
    document.remove_edge(document.edge_at(document.effective_output(), 1))
    with pytest.raises(GraphProblem, match="has an input with no wire"):
        plan_training(document)


# -- the batched evaluation ------------------------------------------------------------------------------


def per_point(document: GraphDocument, points: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """The editor's own scalar evaluation, one point at a time: the outputs, and each parameter's gradient
    summed over the points."""
    x1, x2 = by_name(document, "x1"), by_name(document, "x2")
    outputs, grads = [], {}
    for a, b in points:
        copy = document.copy()
        copy.set_value(x1, float(a))
        copy.set_value(x2, float(b))
        evaluation = evaluate(copy)
        outputs.append(evaluation.results[copy.effective_output()].value)
        for node in copy.nodes:
            if node.kind == "parameter":
                grads[copy.name(node.id)] = grads.get(copy.name(node.id), 0.0) + evaluation.results[node.id].grad
    return np.array(outputs), grads


def test_the_starter_neuron_for_all_points_at_once_is_the_editors_neuron_point_by_point():
    document = load_document(NEURON)
    net = GraphNetwork(document)
    scores = net(Tensor(POINTS))
    assert scores.shape == (13, 1)
    expected, grads = per_point(document, POINTS)
    assert scores.data[:, 0] == pytest.approx(expected, rel=1e-12, abs=1e-14)
    scores.sum().backward()
    for name, parameter in net.named_parameters():
        assert parameter.data.shape == () and float(parameter.grad) == pytest.approx(grads[name], rel=1e-12, abs=1e-14)


def test_an_mlp_and_a_skip_connection_evaluate_as_numpy_says():
    X = POINTS
    net = GraphNetwork(parse_expression(MLP))
    w = {name: p.data for name, p in net.named_parameters()}
    expected = np.tanh(X @ w["W1"] + w["b1"]) @ w["W2"] + w["b2"]
    assert net(Tensor(X)).data == pytest.approx(expected, rel=1e-12)
    skip = GraphNetwork(parse_expression(SKIP))
    w = {name: p.data for name, p in skip.named_parameters()}
    h1 = np.tanh(X @ w["W1"] + w["b1"])
    expected = (np.tanh(h1 @ w["W2"] + w["b2"]) + h1) @ w["W3"] + w["b3"]
    assert skip(Tensor(X)).data == pytest.approx(expected, rel=1e-12)
    values = skip.node_values(Tensor(X))
    document = skip.document
    assert values[by_name(document, "H1")] == pytest.approx(h1, rel=1e-12)
    assert {document.name(n) for n in values} >= {"X", "H1", "H2", "out"}
    assert all(v.shape[0] == 13 for v in values.values())


def test_the_parameters_start_at_the_drawn_values_and_a_float32_twin_has_the_same_weights():
    document = parse_expression(MLP)
    net = GraphNetwork(document)
    assert np.array_equal(net.state_dict()["W1"], document.node(by_name(document, "W1")).array)
    net.named_parameters().__next__()[1].data[...] = 0.5
    twin = net.cast(np.float32)
    assert twin(Tensor(POINTS, dtype=np.float32)).data.dtype == np.float32
    assert twin(Tensor(POINTS, dtype=np.float32)).data == pytest.approx(net(Tensor(POINTS)).data, rel=1e-5)
    assert net.node_id_of("W1") == by_name(document, "W1")


def test_the_batch_size_of_the_shape_check_is_no_size_a_leaf_can_have():
    from playground.graph.arrays import MAX_ELEMENTS
    assert BATCH > MAX_ELEMENTS
