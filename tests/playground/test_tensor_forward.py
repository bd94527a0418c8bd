"""Forward mode on an editor tensor graph: one element of one input moves (a one-hot tangent), each node's
tangent (its Jacobian's column for that element) flows forward with the op's tangent rule in words, and the
output's tangent at the end is that element of the gradient the backward pass gives, as engine.jvp says."""

from __future__ import annotations

import numpy as np
import pytest

from engine import Tensor, jvp
from playground.animator.forward_view import FORWARD_SOURCE
from playground.animator.model.editor_tensors import document_tensors
from playground.animator.model.tensor_forward import TensorForwardAnimation, index_text, tangent_rule
from playground.animator.panel import AnimatorPanel
from playground.graph.expression import parse_expression
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot

GRAPH = ("X = [[1, 2], [3, 4], [5, 6]]; W = [[0.5, -1], [2, 1]]; b = [0.1, 0.2]; "
         "t1 = X @ W; t2 = t1 + b; t3 = tanh(t2); L = sum(t3)")


def ids(document) -> dict[str, str]:
    return {document.name(n.id): n.id for n in document.nodes}


def gradients(document) -> dict[str, np.ndarray]:
    """Every input's gradient by the engine's backward pass, on tensors of its own."""
    tensors, output = document_tensors(document)
    output.backward()
    return {document.name(n): t.grad for n, t in tensors.items() if not t._prev}


@pytest.mark.parametrize("name", ["X", "W", "b"])
def test_every_elements_pass_ends_with_that_element_of_the_gradient_and_jvp(name):
    document = parse_expression(GRAPH)
    grad = gradients(document)[name]
    for element in range(grad.size):
        animation = TensorForwardAnimation.of_document(document, ids(document)[name], element)
        tensors, output = document_tensors(document)
        seed = np.zeros(grad.shape)
        seed.flat[element] = 1.0
        expected = jvp(output, {tensors[ids(document)[name]]: seed})
        assert animation.output_tangent == pytest.approx(grad.flat[element], rel=1e-12, abs=1e-15)
        assert animation.output_tangent == pytest.approx(float(expected), rel=1e-12, abs=1e-15)
        assert animation.gradient == pytest.approx(grad.flat[element], rel=1e-12, abs=1e-15)


def test_each_node_carries_its_jacobian_column_with_the_rule_in_words():
    document = parse_expression(GRAPH)
    n = ids(document)
    animation = TensorForwardAnimation.of_document(document, n["X"], 2)  # X[1, 0]
    frames = {frame.node_id: frame for frame in animation.timeline.frames}
    node_of = {node.title: node_id for node_id, node in animation.nodes.items()}
    W = np.array([[0.5, -1], [2, 1]])
    one_hot = np.zeros((3, 2))
    one_hot[1, 0] = 1.0
    assert np.allclose(animation.tangents[node_of["t1"]], one_hot @ W)  # d(X @ W) = dX @ W
    t2 = np.array([[1, 2], [3, 4], [5, 6]]) @ W + np.array([0.1, 0.2])
    assert np.allclose(animation.tangents[node_of["t3"]], (one_hot @ W) * (1 - np.tanh(t2) ** 2))
    assert animation.tangents[node_of["W"]] is None and animation.tangents[node_of["b"]] is None
    assert frames[node_of["X"]].title == "X: 3×2 parameter,  Ẋ = one-hot at [1, 0]"
    assert "Ẋ = 1 at [1, 0], 0 at the other 5 elements" in frames[node_of["X"]].explanation
    matmul = frames[node_of["t1"]].explanation.split("Tangent:\n")[1]
    assert matmul.startswith("matmul: ṫ₁ = Ẋ @ W + X @ Ẇ\n  from X: 3×2, ‖·‖ = 1.118\n  W held still: its term is 0")
    assert frames[node_of["t1"]].title == "t1 = X @ W  [3×2],  ‖ṫ₁‖ = 1.118"
    assert "∂L/∂X[1, 0]" in animation.start_text and "one-hot" in animation.start_text
    # every input's every element is a pass; the backward pass visits each of the 6 edges once
    assert animation.work.inputs == 6 + 4 + 2 and animation.work.backward_edges == 6


def test_rules_and_indices_read_as_written():
    assert tangent_rule("@", ["X", "W"]) == "Ẋ @ W + X @ Ẇ"
    assert tangent_rule("*", ["a", "t1"]) == "ȧ ⊙ t1 + a ⊙ ṫ₁"
    assert tangent_rule("linear", ["x", "W"]) == "ẋ · Wᵀ + x · Ẇᵀ"
    assert tangent_rule("frobnicate", ["x"]) == "J1 · ẋ"
    assert index_text((3, 2), 5) == "[2, 1]" and index_text((4,), 2) == "[2]" and index_text((), 0) == ""


def test_an_element_out_of_range_or_an_input_that_is_not_one_is_refused():
    document = parse_expression(GRAPH)
    n = ids(document)
    with pytest.raises(ValueError, match="has 4 elements"):
        TensorForwardAnimation.of_document(document, n["W"], 4)
    with pytest.raises(ValueError, match="not an input"):
        TensorForwardAnimation.of_document(document, n["t1"], 0)


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.follow(parse_expression(GRAPH))
    return panel


