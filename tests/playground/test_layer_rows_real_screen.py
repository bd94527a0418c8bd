"""The hidden layers' rows (each its neurons, activation and dropout) and the diagram's captions on a real
classroom screen (Xvfb with openbox, `tests/real_screen.py`): three layers set apart, nothing cut off on the
common projector with and without presentation mode, nor on a full HD screen."""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

PROBE = "tests.playground.layer_rows_probes:layer_rows"
LAYERS = {"hidden": [8, 8, 4], "activations": ["relu", "tanh", "leaky_relu"], "dropout": [0.2, 0.0, 0.5]}


@pytest.mark.parametrize("size, settings", [
    ((1280, 720), {}),
    ((1280, 720), {"presentation/on": True, "presentation/zoom": 1.5}),
    ((1920, 1080), {}),
], ids=["1280x720", "1280x720-presenting-150", "1920x1080"])
def test_three_layers_set_apart_are_shown_whole(size, settings, tmp_path):
    require_tools()
    shot = tmp_path / f"layer-rows-{size[0]}x{size[1]}.png"
    with x_screen(*size) as display:
        seen = run_probe(display, PROBE, settings=settings, arguments=LAYERS, screenshot=shot)
    print(size, settings, {key: seen[key] for key in ("settings_width", "row_minimum", "data_minimum")}, shot)
    assert seen["cut"] == [] and seen["diagram_cut"] == []
    assert len(seen["rows"]) == 3
    assert all(row[2] >= seen["row_minimum"] for row in seen["rows"])  # each row has the room it needs
    assert seen["captions"][1:4] == [["ReLU", "drop 20%"], ["Tanh", ""], ["Leaky ReLU", "drop 50%"]]
    x, y, width, height = seen["window"]
    assert x >= 0 and y >= 0 and x + width <= size[0] and y + height <= size[1]
