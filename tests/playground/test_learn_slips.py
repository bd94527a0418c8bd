"""Hints that diagnose: a wrong number that a common slip gives is told what it is, from the graph and the
engine's backward steps, on lesson 2's graph L = ((a*b)+c)*(a+d) at a=2, b=3, c=4, d=5; in the Learn panel
and in the animator's Predict mode."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel

from playground.graph.expression import parse_expression
from playground.learn.model.facts import GraphFacts
from playground.learn.model.questions import build_question, check

GRAPH = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"


@pytest.fixture(scope="module")
def facts():
    return GraphFacts(parse_expression(GRAPH))


def feedback(facts, what: str, name: str, answer: str) -> str:
    question = build_question(facts, what, facts.node_id(name))
    result = check(question, answer)
    assert not result.right
    return result.message


@pytest.mark.parametrize("what, name, answer, said", [
    # the other operation
    ("value", "t1", "5", "✗ $5$ is $a + b$; $t1$ is $a * b$ = ?"),
    ("value", "L", "17", "✗ $17$ is $t2 + t3$; $L$ is $t2 * t3$ = ?"),
    ("value", "t3", "10", "✗ $10$ is $a * d$; $t3$ is $a + d$ = ?"),
    # an operand taken for the result
    ("value", "t2", "6", "✗ $6$ is $t1$ itself, before the operation; $t2$ is $t1 + c$ = ?"),
    # the sign flipped
    ("value", "L", "-70", "✗ $-70$ has the sign flipped; $L$ is $t2 * t3$ = ?"),
    ("grad", "a", "-31", "✗ $-31$ has the sign flipped; $∂L/∂a = ∂L/∂t1 × b + ∂L/∂t3$ = ?"),
])
def test_a_slip_in_a_value_or_the_sign_is_named(facts, what, name, answer, said):
    assert feedback(facts, what, name, answer) == said


def test_one_uses_share_is_told_apart_from_the_accumulated_sum(facts):
    for answer, through, other in (("21", "t1", "t3"), ("10", "t3", "t1")):
        message = feedback(facts, "grad", "a", answer)
        assert message.startswith(f"✗ ${answer}$ is what comes back through ${through}$ alone; $a$ is used by "
                                  f"${other}$ too")
        assert "31" not in message  # the answer is still to be found


def test_the_upstream_gradient_left_out_is_named(facts):
    # ∂L/∂b = ∂L/∂t1 · a = 7 · 2: typing the local derivative a = 2 alone
    assert feedback(facts, "grad", "b", "2") == (
        "✗ $2$ leaves out the upstream gradient: $a$ is the local derivative $∂t1/∂b$ alone, to be multiplied by "
        "$∂L/∂t1$; $∂L/∂b = ∂L/∂t1 × a$ = ?")
    # a's two local derivatives, b = 3 and 1, added without their upstream gradients
    assert feedback(facts, "grad", "a", "4").startswith("✗ $4$ adds up the local derivatives alone")
    # the other way round: the gradient reaching t1 without the local derivative
    assert feedback(facts, "grad", "b", "7").startswith("✗ $7$ leaves out the local derivative: $∂L/∂t1$ is the "
                                                       "gradient reaching $t1$")


def test_the_other_rule_and_the_value_for_the_gradient_are_named(facts):
    assert feedback(facts, "grad", "b", "21").startswith(  # 7 · b instead of 7 · a
        "✗ $21$ multiplies by $b$ itself: a product like $t1$ hands each factor the other factor, $a$")
    assert feedback(facts, "grad", "t1", "28").startswith(  # 7 · c, as if t2 = t1 + c were a product
        "✗ $28$ multiplies by $c$ as if $t2$ were a product")
    assert feedback(facts, "grad", "t1", "6") == "✗ $6$ is $t1$'s value, not its gradient; $∂L/∂t1 = ∂L/∂t2$ = ?"


def test_a_number_no_slip_gives_gets_the_rule(facts):
    assert feedback(facts, "grad", "a", "99") == ("✗ Not 99. Hint: $a$ is used 2 times: its gradient is the sum of "
                                                  "what comes back from each use.")


def test_the_slips_follow_the_graphs_numbers():
    """Computed, not typed: on other numbers the same slip is another number."""
    facts = GraphFacts(parse_expression("a=4; b=-1.5; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"))
    assert feedback(facts, "value", "t1", "2.5") == "✗ $2.5$ is $a + b$; $t1$ is $a * b$ = ?"
    assert feedback(facts, "grad", "b", "4").startswith("✗ $4$ leaves out the upstream gradient")


def plain(label: QLabel) -> str:
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText()


def test_the_learn_panel_says_what_a_wrong_number_is(window):
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    panel.next()  # the values exercise: t1 first
    assert not panel.answer("5")
    label = window.findChild(QLabel, "answerFeedback")
    # t1 is set as t₁; the rule waits behind More
    assert plain(label).replace("\u2060", "") == "✗ 5 is a + b; t1 is a · b = ? More…"
    assert panel.run.question.prompt.startswith("$t1 = a * b$") and not panel.run.answered


def test_predict_says_when_a_wrong_number_is_the_local_derivative_alone(window):
    window.editor.build_from_expression(GRAPH)
    animator = window.animator
    animator.load(window.document)
    animator.set_predict(True)
    quiz = animator.predict.quiz
    position = next(p for p in range(1, animator.frame_count + 1)
                    if quiz.step_at(p) is not None and quiz.names[quiz.step_at(p).parent] == "b")
    step = quiz.step_at(position)
    assert (step.upstream, step.local) == (7.0, 2.0)
    verdict = quiz.answer(position, "2")
    assert not verdict.right and verdict.message.startswith(
        "✗ Not quite: 2 is the local derivative alone: multiply it by t1's gradient, the upstream one.")
    assert quiz.answer(position + 0, "-14").message.startswith("✗ Not quite: -14 has the sign flipped.")


def test_lesson_1s_hint_says_which_gradient_is_upstream():
    """Lesson 1 asks for ∂y/∂x before lesson 2 teaches the word: the hint says which gradient it means."""
    facts = GraphFacts(parse_expression("x=1; y=tanh(x)"))
    assert feedback(facts, "grad", "x", "0.75") == (
        "✗ Not 0.75. Hint: The derivative of tanh(x) is 1 − tanh(x)², times the upstream gradient (here the one y "
        "hands on: $∂y/∂y = 1$).")


@pytest.mark.parametrize("graph, answer, said", [
    # one operand's share of a node that takes a twice: one of L's uses, not "L alone" and "used by L too"
    ("a=3; L=a*a", "3", "✗ $3$ is what comes back through one of $L$'s uses of $a$ alone; $L$ takes $a$ as both "
                        "its operands, and $a$'s gradient is the sum over every use: "
                        "$∂L/∂a = ∂L/∂L × a + ∂L/∂L × a$ = ?"),
    ("a=3; L=a+a", "1", "✗ $1$ is what comes back through one of $L$'s uses of $a$ alone; $L$ takes $a$ as both "
                        "its operands, and $a$'s gradient is the sum over every use: $∂L/∂a = ∂L/∂L + ∂L/∂L$ = ?"),
    # lesson 3 step 3: each use's share is recognised, t's two together (6) as well as each one (3) and L's (1)
    ("a=3; t=a*a; L=t+a", "6", "✗ $6$ is what comes back through $t$ alone ($t$ takes $a$ as both its operands); "
                               "$a$ is used by $L$ too, and $a$'s gradient is the sum over every use: "
                               "$∂L/∂a = ∂L/∂L + ∂L/∂t × a + ∂L/∂t × a$ = ?"),
    ("a=3; t=a*a; L=t+a", "3", "✗ $3$ is what comes back through one of $t$'s uses of $a$ alone; $t$ takes $a$ as "
                               "both its operands, $a$ is used by $L$ too, and $a$'s gradient is the sum over every "
                               "use: $∂L/∂a = ∂L/∂L + ∂L/∂t × a + ∂L/∂t × a$ = ?"),
    ("a=3; t=a*a; L=t+a", "1", "✗ $1$ is what comes back through $L$ alone; $a$ is used by $t$ too, and its gradient "
                               "is the sum over every use: $∂L/∂a = ∂L/∂L + ∂L/∂t × a + ∂L/∂t × a$ = ?"),
])
def test_each_uses_share_is_named_for_the_graph_on_screen(graph, answer, said):
    facts = GraphFacts(parse_expression(graph))
    assert feedback(facts, "grad", "a", answer) == said
