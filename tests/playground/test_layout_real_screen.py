"""Issue 18 measured on real screens (Xvfb with openbox, tests/real_screen.py): the first window fits every
screen a classroom has, and the starter graph is what grows on a projector and in presentation mode.

Zoom: how large a card appears relative to its size at 100% (see tests/playground/layout_probes.py).
"""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

PRESENTATION = {"presentation/on": True}


def inside(frame: list[int], available: list[int]) -> bool:
    x, y, w, h = frame
    ax, ay, aw, ah = available
    return ax <= x and ay <= y and x + w <= ax + aw and y + h <= ay + ah


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1366, 768)])
def test_the_first_window_fits_the_screen_with_the_learn_dock_open(size, tmp_path):
    """At 1280x720 the first window was 1282x845, taller than the screen; at 1024x768 1072 wide."""
    require_tools()
    with x_screen(*size) as display:
        seen = run_probe(display, "tests.playground.layout_probes:window_on_screen",
                         screenshot=tmp_path / "first-run.png")
    print(f"{size}: frame {seen['frame']} on {seen['available']}, the starter graph at {seen['zoom']:.2f}")
    assert seen["learn_dock"] and seen["editor_tab"]  # a first run: the Learn dock on lesson 1
    assert inside(seen["frame"], seen["available"])
    assert seen["panels_open"] == [False, False]  # the palette and the side panel gave the graph their room
    assert seen["zoom"] >= 0.8  # readable; whole from 1280 wide (at 1024, F shows it whole at 0.68)
    assert seen["whole"] or size[0] < 1280


def test_on_a_1280x720_projector_a_first_run_shows_the_starter_graph_whole_at_80_percent():
    """It fitted whole only at 54%, beside the palette, the side panel and the Learn dock."""
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.layout_probes:window_on_screen")
    print(f"1280x720 first run: zoom {seen['zoom']:.2f}, whole {seen['whole']}")
    assert seen["learn_dock"] and seen["whole"]
    assert seen["zoom"] >= 0.8


@pytest.mark.parametrize("turned_on", ["at start", "in the open window"])
@pytest.mark.parametrize(("size", "zoom", "closed", "opened"), [
    ((1920, 1080), 2.0, 1.6, 1.2),  # it was 0.73 with the Learn dock closed, 0.48 open
    ((1280, 720), 1.5, 1.1, None),  # it was 0.59
])
def test_presentation_mode_grows_the_starter_graph_in_the_editor_and_the_animator(size, zoom, closed, opened,
                                                                                  turned_on):
    require_tools()
    remembered = turned_on == "at start"
    with x_screen(*size) as display:
        seen = run_probe(display, "tests.playground.layout_probes:fitted_zooms",
                         settings={**PRESENTATION, "presentation/zoom": zoom} if remembered else {},
                         arguments={} if remembered else {"presentation": zoom})
    print(f"{size} at {zoom:.0%}, turned on {turned_on}: " + ", ".join(
        f"{key} {value:.2f}" for key, value in seen.items() if isinstance(value, float)))
    assert inside(seen["frame"], seen["available"])
    for tab in ("editor", "animator"):
        assert seen[f"{tab} closed whole"]  # fitted: every card in view
        assert seen[f"{tab} closed"] >= closed, tab
        if opened is not None:
            assert seen[f"{tab} open whole"] and seen[f"{tab} open"] >= opened, tab
    # Beside the Learn dock at 1280x720 the neuron is whole only at 0.80, smaller than without presentation
    # mode (0.92): the editor's F keeps the readable zoom there and shows the output (issue 29, item 2).
    assert seen["editor open whole"] or (seen["editor open"] >= 1.2 and seen["editor open output shown"])
    assert seen["animator open whole"]


@pytest.mark.parametrize(("size", "zoom"), [((1024, 768), None), ((1024, 768), 1.5), ((1280, 720), 1.5),
                                            ((1920, 1080), 2.0)])
def test_no_text_is_cut_off_in_the_editor_the_animator_and_the_learn_dock(size, zoom):
    """At 150% on 1024x768 the Learn dock's width pushed the editor's 'Details' and the animator's 'Steps' and
    'Export' out of their tabs."""
    require_tools()
    settings = {"learn/visible": True}
    if zoom is not None:
        settings.update({**PRESENTATION, "presentation/zoom": zoom})
    with x_screen(*size) as display:
        seen = run_probe(display, "tests.playground.layout_probes:cut_texts", settings=settings)
    assert seen["cut"] == []


@pytest.mark.parametrize("tab", ["editor", "animator"])
def test_at_150_percent_on_a_1280x720_projector_the_starter_graph_opens_whole_without_pressing_f(tab):
    """Fitted for the readable zoom (1.2 in the editor, 1.275 in the animator) the output card was cut off,
    and in the animator the minimap's band kept it so."""
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.layout_probes:arrange",
                         settings={**PRESENTATION, "presentation/zoom": 1.5}, arguments={"tab": tab, "learn": False})
    print(f"1280x720 at 150%, {tab} as shown: zoom {seen['zoom']:.2f}, whole {seen['whole']}")
    assert seen["whole"] and seen["zoom"] >= 1.1
