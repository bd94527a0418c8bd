"""Why is a.grad 31? The path list in the editor's side panel: the selected node's gradient as a sum over
the paths from the output, each path's product of local derivatives written out, "?" while a quiz asks,
and the path under the mouse drawn on the graph."""

from __future__ import annotations

import math

import pytest
from PySide6.QtGui import QColor, QUndoStack

from playground.canvas.path_list import PATH_COLOR
from playground.editor.panel import EditorPanel
from playground.graph.concealment import Concealment
from playground.graph.document import Edge
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.graph.why_gradient import readable, why_gradient

LESSON_2 = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"


def ids(document) -> dict[str, str]:
    return {document.name(n.id): n.id for n in document.nodes}


def test_a_grad_31_is_21_through_t1_plus_10_through_t3():
    document = parse_expression(LESSON_2)
    why = why_gradient(document, evaluate(document), ids(document)["a"])
    assert why.heading == "a.grad = 31 = 21 + 10"
    assert [row.text for row in why.rows] == ["7 · 1 · 3 = 21   (through t₁)", "10 · 1 = 10   (through t₃)"]
    assert why.count == 2 and why.total == 31 and why.rest == ""
    n = ids(document)
    assert why.rows[0].nodes == (n["L"], n["t2"], n["t1"], n["a"])
    assert why.rows[1].edges == (Edge(n["t3"], n["L"], 1), Edge(n["a"], n["t3"], 0))
    assert "L  ←  t₃  ←  a" in why.rows[1].tooltip and "∂t₃/∂a = 1" in why.rows[1].tooltip


@pytest.mark.parametrize("graph, rows", [
    # a node that takes a twice: each path says which use (which operand) it goes through
    ("a=3; L=a*a", ["3   (from L directly, as L's first operand)", "3   (from L directly, as L's second operand)"]),
    ("a=3; t=a*a; L=t+a", ["1 · 3 = 3   (through t, as t's first operand)",
                           "1 · 3 = 3   (through t, as t's second operand)", "1   (from L directly)"]),
    # two paths through the same node that part higher up: the nodes only one passes
    ("a=2; t=a*2; u=t*3; v=t+1; L=u*v",
     ["5 · 3 · 2 = 30   (through t, via u)", "12 · 1 · 2 = 24   (through t, via v)"]),
])
def test_paths_that_would_read_alike_say_what_tells_them_apart(graph, rows):
    document = parse_expression(graph)
    why = why_gradient(document, evaluate(document), ids(document)["a"])
    assert [row.text for row in why.rows] == rows


def test_readable_names_take_subscripts():
    assert [readable(x) for x in ("t1", "x12", "a", "L", "7")] == ["t₁", "x₁₂", "a", "L", "7"]


def test_an_exploding_count_lists_the_largest_and_sums_the_rest():
    # a ladder of diamonds: x1 = x0*x0 + x0 ... every level doubles the paths to x0
    parts = ["x0=0.9"] + [f"x{i}=x{i - 1}*x{i - 1} + x{i - 1}" for i in range(1, 7)]
    document = parse_expression("; ".join(parts))
    evaluation = evaluate(document)
    x0 = ids(document)["x0"]
    why = why_gradient(document, evaluation, x0, largest=8)
    assert len(why.rows) == 8 and why.count > 8
    assert why.rest.startswith(f"{why.count - 8:,} more paths, together ")
    assert math.isclose(why.total, evaluation.results[x0].grad, rel_tol=1e-12)
    products = [row.product for row in why.rows]
    assert products == sorted(products, key=abs, reverse=True)


def test_a_concealed_gradient_shows_question_marks_only():
    document = parse_expression(LESSON_2)
    n = ids(document)
    why = why_gradient(document, evaluate(document), n["a"], Concealment(grads=frozenset({n["a"]})))
    assert why.concealed and why.heading == "a.grad = ? = ? + ?"
    text = " ".join([row.text + row.tooltip for row in why.rows])
    assert not any(ch.isdigit() for ch in text.replace("₁", "").replace("₂", "").replace("₃", ""))
    # a quiz on another node's gradient, off these paths, hides nothing here
    assert not why_gradient(document, evaluate(document), n["b"], Concealment(grads=frozenset({n["t3"]}))).concealed


