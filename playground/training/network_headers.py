"""What the network diagram shows over its columns: each column's header (insert a layer after it or remove
it, its title, a hidden layer's activation and dropout under it, and − n + for its neurons) and the captions
left of the header rows that say what the buttons do.

A hidden layer's caption is its activation ("ReLU") and, where it has dropout, a second line ("drop 20%"); the
second line's room is there only while some layer has dropout (`HeaderRows`), so the usual network's maps
keep their size.

The diagram (`network_view.NetworkCanvas`) places the headers; a header edits the architecture through the
view it is given (``insert_layer``, ``remove_layer``, ``resize_layer``), never by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from .model.settings import ACTIVATIONS, MAX_LAYERS, MAX_NEURONS, TrainingSettings
from .widgets import CompactToolButton, ElidedLabel, named

HEADER = 70                      # room above the columns for their buttons and titles
HEADER_ROWS = (2, 24, 44)        # the tops of its rows: layer buttons, title, neuron buttons
BUTTON = 19                      # a header button's side at 100%
CAPTION_ROW = 14                 # a caption line under the title, at 100%
CAPTION_SCALE = 0.85             # the captions' text, of the panel's


@dataclass(frozen=True)
class LayerCaption:
    """What a hidden column says under its title: its activation and its dropout ("" for none), and the whole
    of both in words for its tooltip."""

    activation: str
    dropout: str
    words: str


def layer_captions(settings: TrainingSettings) -> tuple[LayerCaption, ...]:
    """One caption per hidden layer of ``settings``' layer form."""
    captions = []
    for name, rate in zip(settings.layer_activations, settings.layer_dropout):
        percent = f"{round(100 * rate):d}%"
        words = ACTIVATIONS[name] + (f", dropout {percent} while training (none when evaluated)" if rate else "")
        captions.append(LayerCaption(ACTIVATIONS[name], f"drop {percent}" if rate else "", words))
    return tuple(captions)


@dataclass(frozen=True)
class HeaderRows:
    """The header's height and the tops of its rows at 100%, with ``lines`` caption lines under the title."""

    lines: int

    @property
    def height(self) -> int:
        return HEADER + self.lines * CAPTION_ROW

    @property
    def tops(self) -> tuple[int, int, int]:
        """The layer buttons', the title's and the neuron buttons' rows."""
        return HEADER_ROWS[0], HEADER_ROWS[1], HEADER_ROWS[2] + self.lines * CAPTION_ROW


def header_rows(captions: tuple[LayerCaption, ...]) -> HeaderRows:
    """A line for the activations where there are hidden layers, and one for dropout where some layer has it."""
    return HeaderRows((1 if captions else 0) + any(c.dropout for c in captions))


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


class ColumnHeader(QWidget):
    """A column's header; a hidden layer's keeps its caption's lines (`show_caption`)."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.caption_lines: list[ElidedLabel] = []

    def show_caption(self, caption: LayerCaption | None, lines: int) -> None:
        """``caption``'s activation and dropout on the first ``lines`` of its lines (nothing for a column that
        is not a hidden layer's)."""
        texts = (caption.activation, caption.dropout) if caption is not None else ("", "")
        for index, label in enumerate(self.caption_lines):
            label.setText(texts[index])
            label.setToolTip(caption.words if caption is not None else "")
            label.setAccessibleName(caption.words if caption is not None and texts[index] else "")
            label.setVisible(index < lines)


def caption_line(parent: QWidget) -> ElidedLabel:
    """A line under a column's title: small and grey, elided (whole in its tooltip) where the column is narrow."""
    label = ElidedLabel(parent=parent)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * CAPTION_SCALE)
    label.setFont(font)
    return label


def column_header(layer: int, sizes: tuple[int, ...], view, px: Callable[[float], int], parent: QWidget
                  ) -> ColumnHeader:
    """Over column ``layer`` of a network of ``sizes``: insert a layer after it / remove it, its title, a hidden
    layer's caption lines (shown by `ColumnHeader.show_caption`), and − n + for its neurons; the buttons call
    ``view``'s ``insert_layer``, ``remove_layer`` and ``resize_layer``."""
    layers = len(sizes)
    header = ColumnHeader(parent)
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
    for index in range(2):  # every column has the lines (the inputs' and output's empty): the titles align
        line = caption_line(header)
        if 0 < layer < layers - 1:
            line.setObjectName(f"networkLayer{layer}{('Activation', 'Dropout')[index]}Caption")
        line.hide()
        header.caption_lines.append(line)
        box.addWidget(line)
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
