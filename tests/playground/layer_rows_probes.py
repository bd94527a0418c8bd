"""Probes for tests/real_screen.py: the training tab's hidden-layer rows (each layer's neurons, activation
and dropout) as a class sees them on a real screen, measured in the app's own process."""

from __future__ import annotations

from dataclasses import replace

from tests.playground.training_layout_probes import _rect, cut_texts


def layer_rows(window, settle, hidden=(8, 8, 4), activations=(), dropout=(), fill_screen: bool = False,
               unfold: bool = True) -> dict:
    """The training tab with ``hidden`` layers set to ``activations`` and ``dropout``, its settings column
    scrolled to the layer rows (``unfold``: unfolded first, where the tab folded it away): what is cut off there
    and in the diagram's headers, and where the rows are."""
    panel = window.training
    changes = {"hidden": tuple(hidden)}
    if activations:
        changes["activations"] = tuple(activations)
    if dropout:
        changes["dropout"] = tuple(dropout)
    panel.set_settings(replace(panel.settings, **changes))
    if fill_screen:
        window.showMaximized()
        settle(1.0)
    window.tabs.setCurrentWidget(panel)
    settle(0.8)
    body = panel.body
    if unfold and not body.settings_shown:
        body.fold_button.click()
        settle(0.5)
    controls = panel.network_controls
    rows = getattr(controls, "layer_rows", [])
    target = rows[-1] if rows else controls
    body.settings_scroll.ensureWidgetVisible(target, 0, 40)
    settle(0.5)
    column = body.settings_column
    return {
        "settings_width": body.settings_scroll.width(),
        "column": _rect(column.geometry()),
        "rows": [_rect(row.geometry()) for row in rows],
        # The rows' least width beside the data column's: the rows must not be what widens the settings.
        "row_minimum": max((row.minimumSizeHint().width() for row in rows), default=0),
        "data_minimum": panel.data_controls.minimumSizeHint().width(),
        "cut": cut_texts(column),
        "diagram_cut": cut_texts(panel.network_view),
        "captions": [[line.text() for line in header.caption_lines if line.isVisibleTo(header)]
                     for header in panel.network_view.canvas._headers],
        "window": _rect(window.frameGeometry()),
    }
