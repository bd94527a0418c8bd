"""The High contrast theme on a real 1280x720 screen (Xvfb with openbox), every tab with work on it: the whole
window is the theme's black, with nothing left in the light theme's page colours (a widget that painted its own
light background would show as a patch of them)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from playground.canvas.style import HIGH_CONTRAST
from tests.playground.theme_probes import TABS
from tests.real_screen import require_tools, run_probe, x_screen

# The light theme's pages: Fusion's window, the canvas and the plots' neutral.
LIGHT_PAGES = {0xEFEFEF, 0xF3F4F7, 0xF6F6F4}


def shares(path, top: int) -> tuple[float, float]:
    """Of the screen's pixels below ``top`` (under the window manager's title bar): the share that is black and
    the share in a light theme's page colour."""
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    black = light = total = 0
    for y in range(top, image.height(), 2):
        for x in range(0, image.width(), 2):
            rgb = image.pixel(x, y) & 0xFFFFFF
            black += rgb == 0
            light += rgb in LIGHT_PAGES
            total += 1
    return black / total, light / total


@pytest.mark.parametrize("tab", TABS)
def test_high_contrast_reaches_every_part_of_each_tab(qapp, tab, tmp_path):
    require_tools()
    shot = tmp_path / f"{tab}.png"
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.theme_probes:tab_in_theme", settings={"theme": HIGH_CONTRAST},
                         arguments={"tab": tab}, screenshot=shot)
    assert seen["tab"] == f"{tab}Panel"
    assert (seen["window"], seen["text"]) == ("#000000", "#ffffff")
    black, light = shares(shot, top=30)
    assert black > 0.6, f"only {black:.0%} of the {tab} tab is black"
    assert light < 0.001, f"{light:.2%} of the {tab} tab is in a light theme's page colour"
