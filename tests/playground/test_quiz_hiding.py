"""A quiz never prints its own answers: while Predict is on, or while a lesson's exercise asks, the
animator's step list, step box, cards and wires show "?" for every number not yet answered."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from playground.animator.model.reveal import Reveal, after, unpredicted
from playground.animator.model.timeline import Timeline
from playground.animator.panel import AnimatorPanel
from playground.graph.expression import parse_expression

LESSON_2 = "a=2; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"
ANSWERS = ("6", "10", "7", "70", "21", "31", "14")  # what the exercise asks for, and a's first contribution


def node_id(document, label: str) -> str:
    return next(n.id for n in document.nodes if n.label == label)


def rows(panel: AnimatorPanel) -> list[str]:
    return [panel.steps.step_list.item(i).text() for i in range(panel.steps.step_list.count())]


def shown_numbers(panel: AnimatorPanel) -> str:
    """Everything the animator prints: rows and their tooltips, the step box, the cards and their
    tooltips, and the wires' labels and tooltips."""
    items = [panel.steps.step_list.item(i) for i in range(panel.steps.step_list.count())]
    texts = [re.sub(r"^\d+\.\s+", "", item.text()) for item in items] + [item.toolTip() for item in items]
    texts.append(panel.steps.explanation.text())
    for card in panel.scene.node_items():
        texts += [*card.body_lines(), card.toolTip()]
    for wire in panel.scene.wire_items():
        texts += [wire.label_text() if wire.label_visible else "", wire.toolTip()]
    return "\n".join(texts)


