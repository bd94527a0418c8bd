"""The plane as the network sees it, free of Qt: one batched forward pass over a grid of points gives
the decision boundary and every neuron's map at once.

`PlaneGrid` holds the grid's input features (in chunks), a float32 twin of the network (a picture
needs no float64, and float32 is four times faster; in evaluation mode, as `network.model_for` builds it:
no dropout, so a picture is the network's own and never a mask's), and the pixels sampled for the small
neuron maps. `draw(model)` copies the model's weights into the twin, runs the grid through it once, layer
by layer, and keeps from each layer's output what the pictures need: the output probabilities at
full resolution, every neuron's values at the sampled pixels (about `MAP_SIZE` a side), which ReLU
neurons are zero everywhere, and, when asked, one neuron at full resolution (`focus`).

The grid is as fine as the pictures want (`DISPLAY`, 150 x 150) when the network is small; a large
one is run on a coarser grid (`grid_resolution`, down to 76 x 76 for six layers of 64) so that one
pass costs about the same, and its images are interpolated up to the display's size.

A graph drawn in the editor (``settings.network == "graph"``) is run the same way, its twin a float32
`GraphNetwork`: every node computed per point gives its maps (one a column, up to `MAX_NODE_MAPS`), keyed
by node id (`PlaneDrawing.node_maps`), and a focus is a node's column at full resolution.

The data's square is the middle of the grid. When the plot it is shown on is wider or taller than
square (`aspect`, width / height, up to `MAX_STRETCH`), the grid reaches as far beyond the square on
both sides as the plot does, with pixels of the same size: the picture fills the plot, and the
small neuron maps are still taken from the square alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine import Tensor, no_grad

from ...graph.catalog import kind
from ...graph.network import BATCH
from .contour import contour_segments
from .network import input_features, layer_outputs, model_for
from .points import expand_features, grid_axes
from .settings import TrainingSettings

DISPLAY = 150                    # the boundary image's side
MAP_SIZE = 30                    # a neuron map's side, about (at least 24)
GRID_BUDGET = 120e6              # multiply-adds one pass over the grid may take (150 x 150 of 2-16-16-1: 7e6)
CHUNK_ROWS = 4096                # grid points per batched product
MAX_STRETCH = 2.0                # a plot up to twice as tall as wide (or wide as tall) is filled
# The level line drawn over one neuron's map: where it changes sign (a sigmoid: where it is one half).
ACTIVATION_MIDPOINT = {"tanh": 0.0, "relu": 0.0, "leaky_relu": 0.0, "sigmoid": 0.5, "linear": 0.0}
PROBABILITY_MIDPOINT = 0.5
MAX_NODE_MAPS = 16               # a graph node's maps: its first 16 columns (its card says how many more)
NODE_MIDPOINT = {"sigmoid": 0.5}  # a graph node's level line, by its kind (0 for every other)


@dataclass(frozen=True)
class FocusMap:
    """One neuron's values over the plane at the boundary's resolution, and its level line; for a graph,
    one column of a node (``node``; ``layer`` is then -1)."""

    layer: int
    index: int
    image: np.ndarray                         # (resolution, resolution) float32, row i at the i-th y
    level: float
    contour: tuple[np.ndarray, np.ndarray]
    node: str | None = None


@dataclass(frozen=True)
class PlaneDrawing:
    """What one pass over the grid gives."""

    probability: np.ndarray                   # two classes: (R, R) P(class 1); k classes: (k, R, R) softmax;
                                              # a regression: (R, R) the predicted value
    contour: tuple[np.ndarray, np.ndarray]    # the p = 0.5 line, or the lines between classes, as segment pairs
    maps: tuple[np.ndarray, ...]              # per layer 0..n+1: (neurons, r, r) float32
    dead: tuple[np.ndarray, ...]              # per layer: (neurons,) bool, a ReLU neuron zero over the whole plane
    focus: FocusMap | None = None
    # A graph's: per node computed per point, (columns, r, r) float32 maps (its first MAX_NODE_MAPS columns).
    node_maps: dict[str, np.ndarray] | None = None


def grid_resolution(settings: TrainingSettings, largest: int = DISPLAY, smallest: int = 60,
                    stretch: float = 1.0, per_point: float | None = None) -> int:
    """The side of the data's square in grid pixels for the network of ``settings`` (or one of ``per_point``
    multiply-adds a point): the finest within `GRID_BUDGET` for a grid ``stretch`` times as long as the square."""
    if per_point is None:
        sizes = settings.layer_sizes
        per_point = sum(a * b for a, b in zip(sizes, sizes[1:]))
    return int(np.clip(np.sqrt(GRID_BUDGET / max(per_point, 1) / stretch), smallest, largest))


def graph_cost(network) -> float:
    """About how many multiply-adds a graph takes a point: each per-point node's numbers a point, and for a
    matrix product its inner size times as many."""
    plan, document = network.plan, network.document
    cost = 0.0
    for node_id in plan.per_point:
        shape = plan.shapes[node_id]
        numbers = float(np.prod(shape[1:])) if len(shape) > 1 else 1.0
        node = document.node(node_id)
        if node.kind == "matmul":
            inner = plan.shapes[document.edge_at(node_id, 1).source]
            numbers *= inner[0] if inner and inner[0] != BATCH else 1
        cost += numbers
    return cost


def stretched(extent, resolution: int, aspect: float) -> tuple[tuple[float, float, float, float], int, int]:
    """The plane a plot of ``aspect`` (width / height) shows around the data's square ``extent`` of
    ``resolution`` pixels a side: (its extent, pixels added on the left and right, above and below)."""
    aspect = float(np.clip(aspect, 1 / MAX_STRETCH, MAX_STRETCH))
    # Rounded up: the picture reaches to the plot's edges (or a little past them, out of sight).
    pad_x = math.ceil(resolution * (aspect - 1) / 2 - 1e-9) if aspect > 1 else 0
    pad_y = math.ceil(resolution * (1 / aspect - 1) / 2 - 1e-9) if aspect < 1 else 0
    x0, x1, y0, y1 = extent
    px, py = (x1 - x0) / resolution, (y1 - y0) / resolution
    return (x0 - pad_x * px, x1 + pad_x * px, y0 - pad_y * py, y1 + pad_y * py), pad_x, pad_y


def upsample(image: np.ndarray, size: int | tuple[int, int]) -> np.ndarray:
    """Bilinear interpolation of the last two axes of ``image`` (pixel centres on pixel centres) to
    ``size`` x ``size`` or (height, width); the image itself when it already has that size."""
    height, width = (size, size) if isinstance(size, int) else size
    if image.shape[-2:] == (height, width):
        return image
    rows_at, columns_at = _sample_at(image.shape[-2], height), _sample_at(image.shape[-1], width)
    (low_r, t_r), (low_c, t_c) = rows_at, columns_at
    rows = image[..., low_r, :] * (1 - t_r)[:, None] + image[..., low_r + 1, :] * t_r[:, None]
    return np.ascontiguousarray(rows[..., low_c] * (1 - t_c) + rows[..., low_c + 1] * t_c, dtype=np.float32)


def _sample_at(side: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Where ``size`` pixel centres fall among ``side`` ones: the pixel below each, and how far past it."""
    where = np.clip((np.arange(size) + 0.5) * side / size - 0.5, 0, side - 1)
    low = np.minimum(where.astype(int), max(side - 2, 0))
    return low, (where - low).astype(np.float32)


