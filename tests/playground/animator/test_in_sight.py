"""The current step's card kept in sight (playground/animator/in_sight.py): the least move on screen, past the
minimap the shorter way; on the animator, a view the person zoomed or panned follows the step without its zoom
being changed, unless a card is larger than the whole view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

from playground.animator.in_sight import least_shift, least_shift_of, room_of
from tests.playground.animator_driving import node_id, traced
from tests.playground.step_in_view import card_on_screen, misplaced

AREA = QRectF(0, 0, 800, 500)
MINIMAP = QRectF(600, 360, 200, 140)  # the bottom right-hand corner


def test_a_card_in_the_area_and_off_the_minimap_stays():
    assert least_shift(QRectF(100, 100, 180, 110), AREA, MINIMAP) == QPointF(0, 0)


def test_a_card_past_an_edge_moves_just_inside():
    assert least_shift(QRectF(-30, -12, 180, 110), AREA) == QPointF(30, 12)
    assert least_shift(QRectF(700, 450, 180, 110), AREA) == QPointF(-80, -60)


def test_a_card_under_the_minimap_moves_past_it_the_shorter_way():
    assert least_shift(QRectF(560, 300, 180, 100), AREA, MINIMAP) == QPointF(0, -40)  # up 40, not left 140
    assert least_shift(QRectF(580, 50, 180, 380), AREA, MINIMAP) == QPointF(-160, 0)  # up 70 is past the top
    # Past the view's bottom edge and under the minimap: into the view first, then above the minimap.
    assert least_shift(QRectF(640, 450, 100, 100), AREA, MINIMAP) == QPointF(0, -190)


def test_a_card_larger_than_its_room_cannot_be_placed_at_this_zoom():
    assert least_shift(QRectF(0, 0, 900, 100), AREA) is None
    assert least_shift(QRectF(0, 0, 700, 480), AREA, MINIMAP) is None  # neither above the minimap nor beside it


def _settle():
    QApplication.processEvents()


def test_the_persons_zoom_is_kept_and_the_step_followed(loaded):
    """Zoomed in by hand (the wheel's way), every step's card is still brought into sight, at the same zoom."""
    loaded.fitting.zoom_by_person(2.5)
    zoom = loaded.view.zoom()
    for _ in range(loaded.frame_count):
        loaded.step_forward()
        _settle()
        assert misplaced(loaded) is None, loaded.position
    assert loaded.view.zoom() == zoom


@pytest.mark.parametrize("minimap", [False, True], ids=["alone", "beside-the-minimap"])
def test_a_card_larger_than_the_view_is_zoomed_out_to_fit(loaded, qtbot, minimap):
    loaded.resize(520, 420)  # as small as the panel goes: a view about 335 px tall
    qtbot.waitUntil(lambda: loaded.view.height() < 360)
    qtbot.wait(100)  # the layout settled
    loaded.fitting.zoom_by_person(1.0)  # no fit from now on: the minimap stays as set here
    loaded.view.set_minimap_visible(minimap)  # (a fit may show it in so small a view, or not: the width decides)
    loaded.view.set_zoom(4.0)  # the largest zoom: a card (about 365 px tall there) is taller than the view
    loaded.seek(3)
    assert loaded.view.zoom() < 4.0
    assert misplaced(loaded) is None
    # Zoomed out no further than it must be: a tenth larger, the card would have no place (in the view, and
    # above the minimap or beside it where the view is too small for the graph at a readable zoom).
    card = QRectF(card_on_screen(loaded))
    assert least_shift(QRectF(card.topLeft(), card.size() * 1.1), *room_of(loaded.view)) is None


# -- more than one card: the step's and the one a lesson's question asks about (issue 39) ----------------------


def test_cards_each_clear_of_the_minimap_stay_where_their_bounding_box_is_not():
    """One above the other beside the minimap: the corner of the box around both is under it, neither card is."""
    above, beside = QRectF(620, 100, 150, 100), QRectF(300, 380, 150, 100)
    assert least_shift_of([above, beside], AREA, MINIMAP) == QPointF(0, 0)


def test_cards_are_moved_the_least_that_shows_them_all():
    assert least_shift_of([QRectF(700, 100, 150, 100), QRectF(400, 100, 150, 100)], AREA) == QPointF(-50, 0)
    # Past the minimap: the lower card goes up above it (left past it, the upper card would leave the view).
    assert least_shift_of([QRectF(100, 50, 150, 100), QRectF(620, 300, 150, 100)], AREA, MINIMAP) == QPointF(0, -40)
    # Neither: above the minimap the upper card would leave the view, and so it would beside it.
    assert least_shift_of([QRectF(100, 50, 150, 100), QRectF(620, 420, 150, 100)], AREA, MINIMAP) is None
    assert least_shift_of([QRectF(0, 0, 150, 100), QRectF(700, 0, 150, 100)], AREA) is None  # 850 px across 800


def test_one_card_is_moved_as_before():
    card = QRectF(640, 450, 100, 100)
    assert least_shift_of([card], AREA, MINIMAP) == least_shift(card, AREA, MINIMAP) == QPointF(0, -190)


def _on_screen(panel, node: str) -> QRectF:
    return panel.view.viewportTransform().mapRect(panel.scene.node_item(node).sceneBoundingRect())


def _in_view(panel, node: str) -> bool:
    area, _minimap = room_of(panel.view)
    return area.adjusted(-1, -1, 1, 1).contains(_on_screen(panel, node))


def _far_apart(panel):
    """The graph's input a and its output L, at a zoom of the person's where they never fit in the view together."""
    first, last = node_id(panel.document, "a"), node_id(panel.document, "L")
    panel.fitting.zoom_by_person(4.0)  # the largest zoom: a card is a third of the view across
    _settle()
    assert _on_screen(panel, last).united(_on_screen(panel, first)).width() > room_of(panel.view)[0].width()
    return first, last


def test_the_card_asked_about_is_shown_first_until_the_next_step(loaded):
    loaded.seek(1)
    _settle()
    first, last = _far_apart(loaded)
    loaded.seek(loaded.timeline.frame_of_node(first))
    zoom = loaded.view.zoom()
    loaded.ask_about(last)  # the question asks about the output while the step is a's
    assert _in_view(loaded, last) and not _in_view(loaded, first)
    loaded.fitting.fit_if_auto()  # a resize: the person's zoom is kept, the card asked about still first
    assert _in_view(loaded, last)
    loaded.seek(loaded.timeline.frame_of_node(first))  # a move in time: the step's card first again
    assert _in_view(loaded, first)
    assert loaded.view.zoom() == zoom


def test_the_step_and_the_card_asked_about_are_shown_together_where_they_fit(loaded):
    loaded.fitting.zoom_by_person(2.0)  # a and t1, its neighbour to the right, fit in the view together
    _settle()
    a, t1 = (next(node for node, name in loaded.document.names().items() if name == wanted) for wanted in ("a", "t1"))
    loaded.seek(loaded.timeline.frame_of_node(a))
    bar = loaded.view.horizontalScrollBar()  # a's card just inside the view's right-hand edge, t1 past it
    bar.setValue(bar.value() + round(_on_screen(loaded, a).right() - room_of(loaded.view)[0].right()))
    assert _in_view(loaded, a) and not _in_view(loaded, t1)
    loaded.ask_about(t1)
    assert _in_view(loaded, a) and _in_view(loaded, t1)


def test_a_question_about_another_graph_asks_about_no_card(loaded):
    """The node ids of another graph (the student changed the lesson's) name other nodes: nothing is asked."""
    changed = traced()
    changed.set_value(node_id(changed, "a"), 3.0)
    loaded.ask_about(node_id(changed, "b"), changed)
    assert loaded.sync.asked is None
    loaded.ask_about(node_id(changed, "b"), traced())
    assert loaded.sync.asked == node_id(changed, "b")
    loaded.ask_about(None)
    assert loaded.sync.asked is None
