"""Why this gradient? A node's gradient as the sum over the paths from the output down to it: Qt-free.

For lesson 2's graph ``L = (a*b + c) * (a + d)`` at a=2, b=3, c=4, d=5 it reads

    a.grad = 31 = 21 + 10
      7 · 1 · 3 = 21   (through t₁)
      10 · 1 = 10      (through t₃)

The numbers are `engine.paths` on the engine Values the editor (or the animator) evaluated; this
module only names the nodes and wires of each path and writes the text. While a quiz conceals a
gradient or a value (`Concealment`), the numbers that would give it away read "?".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import paths as engine_paths

from ..common.numbers import format_number, full_number
from .concealment import HIDDEN, NOTHING_CONCEALED, Concealment
from .document import Edge, GraphDocument
from .evaluate import Evaluation

LARGEST = 8  # paths listed; the rest are summed up in one line
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def readable(name: str) -> str:
    """t1 -> t₁, x12 -> x₁₂: a name ending in digits written the textbook way; other names as they are."""
    stem = name.rstrip("0123456789")
    return stem + name[len(stem):].translate(SUBSCRIPTS) if stem and stem != name else name


@dataclass(frozen=True)
class PathRow:
    text: str  # "7 · 1 · 3 = 21   (through t₁)"
    tooltip: str  # the whole path, output first, with every edge's local derivative
    nodes: tuple[str, ...]  # node ids, the output first
    edges: tuple[Edge, ...]  # the wires along it, from the output down
    product: float


@dataclass(frozen=True)
class WhyGradient:
    node_id: str
    heading: str  # "a.grad = 31 = 21 + 10"
    rows: tuple[PathRow, ...]  # the largest paths, largest first
    rest: str  # "12 more paths, together 3.5" (empty when every path is listed)
    count: int  # all paths
    total: float  # the gradient they add up to
    concealed: bool  # a quiz hides these numbers: every one reads "?"


def why_gradient(document: GraphDocument, evaluation: Evaluation, node_id: str,
                 concealment: Concealment = NOTHING_CONCEALED, largest: int = LARGEST,
                 top: str | None = None) -> WhyGradient | None:
    """The paths from the output (or from ``top``: forward mode's node, whose tangent is d(top)/d(node)) down
    to ``node_id`` in the evaluated scalar graph, or None when there is no complete output, the graph holds
    tensors, or the node has no value."""
    output = evaluation.output if top is None else top
    values = evaluation.values
    if (evaluation.is_tensor or output is None or node_id not in values or output not in values
            or not document.has_node(node_id)):
        return None
    names = {key: readable(name) for key, name in document.names().items()}
    if any(key not in names for key in values):  # an evaluation of the graph as it was (one is coming)
        return None
    node_of = {id(value): key for key, value in values.items()}
    found = engine_paths(values[output], values[node_id], largest=largest)
    rows = []
    for path in found.paths:
        ids = tuple(node_of[id(value)] for value in path.nodes)
        edges = tuple(document.edge_at(above, index) for above, index in zip(ids, path.indices))
        rows.append((ids, edges, path))
    hidden = _concealed(concealment, node_id, rows)

    def number(x: float) -> str:
        return HIDDEN if hidden else format_number(x)

    name = names[node_id]
    listed = []
    for (ids, edges, path), route in zip(rows, _routes(document, names, rows)):
        factors = " · ".join(number(local) for local in path.locals) or "1"
        through = f"   ({route})"
        text = f"{factors} = {number(path.product)}{through}" if len(path.locals) > 1 else f"{factors}{through}"
        steps = "  ←  ".join(names[i] for i in ids)
        detail = "\n".join(f"∂{names[a]}/∂{names[b]} = {HIDDEN if hidden else full_number(local)}"
                           for a, b, local in zip(ids, ids[1:], path.locals))
        listed.append(PathRow(text, f"{steps}\n{detail}", ids, edges, path.product))
    rest = ""
    if found.rest_count:
        rest = (f"{found.rest_count:,} more path{'s' if found.rest_count > 1 else ''}, "
                f"together {number(found.rest_total)}")
    heading = f"{name}.grad = " if top is None else f"∂{names[output]}/∂{name} = "
    heading += number(found.total)
    if node_id == output:  # a quiz asking for the seed hides the 1 here too, not only after the "="
        seed = HIDDEN if hidden else "1"
        heading += (f" (the output: ∂{name}/∂{name} = {seed}, where every path starts)" if top is None
                    else f" (the input itself: its tangent is seeded to {seed})")
        listed = []
    elif found.count == 0:
        heading += f": no path leads from {names[output]} to {name}"
    elif found.count > 1:
        shares = [number(path.product) for _, _, path in rows]
        if found.rest_count:
            shares.append(number(found.rest_total))
        heading += " = " + " + ".join(shares)
    return WhyGradient(node_id, heading, tuple(listed), rest, found.count, found.total, hidden)


def _concealed(concealment: Concealment, node_id: str, rows) -> bool:
    """A quiz asks for this gradient, for a gradient on the way (a partial product is one), or for a value
    (the local derivatives are made of values): the numbers would give the answer away."""
    if not concealment:
        return False
    on_paths = {node_id}.union(*(set(ids) for ids, _, _ in rows))
    return bool(concealment.values) or bool(on_paths & concealment.grads)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _routes(document: GraphDocument, names: dict[str, str], rows) -> list[str]:
    """What tells each path apart, in words: "through t₁" (the node that uses this one), "from L directly";
    where two paths would read alike, also the nodes only one of them passes ("via u") and, where a node
    takes the same operand twice (``L = a*a``), which use: "as L's first operand"."""
    bases = [f"through {names[ids[-2]]}" if len(ids) > 2 else f"from {names[ids[0]]} directly"
             for ids, _, _ in rows]
    routes = []
    for index, (ids, edges, _) in enumerate(rows):
        alike = [rows[other] for other, base in enumerate(bases) if base == bases[index] and other != index]
        if not alike:
            routes.append(bases[index])
            continue
        words = [bases[index]]
        shared = set.intersection(*(set(other_ids) for other_ids, _, _ in alike))
        own = [names[key] for key in ids[1:-2] if key not in shared]
        if own:
            words.append("via " + ", ".join(own))
        if any(other_ids == ids for other_ids, _, _ in alike):
            words += [f"as {names[edge.target]}'s {_ordinal(edge.port)} operand" for edge in edges
                      if _takes_twice(document, edge)]
        routes.append(", ".join(words))
    return routes


def _takes_twice(document: GraphDocument, edge: Edge) -> bool:
    """Whether the wire's node takes its source on another port too (``a*a``)."""
    target = document.node(edge.target)
    return sum(document.edge_at(target.id, port).source == edge.source for port in range(target.port_count)
               if document.edge_at(target.id, port) is not None) > 1


def _ordinal(port: int) -> str:
    return ORDINALS[port] if port < len(ORDINALS) else f"number {port + 1}"
