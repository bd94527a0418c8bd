"""Evaluating a graph document through the engine: values, gradients, wire gradients and problems."""

from __future__ import annotations

import math

import pytest

from engine import Value
from playground.common.numbers import format_number, full_number
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate


def build(nodes, edges, output=None) -> GraphDocument:
    """nodes: (id, kind, label, value[, inputs]); edges: (source, target, port)."""
    doc = GraphDocument()
    for node_id, kind, label, value, *inputs in nodes:
        doc.add_node(Node(node_id, kind, label=label, value=value, inputs=inputs[0] if inputs else 0))
    for source, target, port in edges:
        doc.add_edge(Edge(source, target, port))
    if output is not None:
        doc.set_output(output)
    return doc


def hand_traced() -> GraphDocument:
    """f = (a*b + c) * (a + d) at a=2, b=3, c=4, d=5."""
    return build(
        [("a", "input", "a", 2.0), ("b", "input", "b", 3.0), ("c", "input", "c", 4.0), ("d", "input", "d", 5.0),
         ("ab", "mul", "ab", 0), ("e", "add", "e", 0), ("g", "add", "g", 0), ("f", "mul", "f", 0)],
        [("a", "ab", 0), ("b", "ab", 1), ("ab", "e", 0), ("c", "e", 1), ("a", "g", 0), ("d", "g", 1),
         ("e", "f", 0), ("g", "f", 1)],
    )


def test_hand_traced_gradients():
    evaluation = evaluate(hand_traced())
    r = evaluation.results
    assert evaluation.output == "f" and r["f"].value == 70.0 and r["f"].grad == 1.0
    assert (r["a"].grad, r["b"].grad, r["c"].grad, r["d"].grad) == (31.0, 14.0, 7.0, 10.0)
    assert (r["ab"].grad, r["e"].grad, r["g"].grad) == (7.0, 7.0, 10.0)
    assert evaluation.is_complete and evaluation.summary() == "Output = 70"
    assert all(result.problem is None for result in r.values())


def test_hand_traced_wire_gradients_add_up_at_a():
    evaluation = evaluate(hand_traced())
    g = evaluation.edge_grads
    assert g[Edge("a", "ab", 0)] == 21.0  # d f/d ab * b = 7 * 3
    assert g[Edge("a", "g", 0)] == 10.0  # d f/d g * 1
    assert g[Edge("a", "ab", 0)] + g[Edge("a", "g", 0)] == evaluation.results["a"].grad
    assert set(g) == set(hand_traced().edges)


def test_square_each_wire_carries_x():
    doc = build([("x", "input", "x", 3.0), ("y", "mul", "y", 0)], [("x", "y", 0), ("x", "y", 1)])
    evaluation = evaluate(doc)
    assert evaluation.edge_grads == {Edge("x", "y", 0): 3.0, Edge("x", "y", 1): 3.0}
    assert evaluation.results["x"].grad == 6.0 and evaluation.results["y"].value == 9.0


def test_diamond_wires_sum_at_the_reused_node():
    # f = (x * two) * (x + one) at x = 3: u = 6, v = 4, df/dx = 2v + u = 14.
    doc = build(
        [("two", "constant", "two", 2.0), ("x", "input", "x", 3.0), ("one", "constant", "one", 1.0),
         ("u", "mul", "u", 0), ("v", "add", "v", 0), ("f", "mul", "f", 0)],
        [("x", "u", 0), ("two", "u", 1), ("x", "v", 0), ("one", "v", 1), ("u", "f", 0), ("v", "f", 1)],
    )
    evaluation = evaluate(doc)
    g = evaluation.edge_grads
    assert (g[Edge("x", "u", 0)], g[Edge("x", "v", 0)]) == (8.0, 6.0)
    assert evaluation.results["x"].grad == 14.0 == g[Edge("x", "u", 0)] + g[Edge("x", "v", 0)]
    assert (g[Edge("u", "f", 0)], g[Edge("v", "f", 1)]) == (4.0, 6.0)


def test_paths_of_different_lengths_both_reach_the_reused_node():
    # y = x + exp(x): x reaches y directly and through exp, so dy/dx = 1 + e^x.
    doc = build([("x", "input", "x", 0.5), ("e", "exp", "e", 0), ("y", "add", "y", 0)],
                [("x", "y", 0), ("x", "e", 0), ("e", "y", 1)])
    evaluation = evaluate(doc)
    assert evaluation.edge_grads[Edge("x", "y", 0)] == 1.0
    assert evaluation.edge_grads[Edge("x", "e", 0)] == math.exp(0.5)
    assert evaluation.results["x"].grad == 1.0 + math.exp(0.5)


def test_sum_node_gives_every_term_the_same_gradient():
    doc = build([(f"x{i}", "input", f"x{i}", float(i)) for i in range(5)] + [("s", "sum", "s", 0, 5),
                                                                             ("t", "tanh", "t", 0)],
                [(f"x{i}", "s", i) for i in range(5)] + [("s", "t", 0)])
    evaluation = evaluate(doc)
    expected = 1 - math.tanh(10.0) ** 2
    assert evaluation.results["s"].value == 10.0
    assert [evaluation.results[f"x{i}"].grad for i in range(5)] == [expected] * 5
    assert [evaluation.edge_grads[Edge(f"x{i}", "s", i)] for i in range(5)] == [expected] * 5


# -- problems ------------------------------------------------------------------------------


