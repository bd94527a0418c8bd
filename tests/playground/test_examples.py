"""The example graphs in resources/examples open, are complete and compute what their descriptions say."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from playground.graph.document import GraphDocument
from playground.graph.evaluate import evaluate

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
INDEX = json.loads((EXAMPLES / "index.json").read_text(encoding="utf-8"))


def load(file: str) -> GraphDocument:
    return GraphDocument.from_dict(json.loads((EXAMPLES / file).read_text(encoding="utf-8")))


def by_label(document: GraphDocument, evaluation, attribute: str) -> dict[str, float]:
    return {n.label: getattr(evaluation.results[n.id], attribute) for n in document.nodes}


def test_index_lists_every_example_once_neuron_first():
    files = [entry["file"] for entry in INDEX]
    assert files[0] == "neuron.json"
    assert len(files) == len(set(files)) >= 6
    assert sorted(files) == sorted(p.name for p in EXAMPLES.glob("*.json") if p.name != "index.json")
    for entry in INDEX:
        assert set(entry) == {"file", "title", "description"}
        assert entry["title"].strip() and entry["description"].strip()


@pytest.mark.parametrize("file", [entry["file"] for entry in INDEX])
def test_example_is_complete_finite_and_labelled(file):
    document = load(file)
    evaluation = evaluate(document)
    assert evaluation.is_complete, evaluation.incomplete
    assert document.output is not None and evaluation.output == document.output
    for node in document.nodes:
        result = evaluation.results[node.id]
        assert node.label, f"{node.id} has no label"
        assert math.isfinite(result.value), (node.label, result)
        assert result.grad is not None and math.isfinite(result.grad), (node.label, result)
        assert result.problem is None
    labels = [node.label for node in document.nodes]
    assert len(labels) == len(set(labels))
    # Laid out left to right: every wire goes from a column to one further right.
    for edge in document.edges:
        assert document.node(edge.source).x < document.node(edge.target).x, edge
    positions = {(node.x, node.y) for node in document.nodes}
    assert len(positions) == len(document.nodes)


@pytest.mark.parametrize("file", [entry["file"] for entry in INDEX])
def test_example_round_trips(file):
    data = json.loads((EXAMPLES / file).read_text(encoding="utf-8"))
    assert GraphDocument.from_dict(data).to_dict() == data


def test_neuron_matches_the_lecture():
    document = load("neuron.json")
    evaluation = evaluate(document)
    values, grads = by_label(document, evaluation, "value"), by_label(document, evaluation, "grad")
    assert {n.label: n.kind for n in document.nodes if n.is_leaf} == {
        "x1": "input", "x2": "input", "w1": "parameter", "w2": "parameter", "b": "parameter"}
    assert document.node(document.output).label == "o"
    assert {"x1w1", "x2w2", "x1w1x2w2", "n", "o"} <= set(values)
    assert values["b"] == 6.8813735870195432
    assert values["o"] == pytest.approx(math.sqrt(0.5), rel=1e-12)
    expected = {"x1": -1.5, "w1": 1.0, "x2": 0.5, "w2": 0.0, "b": 0.5, "n": 0.5, "o": 1.0}
    assert {k: grads[k] for k in expected} == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_hand_traced_gradients():
    document = load("hand_traced.json")
    evaluation = evaluate(document)
    values, grads = by_label(document, evaluation, "value"), by_label(document, evaluation, "grad")
    assert (values["a"], values["b"], values["c"], values["d"]) == (2.0, 3.0, 4.0, 5.0)
    assert evaluation.results[document.output].value == 70.0
    assert (grads["a"], grads["b"], grads["c"], grads["d"]) == (31.0, 14.0, 7.0, 10.0)


def test_square_and_diamond_gradients():
    square = load("square.json")
    evaluation = evaluate(square)
    (x,) = [n for n in square.nodes if n.is_leaf]
    assert evaluation.results[x.id].grad == 2 * x.value
    assert [e.source for e in square.edges] == [x.id, x.id]

    diamond = load("diamond.json")
    evaluation = evaluate(diamond)
    grads = by_label(diamond, evaluation, "grad")
    assert grads["x"] == 14.0  # f = 2x (x + 1): df/dx = 2(x + 1) + 2x at x = 3


def test_softmax_cross_entropy_gradients_are_probabilities():
    document = load("softmax.json")
    evaluation = evaluate(document)
    values, grads = by_label(document, evaluation, "value"), by_label(document, evaluation, "grad")
    z = [values["z1"], values["z2"], values["z3"]]
    total = sum(math.exp(v) for v in z)
    p = [math.exp(v) / total for v in z]
    assert values["loss"] == pytest.approx(-math.log(p[0]), rel=1e-12)
    assert [grads["z1"], grads["z2"], grads["z3"]] == pytest.approx([p[0] - 1, p[1], p[2]], rel=1e-12)
    assert any(n.kind == "sum" and n.inputs == 3 for n in document.nodes)


def test_two_layer_network_matches_a_direct_computation():
    document = load("two_layer.json")
    evaluation = evaluate(document)
    v, grads = by_label(document, evaluation, "value"), by_label(document, evaluation, "grad")
    h1 = math.tanh(v["x1"] * v["w11"] + v["x2"] * v["w12"] + v["b1"])
    h2 = math.tanh(v["x1"] * v["w21"] + v["x2"] * v["w22"] + v["b2"])
    y = h1 * v["v1"] + h2 * v["v2"] + v["c"]
    assert v["loss"] == pytest.approx((y - v["target"]) ** 2, rel=1e-12)
    dy = 2 * (y - v["target"])
    expected = {
        "c": dy, "v1": dy * h1, "v2": dy * h2,
        "b1": dy * v["v1"] * (1 - h1 * h1), "b2": dy * v["v2"] * (1 - h2 * h2),
        "w11": dy * v["v1"] * (1 - h1 * h1) * v["x1"], "w22": dy * v["v2"] * (1 - h2 * h2) * v["x2"],
    }
    assert {k: grads[k] for k in expected} == pytest.approx(expected, rel=1e-12)
    assert sum(n.kind == "parameter" for n in document.nodes) == 9
