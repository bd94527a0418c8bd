"""The graph document: nodes, wires, validation, change events and the versioned dict format."""

from __future__ import annotations

import copy
import json
import math

import pytest

from playground.graph.document import (
    FORMAT_NAME,
    FORMAT_VERSION,
    Change,
    DocumentFormatError,
    Edge,
    GraphDocument,
    Node,
)
from playground.graph.graph_file import MAX_NODES


def chain() -> GraphDocument:
    """x -> a = neg(x) -> b = exp(a) -> c = tanh(b), labelled."""
    doc = GraphDocument()
    doc.add_node(Node("x", "input", label="x", value=2.0))
    doc.add_node(Node("a", "neg", label="A"))
    doc.add_node(Node("b", "exp", label="B"))
    doc.add_node(Node("c", "tanh", label="C"))
    doc.add_edge(Edge("x", "a", 0))
    doc.add_edge(Edge("a", "b", 0))
    doc.add_edge(Edge("b", "c", 0))
    return doc


def record(doc: GraphDocument) -> list[Change]:
    changes: list[Change] = []
    doc.subscribe(changes.append)
    return changes


def dumps(doc: GraphDocument) -> str:
    """An exact, nan-aware fingerprint of the document (repr floats, NaN spelt out)."""
    return json.dumps(doc.to_dict())


# -- building and reading -------------------------------------------------------------------


def test_add_connect_disconnect_remove():
    doc = GraphDocument()
    doc.add_node(Node("n1", "input", value=2.0))
    doc.add_node(Node("n2", "input", value=3.0))
    doc.add_node(Node("n3", "mul"))
    doc.add_edge(Edge("n1", "n3", 0))
    doc.add_edge(Edge("n2", "n3", 1))
    assert [n.id for n in doc.nodes] == ["n1", "n2", "n3"]
    assert doc.edges == [Edge("n1", "n3", 0), Edge("n2", "n3", 1)]
    assert doc.edge_at("n3", 1) == Edge("n2", "n3", 1)
    assert doc.edges_of("n1") == [Edge("n1", "n3", 0)]
    assert doc.sinks() == ["n3"] and doc.effective_output() == "n3"
    assert doc.topological_order() == ["n1", "n2", "n3"]

    doc.remove_edge(Edge("n2", "n3", 1))
    assert doc.edge_at("n3", 1) is None
    with pytest.raises(ValueError, match="no wire"):
        doc.remove_edge(Edge("n2", "n3", 1))

    removed = doc.remove_node("n3")
    assert removed == [Edge("n1", "n3", 0)]
    assert not doc.has_node("n3") and doc.edges == []
    assert doc.sinks() == ["n1", "n2"] and doc.effective_output() == "n2"  # the most recently added sink


def test_add_node_refuses_duplicates_and_unknown_kinds_and_defaults_sum_ports():
    doc = GraphDocument()
    doc.add_node(Node("n1", "input"))
    with pytest.raises(ValueError, match="exists already"):
        doc.add_node(Node("n1", "add"))
    with pytest.raises(KeyError, match="unknown node kind 'warp'"):
        doc.add_node(Node("n2", "warp"))
    assert doc.add_node(Node("n2", "sum")).inputs == 3
    assert doc.node("n2").port_count == 3
    assert doc.new_id() == "n3"


def test_new_id_skips_ids_in_use():
    doc = GraphDocument()
    for node_id in ("n1", "n2", "n4"):
        doc.add_node(Node(node_id, "input"))
    assert doc.new_id() == "n3"
    doc.add_node(Node(doc.new_id(), "input"))
    assert doc.new_id() == "n5"


def test_output_choice_and_removal():
    doc = chain()
    assert doc.effective_output() == "c"
    doc.set_output("a")
    assert doc.effective_output() == "a"
    with pytest.raises(ValueError, match="no node 'zzz'"):
        doc.set_output("zzz")
    doc.remove_node("a")
    assert doc.output is None
    assert doc.sinks() == ["x", "c"] and doc.effective_output() == "c"


def test_topological_order_keeps_insertion_order_for_ties():
    doc = GraphDocument()
    doc.add_node(Node("s", "add"))
    doc.add_node(Node("q", "input"))
    doc.add_node(Node("p", "input"))
    doc.add_edge(Edge("p", "s", 0))
    doc.add_edge(Edge("q", "s", 1))
    assert doc.topological_order() == ["q", "p", "s"]


