"""The panels beside the graphs give way to them (playground/canvas/give_way.py), View > Fit and Zoom act on the
tab's graph, and a panel larger than the window scrolls in its tab (playground/shell/panel_tabs.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox, QScrollArea

from playground.shell.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("learn/visible", False)  # not a first run: no Learn dock
    window = MainWindow(settings)
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.resize(1800, 900)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.presentation.set_on(False)  # the application's font is shared by every test


def action(window, name: str) -> QAction:
    found = window.findChild(QAction, name)
    assert found is not None, name
    return found


def test_the_editors_panels_close_in_order_when_the_graph_needs_the_room_and_come_back(window, qtbot):
    editor = window.editor
    qtbot.waitUntil(lambda: editor.palette.isVisible() and editor.side.isVisible())  # room for all
    wide_zoom = editor.view.zoom()
    window.resize(1250, 900)  # the neuron example beside both panels would be drawn at 0.72
    qtbot.waitUntil(lambda: not editor.side.isVisible())
    assert editor.palette.isVisible()  # the side panel gives way first
    assert editor.view.zoom() >= 0.9
    window.resize(1000, 900)
    qtbot.waitUntil(lambda: not editor.palette.isVisible())
    assert not action(window, "actionNodePalette").isChecked() and not action(window, "actionSidePanel").isChecked()
    print(f"neuron example: zoom {wide_zoom:.2f} at 1800 wide, {editor.view.zoom():.2f} at 1000 wide, panels closed")
    assert editor.view.zoom() >= 0.85
    window.resize(1800, 900)
    qtbot.waitUntil(lambda: editor.palette.isVisible() and editor.side.isVisible())


def test_a_panel_opened_by_hand_stays_open_until_presentation_mode_changes(window, qtbot):
    editor = window.editor
    window.resize(1000, 900)
    qtbot.waitUntil(lambda: not editor.side.isVisible())
    editor.side_button.click()  # the "Details" button at the end of the expression row
    qtbot.waitUntil(lambda: editor.side.isVisible())
    window.resize(990, 890)
    qtbot.wait(50)
    assert editor.side.isVisible() and action(window, "actionSidePanel").isChecked()
    editor.side_button.click()
    qtbot.waitUntil(lambda: not editor.side.isVisible())
    window.resize(1800, 900)  # closed by hand: room does not bring it back
    qtbot.wait(50)
    assert not editor.side.isVisible() and editor.palette.isVisible()
    window.presentation.set_on(True)  # a new layout: the room decides again
    window.presentation.set_on(False)
    qtbot.waitUntil(lambda: editor.side.isVisible())


def test_a_graph_far_too_wide_to_read_even_without_panels_keeps_them(window, qtbot):
    window.resize(1000, 900)
    qtbot.waitUntil(lambda: not window.editor.side.isVisible())  # the neuron example wants the room
    window.editor.build_from_expression("a=2; b=3; L=" + "tanh(" * 12 + "a*b" + ")" * 12)  # 14 columns
    qtbot.waitUntil(lambda: window.editor.side.isVisible())  # panned over anyway: the tools come back
    assert window.editor.palette.isVisible()


def test_presentation_mode_grows_the_graph_not_the_panels(window, qtbot):
    editor = window.editor
    qtbot.waitUntil(lambda: editor.side.isVisible())
    before = editor.view.zoom()
    window.presentation.set_zoom(1.5)
    window.presentation.set_on(True)
    # The graph wants 0.9 x 150%: the side panel (435 px at 150%) gives way; the palette leaves it that room.
    qtbot.waitUntil(lambda: not editor.side.isVisible())
    qtbot.waitUntil(lambda: editor.view.zoom() >= 0.9 * 1.5)
    assert editor.palette.isVisible()
    print(f"neuron example at 1800x900: zoom {before:.2f}, in presentation mode at 150% {editor.view.zoom():.2f}")
    window.presentation.set_on(False)
    qtbot.waitUntil(lambda: editor.side.isVisible() and editor.view.zoom() == pytest.approx(before))


def test_the_animators_step_panel_gives_way_and_its_button_opens_it(window, qtbot):
    animator = window.animator
    window.tabs.setCurrentWidget(animator)
    qtbot.waitUntil(lambda: animator.steps.isVisible())
    window.resize(1100, 900)
    qtbot.waitUntil(lambda: not animator.steps.isVisible())
    qtbot.waitUntil(lambda: animator.view.zoom() >= 0.9)  # beside the step panel: 0.85, and cut off
    button = window.findChild(object, "stepPanelToggle")
    button.click()
    qtbot.waitUntil(lambda: animator.steps.isVisible())
    assert action(window, "actionStepPanel").isChecked()


def test_view_fit_and_zoom_act_on_the_animators_graph_on_its_tab(window, qtbot):
    animator = window.animator
    fit, zoom_in = action(window, "actionFit"), action(window, "actionZoomIn")
    window.tabs.setCurrentWidget(window.training)
    assert not fit.isEnabled() and not zoom_in.isEnabled()  # no graph there
    window.tabs.setCurrentWidget(animator)
    assert fit.isEnabled() and zoom_in.isEnabled() and action(window, "actionZoomOut").isEnabled()
    qtbot.waitUntil(lambda: animator.view.zoom() > 0)
    editor_zoom = window.editor.view.zoom()
    before = animator.view.zoom()
    zoom_in.trigger()
    assert animator.view.zoom() == pytest.approx(before * 1.25)
    assert window.editor.view.zoom() == pytest.approx(editor_zoom)  # not the editor's, unseen
    assert not animator.fitting.auto  # the person's zoom: a resize leaves it
    fit.trigger()  # F: the whole graph in view again
    assert animator.fitting.auto
    view = animator.view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.contains(view.graph_rect())
    assert not action(window, "actionAuto-layout").isEnabled()  # the animator's layout is the editor's


def test_a_panel_larger_than_the_window_scrolls_in_its_tab_instead_of_widening_the_window(window, qtbot):
    tabs = window.tabs
    assert [tabs.widget(i) for i in range(tabs.count())] == [window.editor, window.animator, window.training]
    assert tabs.indexOf(window.training) == 2
    tabs.setCurrentWidget(window.training)
    assert tabs.currentWidget() is window.training and tabs.currentIndex() == 2
    assert isinstance(window.training.parentWidget().parentWidget(), QScrollArea)
    needed = window.training.minimumSizeHint()
    assert window.minimumSizeHint().width() < needed.width()  # the window may be narrower than the panel
    window.resize(needed.width() - 200, 700)
    qtbot.waitUntil(lambda: window.width() < needed.width())
    area = window.training.parentWidget().parentWidget()
    assert area.horizontalScrollBar().maximum() > 0  # and the panel scrolls there, whole
    assert window.training.width() >= needed.width()


def test_a_lesson_pointing_at_a_control_in_a_closed_panel_opens_it(window, qtbot):
    """Lesson 1 points at the value slider, in the side panel that a projector's width had closed."""
    window.resize(1100, 800)
    window.learning.start("01-value-and-gradient")
    qtbot.waitUntil(lambda: not window.editor.side.isVisible())
    window.learning.panel.next()  # "What a.grad says": select a, highlight valueSlider
    slider = window.findChild(object, "valueSlider")
    qtbot.waitUntil(lambda: window.editor.side.isVisible() and slider.isVisible())
    assert window.learning.driver.highlight is not None and window.learning.driver.highlight.target is slider


