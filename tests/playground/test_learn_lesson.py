"""The lesson model without a window: the file format (and what it refuses, with the line), the
numbers it states (the engine's), the questions and hints, and a lesson run from start to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Value
from playground.animator.model.predict import AnswerError
from playground.learn.model.facts import NetworkFacts, NetworkSpec
from playground.learn.model.lesson import (
    FORMAT_VERSION,
    MAX_BYTES,
    LessonFormatError,
    load_lesson,
    parse_lesson,
    with_numbers,
)
from playground.learn.model.markup import formula_html, to_html
from playground.learn.model.runner import LessonRun

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"
SHIPPED = sorted(LESSONS.glob("*.lesson"))
GOOD = """autograd-playground-lesson 1
title: A tiny lesson
summary: One graph, one question.

## The graph
graph: a=2; b=3; t=a*b; L=t+a
select: t

We compute $t = a * b$ and $L = t + a$: L = {L}, and a's gradient is {a.grad}.

## Your turn
ask: grad a

What is $∂L/∂a$?
"""


def lesson_2() -> LessonRun:
    return LessonRun(load_lesson(LESSONS / "02-chain-rule.lesson"))


def test_fourteen_lessons_ship_and_each_one_parses():
    titles = [load_lesson(path).title for path in SHIPPED]
    assert titles == ["A value and its gradient", "The chain rule by hand", "A variable used twice", "A neuron",
                      "Why the order matters", "From scalars to tensors", "Training", "Forward or reverse?",
                      "A layer for a batch, by hand", "Vanishing gradients", "Build the network yourself",
                      "MLCC: A first neural network", "MLCC: Neural net initialization", "MLCC: Neural net spiral"]


def test_the_lesson_model_needs_no_qt():
    code = ("import sys; import playground.learn.model.runner, playground.learn.model.lesson, "
            "playground.animator.model.pitfalls, playground.animator.model.predict; print('PySide6' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_numbers_in_a_lessons_text_come_from_the_engine():
    lesson = parse_lesson(GOOD)
    run = LessonRun(lesson)
    a, b = Value(2.0), Value(3.0)
    L = a * b + a
    L.backward()
    assert f"L = {L.data:g}" in run.html() and f"gradient is {a.grad:g}" in run.html()  # 8 and 4
    changed = parse_lesson(GOOD.replace("a=2;", "a=5;"))  # the same text on another graph: other numbers
    assert "L = 20" in LessonRun(changed).html() and "gradient is 4" in LessonRun(changed).html()


def test_formulas_are_rich_text_not_latex():
    html = to_html("Here $∂L/∂t1 = t3 * b^2 - 1$ holds, and **this** is `code`: <script>.")
    assert "<i>L</i>" in html and "<i>t</i>\u2060<sub>1</sub>" in html and "<sup>2</sup>" in html
    assert "\u00a0·\u00a0" in html and "\u00a0−\u00a0" in html and "$" not in html and "\\" not in html
    assert "<b>this</b>" in html and "<code>code</code>" in html and "&lt;script&gt;" in html
    assert formula_html("tanh(n)").endswith("tanh(<i>n</i>)</span>")
    assert "<ul" in to_html("- one\n- two") and to_html("a\n\nb").count("<p>") == 2


def test_lesson_2_values_then_gradients_in_backward_order_to_a_grad_of_31():
    run = lesson_2()
    assert run.step.title == "The exercise" and not run.questions
    assert run.next() and run.step.title == "Forward: every value"
    assert [q.prompt for q in run.questions] == ["$t1 = a * b$ = ?", "$t2 = t1 + c$ = ?", "$t3 = a + d$ = ?",
                                                 "$L = t2 * t3$ = ?"]
    assert not run.can_next  # the questions first
    positions = []
    for answer in ("6", "10", "7", "70"):
        positions.append(run.question.position)
        assert run.answer(answer).right
    assert positions == [5, 6, 7, 8]  # the animator's forward step of each value
    assert run.next() and run.next() and run.step.title == "Backward: every gradient"
    order = [q.prompt for q in run.questions]
    assert order == ["$∂L/∂t2$ = ?", "$∂L/∂t3$ = ?", "$∂L/∂t1$ = ?", "$∂L/∂c$ = ?", "$∂L/∂b$ = ?", "$∂L/∂a$ = ?",
                     "$∂L/∂d$ = ?"]
    for answer in ("7", "10", "7", "7", "14"):
        assert run.answer(answer).right
    assert run.question.prompt == "$∂L/∂a$ = ?" and run.question.expected == 31.0
    feedback = run.answer("31")
    assert feedback.right and feedback.message == "✓ Right: $∂L/∂a = 7 × 3 + 10 × 1 = 31$"  # upstream × local
    assert run.answer("10").right and run.can_next
    assert run.next() and run.is_last and run.completed
    assert "31" in run.html() and "14" in run.html()


def test_a_wrong_answer_gets_the_rule_as_a_hint_and_no_progress():
    run = lesson_2()
    run.go(3)
    feedback = run.answer("8")
    assert not feedback.right and feedback.message == ("✗ Not 8. Hint: For a product, the gradient to one factor "
                                                       "is the other factor times the upstream gradient (here the one "
                                                       "L hands on: $∂L/∂L = 1$).")
    assert feedback.details == "Here: $∂L/∂t2 = ∂L/∂L × t3$."  # on demand, in the animator's order, no number
    assert run.question.prompt == "$∂L/∂t2$ = ?" and run.answered == [] and not run.can_next
    for answer in ("7", "10", "7", "7", "14"):
        run.answer(answer)
    one_use = run.answer("21")  # only the path through t1: the feedback says so, with the formula to use
    assert not one_use.right and one_use.message == (
        "✗ $21$ is what comes back through $t1$ alone; $a$ is used by $t3$ too, and its gradient is the sum over "
        "every use: $∂L/∂a = ∂L/∂t1 × b + ∂L/∂t3$ = ?")
    assert one_use.details == "$a$ is used 2 times: its gradient is the sum of what comes back from each use."
    assert "31" not in one_use.message + one_use.details
    with pytest.raises(AnswerError):
        run.answer("thirty-one")
    assert run.question.expected == 31.0


def test_show_answer_moves_on_and_is_remembered_as_shown():
    run = lesson_2()
    run.go(1)
    assert run.reveal().message == "The answer: $t1 = 2 * 3 = 6$"
    state = run.state()
    assert state == {"step": 1, "answered": 1, "revealed": [True], "completed": False}
    again = LessonRun.restore(run.lesson, state)
    assert again.index == 1 and len(again.answered) == 1 and again.answered[0].revealed
    assert again.question.prompt == "$t2 = t1 + c$ = ?"
    assert LessonRun.restore(run.lesson, {"step": "x", "revealed": 5}).index == 0  # junk: start over
    assert LessonRun.restore(run.lesson, {"step": 99}).index == run.step_count - 1


def test_a_network_lesson_states_the_bias_gradient_as_the_engine_computes_it():
    facts = NetworkFacts(NetworkSpec(hidden=3, points=4, seed=0))
    bias_grad, summed = facts.array("b1.grad"), facts.array("Linear 1.grad.sum(0)")
    np.testing.assert_allclose(bias_grad, summed, rtol=1e-12)
    model, loss_fn, X, y, _ = NetworkSpec(hidden=3, points=4, seed=0).build()  # the same, straight from the engine
    from engine import Tensor
    loss_fn(model(Tensor(X)), y).backward()
    np.testing.assert_array_equal(model.modules[0].bias.grad, bias_grad)
    assert facts.number("X.shape") == "4×2" and facts.number("Linear 1.shape") == "4×3"
    lesson = load_lesson(LESSONS / "06-tensors.lesson")
    assert facts.number("b1.grad") in with_numbers(lesson.steps[2].text, lesson.steps[2].facts)


# -- what the format refuses, and where ----------------------------------------------------------


@pytest.mark.parametrize("change, line, words", [
    (lambda t: "", None, "empty"),
    (lambda t: t.replace("autograd-playground-lesson 1", "a lesson"), 1, "not a lesson file"),
    (lambda t: t.replace("autograd-playground-lesson 1", f"autograd-playground-lesson {FORMAT_VERSION + 1}"), 1,
     "newer version of the app"),
    (lambda t: t.replace("autograd-playground-lesson 1", "autograd-playground-lesson one"), 1, "whole number"),
    (lambda t: t.replace("title: A tiny lesson\n", ""), 4, "no 'title:'"),
    (lambda t: t.replace("summary:", "author:"), 3, "only 'title:' and 'summary:'"),
    (lambda t: t.replace("graph: a=2; b=3; t=a*b; L=t+a", "graph: a=2; b=3; t=a**; L=t+a"), 6, "does not parse"),
    (lambda t: t.replace("select: t", "select: z"), 7, "no node named 'z'"),
    (lambda t: t.replace("select: t", "selekt: t"), 7, "unknown action 'selekt:'"),
    (lambda t: t.replace("What is", "animator: end\nWhat is"), 14, "would be read as the step's text"),
    (lambda t: t.replace("{a.grad}", "{q.grad}"), 9, "'{q.grad}'"),
    (lambda t: t.replace("and $L", "and L"), 9, "formula '$...$' is not closed"),
    (lambda t: t.replace("ask: grad a", "ask: grad"), 12,
     "'ask:' is 'value <node>', 'grad <node>', 'tangent <node> <input>' or 'shape <node>.grad'"),
    (lambda t: t.replace("ask: grad a", "training: learning_rate=abc"), 12,
     "training: learning_rate must be a finite number from 1e-05 to 10, not 'abc'"),
    (lambda t: t.replace("ask: grad a", "training: seed=x"), 12, "training: seed must be a whole number"),
    (lambda t: t.replace("ask: grad a", "training: hidden=(8, True)"), 12, "each a whole number from 1 to 64"),
    (lambda t: t.replace("ask: grad a", "training: problem=regression"), 12,
     "training setup is refused: a regression needs real targets"),
    (lambda t: t.replace("ask: grad a", "training: speed=3"), 12, "unknown training setting 'speed'"),
    (lambda t: t.replace("ask: grad a", "training: learning_rate=1e9"), 12, "learning_rate must be a finite number"),
    (lambda t: t.replace("ask: grad a", "network: hidden=500"), 12, "hidden must be a whole number"),
    # Python's literal_eval raises a TypeError for a dict or a set it cannot hash: read as the bare word it is.
    (lambda t: t.replace("ask: grad a", "network: hidden={[]: 1}"), 12, "hidden must be a whole number"),
    (lambda t: t.replace("ask: grad a", "training: seed={[]: 1}"), 12, "seed must be a whole number"),
    (lambda t: t.replace("ask: grad a", "animator: step 999"), 12, "past the last step"),
    (lambda t: t.replace("ask: grad a", "pitfall: sometimes"), 12, "'pitfall:' is one of"),
    (lambda t: t.replace("ask: grad a", "highlight: not a name"), 12, "object name"),
    (lambda t: t.replace("ask: grad a", "nudge: t"), 12, "names an input"),
    (lambda t: t.replace("What is $∂L/∂a$?\n", ""), 11, "has no text"),
    (lambda t: t.split("## The graph")[0], 4, "no steps"),
    (lambda t: t.replace("graph: a=2; b=3; t=a*b; L=t+a\n", ""), 6, "needs a graph"),
    (lambda t: t + "x" * 3000 + "\n", 15, "line is too long"),
    (lambda t: t.replace("title", "title\0"), 2, "null character"),
    (lambda t: t.replace("graph: a=2; b=3; t=a*b; L=t+a", "graph: " + "+".join(f"x{i}" for i in range(200))), 6,
     "too big for a lesson"),
])
def test_a_malformed_lesson_is_refused_with_its_line_and_reason(change, line, words):
    with pytest.raises(LessonFormatError) as caught:
        parse_lesson(change(GOOD))
    assert caught.value.line == line and words in caught.value.reason


def test_a_file_names_itself_too_big_or_not_text(tmp_path):
    big = tmp_path / "big.lesson"
    big.write_text(GOOD + "\n" * MAX_BYTES, encoding="utf-8")
    with pytest.raises(LessonFormatError, match=r"big\.lesson: the file is too big"):
        load_lesson(big)
    binary = tmp_path / "binary.lesson"
    binary.write_bytes(GOOD.encode() + b"\n\xff\xfe\x00")
    with pytest.raises(LessonFormatError, match=r"binary\.lesson, line 16: the file is not UTF-8 text"):
        load_lesson(binary)
    good = tmp_path / "good.lesson"
    good.write_text(GOOD, encoding="utf-8")
    assert load_lesson(good).id == "good" and load_lesson(good).path == good


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.floats(0, 1))
def test_a_truncated_lesson_parses_or_is_refused_with_a_line_never_anything_else(path, fraction):
    text = path.read_text(encoding="utf-8")
    cut = text[: int(len(text) * fraction)]
    try:
        lesson = parse_lesson(cut)
    except LessonFormatError as error:
        assert error.line is None or 1 <= error.line <= max(1, cut.count("\n") + 1)
    else:
        assert lesson.steps  # a prefix that happens to be a whole, smaller lesson


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.data())
def test_mangled_lines_are_refused_with_a_line_or_still_make_a_lesson(path, data):
    lines = path.read_text(encoding="utf-8").split("\n")
    index = data.draw(st.integers(0, len(lines) - 1))
    junk = data.draw(st.sampled_from(["", "## ", "graph: (", "exercise: values", "ask: grad nobody", "animator: 7 x",
                                      "training: hidden=[1,2,3,4,5,6,7]", "network: points=-1", "{oops}", "$",
                                      "tab: kitchen", "select:", "title: again", "x" * 2100,
                                      "training: learning_rate=\"0.1\"", "predict: maybe", "example: nope.json"]))
    lines[index] = junk
    try:
        lesson = parse_lesson("\n".join(lines))
    except LessonFormatError as error:
        assert error.line is None or 1 <= error.line <= len(lines)
    else:
        for i in range(len(lesson.steps)):  # whatever parses can be run
            run = LessonRun(lesson)
            run.go(i)
            run.html()


def test_the_readmes_lesson_example_is_a_valid_lesson():
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n(autograd-playground-lesson.*?)```", readme, re.S).group(1)
    run = LessonRun(parse_lesson(block))
    assert "y = 9" in run.html() and "6" not in run.html()  # the answer asked next is not given away
    run.next()
    assert run.question.expected == 6.0 and run.answer("6").right


def test_on_a_network_the_animator_can_go_to_a_tensors_forward_step():
    text = ("autograd-playground-lesson 1\ntitle: T\n\n## Net\nnetwork: hidden=3, points=4, seed=0\n"
            "animator: value Linear 1\n\nLinear 1 is {Linear 1.shape}.\n")
    lesson = parse_lesson(text)
    facts = lesson.steps[0].facts
    position = lesson.steps[0].actions[-1].value
    frame = facts.animation.timeline.frames[position - 1]
    assert frame.phase == "forward" and facts.animation.nodes[frame.node_id].title == "Linear 1"
    with pytest.raises(LessonFormatError, match="no tensor named 'Linear 9'"):
        parse_lesson(text.replace("value Linear 1", "value Linear 9"))
