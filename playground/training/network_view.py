"""The network drawn as the TF Playground draws it: a column per layer, every neuron a small map of
what it computes over the plane, every weight a wire coloured by its sign and as thick as it is
large.

`NetworkView` shows what the panel hands it from the worker's frames (`show_picture`): the neuron
maps of one batched pass over the grid, the weights, biases and gradients, and the wires drawn by
the worker where the view said they run (`wire_layout_changed`). It never runs the model.
A person hovers a neuron (`neuron_hovered`: the panel shows its map on the big plot), hovers a
wire (its weight and gradient in full), clicks a wire or a neuron to type a new weight or bias
(`parameter_edited`, which the panel makes one undoable edit), and adds or removes layers and
neurons with the buttons over the columns (`architecture_edited`; the headers: `network_headers`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QImage, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ..common.colours import class_line_colours, rgb
from ..common.numbers import format_number, full_number
from .model.network import parameter_name
from .model.neuron_images import NeuronImages, neuron_images
from .model.settings import MAX_LAYERS, MAX_NEURONS
from .model.wires import WireLayout
from .network_headers import BUTTON, LayerCaption, column_header, header_rows, row_captions
from .neuron_map import LayerMaps, NeuronMap, ParameterEditor, paint_neurons
from .widgets import ElidedLabel, heading_font, named

SQUARE_MAX, SQUARE_MIN = 44, 12  # a neuron's side in pixels: it shrinks to fit, then the column scrolls
SQUARE_MIN_PRESENTING = 20       # in presentation mode: a map a class can still read from the back
SPACING = 1.3                    # a neuron's slot is this many sides tall
LEFT, RIGHT = 52, 66             # room for the inputs' names and the outputs'
MIN_STEP = 66                    # columns never closer than this: the view scrolls sideways instead
PICK_DISTANCE = 5.0              # how near (pixels) the mouse must be to a wire to pick it
MIN_WIDTH = 190                  # the narrowest the diagram's view gets


@dataclass(frozen=True)
class NetworkPicture:
    """What the diagram draws, all copies: from one frame of the worker."""

    sizes: tuple[int, ...]                # neurons per layer: inputs, hidden..., outputs
    input_names: tuple[str, ...]
    output_names: tuple[str, ...]         # "P(blue)" for one output, the class names for several
    activations: tuple[str, ...]          # per hidden layer, in words: "Tanh", "ReLU, dropout 20% while training"
    maps: tuple[np.ndarray, ...]          # per layer: (neurons, r, r)
    dead: tuple[np.ndarray, ...]          # per layer: (neurons,) bool
    weights: tuple[np.ndarray, ...]       # per layer 1..n+1: (out, in)
    biases: tuple[np.ndarray, ...]        # per layer 1..n+1: (out,)
    weight_grads: tuple[np.ndarray, ...]
    bias_grads: tuple[np.ndarray, ...]
    wires: tuple[int, np.ndarray] | None = None  # (layout serial, RGBA image) when the worker drew new ones
    images: NeuronImages | None = None    # the maps and biases in colour, when the worker coloured them


class NetworkCanvas(QWidget):
    """The columns of neurons, the wires between them (painted here), and the buttons over the columns."""

    def __init__(self, view: NetworkView):
        super().__init__()
        self.view = view
        self.setMouseTracking(True)
        self.picture: NetworkPicture | None = None
        self.sizes: tuple[int, ...] = ()
        self.neurons: list[list[NeuronMap]] = []
        self._headers: list[QWidget] = []
        self._name_labels: list[QLabel] = []
        self._row_captions = row_captions(self)
        self.captions: tuple[LayerCaption, ...] = ()  # each hidden layer's activation and dropout
        self.square = SQUARE_MAX
        self._centres: list[np.ndarray] = []  # per layer: (neurons, 2) centres
        self._column_spans: list[tuple] = []  # per layer: its frames' left, right, tops and bottoms
        self.maps: LayerMaps | None = None  # the last picture's maps
        self._wires: list[np.ndarray] = []  # per layer 1..: each wire's ends (x0, y0, x1, y1), weight order
        self._wire_image: QImage | None = None
        self._wire_pixels: np.ndarray | None = None  # the image's memory
        self.wire_layout: WireLayout | None = None
        self.wire_redraws = 0
        self.redraws = 0  # pictures shown (neuron maps and biases; the wires follow in their turn)
        self.hovered_wire: tuple[int, int, int] | None = None  # layer, out, in
        self.hovered_neuron: NeuronMap | None = None
        self.dark = False
        self.text_scale = 1.0  # presentation mode: the header, buttons and names this much larger
        self.name_margins = (LEFT, RIGHT)  # room for the inputs' and outputs' names, as wide as the longest
        self.editor = ParameterEditor(self)
        self.editor.committed.connect(self._on_editor_committed)

    # -- the architecture --

    def set_sizes(self, sizes: tuple[int, ...], input_names: tuple[str, ...], output_names: tuple[str, ...]) -> None:
        """Columns of ``sizes`` neurons, the inputs and outputs named; laid out again only when they change."""
        changed = sizes != self.sizes
        if changed:
            self._rebuild(sizes)
        renamed = False
        for label, name in zip(self._name_labels, (*input_names, *output_names)):
            if label.text() != name:
                label.setText(name)
                renamed = True
        if changed or (renamed and self._measure_names()):
            self.relayout()

    def set_captions(self, captions: tuple[LayerCaption, ...]) -> None:
        """What each hidden column says under its title; laid out again when the caption lines come or go."""
        lines = header_rows(self.captions).lines
        self.captions = tuple(captions)
        self._show_captions()
        if header_rows(self.captions).lines != lines:
            self.relayout()

    def _show_captions(self) -> None:
        lines, captions = header_rows(self.captions).lines, dict(enumerate(self.captions, start=1))
        for layer, header in enumerate(self._headers):
            header.show_caption(captions.get(layer) if 0 < layer < len(self._headers) - 1 else None, lines)

    def _measure_names(self) -> bool:
        """The room left of the inputs and right of the outputs: as wide as their longest name in the
        labels' font (presentation mode's too), never less than at first. Says whether it changed."""
        inputs = self.sizes[0] if self.sizes else 0
        widths = [label.fontMetrics().horizontalAdvance(label.text()) + 8 for label in self._name_labels]
        left = max([self._px(LEFT), *widths[:inputs]])
        right = max([self._px(RIGHT), *widths[inputs:]])
        changed = (left, right) != self.name_margins
        self.name_margins = (left, right)
        return changed

    def _rebuild(self, sizes: tuple[int, ...]) -> None:
        self.hovered_wire = None
        if self.hovered_neuron is not None:
            self.hover_neuron(None)
        for widget in (*(n for column in self.neurons for n in column), *self._headers, *self._name_labels):
            # Deleted later, never now: a click on one of these buttons may be what brought us here.
            # Unnamed at once, so that nobody finds the old ones by name meanwhile.
            for named_widget in (widget, *widget.findChildren(QWidget)):
                named_widget.setObjectName("")
            widget.hide()
            widget.deleteLater()
        self.picture, self.maps = None, None  # their weights and maps are of the old shape
        self.sizes = tuple(sizes)
        layers = len(sizes)
        self.neurons = [[NeuronMap(layer, i, self) for i in range(n)] for layer, n in enumerate(sizes)]
        for neuron in (n for column in self.neurons for n in column):
            neuron.entered.connect(self.hover_neuron)
            neuron.left.connect(self._on_neuron_left)
            neuron.clicked.connect(self.edit_bias)
        self._headers = [column_header(layer, self.sizes, self.view, self._px, self) for layer in range(layers)]
        self._show_captions()
        self._name_labels = []
        for layer in (0, layers - 1):
            for _ in range(sizes[layer]):
                label = QLabel(self)
                label.setAlignment(Qt.AlignmentFlag.AlignVCenter
                                   | (Qt.AlignmentFlag.AlignRight if layer == 0 else Qt.AlignmentFlag.AlignLeft))
                self._name_labels.append(label)
        for widget in (*(n for column in self.neurons for n in column), *self._headers, *self._name_labels):
            widget.show()
        self.editor.raise_()

    # -- geometry --

    def _px(self, pixels: float) -> int:
        """A length of the layout at 100%, in presentation mode's scale."""
        return int(round(pixels * self.text_scale))

    def set_text_scale(self, factor: float) -> None:
        self.text_scale = float(factor)
        for button in self.findChildren(QToolButton):
            button.setFixedSize(self._px(BUTTON), self._px(BUTTON))
        self._measure_names()
        self.relayout()

    @property
    def smallest_square(self) -> int:
        """The side below which the squares stop shrinking and the column scrolls instead."""
        return SQUARE_MIN if self.text_scale <= 1.0 else max(SQUARE_MIN_PRESENTING, round(SQUARE_MIN * self.text_scale))

    def whole_width(self) -> int:
        """The narrowest the canvas is with every column in sight (names measured at the last layout):
        narrower, the view scrolls sideways."""
        left, right = self.name_margins
        return left + right + SQUARE_MAX + (max(len(self.sizes), 1) - 1) * self._px(MIN_STEP)

    def relayout(self) -> None:
        """Place the columns in the width the view gives and the height it has, shrinking the squares to
        fit; below `smallest_square` the canvas grows taller and the view scrolls."""
        if not self.sizes:
            return
        viewport = self.view.scroll.viewport()
        layers = len(self.sizes)
        tallest = max(self.sizes)
        scroll_bar = self.view.scroll.verticalScrollBar().sizeHint().width()
        self._measure_names()
        rows = header_rows(self.captions)
        (left, right), header_height = self.name_margins, self._px(rows.height)
        width = max(viewport.width(), self.whole_width())
        height = max(self.view.scroll.height() - (scroll_bar if width > viewport.width() else 0), 200)
        span = width - left - right
        step = span / max(layers - 1, 1)
        side = min(SQUARE_MAX, (height - header_height - 8) / (tallest * SPACING), step * 0.45)
        self.square = side = int(max(self.smallest_square, side))
        needed = header_height + 8 + int(tallest * side * SPACING)
        self.setFixedSize(width, max(height, needed))
        for caption, top in zip(self._row_captions, (rows.tops[0], rows.tops[2])):
            caption.setGeometry(0, self._px(top), left - 4, self._px(19))
        body_top, body_height = header_height, self.height() - header_height - 4
        self._centres = []
        labels = iter(self._name_labels)
        for layer, column in enumerate(self.neurons):
            x = left + side / 2 + (span - side) * (layer / max(layers - 1, 1))
            n = len(column)
            slot = side * SPACING
            top = body_top + (body_height - n * slot) / 2 + slot / 2
            centres = np.array([[x, top + i * slot] for i in range(n)])
            self._centres.append(centres)
            for neuron, (cx, cy) in zip(column, centres):
                neuron.setGeometry(int(round(cx - side / 2)), int(round(cy - side / 2)), side, side)
            header = self._headers[layer]
            header_width = max(int(step) - 4, header.sizeHint().width()) if layers > 1 else 80
            header.setGeometry(int(x - header_width / 2), self._px(rows.tops[0]), header_width, header_height - 6)
            if layer in (0, layers - 1):
                name_height = max(self._px(20), self.fontMetrics().height() + 4)
                for cx, cy in centres:
                    label = next(labels)
                    if layer == 0:
                        label.setGeometry(0, int(cy - name_height / 2), int(cx - side / 2 - 3), name_height)
                    else:
                        label.setGeometry(int(cx + side / 2 + 3), int(cy - name_height / 2), right - 4, name_height)
        # From the geometry set (a neuron's frame follows only once its move event comes, when shown).
        self._column_spans = [(column[0].x(), column[0].x() + column[0].width(),
                               [n.y() for n in column], [n.y() + n.height() for n in column])
                              for column in self.neurons]
        self._build_wires()
        self._announce_wires()
        self.update()

    def _build_wires(self) -> None:
        """Every weight's wire, from the right edge of its input neuron to the left edge of its output,
        in the order of the weight matrix (out, in) flattened."""
        half = self.square / 2
        self._wires = []
        for left, right in zip(self._centres, self._centres[1:]):
            start = np.repeat(left[None, :, :], len(right), axis=0).reshape(-1, 2) + [half, 0]
            end = np.repeat(right[:, None, :], len(left), axis=1).reshape(-1, 2) - [half, 0]
            self._wires.append(np.concatenate([start, end], axis=1))

    # -- what it shows --

    def show_picture(self, picture: NetworkPicture) -> None:
        self.picture = picture
        self.set_sizes(picture.sizes, picture.input_names, picture.output_names)  # lays out again only when they change
        images = picture.images
        if images is None or images.dark != self.dark:  # a frame from before the theme changed
            images = neuron_images(picture.maps, picture.biases, self.dark)
        self.maps = LayerMaps(images, picture.dead)
        if picture.wires is not None and self.wire_layout is not None and picture.wires[0] == self.wire_layout.serial:
            self._wire_pixels = np.ascontiguousarray(picture.wires[1])  # premultiplied ARGB words
            height, width = self._wire_pixels.shape[:2]
            self._wire_image = QImage(self._wire_pixels.data, width, height, 4 * width,
                                      QImage.Format.Format_ARGB32_Premultiplied)
            self.wire_redraws += 1
        self.update()
        self.redraws += 1

    def map_pixels(self, layer: int, index: int) -> np.ndarray | None:
        """The map shown for neuron ``index`` of ``layer``: (r, r) 0xffRRGGBB words, row 0 at the top."""
        return self.maps.pixels[layer][index] if self.maps is not None else None

    def _neurons_in(self, rect: QRectF) -> list[tuple[int, int, int]]:
        """Per column that ``rect`` crosses: the layer and the range of its neurons in ``rect`` (a column's
        neurons lie top to bottom; most of a large network's are scrolled out of sight)."""
        shown = []
        for layer, (left, right, tops, bottoms) in enumerate(self._column_spans):
            if right >= rect.left() and left <= rect.right():
                start, stop = bisect_left(bottoms, rect.top()), bisect_right(tops, rect.bottom())
                if start < stop:
                    shown.append((layer, start, stop))
        return shown

    def _announce_wires(self) -> None:
        """A new layout (or theme): the old wire image no longer fits; the worker draws the new one."""
        self._wire_image = None
        colours = class_line_colours(self.dark)  # a wire stands 3:1 off the page, its sign dashed or solid
        pairs = tuple((float(left[0, 0] + self.square / 2), float(right[0, 0] - self.square / 2),
                       left[:, 1].copy(), right[:, 1].copy())
                      for left, right in zip(self._centres, self._centres[1:]))
        serial = self.wire_layout.serial + 1 if self.wire_layout is not None else 1
        self.wire_layout = WireLayout(serial, self.sizes, self.width(), self.height(), pairs,
                                      max(1.5, min(6.0, self.square / 6)),
                                      tuple(int(c) for c in rgb(colours[0])), tuple(int(c) for c in rgb(colours[1])))
        self.view.wire_layout_changed.emit(self.wire_layout)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        if self._wire_image is not None:
            painter.drawImage(0, 0, self._wire_image)
        exposed = QRectF(event.rect())
        paint_neurons(painter, self.neurons, self._neurons_in(exposed), self.maps, self.palette(),
                      self.hovered_neuron)
        if self.hovered_wire is not None and self.hovered_wire[0] - 1 < len(self._wires):
            layer, out, inp = self.hovered_wire
            ends = self._wires[layer - 1]
            x0, y0, x1, y1 = ends[out * self.sizes[layer - 1] + inp]
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 3.0)
            if self.picture is not None and self.picture.weights[layer - 1][out, inp] < 0:
                pen.setStyle(Qt.PenStyle.DashLine)  # the sign stays in sight, as the drawn wire's dashes say
            painter.setPen(pen)
            painter.drawLine(QPointF(x0, y0), QPointF(x1, y1))
        painter.end()

    # -- the mouse --

    def wire_at(self, point: QPointF) -> tuple[int, int, int] | None:
        """The wire nearest ``point`` within `PICK_DISTANCE` pixels: (layer it feeds, out, in)."""
        best, found = PICK_DISTANCE, None
        px, py = point.x(), point.y()
        for layer, ends in enumerate(self._wires, start=1):
            if not len(ends) or not ends[0, 0] - 2 <= px <= ends[0, 2] + 2:
                continue
            x0, y0, x1, y1 = ends.T
            dx, dy = x1 - x0, y1 - y0
            t = np.clip(((px - x0) * dx + (py - y0) * dy) / np.maximum(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
            distance = np.hypot(x0 + t * dx - px, y0 + t * dy - py)
            nearest = int(np.argmin(distance))
            if distance[nearest] <= best:
                best, found = distance[nearest], (layer, *divmod(nearest, self.sizes[layer - 1]))
        return found

    def wire_text(self, wire: tuple[int, int, int]) -> str:
        layer, out, inp = wire
        picture = self.picture
        layers = len(self.sizes)
        source = (f"input {picture.input_names[inp]}" if layer == 1 else f"layer {layer - 1} neuron {inp + 1}")
        target = (f"output {picture.output_names[out]}" if layer == layers - 1 else f"layer {layer} neuron {out + 1}")
        weight = picture.weights[layer - 1][out, inp]
        gradient = picture.weight_grads[layer - 1][out, inp]
        return (f"weight {full_number(weight)}\ngradient ∂loss/∂w {full_number(gradient)}\n"
                f"from {source} to {target}\nClick to type a new weight")

    def mouseMoveEvent(self, event) -> None:
        wire = self.wire_at(event.position()) if self.picture is not None else None
        if wire != self.hovered_wire:
            self.hovered_wire = wire
            self.update()
        if wire is not None:
            QToolTip.showText(event.globalPosition().toPoint(), self.wire_text(wire), self)
            self.setCursor(Qt.CursorShape.PointingHandCursor)
        else:
            QToolTip.hideText()
            self.unsetCursor()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        if self.hovered_wire is not None:
            self.hovered_wire = None
            self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        wire = self.wire_at(event.position()) if self.picture is not None else None
        if event.button() == Qt.MouseButton.LeftButton and wire is not None:
            self.edit_weight(wire, event.position().toPoint())
            return
        super().mousePressEvent(event)

    def edit_weight(self, wire: tuple[int, int, int], point) -> None:
        layer, out, inp = wire
        value = float(self.picture.weights[layer - 1][out, inp])
        self.editor.open_at(point, full_number(value), (parameter_name(layer, "weight"), (out, inp), value))

    def edit_bias(self, neuron: NeuronMap, point) -> None:
        if self.picture is None or neuron.layer - 1 >= len(self.picture.biases):
            return
        value = float(self.picture.biases[neuron.layer - 1][neuron.index])
        self.editor.open_at(point, full_number(value), (parameter_name(neuron.layer, "bias"), (neuron.index,), value))

    def _on_editor_committed(self, value: float) -> None:
        name, index, old = self.editor.target
        if value != old:
            self.view.parameter_edited.emit(name, index, old, value)

    def _on_neuron_left(self, neuron: NeuronMap) -> None:
        if neuron is self.hovered_neuron:
            self.hover_neuron(None)

    def hover_neuron(self, neuron: NeuronMap | None) -> None:
        if self.hovered_neuron is not None:
            self.hovered_neuron.hovered = False
            self.hovered_neuron.update()
        self.hovered_neuron = neuron
        if neuron is None:
            self.view.neuron_hovered.emit(-1, -1)
            return
        neuron.hovered = True
        neuron.update()
        neuron.setToolTip(self.neuron_text(neuron))
        self.view.neuron_hovered.emit(neuron.layer, neuron.index)

    def neuron_text(self, neuron: NeuronMap) -> str:
        picture = self.picture
        if picture is None:
            return ""
        layers = len(self.sizes)
        layer, index = neuron.layer, neuron.index
        if layer == 0:
            return f"input {picture.input_names[index]}\nits map is on the plot"
        values = picture.maps[layer][index]
        lines = [f"output {picture.output_names[index]}" if layer == layers - 1
                 else f"layer {layer} neuron {index + 1} ({picture.activations[layer - 1]})",
                 f"bias {full_number(picture.biases[layer - 1][index])}",
                 f"bias gradient {full_number(picture.bias_grads[layer - 1][index])}",
                 f"over the plane from {format_number(values.min())} to {format_number(values.max())}"]
        if picture.dead[layer][index]:
            lines.append("dead: zero over the whole plane, so no gradient reaches its weights")
        lines.append("its map is on the plot; click to type a new bias")
        return "\n".join(lines)


class NetworkView(QWidget):
    """The diagram and the bar above it (undo and redo of typed weights)."""

    neuron_hovered = Signal(int, int)                   # layer, neuron; -1, -1 when the mouse leaves
    parameter_edited = Signal(str, object, float, float)  # parameter name, index, old value, new value
    # The new hidden layer sizes, and where each came from: its index among the old layers (None: a new one).
    architecture_edited = Signal(object, object)
    wire_layout_changed = Signal(object)                # a `WireLayout`: where the worker should draw wires

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "networkView", "The network: hover a neuron for its map, a wire for its weight; "
                                   "click a wire or a neuron to type a new weight or bias", spoken="Network diagram")
        self.hidden: tuple[int, ...] = ()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.title = QLabel("NETWORK")
        self.title.setFont(heading_font(self))
        bar.addWidget(self.title)
        bar.addStretch(1)
        self.undo_button = named(QToolButton(), "undoWeightButton", "Undo the last typed weight",
                                 spoken="Undo the last typed weight")
        self.redo_button = named(QToolButton(), "redoWeightButton", "Redo the typed weight",
                                 spoken="Redo the typed weight")
        for button in (self.undo_button, self.redo_button):
            button.setAutoRaise(True)
            bar.addWidget(button)
        layout.addLayout(bar)
        self.scroll = QScrollArea()
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops at its + and −, scrolled into sight
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll.setWidgetResizable(False)
        self.canvas = NetworkCanvas(self)
        self.scroll.setWidget(self.canvas)
        self.scroll.viewport().setAutoFillBackground(False)  # one surface with the panel around it
        self.scroll.viewport().installEventFilter(self)
        layout.addWidget(self.scroll, 1)
        # One line, whole in its tooltip when the view is narrow: wrapped, it took the diagram's height.
        self.hint = ElidedLabel("Wires: solid blue positive, dashed orange negative, thicker is larger. "
                                "Small square: the bias.")
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        layout.addWidget(self.hint)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # The diagram scrolls sideways in a narrow window, but the bar over it (its title, Undo, Redo)
        # is never cut: the view is as narrow as that bar and no narrower than MIN_WIDTH.
        self.scroll.setMinimumWidth(MIN_WIDTH)

    def whole_width(self) -> int:
        """The view's width with every column of the diagram in sight (and room for an upright scroll
        bar): the training tab folds its settings column away for it, when that is enough."""
        return self.canvas.whole_width() + self.scroll.verticalScrollBar().sizeHint().width()

    def set_undo_actions(self, undo, redo) -> None:
        # The buttons show arrows (their tooltips say "Undo …" in full): the words would make the bar, and
        # so the narrowest the diagram gets, wider than a projector's screen can spare.
        for button, action, arrow in ((self.undo_button, undo, "↶"), (self.redo_button, redo, "↷")):
            action.setIconText(arrow)
            button.setDefaultAction(action)

    def eventFilter(self, watched, event) -> bool:
        if watched is self.scroll.viewport() and event.type() == event.Type.Resize:
            self.canvas.relayout()
        return super().eventFilter(watched, event)

    # -- what it shows --

    def show_architecture(self, sizes: tuple[int, ...], input_names, output_names, captions=()) -> None:
        """The columns for ``sizes``, each hidden one's ``captions`` (maps follow with the next `show_picture`)."""
        self.hidden = tuple(sizes[1:-1])
        self.canvas.set_sizes(tuple(sizes), tuple(input_names), tuple(output_names))
        self.canvas.set_captions(captions)

    def show_picture(self, picture: NetworkPicture) -> None:
        self.hidden = tuple(picture.sizes[1:-1])
        self.canvas.show_picture(picture)

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: the columns' headers, buttons and names ``factor`` times their usual room."""
        self.canvas.set_text_scale(factor)

    def set_theme(self, dark: bool) -> None:
        self.canvas.dark = dark
        if self.canvas.sizes:
            self.canvas._announce_wires()
        if self.canvas.picture is not None:
            self.canvas.show_picture(self.canvas.picture)

    def neuron(self, layer: int, index: int) -> NeuronMap:
        return self.canvas.neurons[layer][index]

    # -- edits of the architecture --

    def insert_layer(self, after: int) -> None:
        if len(self.hidden) < MAX_LAYERS:
            size = self.hidden[after - 1] if after > 0 else (self.hidden[0] if self.hidden else 4)
            self.architecture_edited.emit((*self.hidden[:after], size, *self.hidden[after:]),
                                          (*range(after), None, *range(after, len(self.hidden))))

    def remove_layer(self, layer: int) -> None:
        if 1 <= layer <= len(self.hidden):
            self.architecture_edited.emit(self.hidden[:layer - 1] + self.hidden[layer:],
                                          tuple(i for i in range(len(self.hidden)) if i != layer - 1))

    def resize_layer(self, layer: int, change: int) -> None:
        sizes = list(self.hidden)
        size = sizes[layer - 1] + change
        if 1 <= size <= MAX_NEURONS:
            sizes[layer - 1] = size
            self.architecture_edited.emit(tuple(sizes), tuple(range(len(sizes))))
