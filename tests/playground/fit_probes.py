"""Probes for tests/real_screen.py that measure what View > Fit (F) shows in the editor (issue 29, item 2): how
much of the canvas a fitted graph fills, how high its numbers are on the screen, whether its output is in
view, and how large the neuron's cards are drawn.

A number's height on the screen is the pixel size of the font the card writes it in times the card's
on-screen scale (`layout_probes.apparent_zoom`): the cards paint their text themselves, at a pixel size
in scene units, and the view scales the scene.
"""

from __future__ import annotations

from PySide6.QtGui import QAction

from playground.canvas.array_drawing import NUMBER_FONT_SIZE

from .layout_probes import apparent_zoom, graph_shown_whole

# The graphs measured: README's tensor example (the editor's way into tensors) and lesson 9's layer.
TENSOR_STARTER = "X = [[1, 2], [3, 4], [5, 6]]; W = randn(2, 2, seed=0); b = zeros(2); L = sum(tanh(X @ W + b))"
LESSON_9 = ("X = [[1, 2], [0, -1], [2, 0], [-1, 1]]; W = randn(2, 3, seed=0); b = [0.1, -0.2, 0.3]; XW = X @ W; "
            "Z = XW + b; H = tanh(Z); L = sum(H)")
GRAPHS = {"tensor starter": TENSOR_STARTER, "lesson 9": LESSON_9}


def _shown(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


def _output_in_view(view) -> bool:
    shown = _shown(view)
    return any(shown.contains(item.sceneBoundingRect()) for item in view.scene().node_items() if item.is_output)


def fitted_view(view) -> dict:
    """What the fitted ``view`` shows: its zoom, the share of the viewport the graph's cards fill across and
    down, the numbers' on-screen height in px, whether the whole graph and the output are in view, and the
    on-screen size of the largest card."""
    items = view.scene().node_items()
    united = items[0].sceneBoundingRect()
    for item in items[1:]:
        united = united.united(item.sceneBoundingRect())
    on_screen = view.mapFromScene(united).boundingRect()
    viewport = view.viewport().rect()
    # Only the part of the graph inside the viewport fills it.
    filled = on_screen.intersected(viewport)
    zoom = apparent_zoom(view)
    arrays = [item for item in items if getattr(item, "is_array_card", False)]
    biggest = max(items, key=lambda item: item.sceneBoundingRect().width() * item.sceneBoundingRect().height())
    card = view.mapFromScene(biggest.sceneBoundingRect()).boundingRect()
    return {"zoom": zoom, "fill width": filled.width() / viewport.width(),
            "fill height": filled.height() / viewport.height(),
            "number px": NUMBER_FONT_SIZE * zoom if arrays else None,
            "whole": graph_shown_whole(view), "output in view": _output_in_view(view),
            "card": [card.width(), card.height()], "viewport": [viewport.width(), viewport.height()]}


def _show_graph(window, graph: str) -> None:
    """``graph`` in the editor: "neuron" (the starter example) or a name of `GRAPHS`, built as typed."""
    editor = window.editor
    window.tabs.setCurrentWidget(editor)
    if graph == "neuron":
        assert window.files.open_example("neuron.json")
    else:
        assert editor.build_from_expression(GRAPHS[graph])


def _set_presentation(window, settle, presentation: float | None) -> None:
    if presentation is not None:
        window.presentation.set_zoom(presentation)
    window.presentation.set_on(presentation is not None)
    settle(0.5)


def fit_graph(window, settle, graph: str = "neuron", learn: bool = False, presentation: float | None = None) -> dict:
    """Show ``graph`` (`_show_graph`) in the editor, set the Learn dock and presentation mode, press F, and
    measure (`fitted_view`)."""
    editor = window.editor
    _show_graph(window, graph)
    window.learning.dock.setVisible(learn)
    _set_presentation(window, settle, presentation)
    settle(0.6)
    window.findChild(QAction, "actionFit").trigger()  # F, as a teacher presses it
    settle(0.4)
    return fitted_view(editor.view)


def presentation_turned_on(window, settle, graph: str = "neuron", learn: bool = False, zoom: float = 1.5,
                           pan: tuple[int, int] = (0, 0)) -> dict:
    """Build ``graph``, let the person pan by ``pan`` (view pixels) and then turn presentation mode on at ``zoom``
    in the open window: what the editor shows then (`fitted_view`)."""
    editor = window.editor
    _show_graph(window, graph)
    window.learning.dock.setVisible(learn)
    settle(0.6)
    if pan != (0, 0):
        view = editor.view
        view.stop_keeping_fitted()
        view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + pan[0])
        view.verticalScrollBar().setValue(view.verticalScrollBar().value() + pan[1])
        settle(0.2)
    window.presentation.set_zoom(zoom)
    window.presentation.set_on(True)
    settle(0.8)
    return fitted_view(editor.view)


def fits_everywhere(window, settle, presentation: float = 1.5) -> dict:
    """`fit_graph` for the neuron, the tensor starter and lesson 9, with presentation mode off and on at
    ``presentation``, the Learn dock closed and open, in one window: ``{"lesson 9, 1.5, dock open": {...}}``."""
    seen = {}
    for zoom in (None, presentation):
        for learn in (False, True):
            for graph in ("neuron", *GRAPHS):
                seen[f"{graph}, {zoom or 1.0}, dock {'open' if learn else 'closed'}"] = fit_graph(
                    window, settle, graph, learn, zoom)
    return seen