def test_log_of_a_negative_number_is_nan_and_says_why_downstream():
    doc = build([("x", "input", "x", -1.0), ("l", "log", "", 0), ("t", "tanh", "", 0), ("n", "neg", "out", 0)],
                [("x", "l", 0), ("l", "t", 0), ("t", "n", 0)])
    evaluation = evaluate(doc)
    r = evaluation.results
    assert math.isnan(r["l"].value) and "negative" in r["l"].problem
    assert r["t"].problem == "nan comes in from t1"
    assert r["n"].problem == "nan comes in from t2"
    assert r["x"].problem is None
    assert evaluation.summary() == "Output = nan; 3 node(s) give nan or inf"


def test_division_by_zero_is_inf_and_says_so():
    doc = build([("a", "input", "a", 1.0), ("b", "input", "b", 0.0), ("q", "div", "q", 0), ("e", "exp", "e", 0)],
                [("a", "q", 0), ("b", "q", 1), ("q", "e", 0)])
    r = evaluate(doc).results
    assert r["q"].value == math.inf and r["q"].problem == "division by zero"
    assert r["e"].value == math.inf and r["e"].problem == "inf comes in from q"


def test_log_of_zero_overflow_and_bad_leaves():
    doc = build([("z", "input", "z", 0.0), ("l", "log", "", 0), ("big", "input", "big", 1000.0),
                 ("e", "exp", "", 0), ("nan", "input", "nothing", math.nan)],
                [("z", "l", 0), ("big", "e", 0)])
    r = evaluate(doc).results
    assert r["l"].value == -math.inf and r["l"].problem == "log of zero is -inf"
    assert r["e"].value == math.inf and "too large" in r["e"].problem
    assert r["nan"].problem == "this value is nan"


def test_incomplete_graph_lists_the_missing_port_by_name():
    doc = build([("x", "input", "x", 2.0), ("p", "pow", "", 0), ("t", "tanh", "t", 0), ("m", "mul", "", 0)],
                [("x", "p", 0), ("p", "t", 0)])
    evaluation = evaluate(doc)
    assert evaluation.incomplete == ["input 'exp' of t1 is not connected",
                                     "input 'a' of t2 is not connected",
                                     "input 'b' of t2 is not connected"]
    assert not evaluation.is_complete
    assert evaluation.results["p"].missing_ports == ["exp"]
    assert evaluation.results["m"].missing_ports == ["a", "b"]
    assert evaluation.results["p"].value is None and evaluation.results["t"].value is None
    assert evaluation.results["x"].value == 2.0
    assert evaluation.output == "m"
    assert all(result.grad is None for result in evaluation.results.values())
    assert evaluation.edge_grads == {}
    assert evaluation.summary() == "Incomplete: input 'exp' of t1 is not connected (and 2 more)"


def test_nodes_the_output_does_not_depend_on_have_no_gradient():
    doc = hand_traced()
    doc.add_node(Node("lonely", "parameter", value=1.0))
    doc.add_node(Node("side", "exp"))
    doc.add_edge(Edge("a", "side", 0))
    doc.set_output("f")
    evaluation = evaluate(doc)
    assert evaluation.results["lonely"].grad is None and evaluation.results["lonely"].value == 1.0
    assert evaluation.results["side"].grad is None and evaluation.results["side"].value == math.exp(2.0)
    assert Edge("a", "side", 0) not in evaluation.edge_grads
    assert evaluation.results["a"].grad == 31.0


def test_choosing_the_output_changes_which_gradients_exist():
    doc = hand_traced()
    doc.output = "e"  # e = a*b + c
    evaluation = evaluate(doc)
    r = evaluation.results
    assert evaluation.output == "e" and r["e"].grad == 1.0
    assert (r["a"].grad, r["b"].grad, r["c"].grad) == (3.0, 2.0, 1.0)
    assert r["d"].grad is None and r["g"].grad is None and r["f"].grad is None
    assert r["f"].value == 70.0  # still computed
    assert evaluation.summary() == "Output = 10"


def test_output_defaults_to_the_most_recently_added_sink():
    doc = hand_traced()
    doc.add_node(Node("late", "input", value=5.0))
    evaluation = evaluate(doc)
    assert evaluation.output == "late" and evaluation.results["late"].grad == 1.0
    assert evaluation.results["a"].grad is None


def test_values_are_the_engine_objects():
    evaluation = evaluate(hand_traced())
    assert all(isinstance(v, Value) for v in evaluation.values.values())
    f = evaluation.values["f"]
    assert f.label == "f" and f.data == 70.0
    assert f.parents == (evaluation.values["e"], evaluation.values["g"])


def test_empty_graph():
    evaluation = evaluate(GraphDocument())
    assert evaluation.output is None and evaluation.results == {}
    assert evaluation.summary().startswith("Empty graph")


@pytest.mark.parametrize("x, short, full", [
    (None, "—", "—"), (3.0, "3", "3"), (-0.5, "-0.5", "-0.5"), (0.7071067811865476, "0.7071", "0.7071067811865476"),
    (1.5e8, "150000000", "150000000"), (1.5e20, "1.5e+20", "1.5e+20"), (math.nan, "nan", "nan"),
    (-math.inf, "-inf", "-inf"), (1 / 3, "0.3333", "0.3333333333333333"),
])
def test_number_formats(x, short, full):
    assert format_number(x) == short
    assert full_number(x) == full
    if x is not None and math.isfinite(x):
        assert float(full_number(x)) == x
