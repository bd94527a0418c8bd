"""The editor's canvas by keyboard alone (issue 32, item 2): arrows walk from card to card, Shift+arrows move
cards (one undo step a key run), Enter edits, Connect… and Disconnect… wire from a list as a drag does, Tab
never traps, and the canvas shows when it has the keyboard."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QCursor, QKeyEvent, QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QScrollArea, QVBoxLayout, QWidget

from playground.canvas.card_scene import GRID_STEP
from playground.canvas.view import GraphView
from playground.editor.keyboard_moves import nearest_towards
from playground.editor.scene import GraphScene
from playground.graph.document import Edge, GraphDocument, Node
from tests.playground.canvas_driving import traced_document, wiring_document

SHIFT = Qt.KeyboardModifier.ShiftModifier


def press(view, key, modifiers=Qt.KeyboardModifier.NoModifier, auto_repeat: bool = False) -> None:
    """One key press as the keyboard sends it (a held key repeats with ``auto_repeat``), then its release."""
    QApplication.sendEvent(view, QKeyEvent(QEvent.Type.KeyPress, key, modifiers, "", auto_repeat))
    QApplication.sendEvent(view, QKeyEvent(QEvent.Type.KeyRelease, key, modifiers, "", auto_repeat))


def selected(canvas) -> list[str]:
    return canvas.scene.selected_node_ids()


def test_nearest_towards_prefers_a_card_straight_ahead_to_a_nearer_one_off_to_the_side():
    start = QPointF(0, 0)
    others = {"ahead": QPointF(200, 10), "aside": QPointF(90, 80), "behind": QPointF(-50, 0)}
    assert nearest_towards(start, others, QPointF(1, 0)) == "ahead"
    assert nearest_towards(start, others, QPointF(-1, 0)) == "behind"
    assert nearest_towards(start, others, QPointF(0, 1)) == "aside"
    assert nearest_towards(start, others, QPointF(0, -1)) is None


def test_arrows_walk_from_the_output_through_the_graph(make_canvas):
    canvas = make_canvas(traced_document())
    view = canvas.view
    press(view, Qt.Key.Key_Right)  # nothing selected: the output first
    assert selected(canvas) == ["f"] and canvas.messages[-1] == "Selected f"
    press(view, Qt.Key.Key_Left)
    assert selected(canvas) == ["s"]  # (440, 60) is nearer the eye's line than t at (440, 300)
    press(view, Qt.Key.Key_Down)
    assert selected(canvas) == ["t"]
    press(view, Qt.Key.Key_Left)
    assert selected(canvas) == ["d"]
    press(view, Qt.Key.Key_Up)
    assert selected(canvas) == ["c"]
    press(view, Qt.Key.Key_Left)  # nothing further left: the selection stays
    assert selected(canvas) == ["c"]
    assert canvas.stack.count() == 0  # walking edits nothing
    centre = view.mapToScene(view.viewport().rect().center())
    press(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)  # Ctrl+arrows pan, the selection stays
    assert view.mapToScene(view.viewport().rect().center()).x() > centre.x() and selected(canvas) == ["c"]


def test_shift_arrows_move_the_selection_one_undo_step_a_key_run(make_canvas):
    canvas = make_canvas(traced_document())
    view, doc = canvas.view, canvas.doc
    canvas.scene.select_nodes(["m"])
    press(view, Qt.Key.Key_Right, SHIFT)
    press(view, Qt.Key.Key_Right, SHIFT, auto_repeat=True)  # the key held down: the same run
    press(view, Qt.Key.Key_Right, SHIFT, auto_repeat=True)
    assert (doc.node("m").x, doc.node("m").y) == (220 + 3 * GRID_STEP, 0)
    assert canvas.stack.count() == 1 and canvas.stack.undoText() == "Move t1"
    press(view, Qt.Key.Key_Down, SHIFT)  # a new press: a new step
    assert (doc.node("m").x, doc.node("m").y) == (220 + 3 * GRID_STEP, GRID_STEP)
    assert canvas.stack.count() == 2
    assert canvas.scene.node_item("m").pos() == QPointF(220 + 3 * GRID_STEP, GRID_STEP)  # the card followed
    canvas.stack.undo()
    assert (doc.node("m").x, doc.node("m").y) == (220 + 3 * GRID_STEP, 0)
    canvas.stack.undo()
    assert (doc.node("m").x, doc.node("m").y) == (220, 0)
    canvas.stack.redo()
    assert (doc.node("m").x, doc.node("m").y) == (220 + 3 * GRID_STEP, 0)


def test_enter_edits_a_leaf_on_its_card_and_sends_an_operation_to_its_properties(make_canvas):
    canvas = make_canvas(wiring_document())
    view = canvas.view
    wanted = []
    canvas.scene.properties_requested.connect(wanted.append)
    canvas.scene.select_nodes(["a"])
    press(view, Qt.Key.Key_Return)
    editor = canvas.scene.inline_editor
    assert editor is not None and editor.text() == "2"
    editor.selectAll()
    QTest.keyClicks(view, "7")  # typed into the canvas: the open editor takes it
    press(view, Qt.Key.Key_Return)
    assert canvas.doc.node("a").value == 7 and canvas.scene.inline_editor is None
    canvas.scene.select_nodes(["m"])
    press(view, Qt.Key.Key_F2)
    assert wanted == ["m"] and canvas.scene.inline_editor is None


def _open_connect(canvas, node_id: str) -> QDialog:
    canvas.scene.select_nodes([node_id])
    dialog = canvas.scene.open_connect(canvas.view)
    assert dialog is not None and dialog.isVisible()
    return dialog


def _choose(dialog: QDialog, row: int) -> None:
    dialog.list.setFocus()
    for _ in range(row):
        QTest.keyClick(dialog.list, Qt.Key.Key_Down)
    QTest.keyClick(dialog.list, Qt.Key.Key_Return)


def test_connect_lists_the_inputs_an_output_may_feed_and_enter_makes_the_wire(make_canvas, qtbot):
    canvas = make_canvas(wiring_document())
    dialog = _open_connect(canvas, "b")
    texts = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert texts == ["input 2 (b) of t1: t1 = a * ? · free",  # the free inputs first
                     "input 1 (a) of t1: t1 = a * ? · fed by a now (replaced)",
                     "input 1 (a) of t2: t2 = -t1 · fed by t1 now (replaced)"]
    _choose(dialog, 0)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert Edge("b", "m", 1) in canvas.doc.edges
    assert canvas.stack.count() == 1 and canvas.stack.undoText() == "Connect"
    assert canvas.messages[-1] == "Connected b → t1 (b)"  # the drag's words
    canvas.stack.undo()
    assert Edge("b", "m", 1) not in canvas.doc.edges


def test_connect_leaves_out_cycles_and_replaces_a_taken_input_in_one_step(make_canvas, qtbot):
    canvas = make_canvas(wiring_document())
    canvas.scene.select_nodes(["n"])
    assert canvas.scene.open_connect(canvas.view) is None  # t2 could only feed t1, upstream of itself: a cycle
    assert canvas.messages[-1] == "No input t2 could feed without making a cycle"

    dialog = _open_connect(canvas, "b")
    _choose(dialog, 1)  # input a of t1, fed by a now
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert Edge("b", "m", 0) in canvas.doc.edges and Edge("a", "m", 0) not in canvas.doc.edges
    assert canvas.stack.count() == 1 and canvas.messages[-1] == "Connected b → t1 (a) in place of a"
    canvas.stack.undo()
    assert Edge("a", "m", 0) in canvas.doc.edges and Edge("b", "m", 0) not in canvas.doc.edges


def test_escape_closes_connect_and_changes_nothing(make_canvas, qtbot):
    canvas = make_canvas(wiring_document())
    dialog = _open_connect(canvas, "b")
    QTest.keyClick(dialog.list, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert canvas.stack.count() == 0 and len(canvas.doc.edges) == 2


def test_connect_refuses_shapes_that_do_not_fit_with_the_drags_words(make_canvas, qtbot):
    doc = GraphDocument()
    doc.add_node(Node("X", "input", 0, 0, "X", [[1.0, 2.0, 3.0]]))  # (1, 3)
    doc.add_node(Node("W", "input", 0, 160, "W", [[1.0], [2.0]]))  # (2, 1)
    doc.add_node(Node("p", "matmul", 250, 40))
    doc.add_edge(Edge("X", "p", 0))
    canvas = make_canvas(doc)
    dialog = _open_connect(canvas, "W")
    rows = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    _choose(dialog, rows.index(next(text for text in rows if "free" in text)))
    qtbot.waitUntil(lambda: not dialog.isVisible())
    problem = doc.connection_problem("W", "p", 1)
    assert problem and canvas.messages[-1] == f"Can't connect: {problem}"
    assert canvas.stack.count() == 0


def test_disconnect_lists_the_wires_of_the_selected_node(make_canvas, qtbot):
    canvas = make_canvas(wiring_document())
    canvas.scene.select_nodes(["m"])
    dialog = canvas.scene.open_disconnect(canvas.view)
    assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
        "a → input 1 (a) of t1", "t1 → input 1 (a) of t2"]
    _choose(dialog, 1)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert canvas.doc.edges == [Edge("a", "m", 0)] and canvas.stack.count() == 1
    canvas.scene.select_nodes(["b"])
    assert canvas.scene.open_disconnect(canvas.view) is None and canvas.messages[-1] == "b has no wires"


def test_tab_moves_on_when_tab_brought_the_keyboard_and_slash_opens_quick_search(qtbot):
    holder = QWidget()
    before, after = QLineEdit(), QLineEdit()
    scene = GraphScene(traced_document(), QUndoStack())  # held here: a view does not keep its scene alive
    view = GraphView(scene)
    layout = QVBoxLayout(holder)
    for widget in (before, view, after):
        layout.addWidget(widget)
    qtbot.addWidget(holder)
    holder.resize(800, 600)
    holder.show()
    qtbot.waitExposed(holder)
    holder.activateWindow()
    before.setFocus()
    qtbot.waitUntil(before.hasFocus)
    QTest.keyClick(before, Qt.Key.Key_Tab)
    assert view.hasFocus() and view.came_by_keyboard
    QTest.keyClick(view, Qt.Key.Key_Slash)
    assert view.quick_search.isVisible()
    QTest.keyClick(view.quick_search.search, Qt.Key.Key_Escape)
    qtbot.waitUntil(view.hasFocus)
    QTest.keyClick(view, Qt.Key.Key_Tab)  # no trap: on to the next control
    assert after.hasFocus() and not view.quick_search.isVisible()
    QTest.keyClick(after, Qt.Key.Key_Backtab)
    assert view.hasFocus()
    QTest.keyClick(view, Qt.Key.Key_Backtab)
    assert before.hasFocus()


def test_the_canvas_wears_a_frame_while_it_has_the_keyboard(qtbot, make_canvas):
    canvas = make_canvas(GraphDocument())
    view = canvas.view

    def edge_colour():
        return view.viewport().grab().toImage().pixelColor(1, view.viewport().height() // 2).name()

    view.clearFocus()
    qtbot.waitUntil(lambda: not view.hasFocus())
    assert edge_colour() == canvas.scene.colors["background"].name()
    view.activateWindow()
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(view.hasFocus)
    assert edge_colour() == canvas.scene.colors["selected"].name()


def test_a_card_walked_to_is_scrolled_into_view_clear_of_the_minimap(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("a", "input", 0, 0, "a", 1))
    doc.add_node(Node("far", "input", 0, 3000, "far", 2))  # far below the view
    canvas = make_canvas(doc)
    view = canvas.view
    view.set_minimap_visible(True)
    view.centerOn(60, 30)
    canvas.scene.select_nodes(["a"])
    press(view, Qt.Key.Key_Down)
    assert selected(canvas) == ["far"]
    card = view.mapFromScene(canvas.scene.node_item("far").sceneBoundingRect()).boundingRect()
    assert view.viewport().rect().contains(card)
    assert not card.intersects(view.minimap.geometry())


def _luminance(colour) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def test_the_focus_ring_and_frame_stand_out_three_to_one_against_the_canvas_in_both_themes():
    from playground.canvas.cards import SELECTION_RING
    from playground.canvas.style import DARK_COLORS, LIGHT_COLORS
    from playground.canvas.view import FOCUS_FRAME

    assert SELECTION_RING >= 2 and FOCUS_FRAME >= 2  # WCAG 2.4.11: at least 2 px
    for colours in (LIGHT_COLORS, DARK_COLORS):
        ring, canvas = _luminance(colours["selected"]), _luminance(colours["background"])
        assert (max(ring, canvas) + 0.05) / (min(ring, canvas) + 0.05) >= 3


def test_nodes_added_one_after_another_by_slash_lie_apart_in_sight(qtbot, make_canvas):
    """"/" opens quick search where a keyboard user is, not at the mouse pointer left wherever it was: three inputs
    and an add, each added by "/", name, Enter, lie apart in sight (they piled up on one spot, where the arrows
    could not tell them apart and the walk never reached the ones underneath)."""
    canvas = make_canvas(GraphDocument())
    view = canvas.view
    QCursor.setPos(view.viewport().mapToGlobal(view.viewport().rect().center()))  # the mouse, left over the canvas
    for name in ("Input", "Input", "Input", "add"):
        view.setFocus()
        QTest.keyClick(view, Qt.Key.Key_Slash)
        assert view.quick_search.isVisible()
        QTest.keyClicks(view.quick_search.search, name)
        QTest.keyClick(view.quick_search.search, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: not view.quick_search.isVisible())
    cards = [item.sceneBoundingRect() for item in canvas.scene.node_items()]
    assert len(cards) == 4
    assert not any(one.intersects(other) for i, one in enumerate(cards) for other in cards[i + 1:])
    sight = view.mapToScene(view.viewport().rect()).boundingRect()
    assert all(sight.contains(card) for card in cards)
    # Every card is reached by the arrows, from the last one added.
    reached, todo = set(selected(canvas)), list(selected(canvas))
    while todo:
        start = todo.pop()
        for key in (Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Right, Qt.Key.Key_Down):
            canvas.scene.select_nodes([start])
            press(view, key)
            todo += [node_id for node_id in selected(canvas) if node_id not in reached]
            reached.update(selected(canvas))
    assert reached == {node.id for node in canvas.doc.nodes}


def test_a_card_walked_to_is_brought_into_the_part_of_the_canvas_in_sight(qtbot, make_canvas):
    """In a panel that scrolls sideways (the editor at 150% beside the Learn dock on a 1280x720 screen) the canvas runs
    on under the panel's edge: the card an arrow walks to is brought whole into the part in sight, not merely into the
    canvas's viewport, where it was cut off under the edge."""
    canvas = make_canvas(traced_document())
    view = canvas.view
    area = QScrollArea()
    area.resize(500, 760)
    view.setParent(None)
    view.resize(1000, 700)
    area.setWidget(view)  # the canvas 1000 wide, 500 of it in sight
    area.show()
    qtbot.waitExposed(area)
    view.setFocus()
    sight = view.viewport().visibleRegion().boundingRect()
    assert 0 < sight.width() < view.viewport().width()
    try:
        canvas.scene.select_nodes(["s"])
        for key in (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Left, Qt.Key.Key_Left):  # to f, the rightmost, back
            press(view, key)
            chosen = selected(canvas)[-1]
            card = view.mapFromScene(canvas.scene.node_item(chosen).sceneBoundingRect()).boundingRect()
            assert view.viewport().visibleRegion().boundingRect().contains(card), (chosen, card)
        assert canvas.messages[-4] == "Selected f"
    finally:
        area.takeWidget()  # the view is the fixture's to close
        area.deleteLater()
