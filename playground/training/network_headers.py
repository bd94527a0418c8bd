"""What the network diagram shows over its columns: each column's header (insert a layer after it or remove
it, its title, and − n + for its neurons) and the captions left of the header rows that say what the
buttons do.

The diagram (`network_view.NetworkCanvas`) places the headers; a header edits the architecture through the
view it is given (``insert_layer``, ``remove_layer``, ``resize_layer``), never by itself.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from .model.settings import MAX_LAYERS, MAX_NEURONS
from .widgets import CompactToolButton, named

HEADER = 70                      # room above the columns for their buttons and titles
HEADER_ROWS = (2, 24, 44)        # the tops of its rows: layer buttons, title, neuron buttons
BUTTON = 19                      # a header button's side at 100%


def layer_title(layer: int, layers: int) -> str:
    return "Inputs" if layer == 0 else ("Output" if layer == layers - 1 else f"Layer {layer}")


def tool_button(text: str, name: str, tip: str, px: Callable[[float], int], parent: QWidget | None = None
                ) -> QToolButton:
    """A header's "+" or "−": borderless, `BUTTON` pixels a side in presentation mode's scale ``px``."""
    button = named(CompactToolButton(parent), name, tip, spoken=tip)
    button.setText(text)
    button.setAutoRaise(True)
    button.setFixedSize(px(BUTTON), px(BUTTON))
    return button


def row_caption(text: str, tip: str, parent: QWidget) -> QLabel:
    """A small grey word left of a header row ("layers", "neurons")."""
    label = QLabel(text, parent)
    label.setToolTip(tip)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 0.85)
    label.setFont(font)
    return label


def row_captions(parent: QWidget) -> list[QLabel]:
    """The captions of the layer buttons' row and the neuron buttons' row."""
    return [row_caption("layers", "Insert (+) or remove (−) a hidden layer", parent),
            row_caption("neurons", "One neuron more (+) or fewer (−) in a hidden layer", parent)]


def column_header(layer: int, sizes: tuple[int, ...], view, px: Callable[[float], int], parent: QWidget) -> QWidget:
    """Over column ``layer`` of a network of ``sizes``: insert a layer after it / remove it, its title, and
    − n + for its neurons; the buttons call ``view``'s ``insert_layer``, ``remove_layer`` and ``resize_layer``."""
    layers = len(sizes)
    header = QWidget(parent)
    box = QVBoxLayout(header)
    box.setContentsMargins(0, 0, 0, 0)
    box.setSpacing(0)
    hidden = layers - 2
    row = QHBoxLayout()
    # The 19 px "+" and "−" side by side keep WCAG 2.5.8's spacing: centres 25 px apart, so a 24 px circle
    # round each meets neither the other nor its circle (the neurons' pair has their count between them).
    row.setSpacing(px(6))
    row.setAlignment(Qt.AlignmentFlag.AlignCenter)
    if layer < layers - 1:
        add = tool_button("+", f"networkAddLayer{layer}Button",
                          f"Insert a hidden layer after {layer_title(layer, layers).lower()}", px)
        add.setEnabled(hidden < MAX_LAYERS)
        add.clicked.connect(lambda _=False, at=layer: view.insert_layer(at))
        row.addWidget(add)
    if 0 < layer < layers - 1:
        remove = tool_button("−", f"networkRemoveLayer{layer}Button", f"Remove hidden layer {layer}", px)
        remove.clicked.connect(lambda _=False, at=layer: view.remove_layer(at))
        row.addWidget(remove)
    box.addLayout(row)
    box.addStretch(1)
    title = QLabel(layer_title(layer, layers))
    title.setAlignment(Qt.AlignmentFlag.AlignCenter)
    box.addWidget(title)
    row = QHBoxLayout()
    row.setSpacing(1)
    row.setAlignment(Qt.AlignmentFlag.AlignCenter)
    count = QLabel(str(sizes[layer]))
    count.setAlignment(Qt.AlignmentFlag.AlignCenter)
    if 0 < layer < layers - 1:
        fewer = tool_button("−", f"networkRemoveNeuron{layer}Button", f"One neuron fewer in layer {layer}", px)
        fewer.setEnabled(sizes[layer] > 1)
        fewer.clicked.connect(lambda _=False, at=layer: view.resize_layer(at, -1))
        more = tool_button("+", f"networkAddNeuron{layer}Button", f"One neuron more in layer {layer}", px)
        more.setEnabled(sizes[layer] < MAX_NEURONS)
        more.clicked.connect(lambda _=False, at=layer: view.resize_layer(at, +1))
        count.setToolTip(f"{sizes[layer]} neurons")
        row.addWidget(fewer)
        row.addWidget(count)
        row.addWidget(more)
    else:
        row.addWidget(count)
    box.addLayout(row)
    return header
