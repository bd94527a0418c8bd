"""What Connect… and Disconnect… offer, on the model alone (`playground.graph.wire_choices`)."""

from __future__ import annotations

from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.wire_choices import connect_choices, disconnect_choices, replacement_problem
from tests.playground.canvas_driving import traced_document


def test_connect_offers_every_input_downstream_free_or_taken_but_never_a_cycle():
    doc = traced_document()  # ((a*b)+c)*(a+d): m = a*b, s = m+c, t = a+d, f = s*t
    offered = {(c.edge.target, c.edge.port): c for c in connect_choices(doc, "s")}
    # s may feed m or t (neither is upstream of s: m is!), never f's input 0 (s feeds it already), never itself.
    assert set(offered) == {("t", 0), ("t", 1), ("f", 1)}
    assert offered[("t", 0)].replaces == Edge("a", "t", 0)
    assert offered[("t", 0)].text == "input 1 (a) of t3: t3 = a + d · fed by a now (replaced)"
    assert connect_choices(doc, "f") == []  # the output feeds nothing without a cycle


def test_a_free_input_says_so_and_its_formula_shows_the_gap():
    doc = GraphDocument()
    doc.add_node(Node("a", "input", 0, 0, "a", 2))
    doc.add_node(Node("m", "mul", 200, 0))
    [choice] = [c for c in connect_choices(doc, "a") if c.edge.port == 1]
    assert choice.replaces is None and choice.text == "input 2 (b) of t1: t1 = ? * ? · free"
    assert replacement_problem(doc, choice) is None


def test_replacing_a_wire_is_judged_without_the_wire_it_replaces():
    doc = GraphDocument()
    doc.add_node(Node("X", "input", 0, 0, "X", [[1.0, 2.0]]))  # (1, 2)
    doc.add_node(Node("Y", "input", 0, 100, "Y", [[1.0, 2.0]]))  # (1, 2)
    doc.add_node(Node("Z", "input", 0, 200, "Z", [[1.0, 2.0, 3.0]]))  # (1, 3)
    doc.add_node(Node("p", "add", 200, 0))
    doc.add_edge(Edge("X", "p", 0))
    doc.add_edge(Edge("Y", "p", 1))
    by_input = {(c.edge.source, c.edge.port): c for c in (*connect_choices(doc, "Y"), *connect_choices(doc, "Z"))}
    assert replacement_problem(doc, by_input[("Y", 0)]) is None  # Y in X's place: (1, 2) + (1, 2)
    problem = replacement_problem(doc, by_input[("Z", 0)])  # Z in X's place: (1, 3) + (1, 2) does not broadcast
    assert problem is not None and "(1, 3)" in problem
    assert len(doc.edges) == 2  # judged on a copy: the document is untouched


def test_disconnect_lists_a_nodes_inputs_then_where_its_output_goes():
    doc = traced_document()
    assert [c.text for c in disconnect_choices(doc, "s")] == [
        "t1 → input 1 (a) of t2", "c → input 2 (b) of t2", "t2 → input 1 (a) of f"]
    assert [c.edge for c in disconnect_choices(doc, "c")] == [Edge("c", "s", 1)]
