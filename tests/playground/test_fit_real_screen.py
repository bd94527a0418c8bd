"""View > Fit (F) in the editor on real screens (issue 29, item 2), measured by tests/playground/fit_probes.py.

Before: README's tensor example fitted at 1280x720 at 0.85 (its numbers 8.5 px high), 0.68 beside the Learn
dock (6.8 px), 0.59 in presentation mode at 150% beside it (5.9 px); lesson 9's layer at 0.69, 0.55 and 0.48
(4.8 px), two thirds of the canvas's height empty. The neuron, F pressed beside the Learn dock, was smaller in
presentation mode (0.80) than without it (0.92).
"""

from __future__ import annotations

import pytest

from tests.real_screen import require_tools, run_probe, x_screen

SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(scope="module", params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def fitted(request):
    """Every graph after F on one screen, presentation mode off and on at 150%, the Learn dock closed and open."""
    require_tools()
    with x_screen(*request.param) as display:
        seen = run_probe(display, "tests.playground.fit_probes:fits_everywhere", timeout=300)
    for state, view in seen.items():
        print(f"{request.param} {state}: zoom {view['zoom']:.2f}, fills {view['fill width']:.0%} x "
              f"{view['fill height']:.0%}, numbers {view['number px'] or 0:.1f} px, whole {view['whole']}")
    return {**seen, "screen": request.param}


def test_a_tensor_graph_after_f_fills_the_binding_side_with_numbers_at_least_11_px_and_its_output_in_view(fitted):
    tensor_states = {state: view for state, view in fitted.items() if state.startswith(("tensor", "lesson"))}
    assert len(tensor_states) == 8  # two graphs, presentation mode off and on, the dock closed and open
    for state, view in tensor_states.items():
        assert view["number px"] >= 11.0, state
        assert max(view["fill width"], view["fill height"]) >= 0.9, state
        assert view["output in view"], state
    if fitted["screen"] == (1920, 1080):  # room enough: the side panel gives way and README's example is whole
        assert fitted["tensor starter, 1.0, dock closed"]["whole"] and fitted["tensor starter, 1.0, dock open"]["whole"]


def test_the_neuron_after_f_is_never_smaller_in_presentation_mode_than_in_normal_mode(fitted):
    for dock in ("closed", "open"):
        normal, presenting = fitted[f"neuron, 1.0, dock {dock}"], fitted[f"neuron, 1.5, dock {dock}"]
        assert presenting["card"][0] >= normal["card"][0], dock  # the largest card's width on the screen
        assert presenting["card"][1] >= normal["card"][1], dock
        assert presenting["output in view"] and normal["output in view"]
        assert max(presenting["fill width"], presenting["fill height"]) >= 0.9


# Every case on the smaller screen, where presentation mode cannot show these graphs whole; the neuron on the
# larger one. (-400, 0): the person panned towards the inputs first.
@pytest.mark.parametrize(("size", "graph", "pan"), [
    ((1280, 720), "neuron", (0, 0)), ((1280, 720), "tensor starter", (0, 0)), ((1280, 720), "neuron", (-400, 0)),
    ((1920, 1080), "neuron", (0, 0))], ids=["1280x720-neuron", "1280x720-tensor", "1280x720-panned", "1920x1080"])
def test_the_output_is_in_view_when_presentation_mode_turns_on(size, graph, pan):
    require_tools()
    with x_screen(*size) as display:
        seen = run_probe(display, "tests.playground.fit_probes:presentation_turned_on",
                         arguments={"graph": graph, "learn": True, "pan": pan})
    print(f"{size} {graph} panned {pan}, presentation mode turned on: zoom {seen['zoom']:.2f}, "
          f"whole {seen['whole']}")
    assert seen["output in view"]
