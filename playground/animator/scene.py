"""What the backward animator draws on: a read-only scene of a graph document (the canvas's `DocumentScene`)
or of a network's tensor graph.

A tensor graph is drawn with `TensorCard`s, the editor's cards with a tensor's shape on them, and
`TensorWire`s, whose label is the norm of the gradient they carry. The panel recolours and relabels the
items as the animation moves.
"""

from __future__ import annotations

from ..canvas.cards import CardItem
from ..canvas.document_scene import DocumentScene
from ..canvas.wires import WireItem
from ..common.numbers import format_number, full_number
from ..graph.document import Edge
from .model.tensor_timeline import TENSOR_CARD_WIDTH, TensorAnimation, TensorNode, shape_text


class TensorCard(CardItem):
    """A node of a tensor graph: "Linear 1" with the tag "linear", ports x, W, b, and its shape."""

    WIDTH = TENSOR_CARD_WIDTH  # wider than a scalar's card: "‖grad‖ 0.0001234" fits

    def __init__(self, node: TensorNode):
        super().__init__(node.id, node.x, node.y)
        self.tensor_node = node
        self._layout()
        self._refresh_tooltip()

    def group(self) -> str:
        return self.tensor_node.group

    def title(self) -> str:
        return self.tensor_node.title

    def kind_title(self) -> str:
        return self.tensor_node.kind

    def port_names(self) -> list[str]:
        return list(self.tensor_node.port_names)

    def default_body_lines(self) -> list[str]:
        return [f"shape {shape_text(self.tensor_node.shape)}", "value —", "grad —"]

    def tooltip_text(self) -> str:
        node = self.tensor_node
        return f"{node.title} ({node.kind}): {node.description}\nshape {node.shape}"


class TensorWire(WireItem):
    """A wire of a tensor graph: labelled with the norm of the gradient it carries (or the number
    itself, for a tensor of one element)."""

    def __init__(self, edge: Edge, source: TensorCard, target: TensorCard):
        super().__init__(edge, source, target)
        self.shows_norm = source.tensor_node.size > 1

    def label_text(self) -> str:
        if self.grad is None:
            return ""
        return f"{'‖g‖' if self.shows_norm else 'g'} {format_number(self.grad)}"

    def _refresh_tooltip(self) -> None:
        port = self.target_item.port_name(self.edge.port)
        text = f"{self.source_item.display_name()} → {self.target_item.display_name()} (input '{port}')"
        if self.grad is not None:
            what = "norm of the gradient carried" if self.shows_norm else "gradient carried"
            text += f"\n{what} = {full_number(self.grad)}"
        self.setToolTip(text)


class AnimatorScene(DocumentScene):
    """Shows one graph at a time, read-only: a document (`show_document`) or a network's tensor graph."""

    def show_tensor_graph(self, animation: TensorAnimation) -> None:
        """Draw a network's tensor graph; the loss is marked as the output."""
        self._clear_items()
        for node in animation.nodes.values():
            self._add(node.id, TensorCard(node))
        for edge in animation.edges:
            self._connect(edge, TensorWire(edge, self._nodes[edge.source], self._nodes[edge.target]))
        self._nodes[animation.output].set_is_output(True)
