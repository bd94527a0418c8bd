"""The graph canvas, driven by real Qt events on a shown GraphView: zoom, fit, the minimap, quick search,
tooltips and labels of the evaluation, following the model, the palette, wire labels clear of cards. Building
by mouse: `test_canvas.py`."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.canvas.view import MAX_ZOOM, MIN_ZOOM
from playground.editor.commands import EditCommand
from playground.editor.palette import NodePalette
from playground.graph import edits
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.widgets.errors import ExceptionReporter
from tests.playground.canvas_driving import (
    LEFT,
    NO_BUTTON,
    NO_MODIFIER,
    drag_mouse,
    input_port_pos,
    output_port_pos,
    traced_document,
    wiring_document,
)

# -- zoom, fit, minimap, quick search --------------------------------------------------------


def test_wheel_zooms_around_the_cursor_within_limits(make_canvas):
    canvas = make_canvas(traced_document())
    view = canvas.view
    view.set_zoom(1.0)
    cursor = QPointF(300, 200)
    under_cursor = view.mapToScene(cursor.toPoint())

    def wheel(notches: int) -> None:
        global_pos = QPointF(view.viewport().mapToGlobal(cursor.toPoint()))
        event = QWheelEvent(cursor, global_pos, QPoint(), QPoint(0, 120 * notches), NO_BUTTON, NO_MODIFIER,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), event)

    wheel(1)
    assert view.transform().m11() > 1.1
    assert (view.mapToScene(cursor.toPoint()) - under_cursor).manhattanLength() < 3  # the point stays put
    for _ in range(30):
        wheel(1)
    assert view.zoom() == pytest.approx(MAX_ZOOM)
    for _ in range(60):
        wheel(-1)
    assert view.zoom() == pytest.approx(MIN_ZOOM)
    view.set_zoom(1.0)
    view.zoom_in()
    assert view.zoom() == pytest.approx(1.25)
    view.zoom_out()
    view.zoom_out()
    assert view.zoom() == pytest.approx(0.8)


def test_fit_shows_every_node(make_canvas):
    canvas = make_canvas(traced_document())
    view = canvas.view
    view.set_zoom(3.0)
    view.centerOn(5000, 5000)
    view.fit()
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    for item in canvas.scene.node_items():
        assert visible.contains(item.sceneBoundingRect()), item.node_id
    assert MIN_ZOOM <= view.zoom() <= 1.25


def test_minimap_toggles_and_recentres_the_view(make_canvas, qtbot):
    canvas = make_canvas(traced_document())
    view = canvas.view
    assert view.is_minimap_visible() and view.minimap.isVisible()
    view.set_minimap_visible(False)
    assert not view.is_minimap_visible() and not view.minimap.isVisible()
    view.set_minimap_visible(True)
    assert view.minimap.isVisible()
    assert view.viewport().geometry().contains(view.minimap.geometry())  # in the corner, over the canvas

    minimap = view.minimap
    minimap.refit()
    target = QPointF(660, 200)  # the output node f
    pos = QPointF(minimap.mapFromScene(target))
    event = QMouseEvent(QEvent.Type.MouseButtonPress, pos, QPointF(minimap.viewport().mapToGlobal(pos.toPoint())),
                        LEFT, LEFT, NO_MODIFIER)
    QApplication.sendEvent(minimap.viewport(), event)
    centre = view.mapToScene(view.viewport().rect().center())
    assert (centre - target).manhattanLength() < 20


def test_the_minimap_follows_the_scene_while_shown_and_only_then(make_canvas, qtbot):
    from PySide6.QtCore import SIGNAL

    canvas = make_canvas(traced_document())
    view, minimap = canvas.view, canvas.view.minimap
    listeners = lambda: canvas.scene.receivers(SIGNAL("changed(QList<QRectF>)"))  # noqa: E731
    shown = listeners()
    assert shown >= 1
    view.set_minimap_visible(False)
    assert listeners() == shown - 1  # hidden: every repaint's regions no longer go through Python
    view.set_minimap_visible(True)
    assert listeners() == shown
    before = minimap.transform().m11()
    far = canvas.scene.node_items()[0]
    far.setPos(far.pos() + QPointF(3000, 0))  # the graph grows: the minimap fits it again
    qtbot.waitUntil(lambda: minimap.transform().m11() < before * 0.7, timeout=2000)


def test_tab_opens_quick_search_and_enter_adds_the_node(make_canvas, qtbot):
    canvas = make_canvas()
    view = canvas.view
    QTest.keyClick(view, Qt.Key.Key_Tab)
    search = view.quick_search
    assert search.isVisible()
    QTest.keyClicks(search.search, "tan")
    assert search.shown_kinds()[0] == "tanh"
    QTest.keyClick(search.search, Qt.Key.Key_Return)
    assert not search.isVisible()
    assert [n.kind for n in canvas.doc.nodes] == ["tanh"]
    assert canvas.stack.count() == 1

    QTest.keyClick(view, Qt.Key.Key_Tab)
    QTest.keyClick(search.search, Qt.Key.Key_Escape)
    assert not search.isVisible()
    assert len(canvas.doc.nodes) == 1


def test_quick_search_ranks_exact_names_first(make_canvas):
    canvas = make_canvas()
    search = canvas.view.quick_search
    search.search.setText("exp")
    assert search.shown_kinds()[0] == "exp"
    search.search.setText("zzz")
    assert search.shown_kinds() == []


# -- drawing the evaluation ------------------------------------------------------------------


def test_tooltips_and_labels_show_the_evaluation(make_canvas):
    doc = traced_document()
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))

    assert canvas.scene.node_item("a").toolTip() == "a (input) = 2, grad = 31"
    assert canvas.scene.node_item("b").toolTip() == "b (input) = 3, grad = 14"
    assert canvas.scene.node_item("m").toolTip() == "t1 (mul) = 6, grad = 7"  # unlabelled: t1
    assert canvas.scene.node_item("f").toolTip() == "f (mul) = 70, grad = 1"
    assert canvas.scene.node_item("m").body_lines() == ["value 6", "grad 7"]
    assert canvas.scene.node_item("f").is_output
    assert canvas.scene.wire_item(Edge("a", "m", 0)).label_text() == "grad 21"
    assert canvas.scene.wire_item(Edge("a", "m", 0)).label_visible

    canvas.scene.set_show_wire_grads(False)
    assert not canvas.scene.wire_item(Edge("a", "m", 0)).label_visible

    canvas.stack.push(EditCommand(doc, edits.set_value(doc, "a", 0.5)))
    canvas.scene.show_evaluation(evaluate(doc))  # df/da = b(a+d) + (ab+c) = 3*5.5 + 5.5
    assert canvas.scene.node_item("a").toolTip() == "a (input) = 0.5, grad = 22"


def test_a_node_with_a_problem_says_why(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("x", "input", 0, 0, "x", -1))
    doc.add_node(Node("l", "log", 200, 0))
    doc.add_node(Node("d", "div", 200, 150))
    doc.add_edge(Edge("x", "l", 0))
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))

    log_item = canvas.scene.node_item("l")
    assert log_item.toolTip().startswith("t1 (log) = nan")
    assert log_item.toolTip().endswith("\nlog of a negative number is undefined (nan)")
    div_item = canvas.scene.node_item("d")
    assert div_item.problem_text() == "inputs 'a', 'b' are not connected"
    assert div_item.toolTip().endswith("\ninputs 'a', 'b' are not connected")
    assert canvas.scene.node_item("x").problem_text() is None


def test_hooks_for_other_scenes(make_canvas):
    canvas = make_canvas(traced_document())
    item = canvas.scene.node_item("m")
    item.set_body_lines(["local 3", "total 7"])
    assert item.body_lines() == ["local 3", "total 7"]
    item.set_highlight("#ff0000")
    assert item.highlight.name() == "#ff0000"
    item.set_body_lines(None)
    item.set_highlight(None)
    assert item.body_lines()[0].startswith("value")
    canvas.scene.set_theme(True)
    assert canvas.scene.backgroundBrush().color() == canvas.scene.colors["background"]
    canvas.view.grab()  # every item paints in the dark theme without error


# -- following the model ---------------------------------------------------------------------


def test_the_scene_follows_undo_redo_and_reset(make_canvas):
    doc = wiring_document()
    canvas = make_canvas(doc)
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"n": (600.0, 90.0)})))
    assert canvas.scene.node_item("n").pos() == QPointF(600, 90)
    canvas.stack.undo()
    assert canvas.scene.node_item("n").pos() == QPointF(500, 40)

    doc.replace_with(traced_document())
    assert sorted(i.node_id for i in canvas.scene.node_items()) == sorted("abcdmstf")
    assert len(canvas.scene.wire_items()) == 8


def test_animate_next_moves_glides_items_to_the_model_positions(make_canvas, qtbot):
    doc = wiring_document()
    canvas = make_canvas(doc)
    canvas.scene.animate_next_moves()
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"a": (100.0, 300.0), "b": (100.0, 500.0)})))
    assert (doc.node("a").x, doc.node("a").y) == (100, 300)  # the model changed at once
    assert canvas.scene.node_item("a").pos() == QPointF(0, 0)  # the drawing has not jumped
    qtbot.waitUntil(lambda: canvas.scene.node_item("a").pos() == QPointF(100, 300), timeout=2000)
    assert canvas.scene.node_item("b").pos() == QPointF(100, 500)

    canvas.stack.undo()  # not animated: only the next batch was
    assert canvas.scene.node_item("a").pos() == QPointF(0, 0)


@pytest.mark.qt_no_exception_capture
def test_an_error_in_a_handler_is_reported_not_raised(make_canvas, monkeypatch):
    canvas = make_canvas(wiring_document())
    reporter = ExceptionReporter(canvas.view)  # the app's: a dialog with the details
    reporter.install()

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(canvas.doc, "connection_problem", broken)
    try:
        drag_mouse(canvas.view, output_port_pos(canvas, "b"), input_port_pos(canvas, "m", 1))
    finally:
        reporter.uninstall()
    dialog = canvas.view.findChild(QMessageBox, "exceptionDialog")
    assert dialog is not None and "boom" in dialog.text() and "RuntimeError" in dialog.detailedText()
    dialog.close()
    assert any("boom" in m for m in canvas.messages)
    assert canvas.scene.pending_wire is None
    assert len(canvas.scene.node_items()) == 4  # redrawn, still whole


# -- palette ---------------------------------------------------------------------------------


def test_palette_groups_filters_and_activates(qtbot):
    palette = NodePalette()
    qtbot.addWidget(palette)
    assert palette.objectName() == "nodePalette" and palette.accessibleName() == "Node palette"
    assert palette.search.placeholderText() == "Search nodes…"
    # The Data group's inputs first (issue 28), then the leaves.
    assert palette.visible_kinds()[:6] == ["data_x1", "data_x2", "data_points", "input", "parameter", "constant"]
    assert len(palette.visible_kinds()) == 30  # 3 data inputs, 18 scalar kinds and 9 for tensors (issue 19)
    assert palette.kind_item("sigmoid").toolTip(0).endswith("1 / (1 + e^-x)")

    palette.set_filter("tanh")
    assert palette.visible_kinds() == ["tanh"]
    assert palette.group_item("Inputs").isHidden()
    palette.set_filter("")
    assert len(palette.visible_kinds()) == 30

    with qtbot.waitSignal(palette.kind_activated) as blocker:
        palette.tree.itemDoubleClicked.emit(palette.kind_item("relu"), 0)
    assert blocker.args == ["relu"]


def test_a_card_shows_the_documents_readable_name_and_follows_renumbering(make_canvas):
    doc = traced_document()
    canvas = make_canvas(doc)
    card = canvas.scene.node_item("m")  # unlabelled a*b
    assert card.title() == "t1" and card.kind_title() == "mul"
    canvas.stack.push(EditCommand(doc, edits.set_label(doc, "m", "ab")))
    assert card.title() == "ab" and card.kind_title() == "mul"
    canvas.stack.undo()
    assert card.title() == "t1"


def cards_under(canvas, rect):
    from playground.canvas.cards import CardItem

    return [item for item in canvas.scene.items(rect) if isinstance(item, CardItem)]


def test_wire_labels_keep_clear_of_every_card_as_numbers_widen(make_canvas):
    from playground.graph.expression import parse_expression

    doc = parse_expression("a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)")
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    canvas.stack.push(EditCommand(doc, edits.set_value(doc, next(n.id for n in doc.nodes if n.label == "a"), 6.08)))
    canvas.scene.show_evaluation(evaluate(doc))  # wider numbers: grad 67.37, grad 33.24, ...
    shown = [wire for wire in canvas.scene.wire_items() if not wire.label_rect().isEmpty()]
    assert len(shown) >= len(canvas.scene.wire_items()) // 2  # most wires still say what they carry
    for wire in canvas.scene.wire_items():
        assert not cards_under(canvas, wire.label_rect()), wire.label_text()


def test_a_card_moved_onto_a_label_pushes_it_along_its_wire_and_back(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("x", "input", 0, 0, "x", 2.0))
    doc.add_node(Node("y", "exp", 600, 0, "y"))
    doc.add_node(Node("z", "input", 0, 300, "z", 1.0))
    doc.add_edge(Edge("x", "y", 0))
    doc.set_output("y")
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    wire = canvas.scene.wire_item(Edge("x", "y", 0))
    middle = wire.label_rect().center()
    assert middle == wire.midpoint()
    z = canvas.scene.node_item("z")
    spot = middle - QPointF(z.boundingRect().width() / 2, 20)  # park z right on the label
    canvas.stack.push(EditCommand(doc, edits.move_nodes(doc, {"z": (spot.x(), spot.y())})))
    assert not wire.label_rect().isEmpty() and not cards_under(canvas, wire.label_rect())
    assert wire.label_rect().center() != middle
    canvas.stack.undo()  # z leaves: the label returns to the middle
    assert wire.label_rect().center() == middle


@pytest.mark.parametrize("source", ["a=3; y=a*a", "a=3; y=a*a+a", "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"])
def test_wire_labels_keep_clear_of_each_other(make_canvas, source):
    """a * a: the two wires from a to the product put their "grad 3" labels on top of each other, the
    very picture the lesson on variables used twice is about."""
    from playground.graph.expression import parse_expression

    doc = parse_expression(source)
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(doc))
    labels = [wire.label_rect() for wire in canvas.scene.wire_items() if not wire.label_rect().isEmpty()]
    assert len(labels) == len(canvas.scene.wire_items())  # every wire says what it carries
    for i, rect in enumerate(labels):
        assert not any(rect.intersects(other) for other in labels[i + 1:])
    canvas.stack.push(EditCommand(doc, edits.remove_nodes(doc, [doc.effective_output()])))
    assert not canvas.scene._label_rects or all(w.scene() is canvas.scene for w in canvas.scene._label_rects)
