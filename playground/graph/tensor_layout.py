"""Room for array cards in the automatic layout. Qt-free.

`layout.layered_positions` spaces columns and rows for scalar cards (130 wide, about 70 high). A card
that draws an array (value and gradient side by side) is wider and taller: `spread` moves each column
right by the widest card of the columns before it, and the rows apart by the tallest card, keeping the
order the layout chose. The sizes are estimates from the shapes (`card_size`), generous rather than tight.
"""

from __future__ import annotations

from collections.abc import Mapping

SCALAR_CARD = (130.0, 70.0)
INLINE_SIDE = 4
NUMBER_CELL = (44.0, 15.0)  # an estimate of the card's number cell (array_drawing measures the real one)
HEAT_SIDE, HEAT_CELL = 96.0, (3.0, 14.0)
ARRAYS_LEFT, ARRAYS_RIGHT, ARRAY_GAP = 30.0, 12.0, 10.0
ARRAYS_TOP = 24.0 + 10.0 + 13.0 + 2.0  # header, padding, the "value"/"grad" labels, a margin
COLUMN_GAP, ROW_GAP = 100.0, 40.0  # room for a wire's shape label between columns


def card_size(shape: tuple[int, ...] | None) -> tuple[float, float]:
    """About how wide and high a card drawing an array of ``shape`` is (a scalar's card for () or None)."""
    if not shape:
        return SCALAR_CARD
    rows, columns = (1, shape[0]) if len(shape) == 1 else (shape[0], shape[1])
    if rows <= INLINE_SIDE and columns <= INLINE_SIDE:
        cell_width, cell_height = NUMBER_CELL
    else:
        cell_width = cell_height = min(HEAT_CELL[1], max(HEAT_CELL[0], HEAT_SIDE / max(rows, columns)))
    width = ARRAYS_LEFT + 2 * columns * cell_width + ARRAY_GAP + ARRAYS_RIGHT
    return max(SCALAR_CARD[0], width), max(SCALAR_CARD[1], ARRAYS_TOP + rows * cell_height)


def spread(positions: Mapping[str, tuple[float, float]], shapes: Mapping[str, tuple | None],
           y_spacing: float) -> dict[str, tuple[float, float]]:
    """``positions`` (columns at equal x, rows ``y_spacing`` apart) moved apart to fit the cards' sizes."""
    sizes = {node_id: card_size(shapes.get(node_id)) for node_id in positions}
    columns = sorted({x for x, _ in positions.values()})
    widest = {x: max(sizes[n][0] for n, (nx_, _) in positions.items() if nx_ == x) for x in columns}
    new_x, left = {}, 0.0
    for x in columns:
        new_x[x] = left
        left += widest[x] + COLUMN_GAP
    tallest = max(height for _, height in sizes.values())
    scale = max(1.0, (tallest + ROW_GAP) / y_spacing)
    return {node_id: (new_x[x], y * scale) for node_id, (x, y) in positions.items()}
