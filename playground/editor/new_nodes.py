"""A fresh node of a kind the person picked (from the palette, the quick search or a drop).

Inputs and parameters get the next free label and a starting value, a Sum its default number
of inputs, a Data preset its own label and value (x1, x2, or X = points()), and the node is placed so
its card is centred where the person asked for it.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

from ..canvas.cards import NODE_WIDTH
from ..canvas.node_card import node_height
from ..graph.arrays import Generator
from ..graph.catalog import DEFAULT_SUM_INPUTS, PRESETS, kind
from ..graph.document import GraphDocument, Node

_DEFAULT_LEAF = {"input": ("x", 1.0), "parameter": ("w", 0.5), "constant": ("", 1.0)}


def new_node(document: GraphDocument, kind_name: str, center: QPointF) -> Node:
    """A fresh node of ``kind_name`` whose card is centred on ``center``.

    Inputs and parameters get the next free label (x1, x2, ... / w1, w2, ...) and a value of 1 or
    0.5; a Sum gets `DEFAULT_SUM_INPUTS` ports.
    """
    if kind_name in PRESETS:
        preset = PRESETS[kind_name]
        generator = Generator(preset.generator, ()) if preset.generator else None
        node = Node(document.new_id(), preset.kind, label=preset.label,
                    value=generator.values() if generator else preset.value, generator=generator)
        return _centred(node, center)
    node_kind = kind(kind_name)
    node = Node(document.new_id(), kind_name, inputs=DEFAULT_SUM_INPUTS if node_kind.is_variadic else 0)
    if node_kind.is_leaf:
        prefix, value = _DEFAULT_LEAF.get(kind_name, ("", 0.0))
        node.value = value
        if prefix:
            used = {n.label for n in document.nodes}
            number = 1
            while f"{prefix}{number}" in used:
                number += 1
            node.label = f"{prefix}{number}"
    return _centred(node, center)


def _centred(node: Node, center: QPointF) -> Node:
    node.x = round(center.x() - NODE_WIDTH / 2)
    node.y = round(center.y() - node_height(node) / 2)
    return node
