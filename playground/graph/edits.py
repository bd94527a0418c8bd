"""Edits to a graph document as lists of primitive actions, each with its exact inverse.

Qt-free. An edit is built from the document as it is now (the old state is captured when
the edit is made), applied with `apply` and taken back with `revert`, which runs the
inverses in reverse order. `playground.editor.commands` wraps one edit in one QUndoCommand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np

from ..common.numbers import format_number
from .arrays import Generator, as_leaf_value, format_array, shape_of, shape_text
from .catalog import kind
from .document import Edge, GraphDocument, Node
from .feeding import FEEDS, check_feed


@dataclass(frozen=True)
class AddNode:
    node: Node

    def apply(self, doc: GraphDocument) -> None:
        doc.add_node(replace(self.node))

    def revert(self, doc: GraphDocument) -> None:
        doc.remove_node(self.node.id)


@dataclass(frozen=True)
class RemoveNode:  # its wires are removed by RemoveEdge actions before it
    node: Node
    index: int  # its place in the node order, so undo puts it back exactly there

    def apply(self, doc: GraphDocument) -> None:
        doc.remove_node(self.node.id)

    def revert(self, doc: GraphDocument) -> None:
        doc.add_node(replace(self.node), self.index)


@dataclass(frozen=True)
class AddEdge:
    edge: Edge

    def apply(self, doc: GraphDocument) -> None:
        doc.add_edge(self.edge)

    def revert(self, doc: GraphDocument) -> None:
        doc.remove_edge(self.edge)


@dataclass(frozen=True)
class RemoveEdge:
    edge: Edge

    def apply(self, doc: GraphDocument) -> None:
        doc.remove_edge(self.edge)

    def revert(self, doc: GraphDocument) -> None:
        doc.add_edge(self.edge)


@dataclass(frozen=True)
class MoveNode:
    node_id: str
    old: tuple[float, float]
    new: tuple[float, float]

    def apply(self, doc: GraphDocument) -> None:
        doc.move_node(self.node_id, *self.new)

    def revert(self, doc: GraphDocument) -> None:
        doc.move_node(self.node_id, *self.old)


@dataclass(frozen=True)
class SetField:
    """Set a node's ``value``, ``label``, ``inputs`` (Sum ports), ``params``, ``feed`` or (a leaf's) ``kind``."""

    node_id: str
    name: str
    old: object
    new: object

    def apply(self, doc: GraphDocument) -> None:
        self._set(doc, self.new)

    def revert(self, doc: GraphDocument) -> None:
        self._set(doc, self.old)

    def _set(self, doc: GraphDocument, value) -> None:
        setter = {"value": doc.set_value, "label": doc.set_label, "inputs": doc.set_inputs,
                  "params": doc.set_params, "feed": doc.set_feed, "kind": doc.set_kind}[self.name]
        setter(self.node_id, value)


@dataclass(frozen=True, eq=False)
class SetValue:
    """Set a leaf's value (a number or an array) together with the generator that made it, or None."""

    node_id: str
    old: object
    old_generator: Generator | None
    new: object
    new_generator: Generator | None

    def apply(self, doc: GraphDocument) -> None:
        doc.set_value(self.node_id, self.new, self.new_generator)

    def revert(self, doc: GraphDocument) -> None:
        doc.set_value(self.node_id, self.old, self.old_generator)


@dataclass(frozen=True)
class SetOutput:
    old: str | None
    new: str | None

    def apply(self, doc: GraphDocument) -> None:
        doc.set_output(self.new)

    def revert(self, doc: GraphDocument) -> None:
        doc.set_output(self.old)


@dataclass(frozen=True)
class ReplaceDocument:
    old: dict
    new: dict

    def apply(self, doc: GraphDocument) -> None:
        doc.replace_with(GraphDocument.from_dict(self.new))

    def revert(self, doc: GraphDocument) -> None:
        doc.replace_with(GraphDocument.from_dict(self.old))


