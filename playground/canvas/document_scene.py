"""A read-only scene of a graph document, drawn with the editor's own cards: the animator replays on it and
the training tab trains on it, so a graph looks the same in every tab.

`show_document` draws the cards and wires (a bare number such as the 3 of ``3 * x`` on a `ConstantCard`) and
marks the output; nothing here edits the document.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsScene

from ..common.numbers import format_number
from ..graph.document import Edge, GraphDocument, is_bare_constant
from .card_scene import CardScene
from .cards import CardItem
from .node_card import NodeItem
from .wires import WireItem


class ConstantCard(NodeItem):
    """A number written in a formula (the 3 of ``3 * x``): titled by its value and tagged "constant", so that
    it does not read as an input with a made-up name."""

    def title(self) -> str:
        return format_number(self.node.value)

    def kind_title(self) -> str:
        return "constant"

    def display_name(self) -> str:
        return self.title()


class DocumentScene(CardScene):
    """Shows one graph at a time, read-only; `show_document` replaces it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        # Nothing moves here (the editor's scene indexes nothing because its nodes are dragged about):
        # a BSP index makes painting a big graph look at the visible items only, ~6x faster at 1000 nodes.
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)

    def show_document(self, document: GraphDocument) -> None:
        """Draw ``document`` with the editor's cards; its output node is marked."""
        self._clear_items()
        for node in document.nodes:
            card = ConstantCard if is_bare_constant(document, node.id) else NodeItem
            item = card(node, document.name(node.id))
            item.set_editable(False)
            self._add(node.id, item)
        for edge in document.edges:
            self._connect(edge, WireItem(edge, self._nodes[edge.source], self._nodes[edge.target]))
        output = document.effective_output()
        if output in self._nodes:
            self._nodes[output].set_is_output(True)

    def _add(self, node_id: str, item: CardItem) -> None:
        self.add_card(node_id, item)

    def _connect(self, edge: Edge, wire: WireItem) -> None:
        wire.set_label_visible(False)
        self.addItem(wire)
        self._wires[edge] = wire
        self._nodes[edge.target].input_port(edge.port).set_connected(True)
