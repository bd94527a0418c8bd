"""Checking the graph a student built against the one a lesson asks for, by its parts and their shapes. Qt-free.

A ``build:`` step names a graph (``X = [[...]]; W = randn(2, 3, seed=0); b = ...; Z = X @ W + b; ...``)
and the student builds it in the editor, by typing it or from the palette. Their graph passes when it has
every array-valued part of the lesson's (each input or parameter by its shape; each operation by its kind,
its operands and the shape it gives) and ends in a single number (a loss) computed from them. Names and
numbers are the student's own: only the structure and the shapes are checked. What is missing is said
part by part, in the lesson's names ("b: an input or parameter of shape (3,)").
"""

from __future__ import annotations

from dataclasses import dataclass

from ...graph.arrays import shape_text
from ...graph.catalog import kind
from ...graph.document import GraphDocument
from .questions import Question

COMMUTATIVE = ("add", "mul")  # XW + b or b + XW: the same layer
MAX_SAID = 3  # the parts missing named at once; the rest counted


@dataclass(frozen=True)
class Part:
    node: str  # the lesson graph's node id
    text: str  # what it is, in the lesson's names: "Z = XW + b, a (4, 3) add"


def parts(target: GraphDocument, shapes: dict | None = None, leaf_text=None, every=False) -> list[Part]:
    """The parts a built graph needs: every node of ``target`` that holds an array (``every``: every node),
    operands first. ``shapes`` (the document's own by default) and ``leaf_text(node_id, shape)`` let a network's
    check (`network_check`) write its shapes with n for the batch and say what each leaf is."""
    shapes, names = shapes if shapes is not None else target.shapes(), target.names()
    found = []
    for node_id in target.topological_order():
        shape = shapes.get(node_id)
        if not shape and not every:  # the loss and what reduces to it are the student's choice
            continue
        node = target.node(node_id)
        if node.is_leaf:
            text = (leaf_text(node_id, shape) if leaf_text is not None
                    else f"{names[node_id]}: an input or parameter of shape {shape_text(shape)}")
        else:
            operands = [names[target.edge_at(node_id, port).source] for port in range(node.port_count)]
            node_kind = kind(node.kind)
            text = (f"{names[node_id]} = {node_kind.formula(operands, node.params)}, "
                    f"giving {shape_text(shape)}")
        found.append(Part(node_id, text))
    return found


@dataclass(frozen=True)
class Shapes:
    """The shapes a check compares: the lesson graph's and the built graph's, and whether a built leaf may stand
    for a lesson leaf (any leaf, by default)."""

    target: dict
    built: dict
    leaf_agrees: object = None  # (target node, built node) -> bool


def _matches(target: GraphDocument, built: GraphDocument, target_id: str, built_id: str,
             matched: dict[str, set[str]], shapes: Shapes) -> bool:
    """Whether the student's node ``built_id`` does what the lesson's ``target_id`` does."""
    node, other = target.node(target_id), built.node(built_id)
    if shapes.target.get(target_id) != shapes.built.get(built_id):
        return False
    if node.is_leaf:
        return other.is_leaf and (shapes.leaf_agrees is None or shapes.leaf_agrees(node, other))
    if other.kind != node.kind or other.port_count != node.port_count or other.params != node.params:
        return False
    wanted = [target.edge_at(target_id, port).source for port in range(node.port_count)]
    edges = [built.edge_at(built_id, port) for port in range(other.port_count)]
    if any(edge is None for edge in edges):
        return False
    given = [edge.source for edge in edges]

    def agree(order: list[str]) -> bool:
        return all(source in matched.get(want, set()) for want, source in zip(wanted, order))

    return agree(given) or (node.kind in COMMUTATIVE and len(given) == 2 and agree(given[::-1]))


def match_parts(target: GraphDocument, built: GraphDocument, needed: list[Part],
                shapes: Shapes | None = None) -> tuple[dict[str, set[str]], list[Part]]:
    """Each needed part's matches among the built graph's nodes, and the parts with none."""
    shapes = shapes or Shapes(target.shapes(), built.shapes())
    matched: dict[str, set[str]] = {}
    for part in needed:
        matched[part.node] = {node.id for node in built.nodes
                              if _matches(target, built, part.node, node.id, matched, shapes)}
    return matched, [part for part in needed if not matched[part.node]]


def missing_text(missing: list[Part]) -> str:
    """What a check says is missing: the first few parts, and how many more."""
    said = "; ".join(part.text for part in missing[:MAX_SAID])
    more = f" (and {len(missing) - MAX_SAID} more)" if len(missing) > MAX_SAID else ""
    return f"Not yet: your graph has no {said}{more}. Shapes are on each card's header and on every wire."


@dataclass(frozen=True)
class BuildCheck:
    passed: bool
    message: str  # what is there, or what is missing, in light markup


def check_built(target: GraphDocument, built: GraphDocument) -> BuildCheck:
    """Whether ``built`` (the editor's graph) has every part of ``target`` (the lesson's) and a loss from them."""
    if not built.nodes:
        return BuildCheck(False, "The editor's graph is empty: type the network in the Expression box, or drag "
                                 "its nodes from the palette.")
    needed = parts(target)
    matched, missing = match_parts(target, built, needed)
    if missing:
        return BuildCheck(False, missing_text(missing))
    output = built.effective_output()
    last = needed[-1] if needed else None
    shape = built.shapes().get(output) if output is not None else None
    if shape != ():
        gives = shape_text(shape) if shape is not None else "no shape yet"
        return BuildCheck(False, "Every part is there. Now end in a single number, a loss computed from "
                                 f"{target.name(last.node) if last else 'them'}, such as sum(...) or mean(...): "
                                 f"the graph's output gives {gives}.")
    if last is not None and not (matched[last.node] & (built.ancestors(output) | {output})):
        return BuildCheck(False, f"Every part is there, but the output does not depend on "
                                 f"{target.name(last.node)}: compute the loss from it.")
    return BuildCheck(True, f"Your graph has every part ({len(needed)}) and a loss, {built.name(output)}.")


def build_question(facts) -> Question:
    """The ``build:`` step's task, as a question the Learn panel's Check answers from the editor's graph."""
    target = facts.document
    needed = parts(target)
    listed = "; ".join(part.text for part in needed)
    prompt = "Build this network in the editor, then press **Check my graph**."
    hint = f"It needs: {listed}; and a single-number loss computed from them, as the graph's output."
    built = ", ".join(target.name(part.node) for part in needed)
    worked = f"Built: {built} and the loss {target.name(facts.output)}, with the lesson's numbers."
    return Question("build", facts.output, prompt, None, hint, worked, 0)