@dataclass
class Edit:
    text: str  # what the Edit menu shows: "Undo Connect"
    actions: list

    def apply(self, doc: GraphDocument) -> None:
        for action in self.actions:
            action.apply(doc)

    def revert(self, doc: GraphDocument) -> None:
        for action in reversed(self.actions):
            action.revert(doc)


# -- building edits from the document as it is ------------------------------------------------


def add_node(doc: GraphDocument, node: Node) -> Edit:
    return Edit(f"Add {kind(node.kind).title}", [AddNode(node)])


def remove_nodes(doc: GraphDocument, node_ids: Iterable[str]) -> Edit:
    node_ids = [n for n in dict.fromkeys(node_ids) if doc.has_node(n)]
    edges = sorted({e for n in node_ids for e in doc.edges_of(n)})
    actions: list = [RemoveEdge(e) for e in edges]
    if doc.output in node_ids:
        actions.append(SetOutput(doc.output, None))
    # Removed in order of their position, last first, so each recorded index stays valid on undo.
    for n in sorted(node_ids, key=doc.node_index, reverse=True):
        actions.append(RemoveNode(replace(doc.node(n)), doc.node_index(n)))
    return Edit("Delete" if len(node_ids) != 1 else f"Delete {doc.name(node_ids[0])}", actions)


def remove_edges(doc: GraphDocument, edges: Iterable[Edge]) -> Edit:
    return Edit("Disconnect", [RemoveEdge(e) for e in sorted(set(edges))])


def connect(doc: GraphDocument, edge: Edge) -> Edit:
    problem = doc.connection_problem(edge.source, edge.target, edge.port)
    if problem:
        raise ValueError(problem)
    return Edit("Connect", [AddEdge(edge)])


def move_nodes(doc: GraphDocument, positions: dict[str, tuple[float, float]], text: str = "Move") -> Edit:
    """Move nodes to new positions (a drag of many nodes, or a layout), as one edit."""
    actions = []
    for node_id, (x, y) in positions.items():
        node = doc.node(node_id)
        if (node.x, node.y) != (x, y):
            actions.append(MoveNode(node_id, (node.x, node.y), (float(x), float(y))))
    return Edit(text, actions)


def set_value(doc: GraphDocument, node_id: str, value, generator: Generator | None = None) -> Edit:
    """Set a leaf's value: a number, or an array (typed in a table, or made by ``generator``).

    Raises ``ValueError`` with the document's reason when the value is refused (past the limits, or a new
    shape that the nodes downstream cannot combine with), before anything changes."""
    node = doc.node(node_id)
    if np.ndim(value) == 0 and generator is None and np.ndim(node.value) == 0 and node.generator is None:
        text = f"Set {doc.name(node_id)} = {format_number(float(value))}"  # a scalar edit, as ever
        return Edit(text, [SetField(node_id, "value", node.value, float(value))])
    problem = doc.value_problem(node_id, value)
    if problem:
        raise ValueError(problem)
    value = as_leaf_value(value)
    if generator is not None:
        text = f"Fill {doc.name(node_id)} with {generator.call_text()}"
    elif shape_of(value) != shape_of(node.value):
        text = f"Set {doc.name(node_id)} to shape {shape_text(shape_of(value))}"
    else:
        text = f"Set {doc.name(node_id)} = {format_array(value, limit=6)}"
    return Edit(text, [SetValue(node_id, node.value, node.generator, value, generator)])


def generate(doc: GraphDocument, node_id: str, generator: Generator) -> Edit:
    """Fill a leaf with a generator's values (``randn(2, 3, seed=0)``), remembering the generator."""
    return set_value(doc, node_id, generator.values(), generator)


def set_params(doc: GraphDocument, node_id: str, params: dict) -> Edit:
    """Change a tensor node's parameters (axis, keepdims, shape); raises ``ValueError`` when refused."""
    node = doc.node(node_id)
    new = {**node.params, **params}
    problem = doc.params_problem(node_id, new)
    if problem:
        raise ValueError(problem)
    shown = ", ".join(f"{name}={value}" for name, value in params.items())
    return Edit(f"Set {doc.name(node_id)} {shown}", [SetField(node_id, "params", dict(node.params), new)])