def test_a_lesson_pointing_at_a_training_setting_unfolds_the_settings_column(window, qtbot):
    """Lesson 7 points at the learning rate, in the settings column a projector had folded away (issue 29, item 7):
    the ring went round a control nobody could see."""
    window.learning.start("07-training")
    window.training.body.set_settings_folded(True)
    rate = window.findChild(object, "learningRateInput")
    assert not rate.isVisible()
    window.learning.panel.next()  # "Too small": highlight learningRateInput
    qtbot.waitUntil(lambda: rate.isVisible())
    assert window.training.body.settings_shown
    assert window.learning.driver.highlight.target is rate and not window.learning.driver.highlight.ring().isEmpty()


def test_a_panel_keeps_the_width_the_person_drags_it_to_and_one_dragged_shut_is_closed(window, qtbot):
    editor = window.editor
    splitter = editor.splitter
    qtbot.waitUntil(lambda: editor.side.isVisible())
    palette, view, side = splitter.sizes()
    splitter.setSizes([palette, view - 60, side + 60])  # a drag of the handle, as QSplitter then says
    splitter.splitterMoved.emit(palette + view - 60, 2)
    assert next(r for r in editor.give_way.rooms if r.panel is editor.side_room).width == side + 60
    window.resize(1000, 900)  # closed for the room, and open again as wide as it was dragged
    qtbot.waitUntil(lambda: not editor.side.isVisible())
    window.resize(1800, 900)
    qtbot.waitUntil(lambda: editor.side.isVisible())
    assert splitter.sizes()[2] == side + 60
    splitter.setSizes([0, palette + view, side])  # the palette dragged shut
    splitter.splitterMoved.emit(0, 1)
    assert not editor.palette.isVisible() and not action(window, "actionNodePalette").isChecked()


