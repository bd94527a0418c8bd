"""Lesson 11, "Build the network yourself", in the real window as a student takes it (issue 28, item 7): Train this
graph and Play on the neuron, a straight boundary, its accuracy read off and typed; a hidden layer typed in the
editor, Check my graph naming what is missing, the numbers counted, trained until the boundary bends; a skip
connection built and trained. The accuracies the lesson states are the ones the training tab reaches, and no
answer is on the screen before it is asked."""

from __future__ import annotations

import re

import numpy as np
from PySide6.QtCore import Qt

from playground.common.numbers import format_number
from playground.graph.document import maths_of
from playground.training.model.learned import percent

WAIT = 60_000  # ms: a run of 300 steps on a busy machine


def click(qtbot, button) -> None:
    qtbot.waitUntil(button.isEnabled, timeout=5000)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def type_graph(qtbot, window, text: str) -> None:
    editor = window.editor
    assert window.tabs.currentWidget() is editor
    editor.expression_input.setText(text)
    qtbot.keyClick(editor.expression_input, Qt.Key.Key_Return)


def check_my_graph(qtbot, window) -> str:
    panel = window.learning.panel
    assert panel.check_button.text() == "Check my graph"
    click(qtbot, panel.check_button)
    return panel.feedback.text()


def type_answer(qtbot, window, text: str) -> str:
    panel = window.learning.panel
    panel.answer_input.setText(text)
    qtbot.keyClick(panel.answer_input, Qt.Key.Key_Return)
    return panel.feedback.text()


def next_step(qtbot, window) -> None:
    click(qtbot, window.learning.panel.next_button)


def train_as_the_lesson_says(qtbot, window) -> float:
    """Train this graph, then Play; the run pauses by itself. Returns the test accuracy the status bar shows."""
    training = window.training
    click(qtbot, window.editor.train_button)
    assert window.tabs.currentWidget() is training and training.settings.trains_graph
    click(qtbot, training.toolbar.play_button)
    qtbot.waitUntil(lambda: training.is_playing, timeout=5000)
    qtbot.waitUntil(lambda: not training.is_playing, timeout=WAIT)
    assert training.step == 300 and "300 epochs are done" in training.message
    qtbot.waitUntil(lambda: "test accuracy" in training.summary, timeout=5000)
    shown = re.search(r"test accuracy (\d+(?:\.\d+)?%)", training.summary).group(1)
    assert shown == percent(training.test_accuracy)
    return training.test_accuracy


def spread(window) -> np.ndarray:
    """How far the boundary's points spread along its two main directions (a straight line: the second is 0)."""
    xs, ys = window.training._frame.contour
    points = np.column_stack([np.ravel(xs), np.ravel(ys)])
    return np.linalg.svd(points - points.mean(axis=0), compute_uv=False)


def card(window, name: str):
    node_id = next(node_id for node_id, shown in window.document.names().items() if shown == name)
    return window.editor.scene.node_item(node_id)


