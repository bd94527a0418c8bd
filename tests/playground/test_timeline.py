"""The animator's timeline replays the engine: forward values in order, then one frame per chain-rule step."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.animator.model.timeline import NodeState, Timeline
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression

HAND_TRACED = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"


def by_label(document, label):
    return next(n.id for n in document.nodes if n.label == label)


def snapshot(timeline):
    return {k: (v.state, v.value, v.grad) for k, v in timeline.display.items()}


def test_forward_frames_come_first_in_topological_order_then_the_seed():
    document = parse_expression(HAND_TRACED)
    timeline = Timeline.of_document(document)
    forward = [f for f in timeline.frames if f.phase == "forward"]
    assert [f.node_id for f in forward] == document.topological_order()
    assert timeline.frames[len(forward)].phase == "seed"
    assert "d(L)/d(L) = 1" in timeline.frames[len(forward)].explanation


def test_one_backward_frame_per_chain_rule_step_of_the_engine():
    document = parse_expression(HAND_TRACED)
    timeline = Timeline.of_document(document)
    backward = [f for f in timeline.frames if f.phase == "backward"]
    assert len(backward) == len(document.edges)  # every wire carries exactly one contribution
    assert all(f.edge is not None and f.edge.target == f.node_id for f in backward)


def test_contributions_21_and_10_add_up_to_31_at_a():
    document = parse_expression(HAND_TRACED)
    timeline = Timeline.of_document(document)
    a = by_label(document, "a")
    into_a = [f for f in timeline.frames if f.phase == "backward" and f.edge.source == a]
    texts = [f.explanation for f in into_a]
    assert any("d(" in t and "= b = 3" in t and "7 × 3 = 21" in t for t in texts)
    assert any("10 × 1 = 10" in t for t in texts)
    assert "21 + 10 = 31" in texts[-1] or "10 + 21 = 31" in texts[-1]
    assert "used 2 times" in texts[-1]
    grads = []
    while timeline.step_forward():
        grads.append(timeline.display[a].grad)
    assert [g for g in dict.fromkeys(grads) if g is not None] == [21.0, 31.0]


def test_states_move_from_not_reached_to_done():
    document = parse_expression(HAND_TRACED)
    timeline = Timeline.of_document(document)
    assert {s.state for s in timeline.display.values()} == {NodeState.NOT_REACHED}
    seen = {node_id: [shown.state] for node_id, shown in timeline.display.items()}
    while timeline.step_forward():
        for node_id, shown in timeline.display.items():
            if not seen[node_id] or seen[node_id][-1] != shown.state:
                seen[node_id].append(shown.state)
    for node_id, states in seen.items():
        assert states[0] is NodeState.NOT_REACHED and states[1] is NodeState.COMPUTED
        assert states[-1] is NodeState.DONE, document.node(node_id).display_name
    # a reused node first receives part of its gradient, then is ready
    assert NodeState.RECEIVING in seen[by_label(document, "a")]


def test_stepping_to_the_end_and_back_restores_every_displayed_state():
    document = parse_expression("x=0.5; y=x*x + sin(x)*x; z=tanh(y)/(1+exp(x))")
    timeline = Timeline.of_document(document)
    forward_states = [snapshot(timeline)]
    while timeline.step_forward():
        forward_states.append(snapshot(timeline))
    backward_states = [snapshot(timeline)]
    while timeline.step_back():
        backward_states.append(snapshot(timeline))
    assert backward_states[::-1] == forward_states
    timeline.seek(7)
    assert snapshot(timeline) == forward_states[7]
    timeline.seek(2)
    assert snapshot(timeline) == forward_states[2]


def test_frame_of_node_finds_its_backward_step():
    document = parse_expression(HAND_TRACED)
    timeline = Timeline.of_document(document)
    node = by_label(document, "L")
    position = timeline.frame_of_node(node)
    assert timeline.frames[position - 1].phase == "backward" and timeline.frames[position - 1].node_id == node
    leaf = by_label(document, "c")
    assert timeline.frames[timeline.frame_of_node(leaf) - 1].phase == "forward"


def test_incomplete_or_empty_graphs_are_refused_with_a_reason():
    document = GraphDocument()
    with pytest.raises(ValueError, match="empty"):
        Timeline.of_document(document)
    document.add_node(Node("n1", "input", value=1.0, label="x"))
    document.add_node(Node("n2", "mul"))
    document.add_edge(Edge("n1", "n2", 0))
    with pytest.raises(ValueError, match="'b' of t1 is not connected"):
        Timeline.of_document(document)


def test_an_unfinished_node_the_output_does_not_need_does_not_block_the_animation():
    document = parse_expression(HAND_TRACED)
    document.add_node(Node("stray", "exp"))  # dropped from the palette, not wired yet
    timeline = Timeline.of_document(document)
    assert "stray" not in timeline.display and len(timeline) == 17


def test_forward_steps_name_the_operands_and_show_their_numbers():
    document = parse_expression("a=2; b=3; c=4; d=5; e=a*b + c; f=a + d; L=e*f")
    frames = {f.node_id: f for f in Timeline.of_document(document).frames if f.phase == "forward"}
    L, a = by_label(document, "L"), by_label(document, "a")
    assert frames[L].explanation.splitlines() == ["Forward: L = e * f", "  = 10 * 7", "  = 70"]
    assert frames[L].title == "L = e * f = 70"
    assert frames[a].explanation == "Forward: a is an input: a = 2"
    document = parse_expression("x=0.5; y=tanh(x)")
    frame = [f for f in Timeline.of_document(document).frames if f.phase == "forward"][-1]
    assert frame.explanation.splitlines()[:2] == ["Forward: y = tanh(x)", "  = tanh(0.5)"]


def test_a_nan_says_why_in_its_forward_step():
    document = parse_expression("x=-2; y=3; L=log(x)*y")
    timeline = Timeline.of_document(document)
    log = next(n.id for n in document.nodes if n.kind == "log")
    frame = next(f for f in timeline.frames if f.phase == "forward" and f.node_id == log)
    assert "⚠ log of a negative number is undefined (nan)" in frame.explanation


def test_a_node_used_twice_by_one_op_names_the_operand_in_each_step():
    document = parse_expression("x=3; y=x*x")
    titles = [f.title for f in Timeline.of_document(document).frames if f.phase == "backward"]
    assert titles == ["y → x (a): 1 × 3 = 3", "y → x (b): 1 × 3 = 3"]


def test_nodes_the_output_does_not_depend_on_are_left_out():
    document = parse_expression("a=1; b=2; c=a*b")
    document.add_node(Node("lonely", "input", value=5.0, label="lonely"))
    document.set_output(by_label(document, "c"))
    assert "lonely" not in Timeline.of_document(document).display


OPS = ("add", "sub", "mul", "tanh", "sigmoid", "exp", "sin", "sum")


@st.composite
def random_graphs(draw):
    document = GraphDocument()
    leaves = draw(st.integers(1, 4))
    for i in range(leaves):
        document.add_node(Node(f"n{i + 1}", "input", value=draw(st.floats(-2, 2)), label=f"x{i + 1}"))
    for i in range(leaves, leaves + draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(OPS))
        node = Node(f"n{i + 1}", kind, inputs=draw(st.integers(1, 4)) if kind == "sum" else 0)
        document.add_node(node)
        for port in range(node.port_count):
            source = draw(st.integers(0, i - 1))
            document.add_edge(Edge(f"n{source + 1}", node.id, port))
    document.set_output(document.nodes[-1].id)
    return document


@settings(max_examples=60, deadline=None, derandomize=True)
@given(random_graphs())
def test_final_gradients_equal_the_engines(document):
    timeline = Timeline.of_document(document)
    timeline.seek(len(timeline))
    results = evaluate(document).results
    for node_id, shown in timeline.display.items():
        expected = results[node_id].grad
        assert shown.grad == expected or (math.isnan(shown.grad) and math.isnan(expected))
        assert shown.value == results[node_id].value or math.isnan(shown.value)
        assert shown.state is NodeState.DONE


def test_unlabelled_nodes_are_named_as_on_their_cards_never_by_id():
    document = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    names = document.names()
    timeline = Timeline.of_document(document)
    text = "\n".join(f"{f.title}\n{f.explanation}" for f in timeline.frames)
    assert sorted(n for n in names.values() if n.startswith("t")) == ["t1", "t2", "t3"]
    assert "t1 = a * b = 6" in text and "d(L)/d(t2)" in text
    assert not any(node_id in text.split() for node_id in names)  # no bare ids such as n6


def test_a_bare_number_in_a_formula_reads_as_that_number_not_as_a_named_input():
    document = parse_expression("x=2; s=x*x; t=3*x; y=s+t")
    constant = next(n for n in document.nodes if n.kind == "constant")
    assert constant.value == 3.0 and not constant.label  # a literal is a Constant, not an Input
    titles = [frame.title for frame in Timeline.of_document(document).frames]
    assert "3 (a constant)" in titles and "t = 3 * x = 6" in titles
    assert "t → x: 1 × 3 = 3" in titles and not any("c1" in title for title in titles)
