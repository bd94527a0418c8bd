"""The Learn dock in a classroom (issue 29, items 5 and 7), on a real 1280x720 screen (Xvfb with openbox) in
presentation mode at 150%: one app walks every step of every shipped lesson, answers each question wrongly once
(as a student does, to see the hint and its details), then shows the answers and goes on.

Before: the lesson's text shrank to 3 lines beside a question, a hint was cut (144 of 168 px) or ran under the
answer box, the lesson list showed half a row; lessons 7 and 10 ringed the learning rate, the activation and the
optimizer in a settings column folded away, the ring drawn over the next pane; lesson 3 step 4's two graphs had
9.9 px text, and the step panel opened before it stayed open beside them."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

# Timing and layouts coming to rest: run alone, after the parallel workers (`make test`).
pytestmark = pytest.mark.serial

LEAST_LINES = 8
LEAST_CARD_TEXT_PX = 11


@pytest.fixture(scope="module")
def walk():
    require_tools()
    with x_screen(1280, 720) as display:
        return run_probe(display, "tests.playground.learn_dock_probes:walk_lessons", arguments={"zoom": 1.5},
                         timeout=600)


def test_every_step_of_every_lesson_was_walked(walk):
    assert len(walk) >= 50  # eleven lessons
    assert {key.split(" / ")[0] for key in walk} >= {"01-value-and-gradient", "03-used-twice", "11-build-the-network"}


def test_the_lesson_text_shows_at_least_eight_lines_beside_questions_hints_and_answers(walk):
    short = {key: [step[name] for name in ("text_lines", "text_lines_with_hint", "text_lines_with_details",
                                           "text_lines_answered") if name in step]
             for key, step in walk.items()}
    assert {key: lines for key, lines in short.items() if min(lines) < LEAST_LINES} == {}


def test_hints_are_whole_beside_the_answer_box_and_the_list_shows_whole_rows(walk):
    assert {key: step["hint_problems"] for key, step in walk.items() if step.get("hint_problems")} == {}
    asking = [key for key, step in walk.items() if step["asks"]]
    assert len(asking) >= 15 and all("hint_problems" in walk[key] for key in asking)  # each was answered wrongly
    assert {key: step["cut_rows"] for key, step in walk.items() if step["cut_rows"]} == {}
    assert min(step["list_rows_shown"] for step in walk.values()) >= 2  # the lesson running and a neighbour


def test_the_dock_keeps_its_width_as_hints_and_answers_appear(walk):
    widths = {step[name] for step in walk.values()
              for name in ("dock_width", "dock_width_with_hint", "dock_width_with_details", "dock_width_answered")
              if name in step}
    assert len(widths) == 1


def test_what_a_step_points_at_is_in_sight_and_ringed_only_there(walk):
    pointing = {key: step for key, step in walk.items() if "target" in step}
    assert {"07-training / 2", "10-vanishing-gradients / 3", "10-vanishing-gradients / 5",
            "08-forward-or-reverse / 1"} <= set(pointing)
    assert {key: step["target"] for key, step in pointing.items() if not step["target_in_sight"]} == {}
    assert {key: step["target"] for key, step in pointing.items() if step["ring_over_other"]} == {}


def test_a_pitfalls_two_graphs_have_readable_text_even_after_the_step_panel_was_opened(walk):
    pitfalls = {key: step for key, step in walk.items() if "pitfall_text_px" in step}
    assert "03-used-twice / 4" in pitfalls
    assert {key: (step["pitfall_text_px"], step["correct_text_px"]) for key, step in pitfalls.items()
            if min(step["pitfall_text_px"], step["correct_text_px"]) < LEAST_CARD_TEXT_PX} == {}
    assert not any(step["step_panel_open"] for step in pitfalls.values())  # it gave way to them
