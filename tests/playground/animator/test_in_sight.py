"""The current step's card kept in sight (playground/animator/in_sight.py): the least move on screen, past the
minimap the shorter way; on the animator, a view the person zoomed or panned follows the step without its zoom
being changed, unless a card is larger than the whole view."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

from playground.animator.in_sight import least_shift, room_of
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
