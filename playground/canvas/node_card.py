"""The editor's card for a graph document's node (`NodeItem`), and the height such a card has
(`node_height`), so a new node can be placed before its card exists."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from ..common.numbers import format_number, full_number
from ..graph.arrays import format_array, shape_text
from ..graph.catalog import kind
from ..graph.concealment import HIDDEN
from ..graph.document import Node
from ..graph.evaluate import NodeResult, same_numbers
from ..graph.outline import spoken_number
from .array_drawing import NUMBER_FONT_SIZE, ArrayGrid, HeatImages, cell_texts, paint_array
from .cards import BODY_PADDING, HEADER_HEIGHT, NODE_WIDTH, ROW_HEIGHT, CardItem
from .map_strip import MapStrip
from .style import pixel_font

ARRAY_LABEL_HEIGHT = 13.0  # "value" and "grad" above an array card's two drawings
ARRAY_GAP = 10.0  # between the value's drawing and the gradient's
MAP_SIDE = 26.0  # a node's map over the plane, a side (scene units)
MAP_GAP = 3.0
MAP_FRAME = 0.8  # the line around each map
MAPS_A_ROW = 4
MORE_HEIGHT = 13.0  # "+ 48 more" under a node's first maps


@lru_cache(maxsize=1)
def _label_room() -> float:
    """The width the word "value" takes over an array's drawing, and a little room after it."""
    return QFontMetricsF(pixel_font(9, italic=True)).horizontalAdvance("value") + 6


def node_height(node: Node) -> float:
    """The height a `NodeItem` gives this node (two body lines, or one row per input port)."""
    return HEADER_HEIGHT + 2 * BODY_PADDING + max(2, node.port_count) * ROW_HEIGHT


