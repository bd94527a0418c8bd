"""The card a lesson's question asks about is in sight when the question is asked (issue 39), offscreen on a
window of a projector's size (1280x720) with the Learn dock open: every question of every lesson about a node's
card, found by the name the lesson gives the node, wholly in the view and clear of the minimap (forced on here:
it comes by itself only where a graph cannot be shown whole at a readable zoom), also at a zoom of the person's
own, which following the questions keeps; and again after the Learn dock was closed and opened. The same on a
real screen: test_asked_card_real_screen.py."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from playground.animator import view_fit
from tests.playground.app_window import open_window
from tests.playground.asked_card_probes import asked_card_misplaced, walk_questions

CARD_QUESTIONS = 28  # lessons 1, 2, 3, 4, 5, 8 and 9
ASKED_L = "L"  # lesson 2, 'Forward: every value', question 4: asked at t3's step, L out of view at 150% before


@pytest.fixture
def projector(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, 1280, 720)
    yield window
    window.training.pause()


def _settle(qtbot):
    def settle(_seconds: float = 0.0) -> None:
        QApplication.processEvents()
        qtbot.wait(5)  # the fits queued for the next turn of the event loop
    return settle


def _presentation(window, zoom: float) -> None:
    window.presentation.set_zoom(zoom)
    window.presentation.set_on(True)


# Presentation mode at 150% with the minimap over every graph (before: 4 questions out of view, and more under
# the minimap), and normal mode at a zoom of the person's own (before: 11 of 28, the person's zoom kept).
@pytest.mark.parametrize(("presentation", "minimap", "persons_zoom"), [(1.5, True, None), (None, False, 1.5)],
                         ids=["presentation-150-minimap-on", "normal-persons-zoom"])
def test_every_question_about_a_card_finds_it_in_sight(projector, qtbot, monkeypatch, presentation, minimap,
                                                       persons_zoom):
    if minimap:
        monkeypatch.setattr(view_fit, "MINIMAP_FROM", 1)  # every graph is "big": the minimap over a small one
    seen = walk_questions(projector, _settle(qtbot), presentation=presentation, zoom_by_person=persons_zoom)
    if minimap:
        assert projector.animator.view.is_minimap_visible()
    assert seen["dock"]
    assert seen["asked"] == CARD_QUESTIONS
    assert seen["failed"] == [], f"{len(seen['failed'])} of {seen['asked']}:\n" + "\n".join(seen["failed"])


def _at_lesson_2s_fourth_value(window, qtbot):
    """Lesson 2 at 150% beside the Learn dock, its fourth value (L's) waiting."""
    _presentation(window, 1.5)
    learning = window.learning
    learning.start("02-chain-rule")
    panel = learning.panel
    panel.next()
    for _ in range(3):
        panel.reveal()
    _settle(qtbot)()
    question = panel.run.question
    assert question.what == "value" and panel.run.step.facts.document.name(question.node) == ASKED_L
    return panel


def _pan_away(view) -> None:
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().minimum())
    view.verticalScrollBar().setValue(view.verticalScrollBar().minimum())


def test_the_measure_finds_a_card_out_of_sight(projector, qtbot):
    _at_lesson_2s_fourth_value(projector, qtbot)
    assert asked_card_misplaced(projector, ASKED_L) is None
    _pan_away(projector.animator.view)  # L is on the right: the view at its left-hand end has it out of sight
    assert "is not inside the view" in asked_card_misplaced(projector, ASKED_L)


def test_the_card_is_asked_about_again_when_the_learn_dock_comes_back(projector, qtbot):
    _at_lesson_2s_fourth_value(projector, qtbot)
    dock = projector.learning.dock
    dock.hide()
    _settle(qtbot)()
    _pan_away(projector.animator.view)  # the person looked elsewhere meanwhile
    assert asked_card_misplaced(projector, ASKED_L) is not None
    dock.show()  # the question is before the student again
    _settle(qtbot)()
    assert asked_card_misplaced(projector, ASKED_L) is None
