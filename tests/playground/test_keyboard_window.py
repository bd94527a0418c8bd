"""The window by keyboard (issue 32, items 2 and 5): Tab goes round the window in the order it is laid out and
reaches every tab's controls, Ctrl+PgDown and Ctrl+PgUp switch tabs, Space pauses training, the menu key
opens a node's menu at its card, and Help > Keyboard shortcuts and the README list every key of the menus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QTabBar, QTreeWidget, QWidget

from playground.shell.keyboard_help import keys_text, show_shortcuts

README = Path(__file__).resolve().parents[2] / "README.md"
WAIT = 20_000
CTRL = Qt.KeyboardModifier.ControlModifier


def focused():
    return QApplication.focusWidget()


def tab(times: int = 1) -> None:
    for _ in range(times):
        QTest.keyClick(focused(), Qt.Key.Key_Tab)


def tab_until(test, limit: int = 80) -> list:
    """Tab until ``test(focused widget)``; returns the widgets passed on the way (AssertionError if never)."""
    passed = []
    for _ in range(limit):
        if test(focused()):
            return passed
        passed.append(focused())
        tab()
    raise AssertionError(f"Tab never got there; it went {[w.objectName() for w in passed[-12:]]}")


@pytest.fixture
def active(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def test_tab_from_the_expression_box_reaches_the_tab_bar_then_the_training_controls(active, qtbot):
    window = active
    box = window.findChild(QLineEdit, "expressionInput")
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    passed = tab_until(lambda widget: isinstance(widget, QTabBar))
    assert window.editor.view in passed  # the canvas on the way, and Tab went on from it
    assert not window.editor.view.quick_search.isVisible()
    QTest.keyClick(focused(), Qt.Key.Key_Right)
    QTest.keyClick(focused(), Qt.Key.Key_Right)
    assert window.tabs.currentWidget() is window.training
    tab()
    assert focused().objectName() == "playButton"  # the tab's first control, at its top left
    passed = tab_until(lambda widget: widget.objectName() == "lessonList")  # the whole tab, on to the Learn panel
    names = [widget.objectName() for widget in passed]
    assert names.index("stepButton") < names.index("datasetCombo") < names.index("learningRateInput")
    assert names.index("learningRateInput") < names.index("showTestCheck")
    # Down the network column as it reads: each layer's neurons, activation and dropout, then every layer's activation.
    assert (names.index("removeLayerButton") < names.index("layer1Spin") < names.index("layer1ActivationCombo")
            < names.index("layer1DropoutSpin") < names.index("layer2Spin") < names.index("activationCombo")
            < names.index("learningRateInput"))
    assert "trainingBody" not in names and "trainingPanelScroll" not in names  # no stop that shows nothing
    assert "lossPlot" not in names  # a picture, not a control
    assert names.index("learningRateInput") < names.index("boundaryPlot") < names.index("showTestCheck")  # adds points
    assert "" not in names  # every stop is a named control (no bare scroll area)


def test_ctrl_page_down_and_up_go_round_the_tabs_from_a_text_box(active, qtbot):
    window = active
    box = window.findChild(QLineEdit, "expressionInput")
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    QTest.keyClick(box, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentWidget() is window.animator
    QTest.keyClick(focused() or window, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentWidget() is window.training
    QTest.keyClick(focused() or window, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentWidget() is window.editor
    QTest.keyClick(focused() or window, Qt.Key.Key_PageUp, CTRL)
    assert window.tabs.currentWidget() is window.training


def test_the_control_ctrl_page_down_takes_the_focus_to_wears_its_focus_ring(active, qtbot):
    """Ctrl+PgDown moves the focus to the new tab's control (Play, the Animate box): a student who cannot use a mouse
    must see where it went. Qt draws the ring only while the window's focus moved by keyboard
    (WA_KeyboardFocusChange); the tab's switch moved it with no keyboard reason and took the ring away."""
    window = active
    window.tabs.setCurrentWidget(window.editor)
    tab()  # the keyboard is in use: rings shown
    assert window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)
    for expected in (window.animator, window.training, window.editor):
        QTest.keyClick(focused() or window, Qt.Key.Key_PageDown, CTRL)
        assert window.tabs.currentWidget() is expected
        assert focused() is not None and expected.isAncestorOf(focused())
        assert window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange), focused().objectName()


