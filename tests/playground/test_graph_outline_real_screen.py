"""The editor's graph outline opened on real screens (Xvfb with openbox; issue 32, item 1): View > Graph outline
opens it with its side panel, the focus in it, the selected node's row in sight among several. At 1920x1080
nothing is squeezed; at 1280x720 the side panel opened by hand with a leaf selected is already too short for
the properties (240 px of 320 with the Learn dock open): the outline squeezes no widget that was not squeezed
without it."""

from __future__ import annotations

import re

from tests.real_screen import require_tools, run_probe, x_screen

PROBE = "tests.playground.outline_probes:outline_opened"


def _names(squeezed: list[str]) -> set[str]:
    return {re.sub(r" \d+x\d+ < \d+x\d+$", "", entry) for entry in squeezed}


def test_the_outline_opens_in_sight_on_a_1920x1080_screen(tmp_path):
    require_tools()
    with x_screen(1920, 1080) as display:
        seen = run_probe(display, PROBE, arguments={"dock": True}, screenshot=tmp_path / "outline.png")
    assert seen["side"] and seen["focus"] and seen["selected_row_in_sight"]
    assert seen["rows_in_sight"] >= 7
    assert seen["squeezed"] == []


def test_the_outline_opens_in_sight_on_a_1280x720_screen_and_squeezes_nothing_new():
    require_tools()
    with x_screen(1280, 720) as display:
        for dock in (True,):  # the shorter side panel: the dock takes the room the outline needs
            seen = run_probe(display, PROBE, arguments={"dock": dock})
            without = run_probe(display, PROBE, arguments={"dock": dock, "outline": False})
            assert seen["side"] and seen["focus"] and seen["selected_row_in_sight"]
            assert seen["rows_in_sight"] >= 4
            assert _names(seen["squeezed"]) <= _names(without["squeezed"]), dock


def test_the_animated_graphs_outline_opens_in_the_step_panel_on_a_1280x720_screen(tmp_path):
    require_tools()
    with x_screen(1280, 720) as display:
        for dock in (True, False):
            seen = run_probe(display, "tests.playground.outline_probes:animator_outline_opened",
                             arguments={"dock": dock}, screenshot=tmp_path / f"animator-{dock}.png")
            assert seen["steps"] and seen["rows_in_sight"] >= 8, dock
            assert seen["squeezed"] == [], dock
