"""The step's explanation box is a Tab stop (issue 32): it shows that it has the keyboard, a frame round its edge
where its style draws none, and the keyboard still scrolls it. Key events only."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def border_pixels(widget) -> list[int]:
    """The colours along the widget's top and left edges, 1 px in."""
    image = widget.grab().toImage()
    return ([image.pixel(x, 1) for x in range(2, widget.width() - 2, 3)]
            + [image.pixel(1, y) for y in range(2, widget.height() - 2, 3)])


def test_the_explanation_box_shows_the_focus_and_scrolls_by_keys(loaded, qtbot):
    panel = loaded
    box = panel.steps.explanation_box
    QTest.keyClick(panel.view, Qt.Key.Key_Right)  # the first step
    panel.steps.set_explanation_lines(2)  # a box shorter than the step's words: it scrolls
    panel.steps.show_text("A long step", "\n".join(f"line {i}" for i in range(30)))
    qtbot.waitUntil(lambda: box.verticalScrollBar().maximum() > 0)
    plain = border_pixels(box)
    panel.view.clearFocus()
    panel.view.setFocus(Qt.FocusReason.TabFocusReason)  # as if Tab had brought the keyboard to the graph
    qtbot.waitUntil(panel.view.hasFocus)
    for _ in range(40):
        if QApplication.focusWidget() is box:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is box, "Tab never reached the explanation box"
    framed = border_pixels(box)
    assert sum(a != b for a, b in zip(plain, framed)) > len(plain) // 2  # a frame all round, not a speck
    bar = box.verticalScrollBar()
    assert bar.value() == 0
    QTest.keyClick(box, Qt.Key.Key_Down)
    line = bar.value()
    assert line > 0
    QTest.keyClick(box, Qt.Key.Key_PageDown)
    assert bar.value() > line
    QTest.keyClick(box, Qt.Key.Key_Up)
    assert bar.value() < bar.maximum()
    for _ in range(3):
        QTest.keyClick(box, Qt.Key.Key_PageUp)
    assert bar.value() == 0  # back at the top, as the box was before it had the keyboard
    QTest.keyClick(box, Qt.Key.Key_Tab)  # and Tab goes on
    assert QApplication.focusWidget() is not box
    assert border_pixels(box) == plain
