"""Wires go round cards (issue 29, item 8): in every example graph, in a wire drawn by hand across a card (a → L
across t1 in lesson 2's graph, laid out as the expression box lays it out), and after a card is dragged into
a wire's way or out of it, no wire's painted path crosses a card it does not join."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF

from playground.editor.commands import EditCommand
from playground.graph import edits
from playground.graph.document import Edge, GraphDocument
from playground.graph.expression import parse_expression
from playground.graph.wire_route import padded, plain_curve, polyline_meets, sample, segment_meets
from tests.playground.canvas_driving import drag_mouse, input_port_pos, node_body_pos, output_port_pos

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
INDEX = json.loads((EXAMPLES / "index.json").read_text(encoding="utf-8"))
LESSON_2 = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"


def _rect(rect) -> tuple[float, float, float, float]:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def crossed_cards(scene, wire) -> list[str]:
    """The cards other than its two ends that ``wire``'s painted path crosses (sampled finely, every run between
    two samples checked against each card)."""
    path = wire.path()
    points = [path.pointAtPercent(step / 400) for step in range(401)]
    points = [(p.x(), p.y()) for p in points]
    crossed = []
    for card in scene.node_items():
        if card in (wire.source_item, wire.target_item):
            continue
        box = _rect(card.card_rect())
        if any(segment_meets(a, b, box) for a, b in zip(points, points[1:])):
            crossed.append(card.display_name())
    return crossed


@pytest.mark.parametrize("file", [entry["file"] for entry in INDEX])
def test_no_wire_of_an_example_crosses_a_card_it_does_not_join(make_canvas, file):
    document = GraphDocument.from_dict(json.loads((EXAMPLES / file).read_text(encoding="utf-8")))
    canvas = make_canvas(document)
    wires = canvas.scene.wire_items()
    assert len(wires) == len(document.edges)
    assert {f"{w.source_item.display_name()} → {w.target_item.display_name()}": crossed_cards(canvas.scene, w)
            for w in wires if crossed_cards(canvas.scene, w)} == {}


def test_a_wire_drawn_by_hand_from_a_to_l_goes_round_t1(make_canvas):
    document = parse_expression(LESSON_2)
    canvas = make_canvas(document)
    canvas.view.fit()
    ids = {document.name(node.id): node.id for node in document.nodes}
    into_l = next(edge for edge in document.edges if edge.target == ids["L"] and edge.port == 0)
    canvas.stack.push(EditCommand(document, edits.remove_edges(document, [into_l])))
    # a and t1 are on one row with L beyond: the plain curve from a to L runs straight through t1.
    a, t1, target = (canvas.scene.node_item(ids[name]) for name in ("a", "t1", "L"))
    start, end = a.output_port_scene_pos(), target.input_port_scene_pos(0)
    plain = plain_curve((start.x(), start.y()), (end.x(), end.y()))
    assert polyline_meets(sample([plain], 64), [_rect(t1.card_rect())])

    drag_mouse(canvas.view, output_port_pos(canvas, ids["a"]), input_port_pos(canvas, ids["L"], 0), steps=10)
    drawn = Edge(ids["a"], ids["L"], 0)
    assert drawn in document.edges  # wired as a person wires it
    wire = canvas.scene.wire_item(drawn)
    assert wire.is_detoured
    assert crossed_cards(canvas.scene, wire) == []
    # It still starts at a's output and ends at L's input, and keeps a margin from t1.
    path = wire.path()
    assert path.pointAtPercent(0) == start and path.pointAtPercent(1) == end
    points = [(p.x(), p.y()) for p in (path.pointAtPercent(s / 400) for s in range(401))]
    assert not polyline_meets(points, [padded(_rect(t1.card_rect()), 3.0)])
    assert all(crossed_cards(canvas.scene, other) == [] for other in canvas.scene.wire_items())


def test_a_card_dragged_into_a_wires_way_is_gone_round_and_the_wire_straightens_when_it_leaves(make_canvas):
    document = parse_expression(LESSON_2)
    canvas = make_canvas(document)
    canvas.view.fit()
    ids = {document.name(node.id): node.id for node in document.nodes}
    t3_to_l = canvas.scene.wire_item(next(e for e in document.edges if e.source == ids["t3"] and e.target == ids["L"]))
    assert not t3_to_l.is_detoured
    c = canvas.scene.node_item(ids["c"])
    middle = t3_to_l.path().pointAtPercent(0.5)
    grab = node_body_pos(canvas, ids["c"])
    # Drag c by its body so that its card sits on the middle of the wire from t3 to L.
    card_centre = c.card_rect().center()
    drop = grab + canvas.view.mapFromScene(middle) - canvas.view.mapFromScene(card_centre)
    drag_mouse(canvas.view, grab, QPointF(drop), steps=8)
    assert c.card_rect().contains(middle)  # it did land on the wire's old course
    assert t3_to_l.is_detoured and crossed_cards(canvas.scene, t3_to_l) == []
    canvas.stack.undo()  # c goes back: the wire takes its plain curve again
    assert not t3_to_l.is_detoured and crossed_cards(canvas.scene, t3_to_l) == []


def test_auto_layout_glides_with_plain_wires_and_routes_them_once_the_cards_land(make_canvas, qtbot):
    document = parse_expression(LESSON_2)
    canvas = make_canvas(document)
    ids = {document.name(node.id): node.id for node in document.nodes}
    # t1 moved onto the row of a and L, between them: the hand-drawn a → L must go round it after the layout too.
    into_l = next(edge for edge in document.edges if edge.target == ids["L"] and edge.port == 0)
    canvas.stack.push(EditCommand(document, edits.remove_edges(document, [into_l])))
    canvas.stack.push(EditCommand(document, edits.connect(document, Edge(ids["a"], ids["L"], 0))))
    wire = canvas.scene.wire_item(Edge(ids["a"], ids["L"], 0))
    assert wire.is_detoured
    from playground.graph.layout import layered_layout

    canvas.scene.animate_next_moves()
    moved = {node_id: (x + 40.0, y) for node_id, (x, y) in layered_layout(document).items()}
    canvas.stack.push(EditCommand(document, edits.move_nodes(document, moved, "Auto-layout")))
    a = canvas.scene.node_item(ids["a"])
    before = a.pos()
    qtbot.waitUntil(lambda: canvas.scene.is_animating() and a.pos() != before, timeout=2000)
    assert not canvas.scene.routing and not wire.is_detoured  # gliding: its plain curve, not routed every frame
    qtbot.waitUntil(lambda: not canvas.scene.is_animating(), timeout=3000)
    assert canvas.scene.routing
    assert all(crossed_cards(canvas.scene, other) == [] for other in canvas.scene.wire_items())


def test_a_card_dragged_by_hand_keeps_plain_wires_while_it_moves_and_routes_them_when_it_rests_or_lands(make_canvas,
                                                                                                         qtbot):
    from PySide6.QtCore import QEvent

    from playground.canvas.card_scene import DRAG_REST_MS
    from tests.playground.canvas_driving import LEFT, NO_BUTTON, send_mouse

    document = parse_expression(LESSON_2)
    canvas = make_canvas(document)
    canvas.view.fit()
    scene = canvas.scene
    ids = {document.name(node.id): node.id for node in document.nodes}
    t3_to_l = scene.wire_item(next(e for e in document.edges if e.source == ids["t3"] and e.target == ids["L"]))
    c = scene.node_item(ids["c"])
    middle = t3_to_l.path().pointAtPercent(0.5)
    grab = node_body_pos(canvas, ids["c"])
    drop = QPointF(grab + canvas.view.mapFromScene(middle) - canvas.view.mapFromScene(c.card_rect().center()))
    send_mouse(canvas.view, QEvent.Type.MouseButtonPress, grab)
    for step in range(1, 9):  # the mouse held down all the way
        send_mouse(canvas.view, QEvent.Type.MouseMove, grab + (drop - grab) * step / 8, NO_BUTTON, LEFT)
    assert c.card_rect().contains(middle)
    assert not t3_to_l.is_detoured and crossed_cards(scene, t3_to_l) == ["c"]  # moving: its plain curve, across c
    qtbot.wait(DRAG_REST_MS + 100)  # held still: the wire shows the way it will take
    assert t3_to_l.is_detoured and crossed_cards(scene, t3_to_l) == []
    send_mouse(canvas.view, QEvent.Type.MouseMove, drop + QPointF(0, 2), NO_BUTTON, LEFT)
    send_mouse(canvas.view, QEvent.Type.MouseButtonRelease, drop + QPointF(0, 2), LEFT, NO_BUTTON)
    assert scene.routing  # landed: routed again as cards move
    assert all(crossed_cards(scene, wire) == [] for wire in scene.wire_items())
    assert canvas.stack.count() == 1 and canvas.stack.undoText() == "Move c"
