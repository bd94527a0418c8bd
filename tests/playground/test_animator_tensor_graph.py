"""The backward animator replays an editor graph that holds tensors (issue 19): the engine tensors the
editor's evaluation built, titled with the document's names, the broadcast's sum-back said in words."""

from __future__ import annotations

import numpy as np
import pytest

from playground.animator.model.editor_tensors import document_animation
from playground.animator.model.tensor_timeline import TensorAnimation
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression

ISSUE = "X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))"


def _by_title(animation, title):
    return next(node for node in animation.nodes.values() if node.title == title)


def test_the_replay_of_an_editor_tensor_graph_ends_with_the_editors_gradients():
    document = parse_expression(ISSUE)
    animation = document_animation(document)
    titles = {node.title for node in animation.nodes.values()}
    assert {"X", "W", "b", "L"} <= titles
    assert _by_title(animation, "W").shape == (2, 2) and _by_title(animation, "L").shape == ()
    timeline = animation.timeline
    timeline.seek(len(timeline))
    evaluation = evaluate(document)
    ids = {document.name(node.id): node.id for node in document.nodes}
    for name in ("W", "b", "X"):
        shown = timeline.display[_by_title(animation, name).id].grad
        assert np.allclose(shown, evaluation.results[ids[name]].grad)
    into_b = [f for f in timeline.frames if f.phase == "backward" and f.edge.source == _by_title(animation, "b").id]
    assert len(into_b) == 1
    assert ("b was broadcast over axis 0 of (3, 2): its gradient sums over that axis, (3, 2) → (2,)"
            in into_b[0].explanation)
    into_w = next(f for f in timeline.frames if f.phase == "backward" and f.edge.source == _by_title(animation, "W").id)
    assert "broadcast" not in into_w.explanation  # a matmul's operand is not broadcast


@pytest.mark.parametrize("text, reason", [
    ("X = [[1, 2], [3, 4]]; L = tanh(X)", "reduce it to a single number"),
])
def test_a_tensor_graph_without_a_scalar_output_is_refused_with_the_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        document_animation(parse_expression(text))


def test_the_animator_panel_loads_an_editor_tensor_graph_and_a_scalar_one_after_it(qtbot):
    from playground.animator.panel import AnimatorPanel

    panel = AnimatorPanel()
    qtbot.addWidget(panel)
    messages: list[str] = []
    panel.status_message.connect(messages.append)
    assert panel.load(parse_expression(ISSUE)) is True
    assert isinstance(panel.animation, TensorAnimation) and panel.source == "graph"
    assert panel.frame_count == len(panel.animation.timeline) > 10
    panel.seek(panel.frame_count)
    assert panel.load(parse_expression("X = [[1, 2]]; L = tanh(X)")) is False
    assert "reduce it to a single number" in messages[-1]
    assert panel.load(parse_expression("a = 2; b = 3; L = a * b")) is True
    assert not isinstance(panel.animation, TensorAnimation)
