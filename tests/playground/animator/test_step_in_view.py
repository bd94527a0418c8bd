"""The animator follows the step (issue 29, item 3): at every step of lessons 2 and 8, the lesson's own and the
animator's (and of lesson 9, whose questions set the tensor animator to their steps), the current node's card
with its numbers and badge is wholly in the view and clear of the minimap, on a window of a projector's size
(1280x720) with the Learn dock open, normal and in presentation mode at 150%, and with the minimap forced on (it
comes by itself only for graphs of 60 nodes, or where a graph cannot be shown whole at a readable zoom). Forward
mode (lesson 8) is measured on the node being computed. The same on a real screen:
test_step_in_view_real_screen.py."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from playground.animator import view_fit
from tests.playground.app_window import open_window
from tests.playground.step_in_view import misplaced, walk_lesson

LESSONS = ("02-chain-rule", "08-forward-or-reverse", "09-tensor-layer")


@pytest.fixture
def projector(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, 1280, 720)
    yield window
    window.training.pause()


def _settle(qtbot):
    QApplication.processEvents()
    qtbot.wait(5)  # the fits queued for the next turn of the event loop


# Normal mode with the minimap as it comes, and presentation mode at 150% (where the cards were found under it)
# with the minimap forced over every graph: the two other pairings add no case and a minute to the suite.
@pytest.mark.parametrize(("zoom", "minimap"), [(None, False), (1.5, True)],
                         ids=["normal-own-minimap", "presentation-150-minimap-on"])
def test_every_step_of_lessons_2_8_and_9_shows_its_card(projector, qtbot, monkeypatch, zoom, minimap):
    if minimap:
        monkeypatch.setattr(view_fit, "MINIMAP_FROM", 1)  # every graph is "big": the minimap over a small one
    if zoom is not None:
        projector.presentation.set_zoom(zoom)
        projector.presentation.set_on(True)
    checked, failed = 0, []
    for lesson in LESSONS:
        walked = walk_lesson(projector, lesson, lambda: _settle(qtbot))
        checked += walked["checked"]
        failed += walked["failed"]
    if minimap:
        assert projector.animator.view.is_minimap_visible()
    assert checked > 60  # lesson 2: 2 x 16 steps and the answers; lesson 8: 4 x 8 steps and more
    assert failed == [], f"{len(failed)} of {checked} steps:\n" + "\n".join(failed)


def test_a_card_out_of_sight_is_found(projector, qtbot):
    """The measure itself: a view panned away from the current card says so."""
    walk_lesson(projector, "02-chain-rule", lambda: _settle(qtbot))
    animator = projector.animator
    animator.seek(5)
    _settle(qtbot)
    assert misplaced(animator) is None
    view = animator.view
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 2000)
    assert "is not inside the view" in misplaced(animator)
