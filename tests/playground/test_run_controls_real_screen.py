"""The training tab in presentation mode on a 1280x720 projector with the Learn dock open (issue 29, item 6),
measured on a real screen (Xvfb with openbox): lesson 10 step 3 points at the gradient health plot, and
scrolling it into view took Play, Step and Reset out of sight; the plot was 140 px tall, its tick labels one
pile, its lines named by colour alone."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen


@pytest.mark.parametrize("hidden", [None, [8, 8, 8, 8, 8]], ids=["the default network", "six layers"])
def test_the_run_controls_and_every_layer_stay_in_sight(hidden):
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.run_controls_probes:run_controls_with_health",
                         arguments={"zoom": 1.5, "hidden": hidden})
    print(seen)
    assert seen["play_shown"] and seen["step_shown"]
    assert seen["health_plot_height"] >= 200 and seen["health_plot_shown"] >= 200
    assert seen["layer_names"] == [f"layer {k}" for k in range(1, seen["layers"] + 1)]
    assert seen["layers"] == (len(hidden) + 1 if hidden else 3)
    assert seen["diagram_columns"] == seen["layers"] + 1  # the inputs' column and one per layer, none hidden
    assert seen["maps_shown"] and min(seen["map_sides"]) >= 20
