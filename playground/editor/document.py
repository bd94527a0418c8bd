"""The graph editor's document: nodes, wires and the chosen output, as plain Python.

Qt-free. Graphics items draw it and undo commands change it; every change is announced to
subscribers as a `Change`, so a view follows the model and holds no state of its own.
networkx answers the graph questions (cycles, order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

import networkx as nx

from ..numbers import format_number
from .catalog import DEFAULT_SUM_INPUTS, kind
from .graph_file import FORMAT_NAME, FORMAT_VERSION, DocumentFormatError, check  # noqa: F401 - the file's names


@dataclass
class Node:
    id: str
    kind: str
    x: float = 0.0
    y: float = 0.0
    label: str = ""
    value: float = 0.0  # used by leaves (input, parameter, constant)
    inputs: int = 0  # number of ports of a Sum node; other kinds have a fixed arity

    def __post_init__(self):
        self.x, self.y, self.value = float(self.x), float(self.y), float(self.value)

    @property
    def port_count(self) -> int:
        arity = kind(self.kind).arity
        return self.inputs if arity < 0 else arity

    @property
    def is_leaf(self) -> bool:
        return kind(self.kind).is_leaf



@dataclass(frozen=True, order=True)
class Edge:
    """A wire from ``source``'s output to input ``port`` of ``target``."""

    source: str
    target: str
    port: int


@dataclass(frozen=True)
class Change:
    """What happened to the document: ``what`` is one of the names below."""

    what: str  # node_added, node_removed, node_changed, node_moved, edge_added, edge_removed, output_changed, reset
    node_id: str | None = None
    edge: Edge | None = None