@pytest.fixture
def editor(qtbot):
    document = parse_expression(LESSON_2)
    panel = EditorPanel(document, QUndoStack())
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_the_outputs_concealed_gradient_is_not_stated_beside_its_question_mark():
    """Lesson 2 asks L.grad: the path list read "L.grad = ? (the output: ∂L/∂L = 1, ...)"."""
    document = parse_expression(LESSON_2)
    n = ids(document)
    shown = why_gradient(document, evaluate(document), n["L"])
    assert shown.heading == "L.grad = 1 (the output: ∂L/∂L = 1, where every path starts)"
    for concealment in (Concealment(grads=frozenset({n["L"]})), Concealment(values=frozenset({n["t1"]}))):
        why = why_gradient(document, evaluate(document), n["L"], concealment)
        assert why.heading == "L.grad = ? (the output: ∂L/∂L = ?, where every path starts)"


def test_selecting_a_node_lists_its_paths_and_hovering_draws_one(editor):
    n = ids(editor.document)
    editor.select_node(n["a"])
    assert editor.paths.list.objectName() == "pathList"
    assert editor.paths.heading.text() == "a.grad = 31 = 21 + 10"
    assert editor.paths.rows() == ["7 · 1 · 3 = 21   (through t₁)", "10 · 1 = 10   (through t₃)"]
    editor.paths.hover(1)
    assert editor.scene.node_item(n["t3"]).highlight == QColor(PATH_COLOR)
    assert editor.scene.wire_item(Edge(n["a"], n["t3"], 0)).highlight == QColor(PATH_COLOR)
    assert editor.scene.node_item(n["t1"]).highlight is None  # not on this path
    editor.paths.hover(None)
    assert editor.scene.node_item(n["t3"]).highlight is None
    assert editor.scene.wire_item(Edge(n["a"], n["t3"], 0)).highlight is None


def test_the_list_follows_edits_and_quizzes(editor):
    n = ids(editor.document)
    editor.select_node(n["b"])
    assert editor.paths.heading.text() == "b.grad = 14"
    editor.conceal(Concealment(grads=frozenset({n["b"]})))
    assert editor.paths.heading.text() == "b.grad = ?"
    assert editor.paths.rows() == ["? · ? · ? = ?   (through t₁)"]
    editor.conceal(Concealment())
    editor.build_from_expression("b=3; L=b*b*b")
    editor.select_node(ids(editor.document)["b"])
    assert editor.evaluation.results  # the evaluation of the new graph, pending till the event loop turns
    assert editor.paths.heading.text().startswith("b.grad = 27 = ")
    assert editor.paths.list.count() == 3


@pytest.fixture
def animator(qtbot):
    from playground.animator.panel import AnimatorPanel

    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.load(parse_expression(LESSON_2))
    return panel


def test_the_animator_lists_the_paths_of_the_current_steps_node(animator):
    box = animator.paths.box
    assert box.list.objectName() == "animPathList"
    animator.seek(2)  # a forward step: no gradient yet
    assert box.heading.text().startswith("The paths of a node's gradient show once")
    timeline = animator.timeline
    document = animator.document
    n = ids(document)
    t3_step = next(i for i, f in enumerate(timeline.frames, 1) if f.step and f.step.parent == n["t3"])
    animator.seek(t3_step)  # L → t3: the step that hands t3 its gradient
    assert box.heading.text() == "t₃.grad = 10"
    assert box.rows() == ["10   (from L directly)"]
    a_step = next(i for i, f in enumerate(timeline.frames, 1) if f.step and f.step.parent == n["a"])
    animator.seek(a_step)  # t1 → a, the first of a's two shares
    assert box.heading.text() == "a.grad = 31 = 21 + 10"
    current = animator.scene.wire_item(Edge(n["a"], n["t1"], 0))  # the step's wire, lit as a backward step
    lit = current.highlight
    assert lit is not None
    box.hover(0)  # L ← t2 ← t1 ← a
    assert current.highlight == QColor(PATH_COLOR)
    assert animator.scene.node_item(n["t2"]).highlight == QColor(PATH_COLOR)
    box.hover(1)  # L ← t3 ← a
    assert current.highlight == lit  # given back the step's colour
    assert animator.scene.wire_item(Edge(n["t3"], n["L"], 1)).highlight == QColor(PATH_COLOR)
    assert animator.scene.node_item(n["t2"]).highlight != QColor(PATH_COLOR)
    animator.step_forward()  # the step moves while a path is drawn: the scene shows the new step
    assert animator.scene.wire_item(Edge(n["t3"], n["L"], 1)).highlight is None
    assert animator.scene.node_item(n["t3"]).highlight != QColor(PATH_COLOR)

def test_predict_hides_the_animators_path_numbers(animator):
    animator.set_predict(True)
    animator.seek(len(animator.timeline))  # the last step: a's share from t3, not predicted
    assert "?" in animator.paths.box.heading.text()
    assert not any(ch.isdigit() for ch in animator.paths.box.heading.text().split("=", 1)[1])
