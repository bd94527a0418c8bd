"""Lesson 8, "Forward or reverse?": the path view on lesson 2's graph, an exercise on the tangents along a in
the animator's forward mode (checked by the engine's forward_steps), and the counter of passes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from playground.learn.model.lesson import load_lesson, parse_lesson

LESSON = Path(__file__).resolve().parents[2] / "resources" / "lessons" / "08-forward-or-reverse.lesson"


def test_the_lesson_states_the_engines_numbers():
    lesson = load_lesson(LESSON)
    assert lesson.title == "Forward or reverse?"
    questions = [(ask.what, step.facts.name(ask.node), step.facts.name(ask.along))
                 for step in lesson.steps for ask in step.asks]
    assert questions == [("tangent", "t1", "a"), ("tangent", "t2", "a"), ("tangent", "t3", "a")]
    facts = lesson.steps[0].facts
    assert [facts.number(x) for x in ("t1.tangent(a)", "t2.tangent(a)", "t3.tangent(a)", "L.tangent(a)")] == \
        ["3", "3", "1", "31"]
    assert [facts.number(x) for x in ("forward.passes", "forward.edges", "backward.edges")] == ["4", "12", "8"]


def test_forward_and_tangent_lines_are_checked():
    head = "autograd-playground-lesson 1\ntitle: T\n\n## S\ngraph: a=2; b=3; L=a*b\n"
    with pytest.raises(ValueError, match="'forward:' starts at an input"):
        parse_lesson(head + "forward: L\n\nText.\n")
    with pytest.raises(ValueError, match="'forward:' is '<input>' or '<input> end'"):
        parse_lesson(head + "forward: a later\n\nText.\n")
    with pytest.raises(ValueError, match="along an input the output depends on"):
        parse_lesson("autograd-playground-lesson 1\ntitle: T\n\n## S\ngraph: a=2; b=3; c=1; L=a*b\n"
                     "ask: tangent L c\n\nT.\n")  # c is not used by L
    with pytest.raises(ValueError, match=r"t\.tangent\(b\)|no node named 't'"):
        parse_lesson(head + "\nIt is {t.tangent(b)}.\n")


def test_walking_the_lesson(window):
    window.learning.start(LESSON.stem)
    panel, editor, animator = window.learning.panel, window.editor, window.animator
    QApplication.processEvents()
    # 1: the path list for a, with its numbers (no quiz hides them here)
    assert editor.paths.heading.text() == "a.grad = 31 = 21 + 10"
    assert editor.paths.rows() == ["7 · 1 · 3 = 21   (through t₁)", "10 · 1 = 10   (through t₃)"]
    assert panel.next()
    QApplication.processEvents()
    # 2: forward mode along a, waiting before t1's step; a wrong tangent is refused with the rule
    assert window.tabs.currentWidget() is animator and animator.source == "forward"
    assert animator.forward.input_combo.currentText() == "a"
    assert animator.position == 4 and animator.steps.explanation.text().endswith("ḋ = 0   (held still: only a moves)")
    assert not panel.answer("6")
    assert "tangent" in panel.feedback.text()
    assert panel.answer("3")  # ṫ1
    assert animator.position == 5 and animator.steps.explanation.text().endswith("ṫ₁ = ∂t₁/∂a · ȧ = 3 × 1 = 3")
    assert panel.answer("3") and panel.answer("1")  # ṫ2, ṫ3
    assert panel.next()
    QApplication.processEvents()
    # 3: the end of the pass: L̇ = 31 = a.grad, the same paths from the other end
    assert animator.position == animator.frame_count == 8
    assert animator.paths.box.heading.text() == "∂L/∂a = 31 = 21 + 10"
    assert panel.next()
    QApplication.processEvents()
    # 4: the counter
    assert animator.forward.counter.isVisible()
    assert "forward mode 4 passes (12 edges visited)" in animator.forward.counter.text()
    assert "4 passes for the 4 gradients, visiting 12 edges in all" in panel.text.toPlainText()
