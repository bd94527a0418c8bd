"""Wires round cards, Qt-free (playground/graph/wire_route.py): rectangles in, a curve's segments out, and the
sampled curve misses every card it does not join."""

from __future__ import annotations

import random

import pytest

from playground.graph.wire_route import (
    CLEARANCE,
    curve,
    padded,
    plain_curve,
    polyline_meets,
    route,
    sample,
    segment_meets,
)


def misses(segments, rects, margin: float = 0.0) -> bool:
    return not polyline_meets(sample(segments, 64), [padded(rect, margin) for rect in rects])


def test_a_segment_meets_a_rectangle_it_crosses_and_not_one_it_passes_or_runs_along():
    box = (0.0, 0.0, 10.0, 10.0)
    assert segment_meets((-5, 5), (15, 5), box)  # straight through
    assert segment_meets((5, 5), (5, 6), box)  # wholly inside
    assert not segment_meets((-5, -1), (15, -1), box)  # above it
    assert not segment_meets((0, -5), (0, 15), box)  # along its left side: not its inside
    assert not segment_meets((5, 20), (20, 5), box)  # past its corner
    assert segment_meets((-5, 12), (12, -5), box)  # across its corner


def test_a_wire_with_nothing_in_its_way_keeps_its_plain_curve():
    start, end = (0.0, 0.0), (300.0, 80.0)
    far = (100.0, 300.0, 230.0, 370.0)
    assert route(start, end, [far]) == []
    assert curve(start, end, [far]) == [plain_curve(start, end)]


def test_the_hand_drawn_wire_across_a_card_goes_round_it():
    """a → L across t1, as in the starter graph: a card between the two ends, on the straight way."""
    start, end = (130.0, 35.0), (650.0, 35.0)
    t1 = (300.0, 0.0, 430.0, 70.0)
    assert not misses([plain_curve(start, end)], [t1])  # the plain curve crossed it
    corners = route(start, end, [t1])
    assert corners and corners[0] == (start[0] + 24, start[1]) and corners[-1] == (end[0] - 24, end[1])
    segments = curve(start, end, [t1])
    assert segments[0][0] == start and segments[-1][-1] == end
    assert misses(segments, [t1], margin=CLEARANCE / 2)


def test_a_wire_finds_its_way_between_cards_stacked_in_its_path():
    start, end = (0.0, 100.0), (700.0, 100.0)
    cards = [(200.0, 40.0, 330.0, 160.0), (200.0, 200.0, 330.0, 300.0), (420.0, -60.0, 550.0, 120.0)]
    segments = curve(start, end, cards)
    assert len(segments) > 1
    assert misses(segments, cards, margin=CLEARANCE / 2)


def test_a_wire_running_backwards_goes_round_the_card_between_its_ends():
    start, end = (400.0, 100.0), (0.0, 110.0)  # the target lies left of the source: the curve loops back
    between = (150.0, 60.0, 280.0, 150.0)
    segments = curve(start, end, [between], ends=[(270.0 + 10, 70.0, 400.0, 140.0), (0.0, 80.0, 130.0, 150.0)])
    assert misses(segments, [between], margin=CLEARANCE / 2)


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("seed", range(40))
def test_random_cards_in_a_random_wires_way_are_all_missed(seed):
    rng = random.Random(seed)
    start = (rng.uniform(0, 100), rng.uniform(0, 400))
    end = (rng.uniform(500, 800), rng.uniform(0, 400))
    wanted, cards = rng.randint(1, 6), []
    while len(cards) < wanted:
        left, top = rng.uniform(160, 420), rng.uniform(-50, 420)
        card = (left, top, left + rng.uniform(60, 200), top + rng.uniform(40, 120))
        ends_clear = not any(overlap(padded(card, 40), (x, y, x, y)) for x, y in (start, end))
        if ends_clear and not any(overlap(padded(card, 30), other) for other in cards):  # apart, as laid out
            cards.append(card)
    segments = curve(start, end, cards)
    assert segments[0][0] == start and segments[-1][-1] == end
    assert misses(segments, cards, margin=CLEARANCE / 2)
