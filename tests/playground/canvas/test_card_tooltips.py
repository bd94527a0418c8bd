"""A card's tooltip says what the card shows when it is read, is not written again at every change of a card
nobody points at (a trained graph changes its cards thirty times a second), and a hovered map keeps its own
tooltip while the maps change under the mouse."""

from __future__ import annotations

import numpy as np
from PySide6.QtTest import QTest

from playground.graph.evaluate import evaluate
from tests.playground.canvas_driving import traced_document


def maps(columns: int, shade: int) -> np.ndarray:
    return np.full((columns, 8, 8), 0xFF000000 | shade, dtype=np.uint32)


def test_a_card_nobody_points_at_writes_its_tooltip_when_it_is_read(make_canvas, monkeypatch):
    canvas = make_canvas(traced_document())
    item = canvas.scene.node_item("m")
    written, original = [], type(item).tooltip_text
    monkeypatch.setattr(type(item), "tooltip_text", lambda card: written.append(card) or original(card))
    for _ in range(5):
        canvas.scene.show_evaluation(evaluate(canvas.doc))
        canvas.doc.set_value("a", canvas.doc.node("a").value + 1)
    assert written == []  # five changes, no tooltip written
    canvas.scene.show_evaluation(evaluate(canvas.doc))
    assert item.toolTip() == "t1 (mul) = 21, grad = 12"  # a = 7: a·b = 21, df/dt1 = a + d = 12
    assert len(written) == 1
    item.toolTip()
    assert len(written) == 1  # unchanged since: not written again


def test_a_hovered_map_keeps_its_tooltip_while_the_maps_change_and_the_card_s_comes_back(make_canvas, qtbot):
    canvas = make_canvas(traced_document())
    canvas.scene.show_evaluation(evaluate(canvas.doc))
    item = canvas.scene.node_item("m")
    item.set_maps(maps(3, 0x3366AA))
    view = canvas.view
    view.centerOn(item)
    over_map = view.mapFromScene(item.mapToScene(item.map_rect(2).center()))
    QTest.mouseMove(view.viewport(), over_map)
    qtbot.waitUntil(lambda: item.hovered_map == 2, timeout=3000)
    assert item.toolTip().startswith("t1[:, 2] over the plane")
    for shade in (0x112233, 0x445566, 0x778899):  # frames of a run: new maps, new values
        item.set_maps(maps(3, shade))
        canvas.doc.set_value("a", canvas.doc.node("a").value + 1)
        canvas.scene.show_evaluation(evaluate(canvas.doc))
        assert item.toolTip().startswith("t1[:, 2] over the plane")
    away = view.mapFromScene(item.mapToScene(item.boundingRect().bottomRight()) + item.boundingRect().bottomRight())
    QTest.mouseMove(view.viewport(), away)
    qtbot.waitUntil(lambda: item.hovered_map is None, timeout=3000)
    assert item.toolTip() == "t1 (mul) = 15, grad = 10"  # a = 5: a·b = 15, df/dt1 = a + d = 10
