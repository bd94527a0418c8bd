"""A lesson shows every number it names (issue 30, item 7): lesson 6 names b1's three numbers and their sum over
the batch, which the cards show only as norms; the cards' tooltips hold a small tensor's whole array, and the step
text under the graph is never cut short at 1280 x 720, in normal and in presentation mode."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLabel

from playground.animator.model.tensor_hiding import TensorReveal
from playground.learn.model.facts import NetworkFacts, NetworkSpec
from playground.learn.model.lesson import load_lesson, placeholder_names
from playground.learn.model.trained_facts import is_trained_name
from playground.learn.model.training_facts import is_setup_name
from tests.playground.app_window import open_window

LESSONS = sorted((Path(__file__).resolve().parents[2] / "resources" / "lessons").glob("*.lesson"))
ARRAY = re.compile(r"\[[^\[\]]+\]")  # one row of numbers, as a lesson writes an array: [-0.006479, -0.007366, ...]


@pytest.fixture
def window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, 1280, 720)
    yield window
    window.training.pause()
    window.presentation.set_on(False)  # the application's font is shared by every test


def _lesson_6_at_the_bias_gradient(window, qtbot):
    window.learning.start("06-tensors")
    panel = window.learning.panel
    while panel.run.index < 2:
        assert panel.next()
    qtbot.wait(50)
    QApplication.processEvents()
    return panel


def _shown(window) -> str:
    """What the animator's cards show of the numbers: every card's lines and tooltip (the step text is only
    the last step's)."""
    animator = window.animator
    parts = []
    for node_id in animator.animation.nodes:
        item = animator.scene.node_item(node_id)
        parts += [*item.body_lines(), item.toolTip()]
    return "\n".join(parts)


def _named_arrays(step) -> list[str]:
    """The rows of every array the step's text names (``{b1.grad}``, ``{Z.grad}``), as the text writes them."""
    rows = []
    for name in placeholder_names(step.text):
        if step.facts is not None and not is_setup_name(name) and not is_trained_name(name):  # those are no arrays
            rows += ARRAY.findall(step.facts.number(name))
    return rows


ARRAY_STEPS = [(path.stem, index) for path in LESSONS for index, step in enumerate(load_lesson(path).steps)
               if _named_arrays(step)]


def test_the_lessons_that_name_arrays_are_found():
    assert ("06-tensors", 2) in ARRAY_STEPS and ("09-tensor-layer", 3) in ARRAY_STEPS


@pytest.mark.parametrize("lesson_id, index", ARRAY_STEPS)
def test_every_array_a_step_names_is_on_the_screen(window, qtbot, lesson_id, index):
    """Each row of every array the step names is on a card of the animator, on its lines or in its tooltip, once
    the step's questions are answered (an answer stays hidden until then: a step that asks for b's gradient
    names the gradient of Z, which is on Z's card all along)."""
    window.learning.start(lesson_id)
    panel = window.learning.panel
    while panel.run.index < index:
        while panel.run.question is not None:
            panel.reveal()
        assert panel.next()
    step = panel.run.step
    while panel.run.question is not None:
        panel.reveal()
    QApplication.processEvents()
    if window.tabs.currentWidget() is not window.animator:
        window.tabs.setCurrentWidget(window.animator)
        QApplication.processEvents()
    shown = _shown(window)
    for row in _named_arrays(step):
        assert row in shown, f"step {index + 1} names {row}, which the screen does not show"


def test_a_small_tensors_tooltip_holds_its_whole_array_as_the_lesson_writes_it():
    facts = NetworkFacts(NetworkSpec(hidden=3, points=4, seed=0))
    timeline = facts.animation.timeline
    timeline.seek(len(timeline))
    b1 = facts._by_title["b1"]
    tooltip = facts.animation.node_tooltip(b1, timeline.display[b1])
    assert f"  {facts.number('b1.grad')}" in tooltip.split("\n")
    assert f"  {facts.number('b1')}" in tooltip.split("\n")
    linear = facts._by_title["Linear 1"]
    rows = facts.animation.node_tooltip(linear, timeline.display[linear]).split("\n")
    assert sum(line.startswith("   [") or line.startswith("  [[") for line in rows) == 8  # 4 rows, value and grad


def test_a_hidden_gradients_array_is_hidden_with_it():
    facts = NetworkFacts(NetworkSpec(hidden=3, points=4, seed=0))
    animation = facts.animation
    timeline = animation.timeline
    timeline.seek(len(timeline))
    b1 = facts._by_title["b1"]
    reveal = TensorReveal(animation, hidden={len(timeline)})  # the last step, Linear 1 → b1, still to answer
    tooltip = reveal.tooltip(b1, timeline.display[b1], animation.node_tooltip(b1, timeline.display[b1]))
    assert facts.number("b1.grad") not in tooltip and "grad: ?" in tooltip
    assert f"  {facts.number('b1')}" in tooltip.split("\n")  # the value is no answer: it stays


@pytest.mark.parametrize("presentation", [False, True])
def test_the_step_text_under_the_graph_is_never_cut_at_1280_by_720(window, qtbot, presentation):
    window.presentation.set_on(presentation)
    _lesson_6_at_the_bias_gradient(window, qtbot)
    caption = window.animator.caption
    if not caption.isVisible():  # the step panel is open: its box scrolls, and the caption is not shown
        window.animator.steps_action.setChecked(False)
        QApplication.processEvents()
    assert caption.isVisible()
    qtbot.waitUntil(lambda: caption.heightForWidth(caption.width()) <= caption.height(),
                    timeout=5_000)
    assert QLabel.text(caption) == caption.text()  # as drawn: not cut to "…"
    assert "…" not in caption.text() and caption.text().endswith("b1.grad = [-0.006479, -0.007366, -0.01105]")
    assert caption.width() <= window.animator.view.width() + 40  # wrapped, never wider than the graph's column


@pytest.mark.parametrize("presentation", [False, True])
def test_no_lesson_step_has_its_text_cut_at_1280_by_720(window, qtbot, presentation):
    """Every step of every lesson: the step text under the graph (while the step panel gives way) is whole, and
    no label of the Learn panel that keeps to one line is cut short."""
    window.presentation.set_on(presentation)
    learning, cut = window.learning, []
    for lesson_ in learning.panel.lessons:
        learning.start(lesson_.id)
        panel = learning.panel
        while True:
            QApplication.processEvents()
            caption, where = window.animator.caption, f"{lesson_.id} step {panel.run.index + 1}"
            if caption.isVisible() and (QLabel.text(caption) != caption.text()
                                        or caption.heightForWidth(caption.width()) > caption.height()):
                cut.append(f"{where}: the step under the graph, {caption.text()!r}")
            for label in panel.findChildren(QLabel):
                if label.isVisible() and not label.wordWrap() and label.sizeHint().width() > label.width() + 1:
                    cut.append(f"{where}: {label.objectName()}, {label.text()!r}")
            while panel.run.question is not None:
                panel.reveal()
            if not panel.next():
                break
        window.training.pause()
    assert not cut