def choose(combo, data=None, index=None) -> None:
    index = combo.findData(data) if index is None else index
    combo.setCurrentIndex(index)
    combo.activated.emit(index)  # as a person's choice does


def test_forward_mode_on_a_tensor_graph_in_the_panel(panel):
    messages = []
    panel.status_message.connect(messages.append)
    choose(panel.source_combo, FORWARD_SOURCE[0])
    forward = panel.forward
    assert isinstance(panel.animation, TensorForwardAnimation) and panel.source == "forward"
    assert [forward.input_combo.itemText(i) for i in range(forward.input_combo.count())] == ["X", "W", "b"]
    elements = forward.element_combo
    assert elements.isVisibleTo(panel)
    assert [elements.itemText(i) for i in range(elements.count())] == [
        "[0, 0]", "[0, 1]", "[1, 0]", "[1, 1]", "[2, 0]", "[2, 1]"]
    choose(elements, index=3)
    assert messages[-1] == "Forward mode along X[1, 1]: 7 steps, one per node"
    assert forward.counter.text() == ("All 12 gradients: forward mode 12 passes (46 edges visited) · "
                                      "reverse mode 1 backward pass (6 edges visited)")
    panel.last()
    grad = gradients(panel.document)["X"][1, 1]
    text = panel.steps.explanation.text()
    assert f"∂L/∂X[1, 1] = L̇ = {panel.animation.output_tangent:.4g}" in text
    assert panel.animation.output_tangent == pytest.approx(grad, rel=1e-12)
    output = panel.scene.node_item(panel.animation.output)
    assert output.body_lines()[-1] == f"tangent {panel.animation.output_tangent:.4g}"
    assert panel.scene.node_item(panel.animation.input_node).body_lines()[-1] == "tangent 1 at [1, 1]"
    choose(forward.input_combo, index=2)  # b: a vector of two, its first element
    assert forward.element_combo.currentText() == "[0]" and "along b[0]" in panel.steps.explanation.text()
    choose(panel.source_combo, "graph")  # back to the backward replay: no element to choose
    assert not forward.element_combo.isVisibleTo(panel)


def test_a_tensor_graph_without_a_scalar_output_says_why(panel):
    messages = []
    panel.status_message.connect(messages.append)
    panel.follow(parse_expression("X = [[1, 2]]; L = tanh(X)"))
    assert not panel.forward.load()
    assert "reduce it to a single number" in messages[-1]


def network():
    session = TrainingSession(TrainingSettings())
    return network_snapshot(session.settings, session.state_dict(), session.step, session.data)


def test_a_pass_through_the_training_network_ends_with_that_weights_gradient():
    snapshot = network()
    parameters = list(snapshot.model.parameters())
    loss = snapshot.loss_fn(snapshot.model(Tensor(snapshot.X)), snapshot.y)
    seed = np.zeros(parameters[2].shape)
    seed.flat[5] = 1.0
    expected = float(jvp(loss, {parameters[2]: seed}))
    loss.backward()
    animation = TensorForwardAnimation.of_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y, 2, 5)
    assert animation.seed_name == "W2[0, 5]" and animation.leaf_titles[:3] == ["W1", "b1", "W2"]
    assert animation.output_tangent == pytest.approx(parameters[2].grad.flat[5], rel=1e-10)
    assert animation.output_tangent == pytest.approx(expected, rel=1e-12)
    rows = [frame.title for frame in animation.timeline.frames]
    assert "Linear 1 = X · W1ᵀ + b1  [140×16],  d(Linear 1) = 0" in rows  # before W2: nothing moves yet
    linear_2 = next(f for f in animation.timeline.frames if f.title.startswith("Linear 2 ="))
    assert "linear: d(Linear 2) = d(Tanh 1) · W2ᵀ + Tanh 1 · Ẇ₂ᵀ + ḃ₂" in linear_2.explanation
    assert animation.work.inputs == 337


def test_choosing_forward_mode_on_the_training_network_in_the_window(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from playground.animator.forward_view import FORWARD_NETWORK_SOURCE
    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    animator = window.animator
    window.tabs.setCurrentWidget(animator)
    messages = []
    animator.status_message.connect(messages.append)
    choose(animator.source_combo, FORWARD_NETWORK_SOURCE[0])  # no network drawn yet: it says where to find one
    assert animator.source == "graph" and animator.source_combo.currentData() == "graph"
    assert "open the Training tab" in " ".join(messages)
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.network_snapshot() is not None)
    window.tabs.setCurrentWidget(animator)
    choose(animator.source_combo, FORWARD_NETWORK_SOURCE[0])
    assert animator.source == FORWARD_NETWORK_SOURCE[0]
    assert isinstance(animator.animation, TensorForwardAnimation)
    forward = animator.forward
    assert forward.input_combo.currentText() == "W1" and forward.element_combo.count() == 32
    choose(forward.input_combo, index=2)  # W2: 16 × 16
    choose(forward.element_combo, index=17)
    assert animator.animation.seed_name == "W2[1, 1]"
    assert forward.counter.text().startswith("All 337 gradients: forward mode 337 passes (")
    animator.last()
    assert "∂loss/∂W2[1, 1] = dloss = " in animator.steps.explanation.text()
    window.training.pause()
