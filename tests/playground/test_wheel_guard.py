"""The mouse wheel scrolls the panel under the pointer; it edits a spin box, combo box or slider only once that
has keyboard focus (issue 29, item 4): scrolling down the training settings must not change them."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QSlider,
    QSpinBox,
)

WHEEL_DOWN = -120  # one notch


def turn_wheel(widget, delta: int = WHEEL_DOWN) -> None:
    at = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(at, QPointF(widget.mapToGlobal(at.toPoint())), QPoint(), QPoint(0, delta),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def scroll_area_of(widget) -> QAbstractScrollArea:
    parent = widget.parentWidget()
    while not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    return parent


def show_settings_that_scroll(window) -> None:
    """The training tab with its settings column open and shorter than what it holds."""
    window.resize(1500, 520)
    window.tabs.setCurrentWidget(window.training)
    window.training.body.set_settings_folded(False)


def first_visible_spin_box_beside(widget) -> QAbstractSpinBox:
    area = scroll_area_of(widget)
    return next(box for box in area.findChildren(QAbstractSpinBox) if box.isVisible() and box.isEnabled())


def test_the_wheel_over_the_training_settings_scrolls_them_and_changes_nothing(qtbot, window):
    show_settings_that_scroll(window)
    combo: QComboBox = window.training.findChild(QComboBox, "activationCombo")
    qtbot.waitUntil(lambda: combo.isVisible() and scroll_area_of(combo).verticalScrollBar().maximum() > 0)
    spin = first_visible_spin_box_beside(combo)
    bar = scroll_area_of(spin).verticalScrollBar()
    bar.setValue(0)
    before = (spin.value(), combo.currentIndex(), window.training.settings)

    turn_wheel(spin)
    turn_wheel(combo)

    assert (spin.value(), combo.currentIndex(), window.training.settings) == before
    assert bar.value() > 0  # the panel scrolled instead


def test_a_spin_box_with_focus_changes_by_the_wheel(qtbot, window):
    show_settings_that_scroll(window)
    combo = window.training.findChild(QComboBox, "activationCombo")
    qtbot.waitUntil(combo.isVisible)
    spin = first_visible_spin_box_beside(combo)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    spin.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(spin.hasFocus)
    before = spin.value()
    turn_wheel(spin, delta=120)
    assert spin.value() == before + spin.singleStep()


def test_the_wheel_never_gives_focus_and_scroll_bars_still_scroll(qtbot, window):
    show_settings_that_scroll(window)
    shown = [w for kind in (QSpinBox, QComboBox, QSlider) for w in window.findChildren(kind) if w.isVisible()]
    assert len(shown) > 10
    for widget in shown:  # Qt sets a widget's policy when it is first shown (polished)
        assert widget.focusPolicy() != Qt.FocusPolicy.WheelFocus, widget.objectName()
    show_settings_that_scroll(window)
    combo = window.training.findChild(QComboBox, "activationCombo")
    qtbot.waitUntil(lambda: combo.isVisible() and scroll_area_of(combo).verticalScrollBar().maximum() > 0)
    bar: QScrollBar = scroll_area_of(combo).verticalScrollBar()
    bar.setValue(0)
    turn_wheel(bar)
    assert bar.value() > 0
