"""The graph editor's document: nodes, wires and the chosen output, as plain Python.

Qt-free. Graphics items draw it and undo commands change it; every change is announced to
subscribers as a `Change`, so a view follows the model and holds no state of its own.
networkx answers the graph questions (cycles, order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

import networkx as nx
import numpy as np

from ..common.numbers import format_number
from .arrays import Generator, ValueProblem, as_array, as_leaf_value, same_value, shape_of, shape_text
from .catalog import DEFAULT_SUM_INPUTS, kind
from .feeding import check_feed
from .file_format import FORMAT_NAME, FORMAT_VERSION, DocumentFormatError  # noqa: F401 - the file's names
from .graph_file import check
from .graph_file_v2 import document_dict, read_nodes
from .shape_check import first_new_problem, infer_shapes
from .shapes import ShapeError, check_params


@dataclass(eq=False)
class Node:
    id: str
    kind: str
    x: float = 0.0
    y: float = 0.0
    label: str = ""
    # A leaf's value (input, parameter, constant): a float for a scalar (shape ()), else a read-only
    # float64 array of up to 2 dimensions and 4,096 elements (see `arrays`).
    value: float | np.ndarray = 0.0
    inputs: int = 0  # number of ports of a Sum node; other kinds have a fixed arity
    params: dict = field(default_factory=dict)  # a tensor kind's parameters (axis, keepdims, shape), defaults filled
    generator: Generator | None = None  # how a leaf's values were made, remembered for the UI
    # What the training points feed an input when the graph is trained (`feeding.FEEDS`); None: by its name.
    feed: str | None = None

    def __post_init__(self):
        self.x, self.y = float(self.x), float(self.y)
        self.value = as_leaf_value(self.value)
        node_kind = kind(self.kind)
        self.params = check_params(node_kind.title, dict(self.params), node_kind.default_params)
        if self.generator is not None:
            _check_generator(node_kind, self.generator, self.value)
        if self.feed is not None:
            check_feed(self.kind, self.feed)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Node):
            return NotImplemented
        return all(same_value(self.value, other.value) if f.name == "value"
                   else getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    __hash__ = None

    @property
    def array(self) -> np.ndarray:
        """The value as a float64 array (shape () for a scalar)."""
        return as_array(self.value)

    @property
    def shape(self) -> tuple[int, ...]:
        """A leaf's shape; a computed node's shape is the document's to say (`GraphDocument.shape_of`)."""
        return shape_of(self.value)

    @property
    def is_tensor(self) -> bool:
        """Whether the node makes its graph a tensor graph: an array value or a kind for arrays only."""
        return kind(self.kind).tensor_only or (kind(self.kind).is_leaf and np.ndim(self.value) > 0)

    @property
    def port_count(self) -> int:
        arity = kind(self.kind).arity
        return self.inputs if arity < 0 else arity

    @property
    def is_leaf(self) -> bool:
        return kind(self.kind).is_leaf



def maths_of(document) -> tuple:
    """Everything a computation depends on (not where the nodes sit): equal tuples, equal graphs to compute, to
    animate and to train."""
    nodes = tuple((n.id, n.kind, n.label, repr(n.value.tolist() if hasattr(n.value, "tolist") else n.value),
                   n.port_count, repr(n.params), n.feed) for n in document.nodes)
    return nodes, tuple(document.edges), document.effective_output()


def is_bare_constant(document, node_id: str) -> bool:
    """A constant without a label of its own: a number in a formula (``3`` in ``3 * x``)."""
    node = document.node(node_id)
    return node.kind == "constant" and not node.label


