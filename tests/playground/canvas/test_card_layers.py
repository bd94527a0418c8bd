"""A card's two layers (`canvas.cards`): its chrome, a picture Qt keeps and paints again only when it changes,
and its content, painted with every new number. Whatever changed, the screen shows what a view drawn afresh
shows: no card is left with an old picture of itself."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QUndoStack

from playground.canvas.cards import CardItem
from playground.canvas.node_card import MAP_FRAME
from playground.canvas.view import GraphView
from playground.editor.scene import GraphScene
from playground.graph import edits
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression

from ..canvas_driving import send_mouse, to_view


def _shown(qtbot, document, theme: bool = False):
    scene = GraphScene(document, QUndoStack())
    scene.set_theme(theme)
    scene.show_evaluation(evaluate(document))
    view = GraphView(scene)
    view.resize(700, 420)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.fit_whole()
    return scene, view


def _picture(qtbot, view) -> np.ndarray:
    qtbot.wait(30)  # the repaint Qt posted
    image = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return pixels.reshape(image.height(), image.bytesPerLine()).copy()


def _same_as_afresh(qtbot, scene, view, theme: bool = False) -> bool:
    _fresh_scene, fresh = _shown(qtbot, scene.document.copy(), theme)
    fresh.setTransform(view.transform())
    fresh.horizontalScrollBar().setValue(view.horizontalScrollBar().value())
    fresh.verticalScrollBar().setValue(view.verticalScrollBar().value())
    return np.array_equal(_picture(qtbot, view), _picture(qtbot, fresh))


@pytest.fixture
def chrome_paints(monkeypatch):
    """How many times each card's chrome was painted (by node name)."""
    counts: Counter[str] = Counter()
    paint = CardItem.paint

    def counted(card, painter, option, widget=None):
        counts[card.display_name()] += 1
        paint(card, painter, option, widget)

    monkeypatch.setattr(CardItem, "paint", counted)
    return counts


def _shown_then_edited(qtbot, chrome_paints, expression: str, leaf: str, value: float):
    """``expression`` shown and painted, then ``leaf`` set to ``value`` and the graph evaluated again, the chrome
    paints counted from the edit on; (scene, view, ids by name)."""
    document = parse_expression(expression)
    scene, view = _shown(qtbot, document)
    _picture(qtbot, view)
    ids = {document.name(node.id): node.id for node in document.nodes}
    chrome_paints.clear()
    assert scene.push(edits.set_value(document, ids[leaf], value))
    scene.show_evaluation(evaluate(document))
    _picture(qtbot, view)
    return scene, view, ids


def test_a_new_number_repaints_what_the_card_says_not_its_chrome(qtbot, chrome_paints):
    # L's value and a's gradient change
    scene, view, ids = _shown_then_edited(qtbot, chrome_paints, "a = 2; b = 3; L = a * b", "b", 4.0)
    assert chrome_paints["L"] == 0 and chrome_paints["a"] == 0  # their titles, outlines and headers stand
    assert chrome_paints["b"] >= 1  # a leaf's title is its value ("b = 4"): its chrome is new
    assert scene.node_item(ids["L"]).body_lines() == ["value 8", "grad 1"]
    assert _same_as_afresh(qtbot, scene, view)


def test_a_problem_repaints_the_chrome_red_with_its_mark(qtbot, chrome_paints):
    scene, view, ids = _shown_then_edited(qtbot, chrome_paints, "a = 2; b = 3; L = log(a * b)", "a", -1.0)  # log(-3)
    card = scene.node_item(ids["L"])
    assert card.problem_text() and card.shown_badge() == "⚠"
    assert chrome_paints["L"] >= 1
    assert _same_as_afresh(qtbot, scene, view)


def test_a_new_theme_repaints_every_card(qtbot):
    document = parse_expression("a = 2; b = 3; L = a * b")
    scene, view = _shown(qtbot, document)
    _picture(qtbot, view)
    scene.set_theme(True)
    assert _same_as_afresh(qtbot, scene, view, theme=True)