class NodeItem(CardItem):
    """The card of a graph document's node: its op or leaf value, and the value and gradient last shown.

    In a tensor graph the scene tells the card its shape (`set_shape`) and its tooltip (`set_tensor_tooltip`);
    a card whose value is an array shows the shape in its header and draws the value and the gradient
    side by side (`array_drawing`), the element under the mouse read out in its tooltip.
    """

    def __init__(self, node: Node, name: str = "", parent: QGraphicsItem | None = None):
        super().__init__(node.id, node.x, node.y, parent)
        self._node = replace(node)
        self._name = name or node.label or kind(node.kind).title  # the document's readable name (t1, x1, ...)
        self._result: NodeResult | None = None
        self._concealed = (False, False)  # value, grad: "?" while a quiz asks for them
        self._shape: tuple[int, ...] | None = None  # the document's inferred shape, in a tensor graph
        self._tensor_tooltip: str | None = None
        self._grid: ArrayGrid | None = None  # how the arrays are drawn; None: a scalar card
        # While its numbers stream in (a graph training: new weights every frame), the card grows for a wider
        # number but does not shrink for a narrower one: a bias going from 0.12 to -0.12 and back had the card,
        # its outline and its wires laid out again ten times in four seconds, the longest stalls of a run.
        self.steady_width = False
        self._heat = HeatImages()  # the value's and gradient's heat maps, when the grid draws them so
        self.hovered_element: tuple[str, tuple[int, ...]] | None = None  # ("value" or "grad", index)
        # What the node computes over the plane, while its graph trains: one image a column, in place of its
        # value (`set_maps`); how many columns it has in all; the map under the mouse.
        self._maps = MapStrip()
        self._map_rects: list[QRectF] | None = None  # where each map is drawn, until the card's layout changes
        self._map_total = 0
        self._map_words: np.ndarray | None = None  # what `_maps` was made from
        self.hovered_map: int | None = None
        self.setAcceptHoverEvents(True)
        self._refresh_grid()
        self._layout()
        self._refresh_tooltip()

    @property
    def node(self) -> Node:
        return self._node

    @property
    def result(self) -> NodeResult | None:
        return self._result

    def set_node(self, node: Node) -> None:
        """Show ``node`` (label, value or port count changed); the position is the scene's business."""
        self._node = replace(node)
        self._heat.clear()
        self._refresh_grid()
        self._layout()
        self._refresh_tooltip()
        self.update()

    def set_name(self, name: str) -> None:
        """Show the document's readable name for this node (its label, or t1, t2, ... when it has none)."""
        if name != self._name:
            self._name = name
            self._layout()
            self._refresh_tooltip()
            self.update()

    def set_result(self, result: NodeResult | None) -> None:
        if result == self._result and result is not None and same_numbers(result, self._result):
            return  # unchanged: one value edit repaints only what it changed
        self._result = result  # its heat maps are made again for its new arrays, not for a gradient sent again
        if self._refresh_grid():
            self._layout()
        self._refresh_tooltip()
        self.update_content()

    # -- arrays ------------------------------------------------------------------------------

    def set_shape(self, shape: tuple[int, ...] | None) -> None:
        """The shape the document infers for this node (None outside a tensor graph, or still unknown)."""
        shape = tuple(shape) if shape is not None else None
        if shape != self._shape:
            self._shape = shape
            if self._refresh_grid():
                self._layout()
            self.update()

    def set_tensor_tooltip(self, text: str | None) -> None:
        """The tooltip's text in a tensor graph (`tensor_text.node_text`); None: the scalar card's own."""
        if text != self._tensor_tooltip:
            self._tensor_tooltip = text
            self._refresh_tooltip()

    def array_shape(self) -> tuple[int, ...] | None:
        """The shape of what the card shows: its result's, else the document's, else a leaf's own."""
        if self._result is not None and self._result.value is not None:
            return tuple(np.shape(self._result.value))
        if self._shape is not None:
            return self._shape
        return tuple(np.shape(self._node.value)) if self._node.is_leaf else None

    def number_pixel_size(self) -> float | None:
        """The pixel size (scene units) of the font the card writes an array's numbers in; None where it writes
        none (a scalar's card, a heat map, maps over the plane). The editor's fits keep these readable."""
        return float(NUMBER_FONT_SIZE) if self._grid is not None and self._grid.inline and not self._maps else None

    @property
    def is_array_card(self) -> bool:
        return self._grid is not None

    @property
    def grid(self) -> ArrayGrid | None:
        return self._grid

    # -- maps over the plane ------------------------------------------------------------------

    def set_maps(self, words: np.ndarray | None, total: int | None = None) -> None:
        """Show what the node computes over the plane, one small map a column, in place of its value (its graph
        is being trained): ``words`` (columns, r, r) 0xffRRGGBB, row 0 at the top; ``total``: its columns in all
        when it has more than it shows. None: no maps, the value again."""
        map_total = 0 if words is None else max(int(total or 0), len(words))
        if map_total == self._map_total and _same_words(words, self._map_words):
            return  # a parameter's card (no maps) or a node the weights do not reach (the data): nothing to paint
        had = bool(self._maps)
        count = len(self._maps)
        self._maps = MapStrip(words)
        self._map_words, self._map_total = words, map_total
        if len(self._maps) != count:
            self._map_rects = None
        if bool(self._maps) != had or self._refresh_grid():
            self._layout()
            self._refresh_tooltip()
        self.update_content()

    @property
    def map_count(self) -> int:
        """The maps shown (0: none)."""
        return len(self._maps)

    def _maps_height(self) -> float:
        if not self._maps:
            return 0.0
        rows = -(-len(self._maps) // MAPS_A_ROW)
        more = MORE_HEIGHT if self._map_total > len(self._maps) else 0.0
        return rows * (MAP_SIDE + MAP_GAP) + more

    def map_rect(self, column: int) -> QRectF:
        """Where map ``column`` is drawn, in item coordinates."""
        top = HEADER_HEIGHT + BODY_PADDING + len(self.body_lines()) * ROW_HEIGHT
        row, place = divmod(column, MAPS_A_ROW)
        return QRectF(self._text_left() + place * (MAP_SIDE + MAP_GAP), top + row * (MAP_SIDE + MAP_GAP),
                      MAP_SIDE, MAP_SIDE)

    def map_at(self, pos: QPointF) -> int | None:
        """The map under ``pos`` (item coordinates), or None."""
        return next((column for column in range(len(self._maps)) if self.map_rect(column).contains(pos)), None)

    def paint_from_afar(self, painter: QPainter, rect: QRectF) -> None:
        """Zoomed out, a card with maps is its maps: up to four across the card, as large as it lets them be (the
        TF Playground's neurons), so a whole network in view still shows what each node computes."""
        if not self._maps:
            return
        count, inset = len(self._maps), 3.0
        # The most maps of equal size that fill the card: columns across, rows down.
        best = (0.0, 1, 1)
        for across in range(1, count + 1):
            down = -(-count // across)
            side = min((rect.width() - inset) / across - inset, (rect.height() - inset) / down - inset)
            if side > best[0]:
                best = (side, across, down)
        side, across, _down = best
        strip = self._maps
        smooth = strip.smooth_at(painter, side)
        for index in range(count):
            row, column = divmod(index, across)
            painter.drawImage(QRectF(rect.left() + inset + column * (side + inset),
                                     rect.top() + inset + row * (side + inset), side, side),
                              strip.image, strip.source(index))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)

    def _chrome_key(self) -> tuple:
        return *super()._chrome_key(), len(self._maps), self._map_total > len(self._maps)

    def paint_still_extra(self, painter: QPainter, colors: dict[str, QColor]) -> None:
        """The maps' frames, just outside each map (the map covers the inside): they stand still while the maps
        change thirty to sixty times a second, and antialiased outlines drawn with each frame's maps cost as much
        as the maps."""
        if not self._maps:
            return
        half = MAP_FRAME / 2
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colors["card_border"], MAP_FRAME))
        painter.drawRects([rect.adjusted(-half, -half, half, half) for rect in self._placed_maps()])

    def _placed_maps(self) -> list[QRectF]:
        """Where each map is drawn, until the card's layout changes."""
        if self._map_rects is None:
            self._map_rects = [self.map_rect(column) for column in range(len(self._maps))]
        return self._map_rects

    def _paint_maps(self, painter: QPainter, colors: dict[str, QColor]) -> None:
        rects, strip = self._placed_maps(), self._maps
        smooth = strip.smooth_at(painter, MAP_SIDE)
        for column, rect in enumerate(rects):
            painter.drawImage(rect, strip.image, strip.source(column))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
        if self.hovered_map is not None and self.hovered_map < len(rects):
            painter.setPen(QPen(colors["selected"], 2.0))
            painter.drawRect(rects[self.hovered_map])
        if self._map_total > len(self._maps):
            last = self.map_rect(len(self._maps) - 1)
            painter.setFont(pixel_font(9, italic=True))
            painter.setPen(colors["muted"])
            painter.drawText(QPointF(self._text_left(), last.bottom() + MAP_GAP + 9),
                             f"+ {self._map_total - len(self._maps)} more")

    def _shown_array(self):
        if self._result is not None and self._result.value is not None:
            return self._result.value
        return self._node.value if self._node.is_leaf else None

    def _refresh_grid(self) -> bool:
        """Measure the arrays' drawing again; True if its size changed."""
        shape = self.array_shape()
        if not shape or self._maps:  # maps stand in for the value
            grid = None
        else:
            grad = self._result.grad if self._result is not None else None
            grid = ArrayGrid.for_values(shape, self._shown_array(), grad)
            was = self._grid
            if self.steady_width and was is not None and was.shape == grid.shape and was.cell_width > grid.cell_width:
                grid = replace(grid, cell_width=was.cell_width)
        changed = (grid.size if grid else None) != (self._grid.size if self._grid else None)
        self._grid = grid
        return changed

    def _layout(self) -> None:
        self._map_rects = None  # the body's lines or the ports may have moved them
        super()._layout()

    def _arrays_left(self) -> float:
        return self._text_left()

    def card_width(self) -> float:
        if self._maps:
            shown = min(len(self._maps), MAPS_A_ROW)
            return max(NODE_WIDTH, self._text_left() + shown * (MAP_SIDE + MAP_GAP) + 8)
        if self._grid is None:
            return NODE_WIDTH
        width = self._arrays_left() + 2 * self._drawing_width() + ARRAY_GAP + 12
        return max(NODE_WIDTH, width)

    def extra_height(self) -> float:
        if self._maps:  # below the body's lines
            return len(self.body_lines()) * ROW_HEIGHT + self._maps_height()
        return 0.0 if self._grid is None else ARRAY_LABEL_HEIGHT + self._grid.size[1] + 2

    def array_corners(self) -> tuple[QPointF, QPointF]:
        """Where the value's and the gradient's drawings start, in item coordinates."""
        top = HEADER_HEIGHT + BODY_PADDING + ARRAY_LABEL_HEIGHT
        left = self._arrays_left()
        return QPointF(left, top), QPointF(left + self._drawing_width() + ARRAY_GAP, top)

    def _drawing_width(self) -> float:
        """The room of the value's drawing (and the gradient's): its grid's width, and no less than the word over
        it ("value"), which a narrow array's heat map (W2 of (16, 1)) would leave the gradient's word written over."""
        return max(self._grid.size[0], _label_room())

    def paint_extra(self, painter: QPainter, colors: dict[str, QColor], top: float) -> None:
        if self._maps:
            self._paint_maps(painter, colors)
            return
        if self._grid is None:
            return
        scene = self.scene()
        dark = bool(getattr(scene, "dark", False))
        value_corner, grad_corner = self.array_corners()
        painter.setFont(pixel_font(9, italic=True))
        painter.setPen(colors["muted"])
        for corner, word in ((value_corner, "value"), (grad_corner, "grad")):
            painter.drawText(QPointF(corner.x(), corner.y() - 3), word)
        concealed_value, concealed_grad = self._concealed
        grad = self._result.grad if self._result is not None else None
        for which, corner, array, concealed in (("value", value_corner, self._shown_array(), concealed_value),
                                                ("grad", grad_corner, grad, concealed_grad)):
            shown_as_heat = not (self._grid.inline or array is None or concealed)
            heat = self._heat.image(which, array, dark) if shown_as_heat else None
            paint_array(painter, self._grid, corner, array, colors, dark, concealed, heat)

    def shown_numbers(self, which: str = "value") -> list[list[str]] | None:
        """The numbers an inline array card writes for its value or gradient (None: a heat map, nothing, or "?"
        while a quiz asks for them)."""
        array = self._shown_array() if which == "value" else (self._result.grad if self._result else None)
        if self._grid is None or not self._grid.inline or array is None or self._concealed[which == "grad"]:
            return None
        return cell_texts(array)

    def element_at(self, pos: QPointF) -> tuple[str, tuple[int, ...]] | None:
        """Which array (``"value"`` or ``"grad"``) and which element of it is at ``pos`` (item coordinates)."""
        if self._grid is None:
            return None
        for which, corner in zip(("value", "grad"), self.array_corners()):
            index = self._grid.index_at(pos - corner)
            if index is not None:
                return which, index
        return None

    def element_text(self, which: str, index: tuple[int, ...]) -> str:
        """``W[1, 0]  value 0.123  grad -0.5``: one element, in full."""
        concealed_value, concealed_grad = self._concealed
        grad = self._result.grad if self._result is not None else None
        value = self._shown_array()

        def element(array, concealed):
            return self._shown(None if array is None else float(np.asarray(array)[index]), concealed, True)

        where = ", ".join(str(i) for i in index)
        return (f"{self._name}[{where}]  value {element(value, concealed_value)}  "
                f"grad {element(grad, concealed_grad)}")

    def bring_tooltip_up_to_date(self) -> None:
        if self.hovered_element is None and self.hovered_map is None:  # else the element's or map's own tip
            super().bring_tooltip_up_to_date()

    def hoverMoveEvent(self, event) -> None:
        found = self.element_at(event.pos())
        if found != self.hovered_element:
            self.hovered_element = found
            self.setToolTip(self.element_text(*found) if found else self.tooltip_text())
        self._hover_map(self.map_at(event.pos()) if self._maps else None)
        super().hoverMoveEvent(event)

    def hoverLeaveEvent(self, event) -> None:
        if self.hovered_element is not None:
            self.hovered_element = None
            self._refresh_tooltip()
        self._hover_map(None)
        super().hoverLeaveEvent(event)

    def _hover_map(self, column: int | None) -> None:
        """The map under the mouse is drawn ringed and announced by the scene (`map_hovered`), if it can."""
        if column == self.hovered_map:
            return
        self.hovered_map = column
        if column is not None:
            self.setToolTip(f"{self._name}[:, {column}] over the plane: hovered, it is drawn on the big plot"
                            if self._map_total > 1 else f"{self._name} over the plane: hovered, it is drawn on "
                            "the big plot")
        else:
            self._refresh_tooltip()
        announce = getattr(self.scene(), "map_hovered", None)
        if announce is not None:
            announce.emit(self.node.id if column is not None else "", -1 if column is None else column)
        self.update_content()

    def group(self) -> str:
        return kind(self._node.kind).group

    def title(self) -> str:
        node_kind = kind(self._node.kind)
        if self._maps:
            return self._name if self._map_total == 1 else f"{self._name} (n, {self._map_total})"
        if self._grid is not None:
            return f"{self._name} {shape_text(self._grid.shape)}"
        if node_kind.is_leaf:
            shown = self.shown_value()
            if np.ndim(shown) > 0:  # an array whose grid is not drawn yet (a graph turning to tensors): its shape
                return f"{self._name} {shape_text(np.shape(shown))}"
            value = format_number(shown)
            return value if self._name == value else f"{self._name} = {value}"  # a bare constant: "3", not "3 = 3"
        return self._name

    def kind_title(self) -> str:
        """The op's name beside the node's name ("mul" beside "ab" or "t1"); leaves show their value instead."""
        node_kind = kind(self._node.kind)
        if node_kind.is_leaf and self._result is not None and self._result.trained_step and not self._result.per_point:
            return "trained"  # its number is the trained network's, not the one drawn (the bar says which step)
        return node_kind.title if self._name != node_kind.title and not node_kind.is_leaf else ""

    def port_names(self) -> list[str]:
        node_kind = kind(self._node.kind)
        return [node_kind.port_name(index) for index in range(self._node.port_count)]

    def display_name(self) -> str:
        return self._name

    def set_concealed(self, value: bool, grad: bool) -> None:
        """Print "?" for the value and/or the gradient: a quiz asks for them (`concealment`)."""
        if (value, grad) != self._concealed:
            self._concealed = (value, grad)
            self._refresh_tooltip()
            self.update()

    def _shown(self, number: float | None, concealed: bool, full: bool = False) -> str:
        if concealed:
            return HIDDEN
        if np.ndim(number) > 0:
            return format_array(number, limit=64)
        return (full_number if full else format_number)(number)

    def shown_value(self) -> float | None:
        if self._result is not None:
            return self._result.value
        return self._node.value if self._node.is_leaf else None

    def shown_grad(self) -> float | None:
        return self._result.grad if self._result is not None else None

    def default_body_lines(self) -> list[str]:
        if self._grid is not None or self._maps:
            return []
        value, grad = self._concealed
        return [f"value {self._shown(self.shown_value(), value)}", f"grad {self._shown(self.shown_grad(), grad)}"]

    def problem_text(self) -> str | None:
        """Why this node is drawn in red: a nan/inf result or unconnected inputs; None if fine."""
        result = self._result
        if result is None:
            return None
        if result.problem:
            return result.problem
        ports = result.missing_ports
        if len(ports) == 1:
            return f"input '{ports[0]}' is not connected"
        if ports:
            return "inputs " + ", ".join(f"'{p}'" for p in ports) + " are not connected"
        return None

    def tooltip_text(self) -> str:
        if self._tensor_tooltip is not None and not any(self._concealed):
            return self._tensor_tooltip
        if self._result is not None and self._result.trained_step is not None and not any(self._concealed):
            return self._trained_tooltip()
        value, grad = self._concealed
        text = (f"{self._name} ({self._node.kind}) = {self._shown(self.shown_value(), value, True)}, "
                f"grad = {self._shown(self.shown_grad(), grad, True)}")
        problem = self.problem_text()
        return f"{text}\n{problem}" if problem else text

    def _trained_tooltip(self) -> str:
        """What a trained network's node is: its trained value (a per-point node's over the training points) and
        the gradient of the training loss, with the step."""
        result, node = self._result, self._node
        step = format_number(result.trained_step)
        grad = "none (the training loss does not depend on it)" if result.grad is None else None
        if result.per_point:
            count = np.size(result.value) if np.ndim(result.value) else 1
            text = (f"{self._name} ({node.kind}), trained network at step {step}, for each of the {count} training "
                    f"points: {spoken_number(result.value)}\ngradient of the training loss: "
                    f"{grad or spoken_number(result.grad)}")
        else:
            drawn = f" (drawn as {self._shown(node.value, False, True)})" if node.is_leaf else ""
            text = (f"{self._name} ({node.kind}) = {self._shown(result.value, False, True)}, trained at step "
                    f"{step}{drawn}\ngradient of the training loss = {grad or self._shown(result.grad, False, True)}")
        problem = self.problem_text()
        return f"{text}\n{problem}" if problem else text

    def value_rect(self) -> QRectF:
        """Where the value line is, in item coordinates (an inline editor goes there)."""
        return self._row_rect(0)


def _same_words(words: np.ndarray | None, before: np.ndarray | None) -> bool:
    """The same maps: compared, not made into an image and painted again (a trained graph's frame sends every
    card's maps, thirty to sixty times a second)."""
    if words is None or before is None:
        return words is None and before is None
    return words is before or (words.shape == before.shape and np.array_equal(words, before))
