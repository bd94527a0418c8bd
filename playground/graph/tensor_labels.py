"""What the editor's cards and wires say in a tensor graph: each card's shape and tooltip, each wire's shape
label and tooltip (the gradient it carries and, where an operand was broadcast, how it was summed back).

Outside a tensor graph the items are told nothing (None), and show their scalar texts.
"""

from __future__ import annotations

from .arrays import shape_text
from .evaluate import Evaluation
from .tensor_text import node_text, wire_text

NOT_EVALUATED = Evaluation(results={}, edge_grads={}, output=None, values={}, incomplete=[], is_tensor=True)


def show_tensor_texts(document, evaluation, cards: dict, wires: dict) -> None:
    """Give ``cards`` (node id → `NodeItem`) and ``wires`` (edge → `WireItem`) their tensor texts."""
    if not document.is_tensor_graph:
        for card in cards.values():
            card.set_shape(None)
            card.set_tensor_tooltip(None)
        for wire in wires.values():
            wire.set_tensor_texts(None, None)
        return
    shown = evaluation if evaluation is not None and evaluation.is_tensor else NOT_EVALUATED
    for node_id, card in cards.items():
        if document.has_node(node_id):
            card.set_shape(document.shape_of(node_id))
            card.set_tensor_tooltip(node_text(document, shown, node_id))
    for edge, wire in wires.items():
        shape = document.wire_shape(edge)
        wire.set_tensor_texts("?" if shape is None else shape_text(shape), wire_text(document, shown, edge))
