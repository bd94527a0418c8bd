"""The editor's graph as the training tab draws it while it trains, in the network diagram's place: the same
cards as in the editor (the canvas's `DocumentScene`), each node computed per point showing what it computes
over the plane, a map a column (up to 16), as the TF Playground shows each neuron; each parameter's card its
value and gradient, ten times a second while it trains (`PARAMETER_RATE`) and as they are once it stops.
Hovering a map puts it on the big plot (`map_hovered`). `NetworkSlot` holds this view and the layer form's
diagram, and shows the one that is trained.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QLabel, QStackedWidget, QVBoxLayout, QWidget

from ..canvas.cards import BODY_PADDING, HEADER_HEIGHT
from ..canvas.document_scene import DocumentScene
from ..canvas.node_card import MAP_GAP, MAP_SIDE, MAPS_A_ROW, MORE_HEIGHT
from ..canvas.view import GraphView
from ..graph.evaluate import NodeResult
from ..graph.layout import layered_positions
from ..graph.network import TrainingPlan
from ..widgets.elided_label import ElidedLabel
from .model.grid import MAX_NODE_MAPS
from .network_view import MIN_WIDTH, NetworkView
from .widgets import heading_font, named

# The view's width when the splitter can give it: the graph at the zoom where its cards still show their text,
# within these bounds (wider, it is shown smaller, its cards as their maps; it is panned and zoomed, never cut).
SMALLEST_WANTED, LARGEST_WANTED = 420, 560  # never more: the decision boundary is the tab's first picture
ROW_GAP, COLUMN_GAP = 24.0, 175.0  # between two layers down the column; from one node of a layer to the next
READ_ZOOM = 0.45  # the canvas's `style.DETAIL_THRESHOLD`: below it a card is drawn as its maps alone
# The parameters' cards take new values at most this often while frames flow (the layer form's wires, its
# weights, come ten times a second too): their heat maps were a sixth of the GUI's time a frame at sixty frames a
# second, and no one reads a weight's colour change faster. The last frame's are shown once frames stop.
PARAMETER_RATE = 10.0


class TrainedGraphView(QWidget):
    """The graph trained, its maps and its parameters as they train (see the module docstring)."""

    map_hovered = Signal(str, int)  # node id and column of the map under the mouse; "", -1 when it leaves

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "trainedGraphView", "The editor's graph as it trains: each node's maps over the plane (hover "
                                        "one to see it on the big plot), each parameter's value and gradient",
              spoken="The graph as it trains")
        self.plan: TrainingPlan | None = None
        self._map_totals: dict[str, int] = {}  # the plan's, worked out once (`map_totals`)
        self._kinds: dict[str, str] = {}  # each node's kind, by id
        self.redraws = 0  # pictures of the graph shown (the benchmarks count them)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("THE EDITOR'S GRAPH")
        self.title.setFont(heading_font(self))
        layout.addWidget(self.title)
        self.scene = DocumentScene(self)
        self.scene.map_hovered.connect(self.map_hovered)
        self.view = named(GraphView(self.scene), "trainedGraphCanvas",
                          "The graph being trained; scroll to zoom, drag with the middle button to pan",
                          spoken="Canvas of the graph being trained")
        self.view.keep_fitted = True
        self.view.set_minimap_visible(False)
        # Each frame repaints what changed (the maps' cards; a parameter's card ten times a second) rather than
        # the rectangle around all of it: the wires and the cards that stand still between them are not drawn again.
        self.view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self._parameters_shown_at = -float("inf")
        self._parameters_waiting = None  # a frame whose parameters are not shown yet
        self._parameters_timer = QTimer(self)  # shows them once frames stop (a pause): restarted by every frame
        self._parameters_timer.setSingleShot(True)
        self._parameters_timer.setInterval(int(1000 / PARAMETER_RATE) + 20)
        self._parameters_timer.timeout.connect(self._show_waiting_parameters)
        layout.addWidget(self.view, 1)
        hint = ElidedLabel("Each card: what the node computes over the plane, orange negative, blue positive.")
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout.addWidget(hint)
        self.setMinimumWidth(MIN_WIDTH)

    def show_graph(self, document, plan: TrainingPlan) -> None:
        """Draw ``document`` (a copy of the graph trained), read as ``plan`` says, fitted in the view: laid out
        down the column, a layer a row, rather than across it as the editor lays it out (the column is tall
        and narrow, and a network's chain of layers long)."""
        self.plan = plan
        self._parameters_waiting, self._parameters_shown_at = None, -float("inf")  # the next frame's at once
        self._map_totals = _map_totals(plan)
        self._kinds = {node.id: node.kind for node in document.nodes}
        self.scene.show_document(document)
        for wire in self.scene.wire_items():  # they stand still as the cards' maps change: kept as pictures
            wire.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        for node_id in plan.parameter_names:  # new numbers every frame: the card does not jump with each
            item = self.scene.node_item(node_id)
            if item is not None:
                item.steady_width = True
        self._lay_down_the_column(document)
        self.view.fit_whole()  # the maps read as pictures even small: the whole graph in sight
        self.updateGeometry()  # another graph wants another width

    def _lay_down_the_column(self, document) -> None:
        """A layer a row, each row as tall as its tallest card will be once its maps come (`MAPS_A_ROW` a row)."""
        positions = layered_positions({n.id: n.port_count for n in document.nodes}, document.edges, 1.0, 1.0)
        rows: dict[float, list[str]] = {}
        for node_id, (layer, _slot) in positions.items():
            rows.setdefault(layer, []).append(node_id)
        top = 0.0
        for layer in sorted(rows):
            heights = []
            for node_id in rows[layer]:
                item = self.scene.node_item(node_id)
                heights.append(max(item.height, self._height_with_maps(node_id)))
                item.setPos(positions[node_id][1] * COLUMN_GAP, top)
            top += max(heights) + ROW_GAP
        self.scene.update()

    def _height_with_maps(self, node_id: str) -> float:
        if node_id not in self.plan.per_point:
            return 0.0
        shown = min(_columns(self.plan.shapes[node_id]), MAX_NODE_MAPS)
        more = MORE_HEIGHT if _columns(self.plan.shapes[node_id]) > MAX_NODE_MAPS else 0.0
        return HEADER_HEIGHT + 2 * BODY_PADDING + -(-shown // MAPS_A_ROW) * (MAP_SIDE + MAP_GAP) + more

    def show_frame(self, frame) -> None:
        """The worker's picture of the graph (a `BoundaryFrame`): maps on the per-point cards, the parameters'
        values and gradients on theirs."""
        if self.plan is None or frame.node_images is None:
            return
        self.redraws += 1
        self.scene.show_maps(frame.node_images, self.map_totals())
        self._parameters_waiting = frame
        if time.perf_counter() - self._parameters_shown_at >= 1.0 / PARAMETER_RATE:
            self._show_waiting_parameters()
        self._parameters_timer.start()

    def _show_waiting_parameters(self) -> None:
        frame, self._parameters_waiting = self._parameters_waiting, None
        if frame is None or self.plan is None:
            return
        self._parameters_shown_at = time.perf_counter()
        for node_id, name in self.plan.parameter_names.items():
            item = self.scene.node_item(node_id)
            if item is not None and name in frame.state:
                grad = frame.gradients.get(name)
                item.set_result(NodeResult(_leaf(frame.state[name]), None if grad is None else _leaf(grad)))

    def map_totals(self) -> dict[str, int]:
        """The columns in all of each per-point node that has more than its card shows (asked twice a frame)."""
        return dict(self._map_totals)

    def caption(self, focus) -> tuple[str, tuple[float, float]]:
        """What the big plot says of a node's map (a `FocusMap`), and the values its colours span: a tanh's
        -1 to 1, a sigmoid's 0 to 1, any other node's own range, symmetric about 0."""
        if self.plan is None or focus.node not in self.plan.shapes:
            return "", (-1.0, 1.0)
        name = self.plan.names[focus.node]
        which = f"{name}[:, {focus.index}]" if _columns(self.plan.shapes[focus.node]) > 1 else name
        kind_name = self._kinds.get(focus.node, "")
        if kind_name == "tanh":
            levels = (-1.0, 1.0)
        elif kind_name == "sigmoid":
            levels = (0.0, 1.0)
        else:
            reach = float(np.nanmax(np.abs(focus.image))) if focus.image.size else 1.0
            levels = (-reach, reach) if np.isfinite(reach) and reach > 0 else (-1.0, 1.0)
        return f"Showing {which} over the plane: line at {focus.level:g}", levels

    def whole_width(self) -> int:
        width = self.view.graph_rect().width() * READ_ZOOM * self.view.text_scale + 40
        return int(min(max(width, SMALLEST_WANTED), LARGEST_WANTED))

    def set_theme(self, theme: str | bool) -> None:
        """One of the canvas's themes, or True for dark and False for light."""
        self.scene.set_theme(theme)

    def set_text_scale(self, factor: float) -> None:
        self.view.text_scale = factor


def _map_totals(plan: TrainingPlan) -> dict[str, int]:
    totals = {node_id: _columns(plan.shapes[node_id]) for node_id in plan.per_point}
    return {node_id: total for node_id, total in totals.items() if total > MAX_NODE_MAPS}


def _columns(shape: tuple) -> int:
    return int(np.prod(shape[1:])) if len(shape) > 1 else 1


def _leaf(value) -> float | np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    return float(array) if array.ndim == 0 else array


class NetworkSlot(QStackedWidget):
    """The network's place in the training tab: the layer form's diagram, or the graph drawn in the editor."""

    def __init__(self, network_view: NetworkView, graph_view: TrainedGraphView, parent: QWidget | None = None):
        super().__init__(parent)
        self.network_view, self.graph_view = network_view, graph_view
        self.addWidget(network_view)
        self.addWidget(graph_view)

    def show_network(self, trains_graph: bool) -> None:
        self.setCurrentWidget(self.graph_view if trains_graph else self.network_view)

    @property
    def shows_graph(self) -> bool:
        return self.currentWidget() is self.graph_view

    def whole_width(self) -> int:
        return self.currentWidget().whole_width()

    def show_architecture(self, sizes, input_names, output_names, captions=()) -> None:
        self.network_view.show_architecture(sizes, input_names, output_names, captions)

    def minimumSizeHint(self):
        return self.currentWidget().minimumSizeHint()

    def sizeHint(self):
        return self.currentWidget().sizeHint()