def test_ctrl_shift_l_opens_the_learn_panel_with_the_keyboard_in_it(active, qtbot):
    """View > Learn panel by its key takes the keyboard there (the lesson list), as Graph outline does: it stayed on
    Play, and the student had to Tab through the whole training tab to reach the lessons."""
    window = active
    dock, panel = window.learning.dock, window.learning.panel
    window.tabs.setCurrentWidget(window.training)
    dock.setVisible(False)
    play = window.training.findChild(QWidget, "playButton")
    play.setFocus()
    qtbot.waitUntil(play.hasFocus)
    QTest.keyClick(play, Qt.Key.Key_L, CTRL | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(dock.isVisible)
    assert focused() is panel.lesson_list
    QTest.keyClick(focused(), Qt.Key.Key_L, CTRL | Qt.KeyboardModifier.ShiftModifier)  # closed again: back in the tab
    qtbot.waitUntil(lambda: not dock.isVisible())
    assert focused() is not None and window.training.isAncestorOf(focused())


def test_the_last_answer_entered_takes_the_keyboard_on_to_next_lesson(active, qtbot):
    """Enter on the right answer to a step's last question greys the answer box: the keyboard goes on to the Next
    button (it fell on ◀ Back, the control before the box, and Space went back a step)."""
    window = active
    panel = window.learning.panel
    window.learning.start("01-value-and-gradient")
    while panel.run.question is None:  # the steps up to "Check yourself": y = tanh(x) at x = 1
        QTest.keyClick(panel.next_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: focused() is panel.answer_input)
    QTest.keyClicks(panel.answer_input, "1-0.7616**2")
    QTest.keyClick(panel.answer_input, Qt.Key.Key_Return)
    assert panel.run.question is None and not panel.answer_input.isEnabled()  # answered, right
    assert focused() is panel.next_button and panel.next_button.isEnabled()
    assert window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)  # wearing its focus ring


def test_space_plays_and_pauses_training_but_a_tick_box_keeps_its_space(active, qtbot):
    window = active
    training = window.training
    window.tabs.setCurrentWidget(training)
    qtbot.waitUntil(lambda: training.data is not None, timeout=WAIT)
    plot = training.findChild(object, "lossPlot")  # no control: Space is the tab's (the boundary's plot adds points)
    plot.setFocus()
    qtbot.waitUntil(plot.hasFocus)
    QTest.keyClick(plot, Qt.Key.Key_Space)
    assert training.is_playing
    QTest.keyClick(plot, Qt.Key.Key_Space)
    assert not training.is_playing
    box = training.findChild(object, "showTestCheck")
    ticked = box.isChecked()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    QTest.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked() != ticked and not training.is_playing
    assert "(Space" in training.findChild(object, "playButton").toolTip()


def test_the_menu_key_opens_the_selected_nodes_menu_at_its_card(active, qtbot):
    window = active
    view, scene, document = window.editor.view, window.editor.scene, window.document
    window.editor.build_from_expression("a=2; b=3; t=a*b; u=t+1")
    leaf = next(n.id for n in document.nodes if document.name(n.id) == "a")
    scene.select_nodes([leaf])
    seen = []

    def on_menu_shown():
        menu = QApplication.activePopupWidget()
        seen.append(menu.objectName() if menu else None)
        if menu is not None:
            menu.findChild(QAction, "makeOutputAction").trigger()
            menu.close()

    QTimer.singleShot(100, on_menu_shown)
    corner = QPoint(3, 3)  # where a keyboard's menu event says it is: the view's corner, not the card
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, corner, view.mapToGlobal(corner)))
    qtbot.waitUntil(lambda: bool(seen))
    assert seen == ["nodeContextMenu"] and document.effective_output() == leaf  # a's menu, not the background's


