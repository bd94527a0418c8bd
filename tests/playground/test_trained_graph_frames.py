"""How the training tab paints a trained graph's frames (issue 28, item 8): the cards in a pass of their own after the
boundary's while frames flow, the parameters' cards ten times a second and the last frame's once frames stop, and a
parameter card that keeps its width as its numbers change."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtGui import QUndoStack

from playground.editor.scene import GraphScene
from playground.graph.evaluate import NodeResult, evaluate
from playground.graph.expression import parse_expression
from playground.training.graph_view import PARAMETER_RATE

GRAPH = ("X = points(); W1 = randn(2, 16, seed=0); b1 = zeros(16); W2 = randn(16, 1, seed=1); b2 = zeros(1); "
         "out = tanh(X @ W1 + b1) @ W2 + b2")
WAIT = 20_000


def _trained_frame(qtbot, panel):
    panel.train_graph(parse_expression(GRAPH))
    qtbot.waitUntil(lambda: panel._frame is not None and panel._frame.node_images is not None, timeout=WAIT)
    return panel._frame


def test_while_frames_flow_the_cards_come_in_the_pass_after_the_boundary(qtbot, panel):
    frame = _trained_frame(qtbot, panel)
    painter, view = panel.painter, panel.graph_view
    shown = view.redraws
    painter.paint_frame(frame, None, graph_later=True)
    assert view.redraws == shown  # the boundary's pass: the cards wait
    assert painter.paint_next_pass() and view.redraws == shown + 1
    painter.paint_frame(frame, None)  # not flowing (a pause, a step): all at once
    assert view.redraws == shown + 2
    assert not painter.paint_graph()  # nothing left for a next pass


def test_parameter_cards_take_new_values_ten_times_a_second_and_the_last_once_frames_stop(qtbot, panel):
    frame = _trained_frame(qtbot, panel)
    view = panel.graph_view
    qtbot.wait(int(2000 / PARAMETER_RATE))  # whatever came before is shown
    w1_id = next(node_id for node_id, name in view.plan.parameter_names.items() if name == "W1")
    card = view.scene.node_item(w1_id)
    first = replace(frame, state={**frame.state, "W1": np.full_like(frame.state["W1"], 0.25)})
    second = replace(frame, state={**frame.state, "W1": np.full_like(frame.state["W1"], -0.5)})
    view.show_frame(first)
    assert np.all(card.result.value == 0.25)
    view.show_frame(second)  # a frame later: the card waits
    assert np.all(card.result.value == 0.25)
    qtbot.waitUntil(lambda: np.all(card.result.value == -0.5), timeout=int(3000 / PARAMETER_RATE))


def _card_width(name: str, steady: bool, qtbot) -> tuple[float, float]:
    document = parse_expression(f"{name} = zeros(4); out = sum({name} * 2)")
    scene = GraphScene(document, QUndoStack())
    scene.show_evaluation(evaluate(document))
    card = next(item for item in scene.items() if getattr(item, "_name", None) == name)
    card.steady_width = steady
    card.set_result(NodeResult(np.full(4, -0.123456), None))
    wide = card.width
    card.set_result(NodeResult(np.full(4, 0.1), None))
    return wide, card.width


def test_a_steady_card_grows_for_a_wider_number_and_keeps_its_width_for_a_narrower(qtbot):
    wide, after = _card_width("b", steady=True, qtbot=qtbot)
    assert after == wide
    wide, after = _card_width("b", steady=False, qtbot=qtbot)  # the editor's cards fit what they show
    assert after < wide


def test_a_runs_first_frame_is_painted_in_passes_as_the_rest_are(qtbot, panel):
    """Painted in one pass with the curves beside the training, a run's first frame held the event loop 20 ms."""
    _trained_frame(qtbot, panel)
    assert not panel._frames_flowing()
    panel.play()
    try:
        assert panel._frames_flowing()  # at once: the first frame's cards wait for the pass after the boundary's
    finally:
        panel.pause()
