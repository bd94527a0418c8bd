"""A quiz in forward mode: a tangent asked and not answered yet reads "?" wherever forward mode would show it
(its row, its step box, its card and tooltip, the path list), its value stays; an exercise about the backward
pass of the same graph hides its values in forward mode too, and the editor's cards keep hiding them."""

from __future__ import annotations

import pytest

from playground.animator.model.forward_hiding import TANGENT_NOTE, ForwardReveal, forward_hiding
from playground.animator.model.forward_timeline import ForwardAnimation
from playground.animator.panel import AnimatorPanel
from playground.graph.document import maths_of
from playground.graph.expression import parse_expression

LESSON_2 = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"


def ids(document) -> dict[str, str]:
    return {document.name(n.id): n.id for n in document.nodes}


def test_the_tangents_asked_hide_from_the_first_one_on_and_the_values_stay():
    document = parse_expression(LESSON_2)
    n, maths = ids(document), maths_of(document)
    animation = ForwardAnimation(document, n["a"])
    asked = {(n["t2"], n["a"]), (n["t3"], n["a"])}  # t1's tangent answered already
    hiding = forward_hiding(animation, maths, (5, frozenset(), maths), asked)
    assert hiding.fields == {6: {"tangent"}, 7: {"tangent"}, 8: {"tangent"}}  # L's sum would give ṫ₂ and ṫ₃ away
    reveal = ForwardReveal(animation, hiding)
    assert reveal.title(5) == "t1 = a * b = 6,  ṫ₁ = 3"
    assert reveal.title(6) == "t2 = t1 + c = 10,  ṫ₂ = ?"
    assert reveal.explanation(8).endswith("L̇ = ∂L/∂t₂ · ṫ₂ + ∂L/∂t₃ · ṫ₃ = ?\n\n" + TANGENT_NOTE)
    animation.timeline.seek(7)
    state = animation.timeline.display
    assert reveal.card_lines(n["t2"], ["value 10", "tangent 3"]) == ["value 10", "tangent ?"]
    assert reveal.card_lines(n["t1"], ["value 6", "tangent 3"]) == ["value 6", "tangent 3"]
    assert reveal.tooltip(n["t3"], state[n["t3"]], "").endswith("value = 7\ntangent dt3/da = ?")
    assert reveal.card_lines(n["L"], ["value —", "tangent —"]) == ["value —", "tangent —"]  # not reached yet
    assert reveal.path_concealment(n["t3"]) and not reveal.path_concealment(n["t1"])


@pytest.mark.parametrize("case", ["other input", "other graph", "no exercise"])
def test_nothing_hides_where_the_exercise_does_not_ask(case):
    document = parse_expression(LESSON_2)
    n, maths = ids(document), maths_of(document)
    along = n["b"] if case == "other input" else n["a"]
    exercise = None if case == "no exercise" else (4, frozenset(), maths if case != "other graph" else ("x",))
    hiding = forward_hiding(ForwardAnimation(document, along), maths, exercise, {(n["t1"], n["a"])})
    assert not hiding.fields and not hiding.concealment


def test_a_backward_exercise_hides_its_values_and_the_gradient_the_output_tangent_is():
    document = parse_expression(LESSON_2)
    n, maths = ids(document), maths_of(document)
    animation = ForwardAnimation(document, n["a"])
    values_asked = forward_hiding(animation, maths, (4, frozenset(), maths))  # lesson 2: t1 = ? and on
    assert values_asked.fields == dict.fromkeys((5, 6, 7, 8), {"value", "tangent"})
    assert values_asked.concealment.values == {n["t1"], n["t2"], n["t3"], n["L"]}
    assert ForwardReveal(animation, values_asked).title(5) == "t1 = a * b = ?,  ṫ₁ = ?"
    grads_asked = forward_hiding(animation, maths, (9, frozenset({n["a"]}), maths))  # the values given, a.grad = ?
    assert grads_asked.fields == {8: {"tangent"}}  # L̇ along a is ∂L/∂a


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.follow(parse_expression(LESSON_2))
    return panel


def test_forward_mode_in_the_panel_shows_question_marks_until_the_answer(panel):
    assert panel.forward.load("a")
    document = panel.document
    n = ids(document)
    panel.hide_after(4, document, (), {(n["t1"], n["a"])})
    panel.seek(5)
    assert panel.steps.step_list.item(4).text() == "5.  t1 = a * b = 6,  ṫ₁ = ?"
    assert panel.scene.node_item(n["t1"]).body_lines() == ["value 6", "tangent ?"]
    assert "ṫ₁ = ∂t₁/∂a · ȧ = ?" in panel.steps.explanation.text()
    assert panel.paths.box.heading.text() == "∂t₁/∂a = ?"
    assert panel.caption.text().endswith("= 6  ·  ṫ₁ = ∂t₁/∂a · ȧ = ?")  # under the graph, the step panel closed
    panel.hide_after(None)  # answered: the same step shows its numbers at once
    assert panel.steps.step_list.item(4).text() == "5.  t1 = a * b = 6,  ṫ₁ = 3"
    assert panel.scene.node_item(n["t1"]).body_lines() == ["value 6", "tangent 3"]
    assert panel.paths.box.heading.text() == "∂t₁/∂a = 3"
    assert panel.caption.text().endswith("ṫ₁ = ∂t₁/∂a · ȧ = 3 × 1 = 3")


def test_switching_to_forward_mode_during_a_backward_exercise_keeps_the_editor_cards_hidden(panel, qtbot):
    document = panel.followed_document
    n = ids(document)
    told = []
    panel.concealment_changed.connect(told.append)
    panel.hide_after(4, document)  # lesson 2's exercise: t1's value and every later number asked
    assert told and n["t1"] in told[-1].values
    assert panel.forward.load("a")
    assert n["t1"] in told[-1].values and n["L"] in told[-1].values  # forward mode must not lift the editor's "?"
    panel.last()
    assert panel.scene.node_item(n["L"]).body_lines() == ["value ?", "tangent ?"]