def test_the_learn_dock_leaves_the_tabs_most_of_a_small_window(qtbot, tmp_path):
    """At 150% on a 1024-pixel screen the Learn dock took 370 pixels: the editor's row was cut, and scrolled."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    for key, value in {"learn/visible": True, "presentation/on": True, "presentation/zoom": 1.5}.items():
        settings.setValue(key, value)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    try:
        window.resize(1024, 740)
        window.show()
        qtbot.waitExposed(window)
        dock = window.learning.dock
        qtbot.waitUntil(lambda: dock.width() <= round(0.3 * window.width()))
        area = window.editor.parentWidget().parentWidget()
        qtbot.waitUntil(lambda: area.horizontalScrollBar().maximum() == 0)  # the editor's row whole, not scrolled
        assert window.editor.side_button.isVisible()
        print(f"Learn dock at 150% in a 1024-wide window: {dock.width()} px")
    finally:
        window.presentation.set_on(False)  # the application's font is shared by every test


def test_selecting_a_card_already_in_view_leaves_the_fitted_graph_whole(window, qtbot):
    """Lesson 1's second step selects a, the leftmost card: the view scrolled it to a 50 px margin and cut
    the output card off on the right."""
    window.resize(1280, 701)  # a 1280x720 projector, under the title bar
    window.learning.start("01-value-and-gradient")
    view = window.editor.view

    def whole() -> bool:
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        return all(shown.contains(item.sceneBoundingRect()) for item in window.editor.scene.node_items())

    qtbot.waitUntil(whole)
    window.learning.panel.next()  # "What a.grad says": select a
    qtbot.wait(50)
    assert window.editor.scene.selected_node_ids() and whole()


def test_the_animators_graph_fits_whole_again_once_the_window_has_room(window, qtbot):
    """A fit that failed in a small window brought the minimap, whose band then kept the graph from fitting
    in any window after: on a 1280x720 projector the output card stayed cut off under it."""
    animator = window.animator
    window.tabs.setCurrentWidget(animator)
    window.resize(700, 500)
    qtbot.waitUntil(lambda: animator.view.is_minimap_visible())  # too small to read whole: the minimap
    window.resize(1800, 600)  # room for the graph, but not for it and the minimap's band
    view = animator.view

    def whole() -> bool:
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        return all(shown.contains(item.sceneBoundingRect()) for item in animator.scene.node_items())

    qtbot.waitUntil(lambda: whole() and not view.is_minimap_visible())