@dataclass
class GraphDocument:
    _nodes: dict[str, Node] = field(default_factory=dict)
    _edges: dict[tuple[str, int], Edge] = field(default_factory=dict)  # keyed by (target, port): one wire per input
    output: str | None = None  # the node whose gradient is 1; None means the single sink
    # The same wires as a networkx graph (keyed by port), kept up to date edit by edit: networkx
    # answers "would this wire close a cycle?" by walking only what is reachable, with no graph to
    # rebuild for every wire.
    _graph: nx.MultiDiGraph = field(default_factory=nx.MultiDiGraph, repr=False, compare=False)
    _order: list[str] | None = field(default=None, repr=False, compare=False)  # topological order cache
    _names: dict[str, str] | None = field(default=None, repr=False, compare=False)  # readable names cache
    _next_id: int = field(default=1, compare=False)
    _subscribers: list[Callable[[Change], None]] = field(default_factory=list, repr=False, compare=False)

    # -- observing -------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[Change], None]) -> None:
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Callable[[Change], None]) -> None:
        self._subscribers.remove(callback)

    def _announce(self, what: str, node_id: str | None = None, edge: Edge | None = None) -> None:
        if what in ("node_added", "node_removed", "edge_added", "edge_removed", "reset"):
            self._order = None
        if what != "node_moved":
            self._names = None
        change = Change(what, node_id, edge)
        for callback in list(self._subscribers):
            callback(change)

    # -- reading ---------------------------------------------------------------------------

    @property
    def nodes(self) -> list[Node]:
        return list(self._nodes.values())

    @property
    def edges(self) -> list[Edge]:
        return sorted(self._edges.values())

    def node(self, node_id: str) -> Node:
        return self._nodes[node_id]

    def has_node(self, node_id: str) -> bool:
        return node_id in self._nodes

    def edge_at(self, target: str, port: int) -> Edge | None:
        return self._edges.get((target, port))

    def edges_of(self, node_id: str) -> list[Edge]:
        """Every wire into or out of ``node_id``."""
        node = self._nodes.get(node_id)
        ports = range(node.port_count) if node else ()
        into = [self._edges[(node_id, p)] for p in ports if (node_id, p) in self._edges]
        out = [Edge(node_id, target, port) for _, target, port in self._graph.out_edges(node_id, keys=True)]
        return sorted({*into, *out})

    def new_id(self) -> str:
        while f"n{self._next_id}" in self._nodes:
            self._next_id += 1
        return f"n{self._next_id}"

    def to_networkx(self) -> nx.MultiDiGraph:
        """The graph as networkx sees it: nodes in document order, one edge per wire keyed by its port."""
        graph = nx.MultiDiGraph()
        graph.add_nodes_from(self._nodes)
        graph.add_edges_from((e.source, e.target, e.port) for e in self._edges.values())
        return graph

    def topological_order(self) -> list[str]:
        """Node ids, operands before results, ties in the order the nodes were added.

        Cached until the graph's structure changes: editing values, labels or positions (a
        slider drag) re-evaluates without sorting again.
        """
        if self._order is None:
            position = {node_id: i for i, node_id in enumerate(self._nodes)}
            self._order = list(nx.lexicographical_topological_sort(self.to_networkx(), key=position.__getitem__))
        return list(self._order)

    def name(self, node_id: str) -> str:
        """How every text names the node: its label, else a readable name from `names`."""
        return self.names()[node_id]

    def names(self) -> dict[str, str]:
        """A readable name for every node, the same on the card, in the animator and in exported code.

        A label is used as it is. Unlabelled results are t1, t2, ... in forward order, the way a
        textbook names the intermediate values of an exercise; unlabelled leaves are x1, x2, ...
        (inputs) and w1, w2, ... (parameters), and an unlabelled constant is its number (``3``).
        A generated name skips every name that a label already uses, so no two nodes read alike by
        accident.
        """
        if self._names is None:
            taken = {node.label for node in self._nodes.values() if node.label}
            counters = {"input": 0, "parameter": 0}
            prefixes = {"input": "x", "parameter": "w"}
            names = {}
            for node_id in self.topological_order():
                node = self._nodes[node_id]
                if node.label:
                    names[node_id] = node.label
                    continue
                if node.kind == "constant":  # the 3 of 3 * x is read as itself
                    names[node_id] = format_number(node.value)
                    continue
                family = node.kind if node.kind in prefixes else "result"
                prefix = prefixes.get(family, "t")
                count = counters.get(family, 0)
                while True:
                    count += 1
                    candidate = f"{prefix}{count}"
                    if candidate not in taken:
                        break
                counters[family] = count
                taken.add(candidate)
                names[node_id] = candidate
            self._names = names
        return self._names

    def ancestors(self, node_id: str) -> set[str]:
        """Every node ``node_id`` is computed from (not including itself)."""
        found, stack = set(), [node_id]
        while stack:
            current = stack.pop()
            node = self._nodes[current]
            for port in range(node.port_count):
                edge = self._edges.get((current, port))
                if edge is not None and edge.source not in found:
                    found.add(edge.source)
                    stack.append(edge.source)
        return found

    def sinks(self) -> list[str]:
        used = {e.source for e in self._edges.values()}
        return [node_id for node_id in self._nodes if node_id not in used]

    def effective_output(self) -> str | None:
        """The chosen output, else the single sink, else the most recently added sink."""
        if self.output in self._nodes:
            return self.output
        sinks = self.sinks()
        return sinks[-1] if sinks else None

    def connection_problem(self, source: str, target: str, port: int) -> str | None:
        """Why a wire from ``source`` to ``target``'s input ``port`` may not be made, or None."""
        if source not in self._nodes or target not in self._nodes:
            return "both ends must be nodes of this graph"
        target_node = self._nodes[target]
        if source == target:
            return "a node cannot feed its own input"
        if target_node.is_leaf:
            return f"{self.name(target)} is a leaf and has no inputs"
        if not 0 <= port < target_node.port_count:
            return f"{self.name(target)} has no input port {port}"
        occupied = self._edges.get((target, port))
        if occupied is not None:
            port_name = kind(target_node.kind).port_name(port)
            return (f"input '{port_name}' of {self.name(target)} is already connected to "
                    f"{self.name(occupied.source)}")
        try:  # a path already running from target to source would come back round through this wire
            path = nx.shortest_path(self._graph, target, source)
        except nx.NetworkXNoPath:
            return None
        names = " → ".join(self.name(n) for n in [*path, target])
        return f"this wire would make a cycle: {names}"

    # -- changing (undo commands call these) -------------------------------------------------

    def add_node(self, node: Node, index: int | None = None) -> Node:
        """Add ``node`` last, or at position ``index`` of the node order (undoing a delete)."""
        if node.id in self._nodes:
            raise ValueError(f"a node with id {node.id!r} exists already")
        kind(node.kind)  # unknown kinds are refused
        if kind(node.kind).is_variadic and node.inputs < 1:
            node = replace(node, inputs=DEFAULT_SUM_INPUTS)
        if index is None or index >= len(self._nodes):
            self._nodes[node.id] = node
        else:
            items = list(self._nodes.items())
            items.insert(index, (node.id, node))
            self._nodes = dict(items)
        self._graph.add_node(node.id)
        self._announce("node_added", node.id)
        return node

    def node_index(self, node_id: str) -> int:
        return list(self._nodes).index(node_id)

    def remove_node(self, node_id: str) -> list[Edge]:
        """Remove a node and its wires; returns the wires removed (for undo)."""
        removed = self.edges_of(node_id)
        for edge in removed:
            self.remove_edge(edge)
        del self._nodes[node_id]
        self._graph.remove_node(node_id)
        if self.output == node_id:
            self.output = None
        self._announce("node_removed", node_id)
        return removed

    def add_edge(self, edge: Edge) -> None:
        problem = self.connection_problem(edge.source, edge.target, edge.port)
        if problem:
            raise ValueError(problem)
        self._edges[(edge.target, edge.port)] = edge
        self._graph.add_edge(edge.source, edge.target, key=edge.port)
        self._announce("edge_added", edge=edge)

    def remove_edge(self, edge: Edge) -> None:
        if self._edges.get((edge.target, edge.port)) != edge:
            raise ValueError(f"no wire {edge}")
        del self._edges[(edge.target, edge.port)]
        self._graph.remove_edge(edge.source, edge.target, key=edge.port)
        self._announce("edge_removed", edge=edge)

    def move_node(self, node_id: str, x: float, y: float) -> None:
        node = self._nodes[node_id]
        node.x, node.y = float(x), float(y)
        self._announce("node_moved", node_id)

    def set_value(self, node_id: str, value: float) -> None:
        self._nodes[node_id].value = float(value)
        self._announce("node_changed", node_id)

    def set_label(self, node_id: str, label: str) -> None:
        self._nodes[node_id].label = label
        self._announce("node_changed", node_id)

    def set_inputs(self, node_id: str, count: int) -> None:
        """Set the port count of a Sum node; wires on ports that go away must be removed first."""
        node = self._nodes[node_id]
        if not kind(node.kind).is_variadic:
            raise ValueError(f"{self.name(node_id)} has a fixed number of inputs")
        if count < 1:
            raise ValueError("a Sum needs at least one input")
        if any(e.port >= count for e in self.edges_of(node_id) if e.target == node_id):
            raise ValueError("remove the wires on the ports that go away first")
        node.inputs = count
        self._announce("node_changed", node_id)

    def set_output(self, node_id: str | None) -> None:
        if node_id is not None and node_id not in self._nodes:
            raise ValueError(f"no node {node_id!r}")
        self.output = node_id
        self._announce("output_changed", node_id)

    def replace_with(self, other: GraphDocument) -> None:
        """Take ``other``'s nodes, wires and output (opening a file, parsing an expression)."""
        self._nodes = {n.id: replace(n) for n in other.nodes}
        self._edges = {(e.target, e.port): e for e in other.edges}
        self._graph = other.to_networkx()
        self.output = other.output
        self._next_id = 1
        self._announce("reset")

    def copy(self) -> GraphDocument:
        return GraphDocument.from_dict(self.to_dict())

    # -- files -----------------------------------------------------------------------------

    def to_dict(self) -> dict:
        nodes = []
        for node in self._nodes.values():
            entry = {k: v for k, v in asdict(node).items() if k != "inputs"}
            if not node.is_leaf:
                del entry["value"]
            if kind(node.kind).is_variadic:
                entry["inputs"] = node.inputs
            nodes.append(entry)
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "nodes": nodes,
            "edges": [{"from": e.source, "to": e.target, "port": e.port} for e in self.edges],
            "output": self.output,
        }

    @classmethod
    def from_dict(cls, data) -> GraphDocument:
        """Read a document written by `to_dict`, checking everything first; raises `DocumentFormatError`
        naming the field (``edges[2]: ...``) and leaves nothing half-built behind."""
        checked = check(data)
        document = cls()
        for i, entry in enumerate(checked.nodes):
            if document.has_node(entry.id):
                raise DocumentFormatError(f"nodes[{i}].id: {entry.id!r} is the id of an earlier node too")
            document.add_node(Node(entry.id, entry.kind, entry.x, entry.y, entry.label,
                                   0.0 if entry.value is None else entry.value, entry.inputs or 0))
        for i, entry in enumerate(checked.edges):
            for end, node_id in (("from", entry.source), ("to", entry.target)):
                if not document.has_node(node_id):
                    raise DocumentFormatError(f"edges[{i}].{end}: {node_id!r} is not the id of a node")
            problem = document.connection_problem(entry.source, entry.target, entry.port)
            if problem:
                raise DocumentFormatError(f"edges[{i}]: {problem}")
            document.add_edge(Edge(entry.source, entry.target, entry.port))
        if checked.output is not None and not document.has_node(checked.output):
            raise DocumentFormatError(f"output: {checked.output!r} is not the id of a node")
        document.output = checked.output
        return document