def test_set_inputs_rules():
    doc = GraphDocument()
    doc.add_node(Node("s", "sum", inputs=4))
    doc.add_node(Node("x", "input"))
    doc.add_node(Node("m", "mul"))
    doc.add_edge(Edge("x", "s", 3))
    with pytest.raises(ValueError, match="remove the wires"):
        doc.set_inputs("s", 2)
    with pytest.raises(ValueError, match="at least one"):
        doc.set_inputs("s", 0)
    with pytest.raises(ValueError, match="fixed number of inputs"):
        doc.set_inputs("m", 3)
    doc.set_inputs("s", 6)
    assert doc.node("s").port_count == 6


# -- connection problems --------------------------------------------------------------------


def test_connection_problem_self():
    doc = chain()
    assert doc.connection_problem("a", "a", 0) == "a node cannot feed its own input"


def test_connection_problem_occupied_port_names_port_and_source():
    doc = chain()
    doc.add_node(Node("y", "input", label="y"))
    problem = doc.connection_problem("y", "a", 0)
    assert problem == "input 'a' of A is already connected to x"


def test_connection_problem_cycle_names_the_path():
    doc = chain()
    doc.add_node(Node("m", "mul", label="M"))
    doc.add_edge(Edge("c", "m", 0))
    # m -> a would close m <- c <- b <- a, so the path a → B → C → M → A is named.
    doc.remove_edge(Edge("x", "a", 0))
    problem = doc.connection_problem("m", "a", 0)
    assert problem == "this wire would make a cycle: A → B → C → M → A"
    with pytest.raises(ValueError, match="cycle"):
        doc.add_edge(Edge("m", "a", 0))


def test_connection_problem_leaf_target_bad_port_and_missing_node():
    doc = chain()
    doc.add_node(Node("y", "input", label="y"))
    assert doc.connection_problem("x", "y", 0) == "y is a leaf and has no inputs"
    assert doc.connection_problem("y", "c", 1) == "C has no input port 1"
    assert doc.connection_problem("y", "c", -1) == "C has no input port -1"
    assert doc.connection_problem("y", "nope", 0) == "both ends must be nodes of this graph"
    assert doc.connection_problem("nope", "c", 0) == "both ends must be nodes of this graph"
    doc.add_node(Node("s", "sum", inputs=2))
    assert doc.connection_problem("y", "s", 1) is None
    assert "has no input port 2" in doc.connection_problem("y", "s", 2)
    assert doc.connection_problem("y", "s", 2).startswith("t1 ")  # an unlabelled result is named t1, t2, ...


def test_a_node_may_feed_both_ports_of_one_node():
    doc = GraphDocument()
    doc.add_node(Node("x", "input"))
    doc.add_node(Node("y", "mul"))
    doc.add_edge(Edge("x", "y", 0))
    assert doc.connection_problem("x", "y", 1) is None
    doc.add_edge(Edge("x", "y", 1))
    assert doc.edges_of("x") == [Edge("x", "y", 0), Edge("x", "y", 1)]


# -- change events -------------------------------------------------------------------------


def test_every_change_is_announced():
    doc = GraphDocument()
    changes = record(doc)
    doc.add_node(Node("x", "input"))
    doc.add_node(Node("y", "sum", inputs=2))
    doc.add_edge(Edge("x", "y", 1))
    doc.move_node("x", 10, 20)
    doc.set_value("x", 4)
    doc.set_label("y", "total")
    doc.set_inputs("y", 5)
    doc.set_output("y")
    doc.remove_edge(Edge("x", "y", 1))
    doc.add_edge(Edge("x", "y", 0))
    doc.remove_node("x")
    doc.replace_with(chain())
    assert changes == [
        Change("node_added", "x"),
        Change("node_added", "y"),
        Change("edge_added", edge=Edge("x", "y", 1)),
        Change("node_moved", "x"),
        Change("node_changed", "x"),
        Change("node_changed", "y"),
        Change("node_changed", "y"),
        Change("output_changed", "y"),
        Change("edge_removed", edge=Edge("x", "y", 1)),
        Change("edge_added", edge=Edge("x", "y", 0)),
        Change("edge_removed", edge=Edge("x", "y", 0)),
        Change("node_removed", "x"),
        Change("reset"),
    ]
    assert (doc.node("x").value, [n.id for n in doc.nodes]) == (2.0, ["x", "a", "b", "c"])