def _readme_keyboard_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## Keyboard\n")
    return text[start:text.index("\n## ", start + 1)]


def _every_shortcut(window) -> dict[str, str]:
    return {action.text().replace("&", ""): keys_text(action) for action in window.findChildren(QAction)
            if not action.shortcut().isEmpty()}


def test_help_keyboard_shortcuts_lists_every_menu_key_in_its_group(active, qtbot):
    window = active
    dialog = show_shortcuts(window)
    tree = dialog.findChild(QTreeWidget, "shortcutsTree")
    branches = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    groups = {branch.text(0).split(" (")[0]: branch for branch in branches}
    assert list(groups) == ["Editor", "Canvas", "Animator", "Training", "Lessons", "Window", "Mouse"]
    rows = {(branch.child(j).text(1), branch.child(j).text(0)) for branch in groups.values()
            for j in range(branch.childCount())}
    keys_listed = {keys for _what, keys in rows}
    shortcuts = _every_shortcut(window)
    assert {"Connect…", "Disconnect…", "Next tab", "Previous tab", "Make output"} <= set(shortcuts)
    for name, keys in shortcuts.items():
        assert any(what.endswith(name) and listed == keys for what, listed in rows), (name, keys)
    assert "Ctrl+K" in keys_listed and ("Select the nearest node that way (at first: the output)",
                                        "← → ↑ ↓") in rows
    screen = dialog.screen().availableGeometry()
    assert dialog.width() <= screen.width() and dialog.height() <= screen.height()
    dialog.close()


def test_the_readmes_keyboard_section_has_every_shortcut_of_the_app(window):
    section = _readme_keyboard_section()
    for name, keys in _every_shortcut(window).items():
        for one in keys.split(", "):
            assert re.search(rf"(^|[\s|,(]){re.escape(one)}($|[\s|,)])", section, re.M), (name, one)


def test_the_animators_keys_leave_a_control_the_keys_it_uses(active, qtbot):
    window = active
    animator = window.animator
    QTest.keyClick(window.findChild(QLineEdit, "expressionInput"), Qt.Key.Key_B, CTRL)  # Animate backward
    assert window.tabs.currentWidget() is animator
    view = animator.findChild(object, "animatorView")
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    QTest.keyClick(view, Qt.Key.Key_Right)
    assert animator.position == 1
    QTest.keyClick(view, Qt.Key.Key_Space)
    assert animator.is_playing
    QTest.keyClick(view, Qt.Key.Key_Space)  # what moves by itself stops by keyboard
    assert not animator.is_playing
    position = animator.position
    speed = animator.findChild(object, "animSpeedSlider")
    speed.setFocus()
    qtbot.waitUntil(speed.hasFocus)
    before = speed.value()
    QTest.keyClick(speed, Qt.Key.Key_Right)  # the slider's own arrow: faster, not a step
    assert speed.value() == before + 1 and animator.position == position
    step_button = animator.findChild(object, "animStepForwardButton")
    step_button.setFocus()
    qtbot.waitUntil(step_button.hasFocus)
    QTest.keyClick(step_button, Qt.Key.Key_Space)  # the button presses: one step, no playing
    assert animator.position == position + 1 and not animator.is_playing
    QTest.keyClick(step_button, Qt.Key.Key_End)  # a key the button leaves goes on to the animator
    assert animator.position == len(animator.timeline)


def test_enter_on_an_operation_takes_the_keyboard_to_its_properties(active, qtbot):
    window = active
    editor, document = window.editor, window.document
    editor.build_from_expression("a=2; b=3; t=a*b")
    view = editor.view
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(view.hasFocus)
    QTest.keyClick(view, Qt.Key.Key_Right)  # the output, t
    assert [document.name(n) for n in editor.scene.selected_node_ids()] == ["t"]
    QTest.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: focused() is not None and editor.properties.isAncestorOf(focused()))
    assert focused().isVisible() and focused().objectName() == "labelEdit"  # its label, first of its properties
