"""The card a lesson's question asks about is in sight when the question is asked (issue 39), on a real 1280x720
projector (Xvfb with openbox) with the Learn dock open, normal and in presentation mode at 150%: one app per mode
walks every question of every shipped lesson, and at each question about a node's card finds that card by the
name the lesson gives the node, in the tab the question is asked in, wholly inside the view and off the minimap
(asked_card_probes.py; offscreen, with the minimap forced on and the person's own zoom: test_asked_card.py).

Before: at 150%, 4 of the 28 questions asked about a card out of view (lesson 2's fourth value asked for L, past
the view's right-hand edge; lesson 4's w1 and w2; lesson 8's third tangent, t3); the animator followed only the
step's card, and a question's step is often another node's."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

# Layouts coming to rest (the Learn dock, presentation mode, the fits queued for the next turn): run alone.
pytestmark = pytest.mark.serial

MODES = {"normal": None, "presentation-150": 1.5}
CARD_QUESTIONS = 28  # lessons 1, 2, 3, 4, 5, 8 and 9: every value, gradient, tangent and gradient's shape asked


@pytest.fixture(scope="module")
def walks():
    require_tools()
    with x_screen(1280, 720) as display:
        return {mode: run_probe(display, "tests.playground.asked_card_probes:walk_questions",
                                settings={"learn/visible": True}, arguments={"presentation": zoom}, timeout=300)
                for mode, zoom in MODES.items()}


@pytest.mark.parametrize("mode", MODES)
def test_every_question_about_a_card_finds_it_in_sight(walks, mode):
    seen = walks[mode]
    print(f"1280x720, {mode}: {seen['asked']} questions about a card, {len(seen['failed'])} out of sight; "
          f"window {seen['window']}, view {seen['view']}")
    assert seen["dock"]  # beside the Learn dock, as a class takes a lesson
    assert seen["window"][0] == 1280 and seen["window"][1] <= 720
    assert seen["asked"] == CARD_QUESTIONS
    assert seen["failed"] == [], "\n".join(seen["failed"])
