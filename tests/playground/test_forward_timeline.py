"""Forward mode in the animator's model (no Qt): values and tangents flow forward together, one pass per input,
and the work for all gradients counted against reverse mode's single backward pass."""

from __future__ import annotations

import math

import pytest

from engine import jvp
from playground.animator.model.forward_timeline import (
    ForwardAnimation,
    dotted,
    inputs_of,
    work_of_graph,
    work_of_network,
)
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot

LESSON_2 = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"


def ids(document) -> dict[str, str]:
    return {document.name(n.id): n.id for n in document.nodes}


def test_the_tangents_of_lesson_2_along_a():
    document = parse_expression(LESSON_2)
    n = ids(document)
    animation = ForwardAnimation(document, n["a"])
    assert {name: animation.tangents[n[name]] for name in n} == {
        "a": 1, "b": 0, "c": 0, "d": 0, "t1": 3, "t2": 3, "t3": 1, "L": 31}
    frames = animation.timeline.frames
    assert [f.node_id for f in frames] == [n[x] for x in ("a", "b", "c", "d", "t1", "t2", "t3", "L")]
    assert frames[4].explanation.endswith("ṫ₁ = ∂t₁/∂a · ȧ = 3 × 1 = 3")
    assert frames[7].explanation.endswith("L̇ = ∂L/∂t₂ · ṫ₂ + ∂L/∂t₃ · ṫ₃ = 7 × 3 + 10 × 1 = 31")
    assert frames[1].explanation.endswith("ḃ = 0   (held still: only a moves)")
    assert animation.edges_visited == 5  # a→t1, a→t3, t1→t2, t2→L, t3→L


def test_stepping_shows_value_and_tangent_and_steps_back_exactly():
    document = parse_expression(LESSON_2)
    n = ids(document)
    animation = ForwardAnimation(document, n["b"])
    timeline = animation.timeline
    while timeline.step_forward():
        pass
    state = timeline.display[n["L"]]
    assert animation.node_lines(n["L"], state) == ["value 70", "tangent 14"]  # ∂L/∂b, as reverse mode says
    timeline.step_back()
    assert timeline.display[n["L"]].value is None and timeline.display[n["L"]].grad is None


@pytest.mark.parametrize("expression", [LESSON_2, "x=1.5; y=-2; L=(x*y + x)*y", "u=0.3; v=2; L=tanh(u*v)*exp(u)"])
def test_each_pass_gives_one_gradient_as_reverse_mode_and_jvp_do(expression):
    document = parse_expression(expression)
    evaluation = evaluate(document)
    output = document.effective_output()
    for input_id in inputs_of(document):
        animation = ForwardAnimation(document, input_id)
        expected = evaluation.results[input_id].grad
        assert math.isclose(animation.tangents[output], expected, rel_tol=1e-12)
        values = evaluation.values
        assert math.isclose(jvp(values[output], {values[input_id]: 1.0}), expected, rel_tol=1e-12)


def test_the_work_counter_for_lesson_2():
    work = work_of_graph(parse_expression(LESSON_2))
    assert (work.inputs, work.forward_edges, work.backward_edges) == (4, 12, 8)  # 5 + 3 + 2 + 2 against 8
    assert work.text() == ("All 4 gradients: forward mode 4 passes (12 edges visited) · "
                           "reverse mode 1 backward pass (8 edges visited)")


def test_the_training_network_takes_337_forward_passes_against_one_backward():
    session = TrainingSession(TrainingSettings())
    snapshot = network_snapshot(session.settings, session.state_dict(), session.step, session.data)
    work = work_of_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    assert work.inputs == 337 == sum(p.size for p in snapshot.model.parameters())
    assert work.forward_edges > 100 * work.backward_edges  # every weight's pass runs the whole rest of the net
    assert work.text().startswith("All 337 gradients: forward mode 337 passes (")
    assert all(p.grad is None for p in snapshot.model.parameters())  # counted on a copy


def test_tangent_names():
    assert [dotted(x) for x in ("a", "t1", "L", "loss", "x₁₂")] == ["ȧ", "ṫ₁", "L̇", "dloss", "ẋ₁₂"]


def test_an_input_the_output_does_not_use_is_refused():
    document = parse_expression("a=2; b=3; L=a*a")
    with pytest.raises(ValueError):
        ForwardAnimation(document, ids(document)["b"])