def numbers_in(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", text))


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.load(parse_expression(LESSON_2))
    return panel


def test_the_reveal_model_writes_what_is_asked_without_its_number():
    document = parse_expression(LESSON_2)
    timeline = Timeline.of_document(document)
    t1 = next(p for p, f in enumerate(timeline.frames, 1)
              if f.phase == "forward" and f.node_id == node_id(document, "t1"))
    into_a = next(p for p, f in enumerate(timeline.frames, 1)
                  if f.step is not None and f.step.parent == node_id(document, "a"))
    reveal = Reveal(timeline, document, after(timeline, document, 0))
    assert reveal.title(t1) == "t1 = a * b = ?" and reveal.title(1) == "a = 2"  # the inputs are given
    assert reveal.title(into_a) == "t1 → a: ? × ? = ?"
    assert reveal.explanation(into_a).startswith("d(t1)/d(a) = b = ?\ncontribution = ? × ? = ?\na.grad = ?")
    assert "6" not in reveal.explanation(t1) and "21" not in reveal.explanation(into_a)
    assert unpredicted(timeline, {into_a}) == {p for p, f in enumerate(timeline.frames, 1)
                                              if f.step is not None} - {into_a}


def test_predict_hides_every_backward_steps_numbers_until_it_is_predicted(panel, qtbot):
    before = rows(panel)
    assert "14.  t1 → a: 7 × 3 = 21" in before  # Predict off: every step, as the engine computed it
    panel.set_predict(True)
    hidden = rows(panel)
    assert hidden[4] == "5.  t1 = a * b = 6"  # Predict asks for the backward steps only
    assert hidden[13] == "14.  t1 → a: ? × ? = ?" and "9.  seed: d(L)/d(L) = 1" in hidden
    assert all(row.endswith("? × ? = ?") for row in hidden[9:])

    panel.last()  # skipping ahead shows "?" wherever an unpredicted step put a number
    a = node_id(panel.document, "a")
    assert panel.scene.node_item(a).body_lines() == ["value 2", "grad ?"]
    assert "31" not in shown_numbers(panel) and "21" not in shown_numbers(panel)
    assert "step back (←)" in panel.steps.explanation.text()

    panel.seek(9)  # the seed: now predict the first backward step
    assert not panel.step_forward() and panel.predict.pending == 10
    answer = panel.findChild(QLineEdit, "predictInput")
    qtbot.keyClicks(answer, "7")
    qtbot.keyClick(answer, Qt.Key.Key_Return)
    assert panel.position == 10 and rows(panel)[9] == "10.  L → t2: 1 × 7 = 7"
    assert rows(panel)[10] == "11.  L → t3: ? × ? = ?"
    feedback = panel.findChild(QLabel, "predictFeedback")
    assert feedback.text().startswith("✓ Right.")
    assert not panel.step_forward() and panel.predict.pending == 11
    assert feedback.text() == ""  # the verdict on step 10 does not stay under the question on step 11

    panel.set_predict(False)
    assert rows(panel) == before and panel.hidden_positions == frozenset()


def test_a_lessons_exercise_hides_every_step_after_the_last_one_revealed(panel):
    panel.hide_after(4)  # the values exercise, before its first answer: the inputs' values are given
    assert rows(panel)[:8] == ["1.  a = 2", "2.  b = 3", "3.  c = 4", "4.  d = 5", "5.  t1 = a * b = ?",
                               "6.  t2 = t1 + c = ?", "7.  t3 = a + d = ?", "8.  L = t2 * t3 = ?"]
    assert rows(panel)[8] == "9.  seed: d(L)/d(L) = 1"
    panel.last()  # a student who drags the slider to the end sees no answer
    assert numbers_in(shown_numbers(panel)) == {"1", "2", "3", "4", "5"}  # the inputs, the seed, d(sum) = 1
    t1 = node_id(panel.document, "t1")
    assert panel.scene.node_item(t1).body_lines() == ["value ?", "grad ?"]
    assert all(not wire.label_visible for wire in panel.scene.wire_items())
    assert "answer in the Learn panel" in panel.steps.explanation.text()

    panel.hide_after(5)  # t1 answered: its step is shown
    assert rows(panel)[4] == "5.  t1 = a * b = 6" and rows(panel)[5] == "6.  t2 = t1 + c = ?"
    assert panel.scene.node_item(t1).body_lines() == ["value 6", "grad ?"]
    panel.hide_after(None)
    assert rows(panel)[13] == "14.  t1 → a: 7 × 3 = 21" and panel.scene.node_item(t1).body_lines() == \
        ["value 6", "grad 7"]


def test_an_exercise_hides_only_on_the_graph_it_was_set_for(panel):
    panel.hide_after(4)
    assert panel.hidden_positions
    assert panel.load(parse_expression("a=3; b=3; c=4; d=5; t1=a*b; t2=t1+c; t3=a+d; L=t2*t3"))
    assert panel.hidden_positions == frozenset()  # other maths: the lesson's hiding does not apply
    assert panel.load(parse_expression(LESSON_2))
    assert 5 in panel.hidden_positions  # the lesson's graph again: hidden again


def pitfall_texts(panel: AnimatorPanel) -> str:
    """What the mistaken replay beside prints: its summary, its cards and their tooltips, its wires."""
    view = panel.pitfalls
    texts = [view.summary.text(), panel.steps.explanation.text()]
    for card in view.scene.node_items():
        texts += [*card.body_lines(), card.toolTip()]
    for wire in view.scene.wire_items():
        texts += [wire.label_text() if wire.label_visible else "", wire.toolTip()]
    return "\n".join(texts)


@pytest.mark.parametrize("pitfall", ["overwrite", "zero"])
def test_predict_hides_the_answers_in_the_mistaken_replay_too(panel, pitfall):
    """With a pitfall beside the quiz, the mistaken replay and its summary gave the answers away (the
    final gradients, correct and mistaken, and every step the two replays share)."""
    assert panel.set_pitfall(pitfall)
    panel.last()
    assert "31" in pitfall_texts(panel)  # no quiz: the correct final gradient of a is in the summary
    panel.set_predict(True)
    panel.last()
    shown = pitfall_texts(panel)
    assert not {"31", "21", "14", "62"} & numbers_in(shown)  # a's and b's answers (and doubled, 62)
    assert "They part at" in shown or "never part" in shown
    assert "once every step is answered" in panel.pitfalls.summary.text()
    a = node_id(panel.document, "a")
    assert panel.pitfalls.scene.node_item(a).body_lines()[1] == "grad ?"
    panel.set_predict(False)
    assert "31" in pitfall_texts(panel)


def test_a_wrong_order_replay_hides_the_steps_the_correct_one_has_not_revealed(qtbot):
    """A depth-first order treats an edge at another time than the correct replay: the mistaken replay
    hides it as long as the correct one hides that edge's step."""
    panel = AnimatorPanel()
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    assert panel.load(parse_expression("a=3; b=a*2; c=b*b; d=b+c; L=d*a"))
    assert panel.set_pitfall("order")
    assert panel.pitfalls.replay.parting is not None
    panel.hide_after(len(panel.timeline.frames) - 1)  # a lesson reveals all but the very last step
    correct = panel.timeline
    last_edge = correct.frames[-1].step
    hidden_here = panel.pitfalls.sync.reveal.hidden
    mistaken = panel.pitfalls.animation.timeline
    same_edge = [p for p, frame in enumerate(mistaken.frames, 1) if frame.step is not None
                 and (frame.step.node, frame.step.parent, frame.step.port)
                 == (last_edge.node, last_edge.parent, last_edge.port)]
    assert same_edge and same_edge[0] < len(mistaken.frames)  # the mistake treats it earlier
    assert same_edge[0] in hidden_here and len(mistaken.frames) in hidden_here
    panel.hide_after(None)
    assert panel.pitfalls.sync.reveal is None