def set_label(doc: GraphDocument, node_id: str, label: str) -> Edit:
    node = doc.node(node_id)
    return Edit(f"Rename {doc.name(node_id)}", [SetField(node_id, "label", node.label, label)])


def set_feed(doc: GraphDocument, node_id: str, feed: str | None) -> Edit:
    """Change what the training points feed an input (None: by its name); raises ``ValueError`` when refused."""
    node = doc.node(node_id)
    check_feed(node.kind, feed)
    return Edit(f"Feed {doc.name(node_id)} {FEEDS[feed]}", [SetField(node_id, "feed", node.feed, feed)])


def set_role(doc: GraphDocument, node_id: str, kind_name: str) -> Edit:
    """Make a leaf an input, a parameter (trained) or a constant, keeping its value; a feed goes with the input."""
    node = doc.node(node_id)
    if not node.is_leaf or not kind(kind_name).is_leaf:
        raise ValueError(f"only a leaf becomes an input, a parameter or a constant, not a {node.kind}")
    actions = []
    if node.feed is not None and kind_name != "input":
        actions.append(SetField(node_id, "feed", node.feed, None))
    actions.append(SetField(node_id, "kind", node.kind, kind_name))
    return Edit(f"Make {doc.name(node_id)} a {kind(kind_name).title.lower()}", actions)


def set_inputs(doc: GraphDocument, node_id: str, count: int) -> Edit:
    """Change a Sum node's number of inputs, dropping the wires on ports that go away."""
    node = doc.node(node_id)
    dropped = [e for e in doc.edges_of(node_id) if e.target == node_id and e.port >= count]
    actions = [*map(RemoveEdge, dropped), SetField(node_id, "inputs", node.inputs, count)]
    return Edit(f"Set {doc.name(node_id)} inputs", actions)


def set_output(doc: GraphDocument, node_id: str | None) -> Edit:
    return Edit("Set output", [SetOutput(doc.output, node_id)])


def add_subgraph(doc: GraphDocument, nodes: list[Node], edges: list[Edge], text: str = "Paste") -> Edit:
    """Add copies of ``nodes`` under fresh ids, with the wires among them (paste, duplicate)."""
    taken = {n.id for n in doc.nodes}
    new_ids = {}
    counter = 1
    for node in nodes:
        while f"n{counter}" in taken:
            counter += 1
        new_ids[node.id] = f"n{counter}"
        taken.add(new_ids[node.id])
    actions: list = [AddNode(replace(node, id=new_ids[node.id])) for node in nodes]
    actions += [AddEdge(Edge(new_ids[e.source], new_ids[e.target], e.port))
                for e in edges if e.source in new_ids and e.target in new_ids]
    return _tried(doc, Edit(text, actions))


def insert_on_wire(doc: GraphDocument, node: Node, edge: Edge) -> Edit:
    """Drop ``node`` onto ``edge``: source → node's first input, node's output → the old target port.

    In a tensor graph the edit is tried on a copy first: shapes the node cannot take raise ``ValueError``
    with the reason before anything changes, rather than halfway through."""
    return _tried(doc, Edit(f"Insert {kind(node.kind).title}", [
        RemoveEdge(edge),
        AddNode(node),
        AddEdge(Edge(edge.source, node.id, 0)),
        AddEdge(Edge(node.id, edge.target, edge.port)),
    ]))


def _tried(doc: GraphDocument, edit: Edit) -> Edit:
    """``edit``, once it applied cleanly to a copy of a tensor graph (a scalar graph's wires always fit)."""
    if doc.is_tensor_graph or any(isinstance(a, AddNode) and a.node.is_tensor for a in edit.actions):
        edit.apply(doc.copy())  # raises ValueError with the document's reason
    return edit


def replace_document(doc: GraphDocument, new: GraphDocument, text: str) -> Edit:
    return Edit(text, [ReplaceDocument(doc.to_dict(), new.to_dict())])
