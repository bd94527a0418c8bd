"""The canvas by keyboard on a real 1280x720 screen (Xvfb with openbox): the canvas wears its focus frame once
Tab reaches it, a card walked to with the arrows is in view and clear of the minimap, and Connect… opens whole."""

from __future__ import annotations

from tests.real_screen import require_tools, run_probe, x_screen


def test_keyboard_focus_is_seen_on_the_canvas_and_never_under_the_minimap(tmp_path):
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.keyboard_probes:canvas_by_keyboard",
                         arguments={"shot": str(tmp_path / "canvas-keys.png")})
    print(seen)
    assert seen["canvas_focused"] and seen["came_by_keyboard"]
    assert seen["frame_colour"] == seen["selected_colour"]
    assert seen["was_out_of_sight"]  # the arrows walked to a card the view did not show, and it scrolled there
    x, y, w, h = seen["card"]
    vx, vy, vw, vh = seen["viewport"]
    assert vx <= x and vy <= y and x + w <= vx + vw and y + h <= vy + vh  # in view
    mx, my, mw, mh = seen["minimap"]
    assert x + w <= mx or y + h <= my  # not under the minimap
    fx, fy, fw, fh = seen["connect"]["frame"]
    ax, ay, aw, ah = seen["connect"]["available"]
    assert ax <= fx and ay <= fy and fx + fw <= ax + aw and fy + fh <= ay + ah
    assert seen["connect"]["rows"] > 0


def test_the_boundary_plot_takes_points_from_the_keyboard_on_a_real_screen(tmp_path):
    require_tools()
    with x_screen(1280, 720) as display:
        seen = run_probe(display, "tests.playground.keyboard_probes:plot_by_keyboard",
                         arguments={"shot": str(tmp_path / "plot-keys.png")})
    print(seen)
    assert seen["plot_focused"] and seen["crosshair_shown"]
    assert seen["frame_colour"] == seen["highlight"]  # the focus frame, seen
    assert "class 0 (orange)" in seen["description"]
    assert seen["added"] == 1 and seen["label"] == 0
    assert all(abs(a - b) < 0.01 for a, b in zip(seen["at"], seen["cursor"]))
    assert seen["left_by_tab"]
