"""Checking a network a student built against the one a lesson asks for: by its parts, their shapes with n for
the batch, and whether the training tab can train it. Qt-free.

A ``build:`` of a network (`network_graph_facts`) asks for a graph the training tab trains: the points fed in
(``X = points()``, or ``x1`` and ``x2``), parameters it adjusts, and an output that is a score for each point.
The student's graph passes when it has every part of the lesson's (`build_check.match_parts`): each data input
fed as the lesson's is, each parameter a parameter of its shape, each operation of its kind on the matching
operands, giving the same shape, the batch counted as n whatever size the editor's ``points()`` shows; and when
the training tab can train it with the lesson's output as its output. What is missing is said part by part in
the lesson's names ("W1: a parameter of shape (2, 16)"; "H = tanh(XW1b1), giving (n, 16)").
"""

from __future__ import annotations

import numpy as np

from ...graph.document import GraphDocument
from ...graph.feeding import FEEDS, feed_of
from ...graph.network import FED_SHAPES, GraphProblem, batch_shape_text, batch_shape_text_in, plan_training
from ...graph.shape_check import infer_shapes
from .build_check import BuildCheck, Part, Shapes, match_parts, missing_text, parts
from .questions import Question


def batch_shapes(document: GraphDocument) -> dict:
    """Every node's shape with its data inputs fed a batch of n points (None where it cannot be had yet)."""
    values = {node.id: np.broadcast_to(0.0, FED_SHAPES[feed]) for node in document.nodes
              if (feed := feed_of(document, node.id)) is not None}
    return infer_shapes(document, values=values)[0]


def network_parts(target: GraphDocument) -> list[Part]:
    """Every node of the lesson's network, operands first, in its words: what each leaf is and each node gives."""
    names = target.names()

    def leaf_text(node_id: str, shape) -> str:
        feed = feed_of(target, node_id)
        if feed is not None:  # "the points, one row each (n, 2)" says its shape already
            return f"{names[node_id]}: an input fed {FEEDS[feed]}" + (f", {batch_shape_text(shape)}"
                                                                      if feed != "points" else "")
        what = "a parameter" if target.node(node_id).kind == "parameter" else "a constant"
        return f"{names[node_id]}: {what} of shape {batch_shape_text(shape)}"

    found = parts(target, batch_shapes(target), leaf_text, every=True)
    return [Part(part.node, batch_shape_text_in(part.text)) for part in found]


def _leaf_agrees(target: GraphDocument, built: GraphDocument):
    """A data input stands for a data input fed the same, a parameter for a parameter (it must be trained)."""
    def agrees(wanted, given) -> bool:
        if feed_of(target, wanted.id) != feed_of(built, given.id):
            return False
        return (wanted.kind == "parameter") == (given.kind == "parameter")
    return agrees


def check_network(target: GraphDocument, built: GraphDocument) -> BuildCheck:
    """Whether ``built`` (the editor's graph) has every part of the network ``target`` and trains as it does."""
    if not built.nodes:
        return BuildCheck(False, "The editor's graph is empty: type the network in the Expression box, or drag "
                                 "its nodes from the palette.")
    needed = network_parts(target)
    shapes = Shapes(batch_shapes(target), batch_shapes(built), _leaf_agrees(target, built))
    matched, missing = match_parts(target, built, needed, shapes)
    if missing:
        return BuildCheck(False, missing_text(missing) + " A name like W1 or b1 makes a parameter; X = points() "
                                                        "the points.")
    try:
        plan = plan_training(built)
    except GraphProblem as problem:
        return BuildCheck(False, f"Every part is there, but the training tab cannot train it: {problem}")
    output = target.effective_output()
    if plan.output not in matched[output]:
        return BuildCheck(False, f"Every part is there, but the graph's output is {built.name(plan.output)}: the "
                                 f"score for each point is {target.name(output)}, so it must be the output (no "
                                 "node after it).")
    return BuildCheck(True, f"Your network has every part ({len(needed)}), and its output {built.name(plan.output)} "
                            "is a score for each point: the training tab can train it.")


def network_build_question(facts) -> Question:
    """A network ``build:`` step's task, as a question the Learn panel's Check answers from the editor's graph."""
    target = facts.document
    needed = network_parts(target)
    prompt = "Build this network in the editor, then press **Check my graph**."
    hint = (f"It needs: {'; '.join(part.text for part in needed)}; with {target.name(facts.output)}, a score for "
            "each point, as the graph's output.")
    worked = (f"Built: {', '.join(target.name(part.node) for part in needed)}, with the lesson's numbers "
              "(its initial weights).")
    return Question("build", facts.output, prompt, None, hint, worked, 0)