def softmax_rows(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def class_boundaries(probability: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lines between the regions where each class is the most likely, as segment pairs.

    Class c's region ends where its probability meets the largest of the others'; the level line
    of that difference at 0, for every class but the last (each of whose borders it shares with
    another class), draws every border.
    """
    k = probability.shape[0]
    ordered = np.sort(probability, axis=0)
    top, runner_up = ordered[-1], ordered[-2]
    xs_parts, ys_parts = [], []
    for c in range(k - 1):
        others = np.where(probability[c] >= top, runner_up, top)
        x, y = contour_segments(probability[c] - others, 0.0, xs, ys)
        xs_parts.append(x)
        ys_parts.append(y)
    return np.concatenate(xs_parts), np.concatenate(ys_parts)


@dataclass(frozen=True)
class GridSpec:
    """What a `PlaneGrid` is built from: enough to build the same grid again elsewhere (`plane_process`)."""

    settings: TrainingSettings
    extent: tuple[float, float, float, float]
    display: int = DISPLAY
    aspect: float = 1.0
    graph: object = None  # the graph document trained, for ``settings.network == "graph"``

    def build(self) -> PlaneGrid:
        return PlaneGrid(self.settings, self.extent, self.display, self.aspect, self.graph)


class PlaneGrid:
    """The grid over the data's square ``extent`` (and around it, for a plot of ``aspect``) for the
    network of ``settings``; `draw` runs it."""

    def __init__(self, settings: TrainingSettings, extent, display: int = DISPLAY, aspect: float = 1.0,
                 graph=None):
        """``graph``: the graph document trained, for ``settings.network == "graph"``."""
        self.spec = GridSpec(settings, tuple(extent), display, aspect, graph)
        self.settings = settings
        self.extent = extent
        self.display = display
        aspect = aspect if aspect > 0 else 1.0
        stretch = min(max(aspect, 1 / aspect), MAX_STRETCH)
        self._twin = model_for(settings, graph, np.float32)
        per_point = graph_cost(self._twin) if settings.trains_graph else None
        self.resolution = resolution = min(display, grid_resolution(settings, display, stretch=stretch,
                                                                    per_point=per_point))
        self.view_extent, pad_x, pad_y = stretched(extent, resolution, aspect)
        self.shape = (resolution + 2 * pad_y, resolution + 2 * pad_x)  # rows (y), columns (x)
        # The pictures at the display's scale: the data's square `display` pixels a side.
        self.display_shape = tuple(round(n * display / resolution) for n in self.shape)
        self.xs, self.ys = grid_axes(self.view_extent, self.shape[1], self.shape[0])
        gx, gy = np.meshgrid(self.xs, self.ys)  # row i is y = ys[i]: row-major image, y up
        features = expand_features(np.column_stack([gx.ravel(), gy.ravel()]), input_features(settings))
        self._features = features.astype(np.float32)
        # In chunks, so that a layer's outputs stay small; the training worker keeps BLAS on its own
        # thread (`worker_threads.single_threaded_blas`), so a chunk's size is no matter of threads.
        rows = CHUNK_ROWS
        starts = range(0, len(features), rows)
        # The small maps' pixels: every MAP_STRIDE-th row and column, from the middle of each block,
        # so a small pixel's centre is the centre of the block of big pixels it stands for.
        stride = max(1, round(resolution / MAP_SIZE))
        picked = np.arange(stride // 2, resolution, stride)
        self.map_size = len(picked)
        width = self.shape[1]
        self._sampled = ((pad_y + picked[:, None]) * width + pad_x + picked[None, :]).ravel()
        self._input_maps = self._as_maps(self._features[self._sampled])
        # Each chunk, and its rows the small maps take (worked out once: the grid stays as it is).
        self._chunks = [(Tensor(self._features[start:start + rows], dtype=np.float32),
                         self._sampled[(self._sampled >= start) & (self._sampled < start + rows)] - start)
                        for start in starts]

    def _as_maps(self, values: np.ndarray) -> np.ndarray:
        """(r * r, neurons) sampled values -> (neurons, r, r) maps."""
        r = self.map_size
        return np.ascontiguousarray(values.T.reshape(-1, r, r), dtype=np.float32)

    def draw(self, model, focus: tuple | None = None) -> PlaneDrawing:
        """One pass over the grid with ``model``'s weights; ``focus`` = (layer, neuron) also gives that
        neuron at full resolution (layer 0: an input feature); for a graph, (node id, column)."""
        return self.draw_weights([parameter.data for parameter in model.parameters()], focus)

    def draw_weights(self, weights, focus: tuple | None = None) -> PlaneDrawing:
        """`draw` with the model's weights given as arrays, in the order of its ``parameters()``."""
        for twin, weight in zip(self._twin.parameters(), weights, strict=True):
            twin.data[...] = weight
        if self.settings.trains_graph:
            return self._draw_graph(focus)
        hidden = len(self.settings.hidden)
        relu = [name == "relu" for name in self.settings.layer_activations]
        sampled = [[] for _ in range(hidden)]
        alive = [np.zeros(n, dtype=bool) for n in self.settings.hidden]
        focus_parts, logits = [], []
        focus_layer = focus[0] if focus is not None else -1
        with no_grad(), np.errstate(all="ignore"):
            for chunk, here in self._chunks:
                outputs = layer_outputs(self._twin, chunk)
                for layer, values in enumerate(outputs[:-1]):
                    sampled[layer].append(values[here])
                    if relu[layer]:
                        alive[layer] |= (values > 0).any(axis=0)
                if 1 <= focus_layer <= hidden:
                    focus_parts.append(outputs[focus_layer - 1][:, focus[1]])
                logits.append(outputs[-1])
        probability, output_values = self._probabilities(np.concatenate(logits))
        maps = (self._input_maps, *(self._as_maps(np.concatenate(parts)) for parts in sampled),
                self._as_maps(output_values[self._sampled]))
        dead = (np.zeros(len(self.settings.features), dtype=bool),
                *(~a if dead_ones else np.zeros(len(a), dtype=bool) for a, dead_ones in zip(alive, relu)),
                np.zeros(self.settings.outputs, dtype=bool))
        if probability.ndim == 2:  # a regression's line: where the prediction changes sign
            level = 0.0 if self.settings.regression else PROBABILITY_MIDPOINT
            contour = contour_segments(probability, level, self.xs, self.ys)
        else:
            contour = class_boundaries(probability, self.xs, self.ys)
        return PlaneDrawing(upsample(probability, self.display_shape), contour, maps, dead,
                            self._focus(focus, focus_parts, output_values) if focus is not None else None)

    def _probabilities(self, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boundary image(s), and the output neurons' values per grid point (R * R, outputs)."""
        rows, columns = self.shape
        if self.settings.regression:  # the value itself, the network's one linear output
            values = np.nan_to_num(logits, nan=0.0).astype(np.float32, copy=False)
            return values.reshape(rows, columns), values
        if logits.shape[1] == 1:
            # P(class 1), the logit's sigmoid, without overflow; the TF Playground's output unit is tanh(logit), shown
            # on the same scale as (1 + tanh) / 2
            values = 0.5 * (1.0 + np.tanh((1.0 if self.settings.loss == "tf_square" else 0.5) * logits))
            np.copyto(values, 0.5, where=np.isnan(values))
            values = values.astype(np.float32, copy=False)
            return values.reshape(rows, columns), values
        values = np.nan_to_num(softmax_rows(logits), nan=1.0 / logits.shape[1]).astype(np.float32, copy=False)
        return np.ascontiguousarray(values.T.reshape(-1, rows, columns)), values

    def _focus(self, focus: tuple[int, int], parts: list[np.ndarray], output_values: np.ndarray) -> FocusMap | None:
        layer, index = focus
        sizes = self.settings.layer_sizes
        if not (0 <= layer < len(sizes) and 0 <= index < sizes[layer]):
            return None
        if layer == 0:
            values, level = self._features[:, index], 0.0
        elif layer == len(sizes) - 1:
            values, level = output_values[:, index], 0.0 if self.settings.regression else PROBABILITY_MIDPOINT
        else:
            values, level = np.concatenate(parts), ACTIVATION_MIDPOINT[self.settings.layer_activations[layer - 1]]
        image = np.ascontiguousarray(values.reshape(self.shape), dtype=np.float32)
        contour = contour_segments(image, level, self.xs, self.ys)
        return FocusMap(layer, index, upsample(image, self.display_shape), level, contour)

    # -- a graph --

    def _draw_graph(self, focus: tuple[str, int] | None) -> PlaneDrawing:
        """The pass of `draw` for a graph: every per-point node's maps, and a node's column as the focus."""
        plan = self._twin.plan
        shown = plan.per_point
        sampled: dict[str, list[np.ndarray]] = {node_id: [] for node_id in shown}
        focus_node = focus[0] if focus is not None and focus[0] in shown else None
        focus_parts, logits = [], []
        with no_grad(), np.errstate(all="ignore"):
            for chunk, here in self._chunks:
                values = self._twin.node_values(chunk, shown)
                for node_id in shown:
                    columns = _columns(values[node_id])
                    sampled[node_id].append(columns[here, :MAX_NODE_MAPS])
                    if node_id == focus_node:
                        focus_parts.append(columns[:, min(focus[1], columns.shape[1] - 1)])
                logits.append(_columns(values[plan.output]))
        probability, _output_values = self._probabilities(np.concatenate(logits))
        node_maps = {node_id: self._as_maps(np.concatenate(parts)) for node_id, parts in sampled.items()}
        if probability.ndim == 2:
            level = 0.0 if self.settings.regression else PROBABILITY_MIDPOINT
            contour = contour_segments(probability, level, self.xs, self.ys)
        else:
            contour = class_boundaries(probability, self.xs, self.ys)
        focus_map = None
        if focus_node is not None:
            node_kind = self._twin.document.node(focus_node).kind
            image = np.ascontiguousarray(np.concatenate(focus_parts).reshape(self.shape), dtype=np.float32)
            level = NODE_MIDPOINT.get(kind(node_kind).name, 0.0)
            focus_map = FocusMap(-1, int(focus[1]), upsample(image, self.display_shape), level,
                                 contour_segments(image, level, self.xs, self.ys), focus_node)
        return PlaneDrawing(upsample(probability, self.display_shape), contour, (), (), focus_map, node_maps)


def _columns(values: np.ndarray) -> np.ndarray:
    """A node's values with a row a point, as (points, columns)."""
    return values.reshape(len(values), -1)
