"""The animator's current step read by a screen reader (issue 32, item 1): each step's words are the accessible
description of the focused graph view, as the window's QAccessible tree gives them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible


def described(widget) -> str:
    return QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Description)


def test_each_step_is_the_description_of_the_focused_graph_view(loaded, qtbot):
    panel = loaded
    assert described(panel.view).startswith(f"Ready: {panel.frame_count} steps  ·  Press Play or → to start")
    heard = []
    for _ in range(panel.frame_count):
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)
        heard.append(described(panel.view))
        # What is heard is what the step panel shows, heading first (a quiz's "?" would be there too).
        assert heard[-1].startswith(panel.steps.heading.text())
        assert panel.steps.explanation.text().split("\n")[0].strip() in heard[-1]
        assert described(panel.steps.explanation) == panel.steps.explanation.text()
    assert panel.view.hasFocus()  # stepping kept the focus on the view, where the descriptions are read
    assert heard[0].startswith(f"Step 1 of {panel.frame_count}")
    # One of a's two contributions, then their sum: the chain rule's arithmetic is heard, step by step.
    first = next(i for i, text in enumerate(heard) if "× 3 = 21" in text)
    second = next(i for i, text in enumerate(heard) if "21 + 10 = 31" in text or "10 + 21 = 31" in text)
    assert first < second
    assert len(set(heard)) == len(heard)  # every step says something new
    qtbot.keyClick(panel.view, Qt.Key.Key_Home)
    assert described(panel.view).startswith(f"Ready: {panel.frame_count} steps")
