"""The pitfall replays: the engine's own backward steps with one classic mistake applied, beside the correct ones."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings

from engine import Value
from playground.animator.model.pitfalls import PITFALLS, depth_first_order, pitfall_replay
from playground.animator.model.timeline import Timeline, engine_steps
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression

from .test_timeline import random_graphs

LESSON_2 = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"
SHARED = "a=2; b=3; t=a*b; u=t+a; v=t*b; L=u*v"  # t is used by u and by v: the order matters


def by_label(document, label):
    return next(n.id for n in document.nodes if n.label == label)


def engine_grads(expression: str) -> dict[str, float]:
    """The same expression in the engine directly, for an independent oracle."""
    a, b, c, d = Value(2.0), Value(3.0), Value(4.0), Value(5.0)
    L = ((a * b) + c) * (a + d)
    L.backward()
    return {"a": a.grad, "b": b.grad, "c": c.grad, "d": d.grad}


def test_the_correct_replay_is_the_engines_own_steps():
    document = parse_expression(LESSON_2)
    replay = pitfall_replay(document, "overwrite")
    assert replay.correct.steps == engine_steps(document, evaluate(document))
    grads = replay.correct.final_grads(replay.output)
    expected = engine_grads(LESSON_2)
    assert {label: grads[by_label(document, label)] for label in "abcd"} == expected == \
        {"a": 31.0, "b": 14.0, "c": 7.0, "d": 10.0}


def test_overwrite_on_lesson_2_keeps_only_the_last_contribution_to_a():
    document = parse_expression(LESSON_2)
    replay = pitfall_replay(document, "overwrite")
    a = by_label(document, "a")
    into_a = [step for step in replay.correct.steps if step.parent == a]
    assert [step.contribution for step in into_a] == [21.0, 10.0]  # the engine's order: via a*b, then via a+d
    last = into_a[-1].contribution
    assert replay.differing == {a: (31.0, last)} == {a: (31.0, 10.0)}
    parting = replay.mistaken.steps[replay.parting]
    assert parting.parent == a and parting.before == 21.0 and parting.total == 10.0
    assert "overwrote 21 instead of adding: it should be 21 + 10 = 31" in parting.note
    assert all(c == m for c, m in zip(replay.correct.steps[:replay.parting], replay.mistaken.steps[:replay.parting]))


def test_overwrite_inside_the_graph_spoils_everything_upstream():
    document = parse_expression("a=2; b=3; t=a*b; L=t*t+t")  # t gets 6 + 6 + 1 = 13; overwriting keeps 6
    replay = pitfall_replay(document, "overwrite")
    t, a, b = (by_label(document, name) for name in "tab")
    assert replay.differing[t] == (13.0, 6.0)
    assert replay.differing[a] == (39.0, 18.0) and replay.differing[b] == (26.0, 12.0)


def test_a_depth_first_order_passes_on_a_shared_node_too_early():
    document = parse_expression(SHARED)
    names = document.names()
    assert [names[n] for n in depth_first_order(document, document.effective_output())][:4] == ["L", "u", "t", "a"]
    replay = pitfall_replay(document, "order")
    t = by_label(document, "t")
    mistaken = replay.mistaken.steps
    first_from_t = next(i for i, step in enumerate(mistaken) if step.node == t)
    assert "after only 1 of its 2 contributions" in mistaken[first_from_t].note
    late = next(step for step in mistaken if step.parent == t and "never reaches its inputs" in step.note)
    assert late.node == by_label(document, "v")
    right = evaluate(document).results
    a = by_label(document, "a")
    assert replay.differing[a][0] == right[a].grad  # the correct replay is the engine's
    assert replay.differing[a][1] < right[a].grad  # v's share of t's gradient never reached a


def test_the_order_cannot_go_wrong_on_lesson_2():
    document = parse_expression(LESSON_2)
    replay = pitfall_replay(document, "order")
    assert replay.parting is None and replay.differing == {}


def test_forgetting_to_zero_doubles_every_leaf_gradient_as_the_engine_accumulates_it():
    document = parse_expression(LESSON_2)
    replay = pitfall_replay(document, "zero")
    assert len(replay.correct.passes) == len(replay.mistaken.passes) == 2
    leaves = {by_label(document, label): grad for label, grad in engine_grads(LESSON_2).items()}
    assert replay.differing == {leaf: (grad, 2 * grad) for leaf, grad in leaves.items()}
    # the engine itself: two backward passes without zeroing
    a, b, c, d = Value(2.0), Value(3.0), Value(4.0), Value(5.0)
    L = ((a * b) + c) * (a + d)
    L.backward()
    L.backward()
    assert replay.mistaken.final_grads(replay.output)[by_label(document, "a")] == a.grad == 62.0
    second = replay.mistaken.passes[1]
    assert second.start_grads[by_label(document, "a")] == 31.0 and "No zero_grad()" in second.start_note
    assert replay.correct.passes[1].start_grads[by_label(document, "a")] == 0.0
    assert replay.parting >= len(replay.correct.passes[0].steps)  # the first passes agree


def test_parting_position_counts_the_forward_frames_and_every_seed():
    document = parse_expression(LESSON_2)
    for key in ("overwrite", "zero"):
        replay = pitfall_replay(document, key)
        timeline = Timeline.of_document(document, passes=replay.mistaken.passes)
        forward = sum(frame.phase == "forward" for frame in timeline.frames)
        position = replay.parting_position(forward)
        assert timeline.frames[position - 1].step == replay.mistaken.steps[replay.parting]
        assert "✗" in timeline.frames[position - 1].explanation


def test_the_mistaken_timeline_shows_the_mistaken_numbers_to_the_end():
    document = parse_expression(LESSON_2)
    replay = pitfall_replay(document, "overwrite")
    timeline = Timeline.of_document(document, passes=replay.mistaken.passes)
    timeline.seek(len(timeline))
    assert timeline.display[by_label(document, "a")].grad == 10.0
    assert len(timeline) == len(Timeline.of_document(document))


def test_unknown_pitfalls_and_broken_graphs_are_refused():
    with pytest.raises(KeyError):
        pitfall_replay(parse_expression(LESSON_2), "typo")
    document = parse_expression("a=2; L=a*b")
    document.remove_edge(document.edges[0])
    with pytest.raises(ValueError):
        Timeline.of_document(document, passes=pitfall_replay(document, "overwrite").mistaken.passes)
    assert set(PITFALLS) == {"overwrite", "order", "zero"}


@settings(max_examples=40, deadline=None, derandomize=True)
@given(random_graphs())
def test_on_any_graph_the_correct_replays_end_at_the_engines_gradients(document):
    results = evaluate(document).results
    for key in PITFALLS:
        replay = pitfall_replay(document, key)
        grads = replay.correct.final_grads(replay.output)
        for node_id, grad in grads.items():
            if document.node(node_id).is_leaf or key != "zero":
                expected = results[node_id].grad
                assert grad == expected or (math.isnan(grad) and math.isnan(expected))
        if replay.parting is None:
            assert not replay.differing or key == "order"
