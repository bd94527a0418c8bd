"""The animator follows the step on a real 1280x720 projector (issue 29, item 3): lessons 2 and 8 (and 9, the
tensor animator set to each question's step) walked step by step, the lesson's steps and the animator's, with
the Learn dock open, normal and in presentation mode at 150%; after every move the current node's card,
numbers and badge included, is wholly in the view and clear of the minimap (see step_in_view.py; the same
offscreen with the minimap forced on: animator/test_step_in_view.py)."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

LESSONS = ["02-chain-rule", "08-forward-or-reverse", "09-tensor-layer"]


# Presentation mode at 150%, where the view is panned over and the minimap comes by itself (normal mode shows
# these graphs whole: the offscreen walk in tests/playground/animator/test_step_in_view.py covers it).
@pytest.mark.parametrize("zoom", [1.5], ids=["presentation-150"])
def test_the_current_card_is_in_view_at_every_step_of_lessons_2_8_and_9(zoom, tmp_path):
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.step_in_view_probes:walk_lessons",
                         settings={"learn/visible": True},
                         arguments={"lessons": LESSONS, "presentation": zoom,
                                    "screenshots": str(tmp_path)}, timeout=300)
    print(f"1280x720, presentation {zoom}: {seen['checked']} steps checked, {len(seen['failed'])} failed; "
          f"view {seen['view']} at zoom {seen['zoom']:.2f}; pictures in {tmp_path}")
    assert seen["dock"]
    assert seen["checked"] > 60
    assert seen["failed"] == [], "\n".join(seen["failed"])
