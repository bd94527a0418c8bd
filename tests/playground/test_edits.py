"""Edits and undo: every edit reverts exactly, alone, in random sequences, and through a real QUndoStack."""

from __future__ import annotations

import json
import math

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.graph import edits
from playground.graph.catalog import LEAF_KINDS, SCALAR_KINDS
from playground.graph.document import Edge, GraphDocument, Node

NON_LEAF_KINDS = tuple(name for name in SCALAR_KINDS if name not in LEAF_KINDS)


def snapshot(doc: GraphDocument) -> str:
    """An exact, nan-aware fingerprint of ``to_dict()`` (repr floats; NaN spelt out)."""
    return json.dumps(doc.to_dict())


def fingerprints(doc: GraphDocument) -> tuple[str, str]:
    """(blind to the order of the nodes, exact): a difference in the first is more than a reordering."""
    data = doc.to_dict()
    exact = json.dumps(data)
    data["nodes"].sort(key=lambda node: node["id"])
    return json.dumps(data), exact


def hand_traced() -> GraphDocument:
    doc = GraphDocument()
    for node_id, value in (("a", 2.0), ("b", 3.0), ("c", 4.0), ("d", 5.0)):
        doc.add_node(Node(node_id, "input", x=0.0, y=110.0 * len(doc.nodes), label=node_id, value=value))
    for node_id, kind_name in (("ab", "mul"), ("e", "add"), ("g", "add"), ("f", "mul")):
        doc.add_node(Node(node_id, kind_name, x=180.0, label=node_id))
    for source, target, port in (("a", "ab", 0), ("b", "ab", 1), ("ab", "e", 0), ("c", "e", 1), ("a", "g", 0),
                                 ("d", "g", 1), ("e", "f", 0), ("g", "f", 1)):
        doc.add_edge(Edge(source, target, port))
    doc.add_node(Node("s", "sum", x=360.0, label="s", inputs=4))
    doc.add_edge(Edge("a", "s", 0))
    doc.add_edge(Edge("f", "s", 3))
    doc.set_output("f")
    return doc


def check_round_trip(doc: GraphDocument, edit: edits.Edit) -> None:
    before = snapshot(doc)
    edit.apply(doc)
    after = snapshot(doc)
    assert after != before, f"{edit.text} changed nothing"
    edit.revert(doc)
    assert snapshot(doc) == before
    edit.apply(doc)
    assert snapshot(doc) == after


# -- each builder -------------------------------------------------------------------------


BUILDERS = {
    "add_node": lambda doc: edits.add_node(doc, Node("n1", "sum", 5.0, 6.0, "new")),
    "remove_one": lambda doc: edits.remove_nodes(doc, ["ab"]),
    "remove_output_and_more": lambda doc: edits.remove_nodes(doc, ["f", "a", "ghost", "a"]),
    "connect": lambda doc: edits.connect(doc, Edge("b", "s", 1)),
    "remove_edges": lambda doc: edits.remove_edges(doc, [Edge("a", "g", 0), Edge("e", "f", 0), Edge("a", "g", 0)]),
    "move_nodes": lambda doc: edits.move_nodes(doc, {"a": (10.5, -3.25), "f": (180.0, 0.0), "s": (7, 8)}),
    "set_value": lambda doc: edits.set_value(doc, "b", -0.1),
    "set_value_nan": lambda doc: edits.set_value(doc, "b", math.nan),
    "set_label": lambda doc: edits.set_label(doc, "e", "ab + c"),
    "more_inputs": lambda doc: edits.set_inputs(doc, "s", 7),
    "fewer_inputs_drops_wires": lambda doc: edits.set_inputs(doc, "s", 2),
    "set_output": lambda doc: edits.set_output(doc, "g"),
    "clear_output": lambda doc: edits.set_output(doc, None),
    "paste": lambda doc: edits.add_subgraph(doc, [doc.node(n) for n in ("a", "b", "ab")], doc.edges),
    "insert_on_wire": lambda doc: edits.insert_on_wire(doc, Node("n1", "tanh"), Edge("e", "f", 0)),
    "insert_sum_on_wire": lambda doc: edits.insert_on_wire(doc, Node("n1", "sum"), Edge("a", "s", 0)),
    "replace_document": lambda doc: edits.replace_document(doc, GraphDocument(), "New"),
}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_each_edit_reverts_exactly(name):
    doc = hand_traced()
    check_round_trip(doc, BUILDERS[name](doc))


def test_removing_the_output_restores_it_on_undo():
    doc = hand_traced()
    edit = edits.remove_nodes(doc, ["f"])
    edit.apply(doc)
    assert doc.output is None and not doc.has_node("f")
    edit.revert(doc)
    assert doc.output == "f" and doc.edge_at("f", 0) == Edge("e", "f", 0) and doc.edge_at("s", 3) == Edge("f", "s", 3)