def test_the_student_trains_a_neuron_builds_a_hidden_layer_and_a_skip_connection(qtbot, window):
    asked_to_start_over = []
    window.graph_link.ask_start_over = lambda: asked_to_start_over.append(True) or "start over"
    window.learning.start("11-build-the-network")
    panel, training = window.learning.panel, window.training
    text = panel.text.toPlainText

    # 1. The neuron, its bias set to 0 by the lesson: trained on the moons, a straight line.
    assert window.tabs.currentWidget() is window.editor and card(window, "b").result.value == 0.0
    question = panel.run.question
    assert percent(question.expected) not in text() and percent(question.expected) not in panel.prompt.text()
    accuracy = train_as_the_lesson_says(qtbot, window)
    assert accuracy == question.expected and 0.75 <= accuracy <= 0.92
    assert spread(window)[1] < 1e-3 * spread(window)[0]
    assert "Not 50%" in type_answer(qtbot, window, "50")
    assert type_answer(qtbot, window, percent(accuracy)).startswith("✓")
    weights = training.weights()
    next_step(qtbot, window)
    assert window.tabs.currentWidget() is training and training.step == 300  # 'train: graph' kept the run
    assert percent(accuracy) in text()
    for name in ("w1", "w2", "b"):
        assert f"{name} = {format_number(float(weights[name]))}" in text()

    # 2. A hidden layer, typed in the editor: Check my graph says what is missing.
    next_step(qtbot, window)
    qtbot.waitUntil(lambda: training.step == 0, timeout=5000)  # the neuron's run is put aside
    assert window.tabs.currentWidget() is window.editor
    assert not panel.next_button.isEnabled()
    assert "no X: an input fed the points" in check_my_graph(qtbot, window)  # still the neuron
    type_graph(qtbot, window, "X = points(); W1 = randn(2, 16, seed=5); b1 = zeros(16); H = tanh(X @ W1 + b1)")
    assert "no W2: a parameter of shape (16, 1); b2: a parameter of shape (1,)" in check_my_graph(qtbot, window)
    type_graph(qtbot, window, "X = points(); W1 = randn(2, 16, seed=5); b1 = zeros(16); W2 = randn(16, 1); "
                              "b2 = zeros(1); out = relu(X @ W1 + b1) @ W2 + b2")
    assert "no H = tanh(Z1), giving (n, 16)" in check_my_graph(qtbot, window)
    type_graph(qtbot, window, "X = points(); W1 = randn(2, 16, seed=5); b1 = zeros(16); W2 = randn(16, 1); "
                              "b2 = zeros(1); out = tanh(X @ W1 + b1) @ W2 + b2")
    assert check_my_graph(qtbot, window).startswith("✓")
    lesson_graph = panel.run.step.facts.document
    assert maths_of(window.document) == maths_of(lesson_graph)  # the lesson's copy: its initial weights
    count = panel.run.question
    assert count.node == "trained.parameters" and "65" not in text()
    assert "how many parameters the graph has" in type_answer(qtbot, window, "4")
    assert type_answer(qtbot, window, "65").startswith("✓")

    # 3. Trained: each hidden unit's map on H's card, and the boundary bends.
    next_step(qtbot, window)
    question = panel.run.question
    assert percent(question.expected) not in text()
    accuracy = train_as_the_lesson_says(qtbot, window)
    assert accuracy == question.expected and accuracy >= 0.97
    assert spread(window)[1] > 0.05 * spread(window)[0]
    window.tabs.setCurrentWidget(window.editor)
    qtbot.waitUntil(lambda: card(window, "H").map_count == 16, timeout=10_000)
    assert type_answer(qtbot, window, percent(accuracy)).startswith("✓")
    next_step(qtbot, window)
    assert percent(accuracy) in text() and "65 numbers" in text()

    # 4. A skip connection: the layer without it is not it; with it, trained.
    next_step(qtbot, window)
    qtbot.waitUntil(lambda: training.step == 0, timeout=5000)
    skip = ("X = points(); W1 = randn(2, 16, seed=0); b1 = zeros(16); W2 = randn(16, 16, seed=1); b2 = zeros(16); "
            "W3 = randn(16, 1, seed=2); b3 = zeros(1); H1 = tanh(X @ W1 + b1); H2 = tanh(H1 @ W2 + b2) + H1; "
            "out = H2 @ W3 + b3")
    type_graph(qtbot, window, skip.replace(" + H1;", ";"))
    assert "no H2 = T2 + H1, giving (n, 16)" in check_my_graph(qtbot, window)
    type_graph(qtbot, window, skip)
    assert check_my_graph(qtbot, window).startswith("✓")
    next_step(qtbot, window)
    question = panel.run.question
    assert percent(question.expected) not in text()
    accuracy = train_as_the_lesson_says(qtbot, window)
    assert accuracy == question.expected and accuracy >= 0.97
    window.tabs.setCurrentWidget(window.editor)  # "H1 and H2 each show 16 maps now"
    qtbot.waitUntil(lambda: card(window, "H1").map_count == 16 and card(window, "H2").map_count == 16, timeout=10_000)
    assert type_answer(qtbot, window, percent(accuracy)).startswith("✓")
    next_step(qtbot, window)
    assert "337 numbers" in text() and percent(accuracy) in text()
    assert panel.run.completed and not asked_to_start_over  # no run of an old graph was in the way


def test_a_student_back_at_a_step_about_a_trained_graph_finds_that_graph_on_the_training_tab(qtbot, window):
    lesson = window.learning.panel.library.find("11-build-the-network")
    drew = next(index for index, step in enumerate(lesson.steps) if step.title == "What the hidden layer drew")
    window.learning.panel.library.save_progress(lesson, {"step": drew, "answered": 0, "revealed": [],
                                                         "completed": False})
    window.learning.start("11-build-the-network")  # where the student left it, in a new session
    training, network = window.training, lesson.steps[drew].facts.document
    assert maths_of(window.document) == maths_of(network)  # the graph the step is about, in the editor
    assert window.tabs.currentWidget() is training and training.settings.trains_graph
    assert maths_of(training.graph_training.graph) == maths_of(network)  # and on the training tab
    assert training.settings.stop_when == "epochs" and training.settings.stop_at == 300
