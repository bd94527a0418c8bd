"""The wires a node's output could make, and the wires a node has, in words: what Edit > Connect… and
Edit > Disconnect… offer a person who wires the graph by keyboard instead of dragging.

Connect… lists every input of another node that the output may feed without making a cycle, free or taken
("input 2 (b) of t1: t1 = a * ? · free"); a wire refused for its shapes is listed too, and refused when chosen
with the same words a drag shows, so the keyboard learns what the mouse learns.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import kind
from .document import Edge, GraphDocument

FREE = "?"  # an input with no wire, in a formula


@dataclass(frozen=True)
class WireChoice:
    edge: Edge  # the wire that choosing it makes (or, for Disconnect…, removes)
    text: str  # how the list says it
    replaces: Edge | None = None  # the wire now in that input, which the new one takes the place of


def _formula(document: GraphDocument, node_id: str) -> str:
    node = document.node(node_id)
    operands = []
    for port in range(node.port_count):
        edge = document.edge_at(node_id, port)
        operands.append(FREE if edge is None else document.name(edge.source))
    return kind(node.kind).formula(operands, node.params)


def _input_words(document: GraphDocument, target: str, port: int) -> str:
    node = document.node(target)
    return f"input {port + 1} ({kind(node.kind).port_name(port)}) of {document.name(target)}"


def connect_choices(document: GraphDocument, source: str) -> list[WireChoice]:
    """Every input ``source``'s output may feed without a cycle: the free ones first, each kind in the document's
    order of nodes and ports."""
    upstream = document.ancestors(source)
    choices = []
    for node in document.nodes:
        if node.id == source or node.id in upstream or node.is_leaf:
            continue
        formula = _formula(document, node.id)
        for port in range(node.port_count):
            taken = document.edge_at(node.id, port)
            if taken is not None and taken.source == source:
                continue  # already fed by this very output
            state = "free" if taken is None else f"fed by {document.name(taken.source)} now (replaced)"
            text = f"{_input_words(document, node.id, port)}: {document.name(node.id)} = {formula} · {state}"
            choices.append(WireChoice(Edge(source, node.id, port), text, taken))
    return sorted(choices, key=lambda choice: choice.replaces is not None)  # stable: the order within each kind


def disconnect_choices(document: GraphDocument, node_id: str) -> list[WireChoice]:
    """Every wire into or out of ``node_id``: its inputs first, then where its output goes."""
    edges = document.edges_of(node_id)
    into = sorted((e for e in edges if e.target == node_id), key=lambda e: e.port)
    out_of = [e for e in edges if e.source == node_id and e.target != node_id]
    return [WireChoice(e, f"{document.name(e.source)} → {_input_words(document, e.target, e.port)}")
            for e in [*into, *out_of]]


def replacement_problem(document: GraphDocument, choice: WireChoice) -> str | None:
    """Why the chosen wire may not be made (the words a drag shows), or None. A taken input is judged as if its
    wire were gone, since the new wire takes its place."""
    edge = choice.edge
    if choice.replaces is None:
        return document.connection_problem(edge.source, edge.target, edge.port)
    trial = document.copy()
    trial.remove_edge(choice.replaces)
    return trial.connection_problem(edge.source, edge.target, edge.port)