def test_paste_uses_fresh_ids_and_keeps_only_inner_wires():
    doc = hand_traced()
    edit = edits.add_subgraph(doc, [doc.node("a"), doc.node("ab")], doc.edges)
    edit.apply(doc)
    new = [n for n in doc.nodes if n.id not in {"a", "b", "c", "d", "ab", "e", "g", "f", "s"}]
    assert [(n.kind, n.label) for n in new] == [("input", "a"), ("mul", "ab")]
    a_copy, ab_copy = new
    assert doc.edge_at(ab_copy.id, 0) == Edge(a_copy.id, ab_copy.id, 0)
    assert doc.edge_at(ab_copy.id, 1) is None  # b was not copied


def test_insert_on_wire_routes_through_the_new_node():
    doc = hand_traced()
    edits.insert_on_wire(doc, Node("n1", "tanh"), Edge("e", "f", 0)).apply(doc)
    assert doc.edge_at("n1", 0) == Edge("e", "n1", 0) and doc.edge_at("f", 0) == Edge("n1", "f", 0)


def test_connect_refuses_an_invalid_wire_before_anything_changes():
    doc = hand_traced()
    edits.remove_edges(doc, [Edge("a", "ab", 0)]).apply(doc)
    before = snapshot(doc)
    with pytest.raises(ValueError, match="cycle"):
        edits.connect(doc, Edge("s", "ab", 0))  # s <- f <- e <- ab
    assert snapshot(doc) == before
    with pytest.raises(ValueError, match="already connected"):
        edits.connect(doc, Edge("c", "ab", 1))


def test_move_to_the_same_place_is_an_empty_edit():
    doc = hand_traced()
    assert edits.move_nodes(doc, {"a": (0.0, 0.0)}).actions == []


def test_edit_texts():
    doc = hand_traced()
    assert edits.add_node(doc, Node("n1", "sum")).text == "Add Sum"
    assert edits.remove_nodes(doc, ["a"]).text == "Delete a"
    assert edits.remove_nodes(doc, ["a", "b"]).text == "Delete"
    assert edits.set_value(doc, "a", 2.5).text == "Set a = 2.5"
    assert edits.connect(doc, Edge("b", "s", 1)).text == "Connect"


# -- random sequences ----------------------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
any_value = st.one_of(finite, st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 0.1]))
labels = st.text(max_size=6)
OPERATIONS = ("add", "connect", "remove_nodes", "remove_edges", "move", "set_value", "set_label", "set_inputs",
              "set_output", "paste", "insert", "replace")


def draw_edit(data, doc: GraphDocument) -> edits.Edit | None:
    """One random edit that is valid for ``doc`` as it is now, or None when the drawn kind does not apply."""
    operation = data.draw(st.sampled_from(OPERATIONS), label="operation")
    nodes = [n.id for n in doc.nodes]
    if operation == "add":
        kind_name = data.draw(st.sampled_from(sorted(SCALAR_KINDS)))
        node = Node(doc.new_id(), kind_name, data.draw(finite), data.draw(finite), data.draw(labels),
                    data.draw(any_value), data.draw(st.integers(0, 4)) if kind_name == "sum" else 0)
        return edits.add_node(doc, node)
    if operation == "insert":
        if not doc.edges:
            return None
        edge = data.draw(st.sampled_from(doc.edges))
        kind_name = data.draw(st.sampled_from(NON_LEAF_KINDS))
        return edits.insert_on_wire(doc, Node(doc.new_id(), kind_name, data.draw(finite), data.draw(finite)), edge)
    if operation == "replace":
        return edits.replace_document(doc, data.draw(st.sampled_from([GraphDocument(), hand_traced()])), "Open")
    if not nodes:
        return None
    if operation == "connect":
        graph = doc.to_networkx()
        candidates = []
        for target in nodes:
            free = [p for p in range(doc.node(target).port_count) if doc.edge_at(target, p) is None]
            if doc.node(target).is_leaf or not free:
                continue
            downstream = nx.descendants(graph, target) | {target}  # a wire from these would close a cycle
            candidates += [Edge(source, target, p) for p in free for source in nodes if source not in downstream]
        return edits.connect(doc, data.draw(st.sampled_from(candidates))) if candidates else None
    if operation == "remove_nodes":
        return edits.remove_nodes(doc, data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=3)))
    if operation == "remove_edges":
        if not doc.edges:
            return None
        return edits.remove_edges(doc, data.draw(st.lists(st.sampled_from(doc.edges), min_size=1, max_size=3)))
    if operation == "move":
        chosen = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=3, unique=True))
        return edits.move_nodes(doc, {n: (data.draw(finite), data.draw(finite)) for n in chosen})
    if operation == "set_value":
        leaves = [n for n in nodes if doc.node(n).is_leaf]
        return edits.set_value(doc, data.draw(st.sampled_from(leaves)), data.draw(any_value)) if leaves else None
    if operation == "set_label":
        return edits.set_label(doc, data.draw(st.sampled_from(nodes)), data.draw(labels))
    if operation == "set_inputs":
        sums = [n for n in nodes if doc.node(n).kind == "sum"]
        return edits.set_inputs(doc, data.draw(st.sampled_from(sums)), data.draw(st.integers(1, 6))) if sums else None
    if operation == "set_output":
        return edits.set_output(doc, data.draw(st.one_of(st.none(), st.sampled_from(nodes))))
    if operation == "paste":
        chosen = data.draw(st.lists(st.sampled_from(nodes), min_size=1, max_size=4, unique=True))
        return edits.add_subgraph(doc, [doc.node(n) for n in chosen], doc.edges)
    raise AssertionError(operation)