def test_unsubscribe_and_refused_changes_announce_nothing():
    doc = chain()
    changes = record(doc)
    with pytest.raises(ValueError):
        doc.add_edge(Edge("c", "x", 0))
    with pytest.raises(ValueError):
        doc.add_node(Node("x", "input"))
    assert changes == []
    doc.unsubscribe(changes.append)
    doc.move_node("x", 1, 1)
    assert changes == []


def test_values_and_positions_are_stored_as_floats():
    doc = chain()
    doc.move_node("x", 3, 4)
    doc.set_value("x", 7)
    node = doc.node("x")
    assert (type(node.x), type(node.y), type(node.value)) == (float, float, float)


# -- the dict format -----------------------------------------------------------------------


def rich_document() -> GraphDocument:
    doc = GraphDocument()
    values = [math.nan, math.inf, -math.inf, -0.0, 0.1, 1e-310]
    for i, value in enumerate(values):
        doc.add_node(Node(f"n{i + 1}", "input", x=i * 180.0, y=-55.5, label=f"v{i}", value=value))
    doc.add_node(Node("s", "sum", x=360.0, y=1 / 3, label="five", inputs=5))
    for port in range(4):
        doc.add_edge(Edge(f"n{port + 1}", "s", port))
    doc.add_node(Node("t", "tanh", label="héllo → “quoted”"))
    doc.add_edge(Edge("s", "t", 0))
    doc.add_edge(Edge("n6", "s", 4))
    doc.set_output("s")
    return doc


def test_round_trip_is_exact_including_nan_inf_and_a_five_input_sum():
    doc = rich_document()
    data = doc.to_dict()
    assert data["format"] == FORMAT_NAME and data["version"] == 1
    assert next(n for n in data["nodes"] if n["id"] == "s") == {
        "id": "s", "kind": "sum", "x": 360.0, "y": 1 / 3, "label": "five", "inputs": 5}
    assert "value" not in next(n for n in data["nodes"] if n["id"] == "t")

    again = GraphDocument.from_dict(data)
    assert dumps(again) == dumps(doc)
    values = [again.node(f"n{i}").value for i in range(1, 7)]
    assert math.isnan(values[0]) and values[1:3] == [math.inf, -math.inf]
    assert math.copysign(1.0, values[3]) == -1.0 and values[4:] == [0.1, 1e-310]
    assert again.edges == doc.edges and again.output == "s"
    assert [n.id for n in again.nodes] == [n.id for n in doc.nodes]

    # Through JSON text too, as a file would go.
    assert dumps(GraphDocument.from_dict(json.loads(dumps(doc)))) == dumps(doc)


def test_round_trip_leaves_the_input_dict_alone():
    data = rich_document().to_dict()
    before = json.dumps(data)
    GraphDocument.from_dict(data)
    assert json.dumps(data) == before


def test_copy_is_independent():
    doc = chain()
    twin = doc.copy()
    twin.move_node("x", 99, 99)
    twin.remove_node("c")
    assert doc.node("x").x == 0.0 and doc.has_node("c")


def valid() -> dict:
    return {
        "format": FORMAT_NAME,
        "version": 1,
        "nodes": [
            {"id": "x", "kind": "input", "x": 0, "y": 0, "label": "x", "value": 2},
            {"id": "y", "kind": "input", "x": 0, "y": 110, "label": "", "value": 3},
            {"id": "m", "kind": "mul", "x": 180, "y": 0, "label": ""},
            {"id": "t", "kind": "tanh", "x": 360, "y": 0, "label": ""},
            {"id": "s", "kind": "sum", "x": 0, "y": 220, "label": "", "inputs": 2},
            {"id": "n", "kind": "neg", "x": 180, "y": 220, "label": ""},
        ],
        "edges": [{"from": "x", "to": "m", "port": 0}, {"from": "y", "to": "m", "port": 1},
                  {"from": "m", "to": "t", "port": 0}],
        "output": "t",
    }


