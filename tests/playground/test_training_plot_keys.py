"""The decision-boundary plot by keyboard (issue 32): Tab reaches it and a frame shows it has the keyboard, the
arrows move a crosshair (Shift: bigger steps), 0-9 choose the class, Enter and Space add a point there as a
click does, each said to a screen reader, and Tab leaves the plot again. Key events only."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from playground.training.plot_cursor import BIG_STEPS, STEPS

WAIT = 20_000
SHIFT = Qt.KeyboardModifier.ShiftModifier


def focused():
    return QApplication.focusWidget()


def crosshair(plot) -> tuple[float, float]:
    """Where the plot's accessible description says the crosshair is."""
    found = re.search(r"Crosshair at \((-?[\d.]+), (-?[\d.]+)\)", plot.accessibleDescription())
    assert found, plot.accessibleDescription()
    return float(found[1]), float(found[2])


@pytest.fixture
def spoken_lines(monkeypatch):
    from playground.widgets import spoken

    sent = []
    monkeypatch.setattr(spoken, "_send", lambda event: sent.append(event.message()))
    return sent


@pytest.fixture
def plot(qtbot, panel):
    """The plot, reached with Tab from the Play button."""
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)
    play = panel.findChild(object, "playButton")
    play.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(play.hasFocus)
    plot = panel.findChild(object, "boundaryPlot")
    for _ in range(60):
        if focused() is plot:
            break
        QTest.keyClick(focused(), Qt.Key.Key_Tab)
    assert focused() is plot, "Tab never reached the plot"
    return plot


def test_the_plot_is_a_tab_stop_with_a_frame_and_a_crosshair(qtbot, panel, plot):
    cursor = panel.boundary_column.keyboard
    assert cursor.frame.isVisible() and all(line.isVisible() for line in cursor.lines)
    edge = plot.grab().toImage()
    QTest.keyClick(plot, Qt.Key.Key_Tab)  # no trap: Tab goes on
    assert focused() is not plot and focused() is not None
    assert not cursor.frame.isVisible() and not any(line.isVisible() for line in cursor.lines)
    plain = plot.grab().toImage()
    assert any(edge.pixel(x, 1) != plain.pixel(x, 1) for x in range(0, plot.width(), 7))  # the frame, seen
    QTest.keyClick(focused(), Qt.Key.Key_Tab, SHIFT)
    assert focused() is plot  # and Shift+Tab comes back


def test_arrows_move_the_crosshair_and_shift_moves_it_further(qtbot, panel, plot):
    x0, x1, y0, y1 = panel.boundary_column.view.plane_extent or panel.boundary_column.view.extent
    x, y = crosshair(plot)
    for _ in range(3):
        QTest.keyClick(plot, Qt.Key.Key_Right)
    QTest.keyClick(plot, Qt.Key.Key_Down)
    moved = crosshair(plot)
    assert moved[0] == pytest.approx(x + 3 * (x1 - x0) / STEPS, abs=0.011)
    assert moved[1] == pytest.approx(y - (y1 - y0) / STEPS, abs=0.011)
    QTest.keyClick(plot, Qt.Key.Key_Up, SHIFT)
    assert crosshair(plot)[1] == pytest.approx(moved[1] + (y1 - y0) / BIG_STEPS, abs=0.011)
    for _ in range(2 * BIG_STEPS):
        QTest.keyClick(plot, Qt.Key.Key_Left, SHIFT)
    assert crosshair(plot)[0] == pytest.approx(x0, abs=0.006)  # it stays on the plane


def test_number_keys_choose_the_class_and_enter_and_space_add_points(qtbot, panel, plot, spoken_lines):
    count = len(panel.data.X_train)
    QTest.keyClick(plot, Qt.Key.Key_0)
    assert panel.findChild(object, "clickClass0Radio").isChecked()
    assert spoken_lines[-1] == "Adding points of class 0 (orange)"
    assert "Enter adds a point of class 0 (orange)" in plot.accessibleDescription()
    QTest.keyClick(plot, Qt.Key.Key_7)  # two classes only: nothing changes, and it is said why
    assert panel.findChild(object, "clickClass0Radio").isChecked()
    assert spoken_lines[-1] == "No class 7: the classes are 0 to 1"
    QTest.keyClick(plot, Qt.Key.Key_Right, SHIFT)
    x, y = crosshair(plot)
    QTest.keyClick(plot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(panel.data.X_train) == count + 1, timeout=WAIT)
    assert panel.data.y_train[-1] == 0
    assert np.allclose(panel.data.X_train[-1], [x, y], atol=0.006)
    assert spoken_lines[-1] == f"Added a point of class 0 (orange) at ({x:.2f}, {y:.2f})"
    QTest.keyClick(plot, Qt.Key.Key_1)
    QTest.keyClick(plot, Qt.Key.Key_Up)
    QTest.keyClick(plot, Qt.Key.Key_Space)  # Space adds here: it does not play
    qtbot.waitUntil(lambda: len(panel.data.X_train) == count + 2, timeout=WAIT)
    assert panel.data.y_train[-1] == 1 and panel.findChild(object, "clickClass1Radio").isChecked()
    assert not panel.is_playing
    assert spoken_lines[-1].startswith("Added a point of class 1 (blue) at (")


def test_the_readme_and_the_help_list_the_plots_keys(qtbot):
    from pathlib import Path

    from PySide6.QtWidgets import QMainWindow

    from playground.shell.keyboard_help import shortcut_groups
    from playground.training.plot_cursor import KEY_HELP

    window = QMainWindow()
    qtbot.addWidget(window)
    training = dict(shortcut_groups(window))["Training"]
    assert all((what, keys) in training for keys, what in KEY_HELP)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## Keyboard\n"):readme.index("\n## Lose no work")]
    for keys, what in KEY_HELP:
        assert f"| {keys} | {what} |" in section, keys


def test_a_regression_takes_no_point_from_the_keyboard_and_says_why(qtbot, panel, spoken_lines):
    panel.reset_confirmation.set_asks(False)
    problem = panel.findChild(object, "problemCombo")
    problem.setFocus()
    qtbot.waitUntil(problem.hasFocus)
    QTest.keyClick(problem, Qt.Key.Key_Down)  # Classification → Regression
    qtbot.waitUntil(lambda: panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
    requested = []
    panel.point_requested.connect(lambda *point: requested.append(point))
    plot = panel.findChild(object, "boundaryPlot")
    for _ in range(60):
        if focused() is plot:
            break
        QTest.keyClick(focused(), Qt.Key.Key_Tab)
    assert focused() is plot
    assert "a regression's points come from its data" in plot.accessibleDescription()
    QTest.keyClick(plot, Qt.Key.Key_Return)
    QTest.keyClick(plot, Qt.Key.Key_1)
    qtbot.wait(100)
    assert requested == [] and spoken_lines[-1] == "A regression's points come from its data: no point added"