def start_document(data) -> GraphDocument:
    return hand_traced() if data.draw(st.booleans(), label="start from the hand-traced graph") else GraphDocument()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edit_sequences_revert_and_reapply_exactly(data):
    doc = start_document(data)
    history = [fingerprints(doc)]
    applied = []
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        edit = draw_edit(data, doc)
        if edit is None:
            continue
        edit.apply(doc)
        applied.append(edit)
        history.append(fingerprints(doc))

    # Two assertions, so that hypothesis reports a change of content and a change of node order
    # (which moves the default output and the topological tie order) as separate bugs.
    for i in range(len(applied) - 1, -1, -1):
        applied[i].revert(doc)
        now = fingerprints(doc)
        assert now[0] == history[i][0], f"undoing {applied[i].text} (step {i + 1})"
        assert now[1] == history[i][1], f"undoing {applied[i].text} (step {i + 1}) reorders the nodes"
    for i, edit in enumerate(applied):
        edit.apply(doc)
        now = fingerprints(doc)
        assert now[0] == history[i + 1][0], f"redoing {edit.text} (step {i + 1})"
        assert now[1] == history[i + 1][1], f"redoing {edit.text} (step {i + 1}) reorders the nodes"


# -- through a real QUndoStack --------------------------------------------------------------


@pytest.fixture
def undo_stack_class(qapp):
    from PySide6.QtGui import QUndoStack

    from playground.editor.commands import EditCommand

    return QUndoStack, EditCommand


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_sequences_through_a_qundostack(undo_stack_class, data):
    QUndoStack, EditCommand = undo_stack_class
    doc = start_document(data)
    start = fingerprints(doc)
    stack = QUndoStack()
    pushed = 0
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        edit = draw_edit(data, doc)
        if edit is not None:
            stack.push(EditCommand(doc, edit))
            pushed += 1
    end = fingerprints(doc)
    assert stack.count() <= pushed

    stack.setIndex(0)
    now = fingerprints(doc)
    assert now[0] == start[0]
    assert now[1] == start[1], "undo reorders the nodes"
    stack.setIndex(stack.count())
    now = fingerprints(doc)
    assert now[0] == end[0]
    assert now[1] == end[1], "redo reorders the nodes"
    while stack.canUndo():
        stack.undo()
    assert fingerprints(doc) == start


def test_typed_value_edits_are_one_undo_step_each(undo_stack_class):
    QUndoStack, EditCommand = undo_stack_class
    doc = hand_traced()
    stack = QUndoStack()
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 3.0)))
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 5.0)))
    assert stack.count() == 2
    stack.undo()
    assert doc.node("a").value == 3.0


def test_two_slider_drags_are_two_undo_steps(undo_stack_class):
    QUndoStack, EditCommand = undo_stack_class
    doc = hand_traced()
    stack = QUndoStack()
    for gesture, values in ((1, (2.5, 3.0)), (2, (4.0, 4.5))):
        for value in values:
            stack.push(EditCommand(doc, edits.set_value(doc, "a", value), gesture))
    assert stack.count() == 2
    stack.undo()
    assert doc.node("a").value == 3.0


def test_value_edits_of_one_slider_drag_merge_into_one_undo_step(undo_stack_class):
    QUndoStack, EditCommand = undo_stack_class
    doc = hand_traced()
    stack = QUndoStack()
    for value in (2.5, 3.0, 3.5):
        stack.push(EditCommand(doc, edits.set_value(doc, "a", value), gesture=1))
    assert stack.count() == 1 and doc.node("a").value == 3.5
    assert stack.undoText() == "Set a = 3.5"
    stack.undo()
    assert doc.node("a").value == 2.0
    stack.redo()
    assert doc.node("a").value == 3.5


def test_value_edits_of_different_nodes_do_not_merge(undo_stack_class):
    QUndoStack, EditCommand = undo_stack_class
    doc = hand_traced()
    stack = QUndoStack()
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 2.5)))
    stack.push(EditCommand(doc, edits.set_value(doc, "b", 7.0)))
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 9.0)))
    assert stack.count() == 3
    stack.undo()
    assert (doc.node("a").value, doc.node("b").value) == (2.5, 7.0)
    stack.undo()
    assert (doc.node("a").value, doc.node("b").value) == (2.5, 3.0)


def test_other_edits_break_a_run_of_value_edits(undo_stack_class):
    QUndoStack, EditCommand = undo_stack_class
    doc = hand_traced()
    stack = QUndoStack()
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 2.5)))
    stack.push(EditCommand(doc, edits.move_nodes(doc, {"a": (50.0, 50.0)})))
    stack.push(EditCommand(doc, edits.set_value(doc, "a", 9.0)))
    stack.push(EditCommand(doc, edits.set_label(doc, "a", "alpha")))
    assert stack.count() == 4
    stack.setIndex(0)
    assert snapshot(doc) == snapshot(hand_traced())
