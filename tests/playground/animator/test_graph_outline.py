"""The animated graph's outline read by a screen reader (issue 32, item 1): each node's state, value and gradient
at the current step, the current step's node selected, a row chosen going to its step, a quiz's "?" kept."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from playground.animator.panel import AnimatorPanel
from tests.playground.animator_driving import traced


def heard(panel) -> list[str]:
    """The outline's rows as the QAccessible tree names them."""
    tree = QAccessible.queryAccessibleInterface(panel.outline.widget)
    items = [tree.child(i) for i in range(tree.childCount())]
    return [item.text(QAccessible.Text.Name) for item in items if item.role() == QAccessible.Role.TreeItem]


def opened(panel, qtbot):
    QAccessible.setActive(True)  # as with Orca running: Qt keeps its accessible tree in step with the rows
    panel.outline.action.trigger()
    qtbot.waitUntil(panel.outline.widget.isVisible)
    return panel.outline.widget


def test_the_rows_follow_the_steps_with_each_nodes_state_and_the_current_step(loaded, qtbot):
    panel = loaded
    try:
        outline = opened(panel, qtbot)
        assert outline.accessibleName() == "Animated graph outline"
        rows = heard(panel)
        assert len(rows) == len(panel.document.nodes)
        assert all(", not reached yet, value not yet, grad not yet" in row for row in rows)
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)  # the first forward step
        rows = heard(panel)
        current = panel.timeline.current.node_id
        name = panel.document.name(current)
        assert [row for row in rows if "the current step" in row] == [
            next(row for row in rows if row.startswith(f"{name}, "))]
        assert outline.selected_node_ids() == [current]
        qtbot.keyClick(panel.view, Qt.Key.Key_End)
        rows = heard(panel)
        assert "a, done, value 2, grad 31" in rows  # ((a*b)+c)*(a+d): a.grad = 7·3 + 10 = 31
        assert any(row.startswith("L, ") and row.endswith("value 70, grad 1") for row in rows)
    finally:
        QAccessible.setActive(False)


def test_choosing_a_row_goes_to_its_nodes_step(loaded, qtbot):
    panel = loaded
    try:
        outline = opened(panel, qtbot)
        document = panel.document
        a = next(node_id for node_id in document.names() if document.name(node_id) == "a")
        outline.setFocus()
        outline.setCurrentIndex(outline.node_row(a).index())  # as arrowing to it does
        assert panel.position == panel.timeline.frame_of_node(a)
        assert panel.timeline.current.node_id == a
        assert any(row.startswith("a, ") and "the current step" in row for row in heard(panel))
        assert outline.hasFocus()
    finally:
        QAccessible.setActive(False)


def test_a_quizs_hidden_numbers_stay_hidden(panel, qtbot):
    assert panel.load(traced())
    try:
        opened(panel, qtbot)
        panel.hide_after(4)  # a lesson's exercise: the inputs' values are given, the rest asked for
        panel.seek(panel.frame_count)  # a student who drags the slider to the end hears no answer
        rows = heard(panel)
        assert "t1, done, value ?, grad ?" in rows
        assert not any("31" in row or "70" in row for row in rows)
        panel.hide_after(5)  # t1 answered: its value is said
        assert "t1, done, value 6, grad ?" in heard(panel)
    finally:
        QAccessible.setActive(False)


def test_with_a_screen_reader_running_it_opens_with_the_step_panel_and_stays(qtbot):
    QAccessible.setActive(True)  # as Qt sets it when AT-SPI says a screen reader runs
    try:
        panel = AnimatorPanel()
        panel.resize(700, 500)  # narrow: the step panel would give way to the graph
        qtbot.addWidget(panel)
        panel.show()
        assert panel.load(traced())
        qtbot.waitUntil(panel.outline.widget.isVisible)
        panel.give_way.update()  # the graph's room asked again: the panel stays, as a person's choice does
        assert panel.steps.isVisible() and panel.outline.action.isChecked()
        assert len(heard(panel)) == len(panel.document.nodes)
    finally:
        QAccessible.setActive(False)
