"""Driving the backward animator panel in tests: the hand-traced graph, what its graph shows, a chain of tanh.
The `panel` and `loaded` fixtures are in `animator/conftest.py`."""

from __future__ import annotations

from PySide6.QtCore import Qt

from playground.animator.panel import AnimatorPanel
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.expression import parse_expression

TRACED = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"
LEFT = Qt.MouseButton.LeftButton


def traced() -> GraphDocument:
    return parse_expression(TRACED)


def node_id(document: GraphDocument, label: str) -> str:
    return next(n.id for n in document.nodes if n.label == label)


def lines(panel: AnimatorPanel, node: str) -> list[str]:
    return panel.scene.node_item(node).body_lines()


def snapshot(panel: AnimatorPanel) -> dict:
    """Everything the graph shows: each node's lines and colour, each wire's label and colour."""
    nodes = {item.node_id: (tuple(item.body_lines()), item.highlight.name() if item.highlight else None)
             for item in panel.scene.node_items()}
    wires = {wire.edge: (wire.label_visible, wire.label_text() if wire.label_visible else "",
                         panel.sync.wire_highlights.get(wire.edge)) for wire in panel.scene.wire_items()}
    return {"nodes": nodes, "wires": wires, "text": panel.steps.explanation.text(),
            "row": panel.steps.step_list.currentRow()}


def chain(n: int) -> GraphDocument:
    """x → tanh → tanh → ... (n nodes): every step changes one or two nodes."""
    document = GraphDocument()
    document.add_node(Node("n0", "input", 0, 0, "x", 0.5))
    for i in range(1, n):
        document.add_node(Node(f"n{i}", "tanh", 180 * i, 0))
        document.add_edge(Edge(f"n{i - 1}", f"n{i}", 0))
    return document