def test_the_valid_dict_reads():
    doc = GraphDocument.from_dict(valid())
    assert doc.node("x").value == 2.0 and doc.node("s").inputs == 2 and doc.output == "t"


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _append_edge(source, target, port):
    return lambda data: data["edges"].append({"from": source, "to": target, "port": port})


def _delete(key):
    return lambda data: data.pop(key)


MALFORMED = {
    "not a dict": (lambda data: data.clear() or data.update({"nodes": []}), "'format' is missing"),
    "wrong format": (_set(["format"], "something-else"),
                     "format: expected 'autograd-playground-graph', got 'something-else'"),
    "misspelt format": (_set(["format"], "autograd-playground-grpah"), "got 'autograd-playground-grpah'"),
    "future version": (_set(["version"], FORMAT_VERSION + 1), "format version 3, written by a newer"),
    "no version": (_delete("version"), "version: missing"),
    "bool version": (_set(["version"], True), "version: expected a whole number ≥ 1, got True"),
    "version 1.0": (_set(["version"], 1.0), "version: expected a whole number ≥ 1, got 1.0"),
    "huge version": (_set(["version"], 10**5000), "version: expected a whole number ≥ 1, got a number of about"),
    "nodes not a list": (_set(["nodes"], {"x": 1}), "nodes: expected a list, got an object"),
    "no nodes": (_delete("nodes"), "nodes: missing"),
    "no edges": (_delete("edges"), "edges: missing"),
    "no output": (_delete("output"), "output: missing"),
    "unknown field": (_set(["nodes", 0, "valeu"], 1), "nodes[0].valeu: not a field of this file"),
    "node not an object": (_set(["nodes", 1], "y"), "nodes[1]: expected an object, got 'y'"),
    "node without id": (_set(["nodes", 1, "id"], ""), "nodes[1].id: expected text of at least 1 character(s), got ''"),
    "duplicate ids": (_set(["nodes", 1, "id"], "x"), "nodes[1].id: 'x' is the id of an earlier node too"),
    "unknown kind": (_set(["nodes", 2, "kind"], "matmul"), "nodes[2].kind: expected 'input', 'parameter'"),
    "non-number value": (_set(["nodes", 0, "value"], "2"), "nodes[0].value: expected a number, got '2'"),
    "bool value": (_set(["nodes", 0, "value"], False), "nodes[0].value: expected a number, got False"),
    "leaf without value": (lambda data: data["nodes"][0].pop("value"), "nodes[0]: a input needs its 'value'"),
    "node without x": (lambda data: data["nodes"][2].pop("x"), "nodes[2].x: missing"),
    "node without label": (lambda data: data["nodes"][2].pop("label"), "nodes[2].label: missing"),
    "infinite position": (_set(["nodes", 0, "x"], math.inf), "nodes[0].x: expected a finite number, got inf"),
    "label not text": (_set(["nodes", 0, "label"], 5), "nodes[0].label: expected text, got 5"),
    "bool inputs": (_set(["nodes", 4, "inputs"], True), "nodes[4].inputs: expected a whole number, got True"),
    "zero inputs": (_set(["nodes", 4, "inputs"], 0), "nodes[4].inputs: expected a number ≥ 1, got 0"),
    "a billion inputs": (_set(["nodes", 4, "inputs"], 10**9), "nodes[4].inputs: expected a number ≤ 1024"),
    "sum without inputs": (lambda data: data["nodes"][4].pop("inputs"), "a sum needs its number of 'inputs'"),
    "edges not a list": (_set(["edges"], "x->m"), "edges: expected a list, got 'x->m'"),
    "edge not an object": (_set(["edges", 0], ["x", "m", 0]), "edges[0]: expected an object, got a list of 3"),
    "bool port": (_set(["edges", 0, "port"], False), "edges[0].port: expected a whole number, got False"),
    "edge to missing node": (_set(["edges", 2, "to"], "ghost"), "edges[2].to: 'ghost' is not the id of a node"),
    "edge into a leaf": (_append_edge("m", "x", 0), "edges[3]: x is a leaf and has no inputs"),
    "edge to a port that is not there": (_append_edge("x", "t", 1), "edges[3]: t2 has no input port 1"),
    "self loop": (_append_edge("s", "s", 0), "edges[3]: a node cannot feed its own input"),
    "edge making a cycle": (lambda data: data["edges"].extend([{"from": "s", "to": "n", "port": 0},
                                                               {"from": "n", "to": "s", "port": 1}]),
                            "edges[4]: this wire would make a cycle: t3 → t4 → t3"),
    "edge making a longer cycle": (lambda data: data["edges"].__setitem__(1, {"from": "t", "to": "s", "port": 0})
                                   or data["edges"].append({"from": "s", "to": "m", "port": 1}),
                                   "edges[3]: this wire would make a cycle: t1 → t2 → t3 → t1"),
    "two wires on one port": (_append_edge("y", "m", 0), "edges[3]: input 'a' of t1 is already connected to x"),
    "output not a node": (_set(["output"], "ghost"), "output: 'ghost' is not the id of a node"),
    # Wrong types in places that are looked up in dicts, and numbers too large for a float: a file
    # edited by hand can hold these, and opening it must give a clear message, not a crash.
    "edge end is a list": (_set(["edges", 0, "from"], ["x"]), "edges[0].from: expected text, got a list of 1"),
    "kind is a list": (_set(["nodes", 2, "kind"], ["mul"]), "nodes[2].kind: expected 'input'"),
    "output is a list": (_set(["output"], ["t"]), "output: expected text, got a list of 1"),
    "position too large for a float": (_set(["nodes", 0, "x"], 10**400), "nodes[0].x: expected a number, got a "
                                                                         "number of about 400 digits"),
    "too many nodes": (lambda data: data["nodes"].extend(
        {"id": f"c{i}", "kind": "constant", "x": 0, "y": 0, "label": "", "value": 1} for i in range(MAX_NODES)),
        f"nodes: at most {MAX_NODES:,} nodes are allowed in a graph file, got {MAX_NODES + 6:,}"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_dicts_raise_a_clear_document_format_error(case):
    change, message = MALFORMED[case]
    data = copy.deepcopy(valid())
    change(data)
    with pytest.raises(DocumentFormatError) as raised:
        GraphDocument.from_dict(data)
    assert message in str(raised.value)


@pytest.mark.parametrize("data", [None, [], "graph", 3])
def test_non_dict_input_is_refused(data):
    with pytest.raises(DocumentFormatError, match="the file holds no JSON object"):
        GraphDocument.from_dict(data)


def test_document_format_error_is_a_value_error():
    assert issubclass(DocumentFormatError, ValueError)


# -- readable names --------------------------------------------------------------------------


def named_graph() -> GraphDocument:
    """tanh(x*w + c) with the tanh added first: forward order, not ids or insertion order, numbers results."""
    doc = GraphDocument()
    doc.add_node(Node("n9", "tanh"))
    doc.add_node(Node("n1", "input", value=2.0))
    doc.add_node(Node("n2", "parameter", value=3.0))
    doc.add_node(Node("n3", "constant", value=1.0))
    doc.add_node(Node("n4", "mul"))
    doc.add_node(Node("n5", "add", label="t1"))  # a label keeps its name; generated names skip it
    for edge in [Edge("n1", "n4", 0), Edge("n2", "n4", 1), Edge("n4", "n5", 0), Edge("n3", "n5", 1),
                 Edge("n5", "n9", 0)]:
        doc.add_edge(edge)
    return doc


def test_unlabelled_results_are_named_t1_t2_in_forward_order_and_leaves_by_kind():
    doc = named_graph()
    assert doc.names() == {"n1": "x1", "n2": "w1", "n3": "1", "n4": "t2", "n5": "t1", "n9": "t3"}  # 1: a constant


def test_names_follow_labels_and_structure_but_not_moves():
    doc = named_graph()
    doc.set_label("n5", "s")  # renaming frees t1: the results are renumbered in forward order
    assert [doc.name(n) for n in ("n4", "n5", "n9")] == ["t1", "s", "t2"]
    doc.move_node("n9", 500.0, 0.0)
    assert doc.name("n9") == "t2"
    doc.remove_node("n4")  # its wires go with it
    assert doc.name("n9") == "t1"