def _check_generator(node_kind, generator: Generator, value) -> None:
    if not node_kind.is_leaf:
        raise ValueProblem(f"a {node_kind.name} node is computed: it has no generator")
    if generator.shape != shape_of(value):
        raise ValueProblem(f"{generator.call_text()} makes shape {shape_text(generator.shape)}, not the value's "
                           f"{shape_text(shape_of(value))}")


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
    _shapes: tuple | None = field(default=None, repr=False, compare=False)  # (shapes, problems) cache
    _tensors: set[str] = field(default_factory=set, repr=False, compare=False)  # ids of nodes with `is_tensor`
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
            self._shapes = None
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

    def operands_from(self, node_id: str, built: dict, missing: dict) -> list | None:
        """What ``built`` holds for the sources wired into ``node_id``'s ports, in port order (an evaluation
        building engine objects node by node); None when a port is unwired (its name is noted in
        ``missing[node_id]``) or a source was not built."""
        node_kind, operands = kind(self._nodes[node_id].kind), []
        for port in range(self._nodes[node_id].port_count):
            edge = self._edges.get((node_id, port))
            if edge is None:
                missing.setdefault(node_id, []).append(node_kind.port_name(port))
            else:
                operands.append(built.get(edge.source))
        return None if node_id in missing or any(operand is None for operand in operands) else operands

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
            counters = {"input": 0, "parameter": 0, "constant": 0}
            prefixes = {"input": "x", "parameter": "w", "constant": "c"}
            names = {}
            for node_id in self.topological_order():
                node = self._nodes[node_id]
                if node.label:
                    names[node_id] = node.label
                    continue
                if node.kind == "constant" and np.ndim(node.value) == 0:  # the 3 of 3 * x is read as itself
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
        """Why a wire from ``source`` to ``target``'s input ``port`` may not be made, or None: a port taken,
        a cycle, or shapes that cannot combine at ``target`` or downstream of it (``(4, 3) @ (2, 2): the
        inner sizes 3 and 2 differ``)."""
        problem = self._wiring_problem(source, target, port)
        if problem is None:
            return self._shape_problem(target, extra_edge=Edge(source, target, port))
        return problem

    def _wiring_problem(self, source: str, target: str, port: int) -> str | None:
        """`connection_problem` without the shapes."""
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

    # -- shapes ----------------------------------------------------------------------------

    @property
    def is_tensor_graph(self) -> bool:
        """True once any leaf holds an array or any node is a kind for arrays: evaluation then uses engine.Tensor."""
        return bool(self._tensors)

    def shapes(self) -> dict[str, tuple | None]:
        """The shape each node gives (None while an input upstream is not connected), from the kinds' shape rules."""
        return dict(self._inferred()[0])

    def shape_of(self, node_id: str) -> tuple[int, ...] | None:
        return self._inferred()[0].get(node_id)

    def wire_shape(self, edge: Edge) -> tuple[int, ...] | None:
        """The shape the wire carries: its source's, for the wire's label."""
        return self.shape_of(edge.source)

    def shape_problems(self) -> dict[str, str]:
        """Nodes whose operands' shapes cannot combine (empty for a document built through its own checks)."""
        return dict(self._inferred()[1])

    def _inferred(self) -> tuple:
        if self._shapes is None:
            if self._tensors:
                self._shapes = infer_shapes(self)
            else:  # a scalar graph: every node gives a scalar once its inputs are wired
                self._shapes = self._scalar_shapes(), {}
        return self._shapes

    def _scalar_shapes(self) -> dict[str, tuple | None]:
        known: dict[str, tuple | None] = {}
        for node_id in self.topological_order():
            node = self._nodes[node_id]
            wired = [self._edges.get((node_id, p)) for p in range(node.port_count)]
            known[node_id] = () if all(e is not None and known[e.source] is not None for e in wired) else None
        return known

    def _shape_problem(self, changed: str, extra_edge: Edge | None = None, values: dict | None = None,
                       params: dict | None = None) -> str | None:
        """Why a change not yet made would leave shapes that cannot combine, in shapes, or None."""
        touches_tensor = bool(self._tensors) or any(np.ndim(v) > 0 for v in (values or {}).values())
        if not touches_tensor:
            return None  # scalars always combine
        _, after = infer_shapes(self, extra_edge, values, params)
        return first_new_problem(self, self.shape_problems(), after, changed)

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
        if node.is_tensor:
            self._tensors.add(node.id)
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
        self._tensors.discard(node_id)
        self._graph.remove_node(node_id)
        if self.output == node_id:
            self.output = None
        self._announce("node_removed", node_id)
        return removed

    def add_edge(self, edge: Edge, check_shapes: bool = True) -> None:
        """Add a wire; `connection_problem` says why not. ``check_shapes=False`` leaves the shape check to
        the caller (a file being read checks all shapes once at the end)."""
        check_wire = self.connection_problem if check_shapes else self._wiring_problem
        problem = check_wire(edge.source, edge.target, edge.port)
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

    def value_problem(self, node_id: str, value) -> str | None:
        """Why ``value`` may not become the leaf's value: past the limits, or a new shape that downstream
        nodes cannot combine (the edit is refused, as a wire is; nothing is disconnected behind your back)."""
        node = self._nodes[node_id]
        if not node.is_leaf:
            return f"{self.name(node_id)} is computed from its inputs: it has no value to set"
        try:
            value = as_leaf_value(value)
        except ValueProblem as error:
            return str(error)
        if shape_of(value) == node.shape:
            return None
        problem = self._shape_problem(node_id, values={node_id: value})
        if problem:
            return (f"{self.name(node_id)} cannot become shape {shape_text(shape_of(value))}: {problem}")
        return None

    def set_value(self, node_id: str, value, generator: Generator | None = None) -> None:
        """Set a leaf's value (a number or an array) and the generator that made it (None: typed by hand).

        Raises `ValueProblem` with `value_problem`'s reason when the value is refused."""
        problem = self.value_problem(node_id, value)
        if problem:
            raise ValueProblem(problem)
        node = self._nodes[node_id]
        if generator is not None:
            _check_generator(kind(node.kind), generator, as_leaf_value(value))
        node.value = as_leaf_value(value)
        node.generator = generator
        self._tensors.discard(node_id)
        if node.is_tensor:
            self._tensors.add(node_id)
        self._announce("node_changed", node_id)

    def params_problem(self, node_id: str, params: dict) -> str | None:
        """Why a node may not take ``params`` (a bad axis, or a shape its neighbours cannot combine with)."""
        node = self._nodes[node_id]
        try:
            checked = check_params(kind(node.kind).title, dict(params), kind(node.kind).default_params)
        except ShapeError as error:
            return str(error)
        return self._shape_problem(node_id, params={node_id: checked})

    def set_params(self, node_id: str, params: dict) -> None:
        """Set a tensor node's parameters (axis, keepdims, shape); raises `ShapeError` when refused."""
        problem = self.params_problem(node_id, params)
        if problem:
            raise ShapeError(problem)
        node = self._nodes[node_id]
        node.params = check_params(kind(node.kind).title, dict(params), kind(node.kind).default_params)
        self._announce("node_changed", node_id)

    def set_label(self, node_id: str, label: str) -> None:
        self._nodes[node_id].label = label
        self._announce("node_changed", node_id)

    def set_kind(self, node_id: str, kind_name: str) -> None:
        """Make a leaf another kind of leaf (input, parameter, constant): what it is, not what it holds. Only an
        input is fed by the points: take a feed away first."""
        node = self._nodes[node_id]
        if not node.is_leaf or not kind(kind_name).is_leaf:
            raise ValueError(f"only a leaf becomes another kind of leaf, not {node.kind} into {kind_name}")
        if node.feed is not None:
            check_feed(kind_name, node.feed)
        node.kind = kind_name
        self._names = None  # an unlabelled leaf is named by its kind (x1, w1)
        self._announce("node_changed", node_id)

    def set_feed(self, node_id: str, feed: str | None) -> None:
        """What the training points feed an input (`feeding.FEEDS`; None: by its name)."""
        node = self._nodes[node_id]
        if feed is not None:
            check_feed(node.kind, feed)
        node.feed = feed
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
        self._tensors = {n.id for n in other.nodes if n.is_tensor}
        self._edges = {(e.target, e.port): e for e in other.edges}
        self._graph = other.to_networkx()
        self.output = other.output
        self._next_id = 1
        self._announce("reset")

    def copy(self) -> GraphDocument:
        return GraphDocument.from_dict(self.to_dict())

    # -- files -----------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The graph file's content: version 1 for a scalar graph (as every earlier file), version 2 once a
        node holds an array, a tensor kind, parameters or a generator (README, "Graph file format")."""
        return document_dict(self.nodes, self.edges, self.output)

    @classmethod
    def from_dict(cls, data) -> GraphDocument:
        """Read a document written by `to_dict`, checking everything first; raises `DocumentFormatError`
        naming the field (``edges[2]: ...``) and leaves nothing half-built behind."""
        checked = check(data)
        document = cls()
        for i, node in enumerate(read_nodes(checked, Node)):
            if document.has_node(node.id):
                raise DocumentFormatError(f"nodes[{i}].id: {node.id!r} is the id of an earlier node too")
            document.add_node(node)
        for i, entry in enumerate(checked.edges):
            for end, node_id in (("from", entry.source), ("to", entry.target)):
                if not document.has_node(node_id):
                    raise DocumentFormatError(f"edges[{i}].{end}: {node_id!r} is not the id of a node")
            problem = document._wiring_problem(entry.source, entry.target, entry.port)
            if problem:
                raise DocumentFormatError(f"edges[{i}]: {problem}")
            document.add_edge(Edge(entry.source, entry.target, entry.port), check_shapes=False)
        if checked.output is not None and not document.has_node(checked.output):
            raise DocumentFormatError(f"output: {checked.output!r} is not the id of a node")
        for node_id, problem in document.shape_problems().items():  # all shapes checked once, not wire by wire
            where = document.node_index(node_id)
            raise DocumentFormatError(f"nodes[{where}]: the shapes of its inputs do not combine: {problem}")
        document.output = checked.output
        return document