def test_a_trained_graphs_maps_repaint_only_their_cards_content(qtbot, chrome_paints):
    document = parse_expression("X = points(); W = randn(2, 3, seed=0); H = tanh(X @ W)")
    scene, view = _shown(qtbot, document)
    ids = {document.name(node.id): node.id for node in document.nodes}
    rng = np.random.default_rng(0)

    def maps():
        return (0xFF000000 + rng.integers(0, 0xFFFFFF, size=(3, 8, 8))).astype(np.uint32)

    scene.show_maps({ids["H"]: maps()})
    first = _picture(qtbot, view)
    chrome_paints.clear()
    scene.show_maps({ids["H"]: maps()})
    assert not np.array_equal(first, _picture(qtbot, view))
    assert chrome_paints["H"] == 0


@pytest.fixture
def content_updates(monkeypatch):
    """How many times each card asked for what it says to be painted again (by node name)."""
    counts: Counter[str] = Counter()
    update_content = CardItem.update_content

    def counted(card):
        counts[card.display_name()] += 1
        update_content(card)

    monkeypatch.setattr(CardItem, "update_content", counted)
    return counts


def _maps(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (0xFF000000 + rng.integers(0, 0xFFFFFF, size=(count, 8, 8))).astype(np.uint32)


def test_the_same_maps_again_and_the_cards_without_maps_paint_nothing(qtbot, content_updates):
    """A trained graph's frame sends every card's maps: the data's stay the same (no weight reaches them), and a
    parameter's card has none; painting those again with each frame was a fifth of the graph's picture."""
    document = parse_expression("X = points(); W = randn(2, 3, seed=0); H = tanh(X @ W)")
    scene, view = _shown(qtbot, document)
    ids = {document.name(node.id): node.id for node in document.nodes}
    data = _maps(2, seed=1)
    scene.show_maps({ids["X"]: data, ids["H"]: _maps(3)})
    content_updates.clear()
    scene.show_maps({ids["X"]: data.copy(), ids["H"]: _maps(3, seed=2)})
    assert content_updates["H"] == 1
    assert content_updates["X"] == 0 and content_updates["W"] == 0


def test_the_maps_frames_are_drawn_with_the_chrome_around_each_map_and_follow_their_count(qtbot, chrome_paints):
    document = parse_expression("X = points(); W = randn(2, 3, seed=0); H = tanh(X @ W)")
    scene, view = _shown(qtbot, document)
    card = scene.node_item(next(node.id for node in document.nodes if document.name(node.id) == "H"))
    red = np.full((3, 8, 8), 0xFFFF0000, dtype=np.uint32)
    scene.show_maps({card.node_id: red})
    _picture(qtbot, view)
    chrome_paints.clear()
    scene.show_maps({card.node_id: red[:2]})  # fewer maps: the frames of two
    _picture(qtbot, view)
    assert chrome_paints["H"] >= 1

    scale, source = 8.0, card.sceneBoundingRect()
    image = QImage(int(source.width() * scale), int(source.height() * scale), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), source)
    painter.end()

    def colour_at(item_point: QPointF) -> QColor:
        at = (card.mapToScene(item_point) - source.topLeft()) * scale
        return image.pixelColor(int(at.x()), int(at.y()))

    border = scene.colors["card_border"]
    for column in range(2):
        rect = card.map_rect(column)
        middle = rect.center().y()
        assert colour_at(QPointF(rect.left() - MAP_FRAME / 2, middle)) == border  # the frame, outside the map
        assert colour_at(QPointF(rect.left() + 0.3, middle)) == QColor(255, 0, 0)  # the map, whole
    third = card.map_rect(2)
    assert colour_at(QPointF(third.left() - MAP_FRAME / 2, third.center().y())) != border  # no third frame


def test_a_click_on_what_a_card_says_selects_the_card(qtbot):
    document = parse_expression("a = 2; b = 3; L = a * b")
    scene, view = _shown(qtbot, document)
    card = scene.node_item(next(node.id for node in document.nodes if document.name(node.id) == "L"))
    inside = card.mapToScene(card.value_rect().center())
    assert scene.node_at(inside) is card  # not the content drawn over it
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        send_mouse(view, kind, to_view(view, inside))
    assert card.isSelected()
