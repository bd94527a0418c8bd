"""Forward mode in the animator: "Animate" offers it for the editor's graph; an input is chosen, its tangent
seeded to 1, and the steps show values and tangents flowing forward; the counter compares the work with
reverse mode's one backward pass, for the graph and for the training network."""

from __future__ import annotations

import pytest

from playground.animator.forward_view import FORWARD_SOURCE
from playground.animator.panel import AnimatorPanel
from playground.graph.expression import parse_expression
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot

LESSON_2 = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"


def ids(document) -> dict[str, str]:
    return {document.name(n.id): n.id for n in document.nodes}


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    document = parse_expression(LESSON_2)
    panel.follow(document)
    return panel


def choose_forward(panel) -> None:
    combo = panel.source_combo
    index = combo.findData(FORWARD_SOURCE[0])
    assert index >= 0 and combo.itemText(index) == FORWARD_SOURCE[1]
    combo.setCurrentIndex(index)
    combo.activated.emit(index)  # as a person's choice does


def test_choosing_forward_mode_animates_tangents_along_the_first_input(panel):
    choose_forward(panel)
    forward = panel.forward
    assert panel.source == "forward" and forward.input_combo.isVisibleTo(panel)
    assert [forward.input_combo.itemText(i) for i in range(forward.input_combo.count())] == ["a", "b", "c", "d"]
    assert panel.frame_count == 8  # one step per node: value and tangent together
    assert "tangent ȧ is set to 1" in panel.steps.explanation.text()
    panel.seek(5)
    assert panel.steps.explanation.text().endswith("ṫ₁ = ∂t₁/∂a · ȧ = 3 × 1 = 3")
    n = ids(panel.document)
    assert panel.scene.node_item(n["t1"]).body_lines() == ["value 6", "tangent 3"]
    panel.last()
    assert panel.scene.node_item(n["L"]).body_lines() == ["value 70", "tangent 31"]
    assert "∂L/∂a = L̇ = 31" in panel.steps.explanation.text()
    assert forward.counter.isVisibleTo(panel)
    assert forward.counter.text() == ("All 4 gradients: forward mode 4 passes (12 edges visited) · "
                                      "reverse mode 1 backward pass (8 edges visited)")


def test_another_input_is_another_pass(panel):
    choose_forward(panel)
    combo = panel.forward.input_combo
    combo.setCurrentIndex(1)
    combo.activated.emit(1)  # b
    assert panel.source == "forward" and combo.currentText() == "b"
    panel.last()
    assert panel.scene.node_item(ids(panel.document)["L"]).body_lines() == ["value 70", "tangent 14"]
    assert panel.forward.load("d")
    panel.last()
    assert panel.scene.node_item(ids(panel.document)["L"]).body_lines() == ["value 70", "tangent 10"]
    assert not panel.forward.load("z")  # no such input: what is shown stays
    assert combo.currentText() == "d"


def test_back_to_the_editors_graph_hides_the_forward_controls(panel):
    choose_forward(panel)
    combo = panel.source_combo
    index = combo.findData("graph")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert panel.source == "graph" and panel.frame_count == 17
    assert not panel.forward.input_combo.isVisibleTo(panel)
    assert not panel.forward.counter.isVisibleTo(panel)


def test_the_network_counter_says_337_forward_passes_against_one_backward(panel):
    session = TrainingSession(TrainingSettings())
    snapshot = network_snapshot(session.settings, session.state_dict(), session.step, session.data)
    panel.forward.count_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    assert panel.load_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    assert panel.forward.counter.isVisibleTo(panel)
    assert panel.forward.counter.text().startswith("All 337 gradients: forward mode 337 passes (")
    assert "reverse mode 1 backward pass (" in panel.forward.counter.text()


def test_the_path_view_shows_a_tangent_as_a_sum_over_paths_down_to_the_input(panel):
    choose_forward(panel)
    box = panel.paths.box
    panel.seek(6)  # t2
    assert box.heading.text() == "∂t₂/∂a = 3"
    assert box.rows() == ["1 · 3 = 3   (through t₁)"]
    panel.last()  # L: the same two paths as a.grad's in reverse mode
    assert box.heading.text() == "∂L/∂a = 31 = 21 + 10"
    assert box.rows() == ["7 · 1 · 3 = 21   (through t₁)", "10 · 1 = 10   (through t₃)"]


def test_an_edit_of_the_graph_keeps_forward_mode_on_the_new_graph(panel, qtbot):
    choose_forward(panel)
    assert panel.forward.load("b")
    document = panel.followed_document
    document.set_value(ids(document)["a"], 4.0)  # L = (4*3 + 4) * (4 + 5): ∂L/∂b = 4 * 9 = 36
    qtbot.waitUntil(lambda: panel.document.node(ids(panel.document)["a"]).value == 4.0)
    assert panel.source == "forward" and panel.forward.input_combo.currentText() == "b"
    panel.last()
    assert panel.scene.node_item(ids(panel.document)["L"]).body_lines() == ["value 144", "tangent 36"]
    index = panel.source_combo.findData("graph")
    panel.source_combo.setCurrentIndex(index)
    panel.source_combo.activated.emit(index)  # the person goes back to the backward pass: it stays
    document.set_value(ids(document)["a"], 5.0)
    qtbot.waitUntil(lambda: panel.document.node(ids(panel.document)["a"]).value == 5.0)
    assert panel.source == "graph"
