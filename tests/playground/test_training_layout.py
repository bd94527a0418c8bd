"""The Training tab gives way on a small screen (issue 18), measured offscreen where no real screen is
needed: the settings column folds away by itself when the views would be squeezed (and a person's
click holds until the room changes), the diagram's maps stay readable in presentation mode, names
and headings get the room their text takes, the confusion column keeps room for both matrices,
and a hint too long for its line ends in "…" with the whole of it in its tooltip."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtWidgets import QWidget

from playground.training.confusion import CELL_WIDE, ConfusionView
from playground.training.network_view import SQUARE_MIN_PRESENTING
from playground.training.panel import TrainingPanel
from playground.training.widgets import ElidedLabel

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.resize(1500, 800)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
    yield panel
    panel.shutdown()


def test_the_settings_column_folds_away_when_the_views_need_the_room(qtbot, panel):
    body = panel.body
    assert body.settings_shown and body.settings_scroll.isVisible()
    panel.resize(760, 800)
    qtbot.waitUntil(lambda: not body.settings_shown, timeout=WAIT)
    assert not body.settings_scroll.isVisible()
    # Folded, the views keep the width they need: no view is squeezed below its smallest.
    widths = panel.splitter.sizes()
    minimums = [panel.splitter.widget(i).minimumSizeHint().width() for i in range(3)]
    print("narrow: views", widths, "smallest", minimums)
    assert all(w >= m for w, m in zip(widths, minimums))
    # A person unfolds it: their choice holds while the room stays as it is...
    body.fold_button.click()
    assert body.settings_shown
    panel.resize(770, 800)
    qtbot.wait(50)
    assert body.settings_shown
    # ...until the room changes: wide enough, then too narrow again, and the room decides once more.
    panel.resize(1500, 800)
    qtbot.waitUntil(lambda: body.settings_shown, timeout=WAIT)
    panel.resize(760, 800)
    qtbot.waitUntil(lambda: not body.settings_shown, timeout=WAIT)


def test_a_person_may_fold_the_settings_away_on_a_wide_screen(qtbot, panel):
    panel.body.fold_button.click()
    assert not panel.body.settings_shown
    assert "Show" in panel.body.fold_button.toolTip()
    before = panel.splitter.sizes()
    qtbot.waitUntil(lambda: sum(panel.splitter.sizes()) > sum(before), timeout=WAIT)  # the views take the room


def test_the_tab_never_asks_for_more_than_a_small_screen_has(qtbot, panel):
    panel.set_text_scale(2.0)
    qtbot.wait(50)
    hint = panel.minimumSizeHint()
    print("smallest tab at 200%:", hint.width(), "x", hint.height())
    # The body scrolls rather than make the window larger: only the toolbar and the status line count.
    assert hint.height() < 300
    assert panel.body.minimumSizeHint().height() < 200


def test_presentation_mode_keeps_neuron_maps_readable_in_a_short_tab(qtbot, panel):
    panel.resize(1500, 560)  # 16 neurons a column in a short diagram: 12 px squares at 100%
    qtbot.wait(50)
    canvas = panel.network_view.canvas
    at_100 = canvas.square
    panel.set_text_scale(1.5)
    qtbot.waitUntil(lambda: canvas.square >= SQUARE_MIN_PRESENTING, timeout=WAIT)
    print("square at 100%:", at_100, "at 150%:", canvas.square)
    assert all(n.width() >= SQUARE_MIN_PRESENTING for column in canvas.neurons for n in column)
    assert canvas.height() > panel.network_view.scroll.viewport().height()  # the diagram scrolls instead


def test_the_output_names_get_the_room_their_text_takes(qtbot, panel):
    panel.set_settings(replace(panel.settings, dataset="spiral", classes=3, loss="cross_entropy"))
    canvas = panel.network_view.canvas
    qtbot.waitUntil(lambda: len(canvas.neurons[-1]) == 3 and canvas.picture is not None, timeout=WAIT)
    font = canvas.font()
    font.setPointSizeF(font.pointSizeF() * 2)  # presentation mode's larger names
    for label in canvas.findChildren(type(canvas._name_labels[0])):
        if label in canvas._name_labels:
            label.setFont(font)
    panel.set_text_scale(2.0)
    qtbot.wait(50)
    outputs = canvas._name_labels[-3:]
    assert [label.text() for label in outputs] == ["orange", "blue", "green"]
    for label in outputs:
        print(label.text(), "needs", label.sizeHint().width(), "has", label.width())
        assert label.sizeHint().width() <= label.width()
        assert label.geometry().right() <= canvas.width()


def test_the_network_heading_and_its_undo_buttons_are_never_cut(qtbot, panel):
    view = panel.network_view
    view.set_text_scale(2.0)
    panel.resize(700, 800)
    qtbot.wait(50)
    assert view.title.width() >= view.title.sizeHint().width()
    assert view.undo_button.text() == "↶" and "Undo" in view.undo_button.toolTip()


@pytest.mark.parametrize("classes, scale", [(2, 1.0), (2, 1.5), (3, 2.0)])
def test_at_its_narrowest_the_confusion_column_shows_both_matrices(qtbot, classes, scale):
    holder = QWidget()
    qtbot.addWidget(holder)
    view = ConfusionView(holder)
    view.set_classes(("orange", "blue", "green")[:classes])
    view.set_text_scale(scale)
    view.resize(view.minimumSizeHint())
    cell, side_by_side = view._geometry(view.width())
    print(classes, "classes at", scale, ": narrowest", view.width(), "cell", round(cell, 1))
    assert side_by_side and cell >= CELL_WIDE * scale


def test_a_hint_too_long_for_its_line_ends_in_an_ellipsis_and_is_whole_in_its_tooltip(qtbot):
    whole = "Press Play to train. Hover a neuron to see its map on the plot, a wire for its weight."
    label = ElidedLabel(whole)
    qtbot.addWidget(label)
    label.resize(160, 30)
    label.show()
    qtbot.waitExposed(label)
    assert label.shown_text().endswith("…") and len(label.shown_text()) < len(whole)
    assert label.text() == whole and label.toolTip() == whole
    assert label.fontMetrics().horizontalAdvance(label.shown_text()) <= label.contentsRect().width()
    label.resize(label.fontMetrics().horizontalAdvance(whole) + 20, 30)
    qtbot.wait(10)
    assert label.shown_text() == whole and label.toolTip() == ""


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_layout_comes_to_rest_at_every_width(qtbot, panel, scale):
    """Folding, scrolling columns and a plot sized to its axes all answer to one another's sizes: at no
    width may they keep changing one another (the tab hung once, at 150% beside the Learn dock)."""
    panel.set_settings(replace(panel.settings, dataset="spiral", classes=3, loss="cross_entropy"))
    qtbot.waitUntil(lambda: panel._data is not None and panel._data.settings.dataset == "spiral", timeout=WAIT)
    panel.set_text_scale(scale)
    qtbot.wait(100)
    body = panel.body
    calls = {"fits": 0}
    for scroller in (body.boundary_scroll, body.output_scroll):
        fit = scroller._fit

        def counted(fit=fit):
            calls["fits"] += 1
            fit()
        scroller._fit = counted
    restless = []
    for width in range(640, 1700, 71):
        for height in (520, 760):
            panel.resize(width, height)
            qtbot.wait(150)  # the layout settles...
            calls["fits"] = 0
            qtbot.wait(200)  # ...and then stays still
            if calls["fits"] > 2:
                restless.append((width, height, calls["fits"]))
    print("sizes where the layout kept moving:", restless)
    assert restless == []
