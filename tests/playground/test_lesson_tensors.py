"""Lessons on a tensor graph, without a window: the facts a lesson states, its shape and array questions
(read from what a student types, with the usual slips told what they are), the graph a student builds,
and what the animator's tensor replay and the editor's cards hide while a question waits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Tensor
from playground.animator.model.predict import AnswerError
from playground.animator.model.tensor_hiding import TensorReveal, replay_ids, tensor_after, tensor_concealment
from playground.graph.arrays import format_array
from playground.graph.expression import parse_expression
from playground.learn.model.build_check import check_built
from playground.learn.model.lesson import LessonFormatError, parse_lesson
from playground.learn.model.runner import LessonRun
from playground.learn.model.tensor_answers import read_array, read_shape
from playground.learn.model.tensor_facts import TensorGraphFacts
from playground.learn.model.tensor_questions import check_tensor, tensor_question

X = [[1, 2], [0, -1], [2, 0], [-1, 1]]
W = [[0.5, -0.25, 0.125], [0.25, 0.75, -0.5]]
B = [0.1, -0.2, 0.3]
GRAPH = f"X = {X}; W = {W}; b = {B}; XW = X @ W; Z = XW + b; H = tanh(Z); L = sum(H)"


@pytest.fixture(scope="module")
def facts():
    return TensorGraphFacts(parse_expression(GRAPH))


def engine_grads():
    """The same layer straight through the engine: the numbers the lesson must agree with."""
    x, w, b = Tensor(np.array(X, float)), Tensor(np.array(W, float), requires_grad=True), \
        Tensor(np.array(B, float), requires_grad=True)
    z = x @ w + b
    z.tanh().sum().backward()
    return z.data, w.grad, b.grad


def ask(facts, what: str, name: str, answer: str):
    return check_tensor(tensor_question(facts, what, facts.node_id(name)), answer)


# -- facts ------------------------------------------------------------------------------------------


def test_the_numbers_and_shapes_a_lesson_states_are_the_engines(facts):
    z, w_grad, b_grad = engine_grads()
    assert facts.number("b.grad") == format_array(b_grad)
    assert np.allclose(b_grad, (1 - np.tanh(z) ** 2).sum(axis=0))  # summed over the batch
    assert facts.number("W.grad") == format_array(w_grad)
    assert facts.number("X.shape") == "(4, 2)" and facts.number("W.grad.shape") == "(2, 3)"
    assert facts.number("b.grad.shape") == "(3,)" and facts.number("Z.shape") == "(4, 3)"
    assert facts.number("b.size") == "3"
    with pytest.raises(KeyError, match="no node named 'q'"):
        facts.number("q.grad")


def test_a_questions_position_is_the_tensor_replays(facts):
    frames = facts.timeline.frames
    b_step = frames[facts.grad_position(facts.node_id("b")) - 1]
    assert b_step.phase == "backward" and b_step.title.startswith("Z → b")
    assert frames[facts.value_position(facts.node_id("Z")) - 1].title.startswith("Z = XW + b")


# -- reading what is typed ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "shape"), [
    ("(3,)", (3,)), ("3", (3,)), ("(3)", (3,)), ("(4, 3)", (4, 3)), ("4,3", (4, 3)), ("[4, 3]", (4, 3)),
    ("4x3", (4, 3)), ("4 × 3", (4, 3)), ("4 3", (4, 3)), ("()", ()), ("scalar", ()),
])
def test_a_shape_is_read_in_the_usual_spellings(text, shape):
    assert read_shape(text) == shape


@pytest.mark.parametrize(("text", "said"), [
    ("", "type a shape"), ("(1.5,)", "whole numbers"), ("(-1,)", "whole numbers"), ("(2, 3, 4)", "at most 2"),
    ("b.shape", "whole numbers"), ("(4,", "cannot be read"), ("(99999,)", "not a size"),
])
def test_a_shape_that_is_none_is_refused_with_what_to_type(text, said):
    with pytest.raises(AnswerError, match=said.replace("(", r"\(")):
        read_shape(text)


def test_an_array_is_read_with_or_without_brackets_and_each_element_may_be_arithmetic():
    assert read_array("[1.2, -0.3, 0.5]").tolist() == [1.2, -0.3, 0.5]
    assert read_array("1.2, −0.3, 0.5").tolist() == [1.2, -0.3, 0.5]
    assert read_array("[[1, 2], [3, 4]]").shape == (2, 2)
    assert read_array("[1 - 0.5**2]").tolist() == [0.75]
    for text, said in (("[[1], [2, 3]]", "as many numbers"), ("[1, [2]]", "not both"), ("[]", "empty"),
                       ("[[[1]]]", "at most 2 levels"), ("[a, 2]", "cannot be computed"), ("[1,", "cannot be read")):
        with pytest.raises(AnswerError, match=said):
            read_array(text)


def read_or_refuse(text: str) -> None:
    """Each reader returns, or raises AnswerError with a message: never anything else."""
    for read in (read_shape, read_array):
        try:
            read(text)
        except AnswerError as error:
            assert str(error)


@given(st.text(max_size=80))
def test_whatever_is_typed_is_read_or_refused_with_a_message(text):
    read_or_refuse(text)


@given(st.lists(st.sampled_from(["[", "]", "(", ")", ",", "1", "-2.5", "x", " ", "*", "e9", "**", "×", "4x3"]),
                max_size=40))
def test_bracket_soup_is_read_or_refused_with_a_message(parts):
    read_or_refuse("".join(parts))


# -- shape questions ------------------------------------------------------------------------------


def test_the_shape_of_a_gradient_is_its_variables(facts):
    assert ask(facts, "shape", "b", "(3,)").right and ask(facts, "shape", "b", "3").right
    assert ask(facts, "shape", "W", "2x3").right and ask(facts, "shape", "XW", "(4, 3)").right


def test_the_usual_shape_slips_are_told_what_they_are(facts):
    batch = ask(facts, "shape", "b", "(4, 3)")
    assert not batch.right and "shape of $Z$" in batch.message and "broadcast over axis 0" in batch.message
    transposed = ask(facts, "shape", "W", "(3, 2)")
    assert not transposed.right and "transposed" in transposed.message
    loss = ask(facts, "shape", "W", "()")
    assert "single number" in loss.message
    other = ask(facts, "shape", "b", "(7,)")
    assert other.message.startswith("✗ Not `(7,)`. Hint:") and "(3,)" not in other.message


# -- array questions ------------------------------------------------------------------------------


def test_bs_gradient_is_checked_by_the_engine_within_a_tolerance(facts):
    _z, _w, b_grad = engine_grads()
    assert ask(facts, "grad", "b", format_array(b_grad)).right
    assert ask(facts, "grad", "b", str([round(float(x), 3) for x in b_grad])).right  # three decimals are enough
    assert not ask(facts, "grad", "b", str([round(float(x) + 0.05, 3) for x in b_grad])).right


def test_the_usual_gradient_slips_are_told_what_they_are(facts):
    upstream = facts.grad(facts.node_id("Z"))
    one_row = ask(facts, "grad", "b", format_array(upstream[2]))
    assert "one row's gradient (row 3" in one_row.message and "sums over axis 0" in one_row.message
    assert "mean over the rows" in ask(facts, "grad", "b", format_array(upstream.mean(axis=0))).message
    assert "itself, of shape `(4, 3)`" in ask(facts, "grad", "b", format_array(upstream)).message
    assert "sums each row" in ask(facts, "grad", "b", format_array(upstream.sum(axis=1))).message
    assert "value, not its gradient" in ask(facts, "grad", "b", str(B)).message
    assert "transposed" in ask(facts, "grad", "W", format_array(facts.grad(facts.node_id("W")).T)).message
    wrong_shape = ask(facts, "grad", "b", "[1, 2]")
    assert "You typed 2 numbers" in wrong_shape.message and "`(3,)`: 3 numbers" in wrong_shape.message


def test_a_hint_names_the_rule_never_the_answer(facts):
    question = tensor_question(facts, "grad", facts.node_id("b"))
    assert "broadcast over axis 0" in question.hint and "summed over axis 0" in question.details
    assert format_array(question.expected) not in question.hint + question.details
    matmul = tensor_question(facts, "grad", facts.node_id("W"))
    assert "Xᵀ @ ∂L/∂XW" in matmul.hint


# -- the lesson format ----------------------------------------------------------------------------

HEAD = f"autograd-playground-lesson 1\ntitle: T\n\n## S\ngraph: {GRAPH}\n"


@pytest.mark.parametrize(("lines", "said"), [
    ("ask: shape b\n", "names a gradient, such as 'shape b.grad'"),
    ("ask: value Z\n", "asks 'grad <node>' or 'shape <node>.grad'"),
    ("exercise: gradients\n", "works on scalar graphs only"),
    ("forward: X\n", "works on scalar graphs only"),
    ("ask: shape q.grad\n", "no node named 'q'"),
])
def test_a_tensor_lesson_line_that_cannot_work_is_refused(lines, said):
    with pytest.raises(LessonFormatError, match=said):
        parse_lesson(HEAD + lines + "\nText.\n")


def test_a_graph_to_build_holds_arrays_and_is_the_steps_only_graph():
    head = "autograd-playground-lesson 1\ntitle: T\n\n## S\n"
    with pytest.raises(LessonFormatError, match="'build:' asks for a graph with arrays"):
        parse_lesson(head + "build: a=2; L=a*a\n\nT.\n")
    with pytest.raises(LessonFormatError, match="cannot load another one"):
        parse_lesson(head + f"graph: {GRAPH}\nbuild: {GRAPH}\n\nT.\n")
    lesson = parse_lesson(head + f"build: {GRAPH}\n\nBuild it.\n\n## Next\nask: grad b\n\nNow b.\n")
    assert [ask.what for ask in lesson.steps[0].asks] == ["build"]
    assert lesson.steps[1].facts is lesson.steps[0].facts  # the later steps are about the graph built


def test_a_shape_question_on_a_scalar_graph_is_refused():
    with pytest.raises(LessonFormatError, match="asks about a tensor graph"):
        parse_lesson("autograd-playground-lesson 1\ntitle: T\n\n## S\ngraph: a=2; L=a*a\nask: shape a.grad\n\nT.\n")


def test_a_run_waits_for_each_answer_and_hides_only_what_is_a_number(facts):
    lesson = parse_lesson(HEAD + "ask: shape b.grad\n\nShapes.\n\n## B\nask: grad b\n\nNumbers: {Z.grad}.\n")
    run = LessonRun(lesson)
    step_facts = run.step.facts
    assert run.revealed_up_to == step_facts.grad_position(step_facts.node_id("b")) - 1  # the later grad question
    assert not run.answer("(4, 3)").right and run.question is not None
    assert run.answer("(3,)").right and run.next()
    assert run.asked_gradients == {step_facts.node_id("b")}
    assert run.answer(format_array(step_facts.grad(step_facts.node_id("b")))).right and run.completed


# -- building -------------------------------------------------------------------------------------


def test_a_built_graph_passes_with_its_own_names_and_numbers_and_either_order_of_a_sum():
    target = parse_expression(GRAPH)
    mine = parse_expression("A = zeros(4, 2); M = ones(2, 3); c = zeros(3); loss = mean(tanh(c + A @ M))")
    assert check_built(target, mine).passed


@pytest.mark.parametrize(("built", "said"), [
    ("X = zeros(4, 2); W = ones(2, 3); L = sum(tanh(X @ W))", "no b: an input or parameter of shape (3,)"),
    ("X = zeros(4, 2); W = ones(3, 2); b = zeros(3); L = sum(tanh(X @ W.T + b))", "no W: an input or parameter"),
    ("X = zeros(4, 2); W = ones(2, 3); b = zeros(3); H = tanh(X @ W + b)", "end in a single number"),
    ("X = zeros(4, 2); W = ones(2, 3); b = zeros(3); L = sum(tanh(X @ W - b))", "no Z = XW + b, giving (4, 3)"),
    ("a = 1; L = a * 2", "(and 3 more)"),
])
def test_what_a_built_graph_misses_is_said_by_name_and_shape(built, said):
    result = check_built(parse_expression(GRAPH), parse_expression(built))
    assert not result.passed and said in result.message


# -- hiding on the tensor replay ------------------------------------------------------------------


def test_the_tensor_replay_hides_the_gradient_asked_for_and_what_comes_after(facts):
    document, animation = facts.document, facts.animation
    b = facts.node_id("b")
    position = facts.grad_position(b) - 1
    hidden = tensor_after(animation, document, position, {b})
    assert hidden == set(range(position + 1, len(animation.timeline) + 1))
    reveal = TensorReveal(animation, hidden, dict.fromkeys(hidden, "note"))
    b_step = position + 1
    b_grad = facts.grad(b)
    for text in (reveal.title(b_step), reveal.explanation(b_step)):
        assert format_array(b_grad) not in text and "?" in text
    assert "contribution = g" in reveal.explanation(b_step)  # the rule stays: it is what the lesson teaches
    replay_b = replay_ids(animation, document)[b]
    animation.timeline.seek(len(animation.timeline))
    state = animation.timeline.display[replay_b]
    lines = reveal.card_lines(replay_b, animation.node_lines(replay_b, state))
    assert lines[-1] == "‖grad‖ ?" and lines[0] == "shape 3"
    assert "grad: ?" in reveal.tooltip(replay_b, state, animation.node_tooltip(replay_b, state))
    concealment = tensor_concealment(animation, document, hidden)
    assert b in concealment.grads and facts.node_id("Z") not in concealment.grads
    assert {edge.source for edge in concealment.wires} == {b, facts.node_id("X"), facts.node_id("W")}
    animation.timeline.seek(0)


def test_the_readme_states_lesson_9s_answer_as_the_engine_gives_it():
    from pathlib import Path

    from playground.learn.model.lesson import load_lesson

    root = Path(__file__).resolve().parents[2]
    lesson = load_lesson(root / "resources" / "lessons" / "09-tensor-layer.lesson")
    answer = lesson.steps[-1].facts.number("b.grad")
    assert f"`{answer}`" in (root / "README.md").read_text(encoding="utf-8")
