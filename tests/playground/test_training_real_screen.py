"""The Training tab on a real classroom screen (Xvfb with openbox, `tests/real_screen.py`), as issue 18
asks: in presentation mode at 150% and 200% every neuron map is at least 20 px, both confusion
matrices are shown, the decision plot keeps 240 px inside its axes, and no label is cut off; on a
small screen without presentation mode nothing is cut off either; and the tab never pushes the
window past the screen (its columns fold away or scroll instead)."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

PROBE = "tests.playground.training_layout_probes:training_tab"
PRESENTING = [  # (screen, zoom): 1920 x 1080 at both zooms, the common projector at 150%
    ((1920, 1080), 1.5), ((1920, 1080), 2.0), ((1280, 720), 1.5),
]


def seen_on(size, settings: dict, tmp_path, name: str, **arguments) -> list[dict]:
    """The probe's measures with the Learn dock open and closed, on one screen of ``size``."""
    require_tools()
    seen = []
    with x_screen(*size) as display:
        for dock in (True, False):
            shot = tmp_path / f"{name}-{'dock' if dock else 'no-dock'}.png"
            result = run_probe(display, PROBE, settings={**settings, "learn/visible": dock},
                               arguments={"dock": dock, **arguments}, screenshot=shot)
            print(name, "dock" if dock else "no dock", {key: result[key] for key in (
                "frame", "map_sides", "confusion_cell", "boundary_data_area", "view_widths", "settings_shown",
                "diagram_scrolls", "panel_minimum")}, "screenshot", shot)
            seen.append(result)
    return seen


def assert_on_screen(seen: dict) -> None:
    x, y, width, height = seen["available"]
    fx, fy, fw, fh = seen["frame"]
    assert fx >= x and fy >= y and fx + fw <= x + width and fy + fh <= y + height, seen["frame"]


@pytest.mark.parametrize("size, zoom", PRESENTING)
def test_presentation_mode_keeps_the_training_tab_readable(size, zoom, tmp_path):
    settings = {"presentation/on": True, "presentation/zoom": zoom}
    # A small screen: the window filled to the screen, as a person does. A large one: the window as it opens.
    name = f"training-{size[0]}x{size[1]}-{round(zoom * 100)}"
    for seen in seen_on(size, settings, tmp_path, name, fill_screen=size[0] < 1920, classes=3):
        assert seen["factor"] == zoom
        assert min(seen["map_sides"]) >= 20  # 12 px before
        assert seen["confusion_side_by_side"] and seen["confusion_visible"]
        assert min(seen["boundary_data_area"]) >= 240
        # ...showing the data, never more of the plane than the data's square (item 8 of the issue).
        x0, x1, y0, y1 = seen["data_square"]
        slack = 0.02 * (x1 - x0)
        assert seen["boundary_x_range"][0] >= x0 - slack and seen["boundary_x_range"][1] <= x1 + slack
        assert seen["boundary_y_range"][0] >= y0 - slack and seen["boundary_y_range"][1] <= y1 + slack
        assert seen["output_names"][-3:] == ["orange", "blue", "green"]
        assert seen["cut"] == []  # "or", "bl", "gr", NETWORK and the hint line were cut before
        assert seen["overlaps"] == []
        assert_on_screen(seen)
        if not seen["dock"]:  # the settings fold away for the diagram: all its columns in sight, none scrolled
            assert not seen["diagram_scrolls"], seen["view_widths"]
        # The tab never asks for more than the screen has: it folds its settings away or scrolls instead.
        assert seen["panel_minimum"][0] <= seen["available"][2] and seen["panel_minimum"][1] <= seen["available"][3]


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_a_small_screen_cuts_nothing_off_the_training_tab(size, tmp_path):
    for seen in seen_on(size, {}, tmp_path, f"training-{size[0]}x{size[1]}", fill_screen=True):
        assert seen["cut"] == [] and seen["overlaps"] == []
        assert seen["confusion_side_by_side"]
        assert min(seen["map_sides"]) >= 12
        assert_on_screen(seen)
