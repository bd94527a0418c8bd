"""The editor's "No node selected" help in a short side panel (issue 29, item 8), on a real 1280x720 screen:
in presentation mode at 150% it was cut mid-line at the panel's edge, 177 of its 273 px on show, and could
not be scrolled. Measured by tests/playground/help_probes.py."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen


# The shortest side panel (presentation mode at 150%, the Learn dock open) and the plain window.
@pytest.mark.parametrize(("presentation", "learn"), [(1.5, True), (None, False)],
                         ids=["presentation 150%-learn dock open", "normal-learn dock closed"])
def test_every_line_of_the_nothing_selected_help_can_be_read_in_the_side_panel(presentation, learn):
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.help_probes:nothing_selected_help",
                         arguments={"presentation": presentation, "learn": learn})
    print(seen)
    assert seen["text"].startswith("<b>No node selected.</b>")
    width, height = seen["label"]
    assert height >= seen["needed height"]  # the label is as tall as its wrapped lines: none cut by its own edge
    assert seen["scroll area"]
    # Whatever the panel's viewport does not show, its scroll bar reaches: the label's bottom is in reach...
    assert seen["label top in content"] + height <= seen["viewport height"] + seen["scroll maximum"]
    if seen["scroll maximum"] > 0:
        assert seen["bar shown"]
    # ...and scrolled to the end, its last line is on show.
    top, shown = seen["shown at the end"]
    assert top + shown == height
