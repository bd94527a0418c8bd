"""Issue 32, item 3 on the editor's canvas: a refused wire and a card with a problem say so by a mark as well
as by red (WCAG 1.4.1), found here without looking at a colour."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from playground.canvas.cards import PROBLEM_MARK
from playground.graph import edits
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from tests.playground.canvas_driving import (
    LEFT,
    NO_BUTTON,
    drag_mouse,
    input_port_pos,
    output_port_pos,
    send_mouse,
    wiring_document,
)


def painted(item, size: int = 400) -> np.ndarray:
    """``item`` painted alone into a white grayscale image, its scene position at the middle."""
    image = QImage(size, size, QImage.Format.Format_Grayscale8)
    image.fill(255)
    painter = QPainter(image)
    painter.translate(size / 2 - item.boundingRect().center().x(), size / 2 - item.boundingRect().center().y())
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return pixels.reshape(size, image.bytesPerLine())[:, :size].copy()


def test_a_refused_wire_wears_a_cross_and_an_accepted_one_a_tick(make_canvas):
    canvas = make_canvas(wiring_document())
    drag_mouse(canvas.view, output_port_pos(canvas, "n"), input_port_pos(canvas, "m", 1), release=False)  # a cycle
    wire = canvas.scene.pending_wire
    assert wire.state is False and wire.mark() == "✗"
    assert "cycle" in canvas.messages[-1]  # and the status bar says why
    refused = painted(wire)
    wire.set_state(None)  # over no port: no mark, the same dashed path
    assert wire.mark() is None
    plain = painted(wire)
    wire.set_state(False)
    assert wire.boundingRect().contains(wire.mark_centre())
    assert (refused < 128).sum() > (plain < 128).sum() + 20  # the ring and its cross add ink
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, input_port_pos(canvas, "m", 1), LEFT, NO_BUTTON)
    drag_mouse(canvas.view, output_port_pos(canvas, "b"), input_port_pos(canvas, "m", 1), release=False)
    assert canvas.scene.pending_wire.mark() == "✓"
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, input_port_pos(canvas, "m", 1), LEFT, NO_BUTTON)


def test_a_nan_node_and_an_unconnected_one_wear_the_warning_badge_and_say_why(make_canvas):
    doc = GraphDocument()
    doc.add_node(Node("x", "input", 0, 0, "x", -1.0))
    doc.add_node(Node("l", "log", 250, 0, "y"))
    doc.add_node(Node("m", "mul", 250, 200))  # no inputs at all
    doc.add_edge(Edge("x", "l", 0))
    canvas = make_canvas(doc)
    canvas.scene.show_evaluation(evaluate(canvas.doc))  # as the editor panel does after every edit
    log_card, mul_card, input_card = (canvas.scene.node_item(n) for n in ("l", "m", "x"))
    assert log_card.shown_badge() == PROBLEM_MARK and "nan" in log_card.toolTip()
    assert log_card.problem_text() in log_card.toolTip()
    assert mul_card.shown_badge() == PROBLEM_MARK and "not connected" in mul_card.toolTip()
    assert input_card.shown_badge() is None  # a fine node wears none
    # The badge is painted: fixing the value takes the warning, and its ink, off the card's corner.
    with_badge = painted(log_card)
    assert canvas.scene.push(edits.set_value(canvas.doc, "x", 2.0))
    canvas.scene.show_evaluation(evaluate(canvas.doc))
    assert log_card.shown_badge() is None and "nan" not in log_card.toolTip()
    without = painted(log_card)
    # Just above the card's top-right corner only the badge's ring draws (the card's shadow falls below it).
    centre = log_card.boundingRect().center()
    x, y = int(200 - centre.x() + log_card.width - 2), int(200 - centre.y())
    above = (slice(y - 9, y - 2), slice(x - 8, x + 8))
    assert (with_badge[above] < 200).sum() > 10 and (without[above] < 200).sum() == 0
