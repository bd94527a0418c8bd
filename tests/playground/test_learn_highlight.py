"""A lesson's ring around what it points at (issue 29, item 7): around the part of the control in sight, inside
its parent's part in sight, never over another pane; none at all while the control is scrolled away."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QPushButton, QScrollArea, QVBoxLayout, QWidget

from playground.learn.highlight import Highlight, shown_part


def _window(qtbot):
    """A column that scrolls, with a button at its far end, beside a list (the Learn dock's place)."""
    window = QWidget()
    qtbot.addWidget(window)
    column = QWidget()
    column_layout = QVBoxLayout(column)
    column_layout.addSpacing(900)
    button = QPushButton("Learning rate")
    column_layout.addWidget(button)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(column)
    row = QHBoxLayout(window)
    row.addWidget(area, 1)
    row.addWidget(QListWidget(), 1)
    window.resize(600, 300)
    window.show()
    qtbot.waitExposed(window)
    return window, area, button


def _area_rect(area) -> QRect:
    return QRect(area.viewport().mapTo(area.window(), QPoint(0, 0)), area.viewport().size())


def test_the_ring_is_round_the_control_scrolled_into_sight(qtbot):
    window, area, button = _window(qtbot)
    highlight = Highlight(button)
    qtbot.waitUntil(lambda: shown_part(button).size() == button.size())
    assert highlight.ring().contains(shown_part(button))
    assert _area_rect(area).contains(highlight.ring().intersected(highlight.clip()))


def test_no_ring_while_the_control_is_scrolled_away_and_never_over_the_next_pane(qtbot):
    window, area, button = _window(qtbot)
    highlight = Highlight(button)
    qtbot.waitUntil(lambda: shown_part(button).size() == button.size())
    qtbot.wait(500)  # the highlight's own settling scrolls are over
    area.verticalScrollBar().setValue(0)  # the person scrolls back up: the button out of sight
    assert shown_part(button).isEmpty() and highlight.ring().isEmpty()
    bar = area.verticalScrollBar()
    bar.setValue(bar.maximum() - button.height() // 2)  # half of it in sight
    ring = highlight.ring().intersected(highlight.clip())
    assert not ring.isEmpty() and _area_rect(area).contains(ring)
    assert ring.height() < button.height() + 8  # round the half in sight, not the whole button below the view
