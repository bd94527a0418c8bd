"""Lesson 9 in the real window, as a student takes it: build the layer in the editor (Check my graph says
what is missing; Show me builds it), the shape questions and b's gradient in the Learn panel, and what
stays hidden until answered."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.graph.document import maths_of
from playground.learn.model.lesson import load_lesson
from playground.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
LESSON = load_lesson(ROOT / "resources" / "lessons" / "09-tensor-layer.lesson")
BUILD = next(action for action in LESSON.steps[0].actions if action.kind == "build").argument


@pytest.fixture
def window(qtbot, tmp_path):
    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    return window


def build(window, text: str) -> None:
    window.editor.expression_input.setText(text)
    window.editor.build_button.click()
    QApplication.processEvents()


def card(window, name: str):
    node_id = next(node_id for node_id, other in window.document.names().items() if other == name)
    return window.editor.scene.node_item(node_id)


def test_the_student_builds_the_layer_and_check_my_graph_says_what_is_missing(window):
    window.learning.start("09-tensor-layer")
    panel = window.learning.panel
    assert window.tabs.currentWidget() is window.editor
    assert panel.check_button.text() == "Check my graph" and panel.reveal_button.text() == "Show me"
    assert not panel.answer_input.isVisible() and not panel.next_button.isEnabled()
    build(window, "X = zeros(4, 2); W = ones(2, 3); L = sum(tanh(X @ W))")
    panel.check_button.click()
    assert "no b: an input or parameter of shape (3,)" in panel.feedback.text()
    assert not panel.next_button.isEnabled()
    build(window, BUILD)  # the lesson's very graph: what later steps ask is hidden from now on
    assert panel.feedback.text() == ""  # what was said of the graph before is gone with it
    # every gradient a shape question names is hidden: its numbers would show its shape
    assert all(card(window, name).shown_numbers("grad") is None for name in ("H", "Z", "XW", "b", "X", "W"))
    panel.check_button.click()
    assert "every part (6)" in panel.feedback.text() and panel.next_button.isEnabled()
    assert window.document_name.startswith("Untitled")  # the student's own graph stays: it is the lesson's


def test_show_me_builds_the_layer_and_the_questions_take_shapes_and_arrays(window):
    window.learning.start("09-tensor-layer")
    panel = window.learning.panel
    panel.reveal_button.click()
    assert maths_of(window.document) == maths_of(LESSON.steps[0].facts.document)
    assert panel.next() and panel.next()  # to the shape questions
    shapes = panel.run.step.facts  # the animator waits before the first gradient whose shape is asked (H's)
    assert window.animator.position == shapes.grad_position(shapes.node_id("H")) - 1
    assert panel.answer_input.isVisible() and "a shape" in panel.answer_input.placeholderText()
    assert not panel.answer("(3, 4)") and "transposed" in panel.feedback.text()  # H's
    assert card(window, "H").shown_numbers("grad") is None  # H's shape, still asked, hidden with its numbers
    assert panel.answer("(4, 3)") and panel.answer("4x3") and panel.answer("(4, 3)")  # H, Z, XW
    assert card(window, "H").shown_numbers("grad") is not None and card(window, "b").shown_numbers("grad") is None
    assert not panel.answer("(4, 3)") and "broadcast over axis 0" in panel.feedback.text()  # b's
    assert not panel.answer("three") and "a shape is whole numbers" in panel.feedback.text()
    assert panel.answer("(3,)")
    assert not panel.answer("(4, 3)") and "flows into" in panel.feedback.text()  # XW's shape, for X
    assert panel.answer("(4, 2)") and panel.answer("2, 3")  # X, W
    assert panel.next()
    assert panel.answer_input.placeholderText().startswith("e.g. [")
    facts = panel.run.step.facts
    z_grad = facts.grad(facts.node_id("Z"))
    assert not panel.answer(str([round(float(x), 4) for x in z_grad[0]]))
    assert "one row&#x27;s gradient" in panel.feedback.text()
    assert card(window, "b").shown_numbers("grad") is None  # still hidden
    assert panel.answer(str([round(float(x), 4) for x in z_grad.sum(axis=0)]))
    assert card(window, "b").shown_numbers("grad") is not None
    assert panel.next() and panel.run.completed
