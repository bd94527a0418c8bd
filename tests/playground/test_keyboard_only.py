"""The whole app without a mouse (issue 32, item 2): build `(a*b)+c`, wire it with Connect…, evaluate, step the
backward animator and train two moons until it has learned, with key events alone, each sent where the
keyboard is (the focused widget), as a keyboard does. The test reads state; it never calls a widget to act."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidget

from tests.playground.app_window import open_window

WAIT = 30_000
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


def focused():
    return QApplication.focusWidget()


def key(qtbot, which, modifiers=NONE) -> None:
    """One key, where the keyboard is."""
    target = focused()
    assert target is not None, "the keyboard is nowhere"
    QTest.keyClick(target, which, modifiers)


def type_text(text: str) -> None:
    QTest.keyClicks(focused(), text)


def tab_to(qtbot, wanted, backwards: bool = False, limit: int = 80) -> None:
    """Tab (or Shift+Tab) until the focused widget is ``wanted`` (an object name, or a test on the widget)."""
    matches = wanted if callable(wanted) else (lambda widget: widget is not None and widget.objectName() == wanted)
    for _ in range(limit):
        if matches(focused()):
            return
        key(qtbot, Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {wanted}; the keyboard is on {focused()}")


def walk_to(qtbot, window, name: str) -> None:
    """Arrow keys on the canvas from card to card until the node called ``name`` is selected."""
    scene, document = window.editor.scene, window.document
    target = next(n.id for n in document.nodes if document.name(n.id) == name)
    for _ in range(20):
        chosen = scene.selected_node_ids()
        if chosen == [target]:
            return
        if not chosen:
            key(qtbot, Qt.Key.Key_Right)
            continue
        here = scene.node_item(chosen[0]).sceneBoundingRect().center()
        there = scene.node_item(target).sceneBoundingRect().center()
        dx, dy = there.x() - here.x(), there.y() - here.y()
        if abs(dx) >= abs(dy):
            key(qtbot, Qt.Key.Key_Right if dx > 0 else Qt.Key.Key_Left)
        else:
            key(qtbot, Qt.Key.Key_Down if dy > 0 else Qt.Key.Key_Up)
    raise AssertionError(f"the arrows never reached {name}")


def connect_to(qtbot, window, words: str) -> None:
    """Ctrl+K, then ↓ through the list to the input described by ``words``, then Enter."""
    key(qtbot, Qt.Key.Key_K, CTRL)
    qtbot.waitUntil(lambda: isinstance(focused(), QListWidget) and focused().objectName() == "wireChoiceList")
    choices = focused()
    texts = [choices.item(i).text() for i in range(choices.count())]
    row = next(i for i, text in enumerate(texts) if words in text)
    while choices.currentRow() < row:
        key(qtbot, Qt.Key.Key_Down)
    key(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: focused() is window.editor.view)  # the keyboard back on the canvas


@pytest.fixture
def window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    yield window
    window.training.pause()


def test_build_wire_evaluate_animate_and_train_with_the_keyboard_alone(qtbot, window):
    editor, document = window.editor, window.document

    # Build a, b, c and t = a * b from the expression box.
    tab_to(qtbot, "expressionInput")
    key(qtbot, Qt.Key.Key_A, CTRL)
    type_text("a=2; b=3; c=4; t=a*b")
    key(qtbot, Qt.Key.Key_Return)
    assert sorted(document.name(n.id) for n in document.nodes) == ["a", "b", "c", "t"]

    # On to the canvas by Tab; "/" is quick search there (Tab would move on): an add node.
    tab_to(qtbot, "graphView")
    assert window.statusBar().currentMessage().startswith("Canvas: arrows select a node")  # the canvas's keys
    key(qtbot, Qt.Key.Key_Slash)
    qtbot.waitUntil(lambda: focused() is not None and focused().objectName() == "quickSearchInput")
    type_text("add")
    key(qtbot, Qt.Key.Key_Return)
    added = [n for n in document.nodes if n.kind == "add"]
    assert len(added) == 1 and editor.scene.selected_node_ids() == [added[0].id]
    qtbot.waitUntil(lambda: focused() is editor.view)
    total = document.name(added[0].id)

    # Wire t and c into it from the Connect… list, as a drag would.
    walk_to(qtbot, window, "t")
    connect_to(qtbot, window, f"input 1 (a) of {total}")
    walk_to(qtbot, window, "c")
    connect_to(qtbot, window, f"input 2 (b) of {total}")
    names = {(document.name(e.source), document.name(e.target), e.port) for e in document.edges}
    assert names == {("a", "t", 0), ("b", "t", 1), ("t", total, 0), ("c", total, 1)}

    # The sum is the output (Ctrl+Shift+M: the expression made t the output).
    walk_to(qtbot, window, total)
    key(qtbot, Qt.Key.Key_M, CTRL | SHIFT)
    assert document.effective_output() == added[0].id

    # Evaluated: (2 * 3) + 4 = 10; Check gradients (Ctrl+G) agrees with finite differences.
    assert editor.evaluation.results[added[0].id].value == 10
    key(qtbot, Qt.Key.Key_G, CTRL)
    table = editor.gradcheck_table
    assert table.rowCount() == 3 and all(table.item(row, 4).text() == "✓" for row in range(3))

    # A node moved by Shift+arrows, one undo step, and Ctrl+Z puts it back.
    walk_to(qtbot, window, total)
    x = document.node(added[0].id).x
    key(qtbot, Qt.Key.Key_Right, SHIFT)
    assert document.node(added[0].id).x == x + 20
    key(qtbot, Qt.Key.Key_Z, CTRL)
    assert document.node(added[0].id).x == x

    # Animate backward (Ctrl+B) and step it with →.
    key(qtbot, Qt.Key.Key_B, CTRL)
    animator = window.animator
    assert window.tabs.currentWidget() is animator and animator.position == 0
    qtbot.waitUntil(lambda: focused() is animator.view)  # the keyboard on the graph it animates
    key(qtbot, Qt.Key.Key_Right)
    key(qtbot, Qt.Key.Key_Right)
    assert animator.position == 2
    key(qtbot, Qt.Key.Key_End)
    assert animator.position == len(animator.timeline) > 2

    # Training (Ctrl+PgDown), at the fastest pace, played with Space until it says it has learned.
    key(qtbot, Qt.Key.Key_PageDown, CTRL)
    training = window.training
    assert window.tabs.currentWidget() is training
    qtbot.waitUntil(lambda: training.data is not None, timeout=WAIT)
    tab_to(qtbot, "fastestButton")
    key(qtbot, Qt.Key.Key_Space)
    assert training.findChild(object, "fastestButton").isChecked()
    tab_to(qtbot, "playButton", backwards=True)
    key(qtbot, Qt.Key.Key_Space)
    assert training.is_playing
    qtbot.waitUntil(lambda: not training.is_playing, timeout=WAIT)
    assert training.message.startswith("Learned:")


def test_take_a_lesson_with_the_keyboard_alone(qtbot, window):
    # The Learn panel is the last stop of Tab's round: ↓ to lesson 2 and Enter starts it.
    tab_to(qtbot, "lessonList")
    lessons = focused()
    while lessons.currentRow() < 1:
        key(qtbot, Qt.Key.Key_Down)
    key(qtbot, Qt.Key.Key_Return)
    panel = window.learning.panel
    assert panel.lesson.id == "02-chain-rule"
    # Space on Next ▶ goes to the first question; the answer typed in its box and Enter checks it.
    tab_to(qtbot, "lessonNextButton")
    key(qtbot, Qt.Key.Key_Space)
    assert window.tabs.currentWidget() is window.animator
    tab_to(qtbot, "answerInput", backwards=True)
    type_text("6")
    key(qtbot, Qt.Key.Key_Return)
    feedback = window.findChild(object, "answerFeedback")
    assert "Right" in feedback.text()
