"""The graph in sentences, for a screen reader: one sentence per node and one per wire. Qt-free.

A canvas is one picture to a screen reader, so the graph is also told as an outline, node by node in the
graph's order (operands before results), each node followed by the wires into it:

    a, input, value 2, gradient 31
    t1 = a * b, value 6, gradient 7
        wire from a into input a of t1, carries gradient 21
    L = t2 * t3, the output, value 31, gradient 1

A number a quiz asks for is "hidden" (never the answer), a node not computable yet says why, and an array
says its shape and its numbers (a few) or their range (many): a sentence is heard whole, so it stays short.
The numbers are written as the cards write them (`format_number`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..common.numbers import format_number
from .arrays import format_array, shape_text
from .catalog import kind
from .concealment import NOTHING_CONCEALED, Concealment
from .document import Edge, GraphDocument
from .evaluate import Evaluation

SPOKEN_ELEMENTS = 6  # an array of up to this many numbers is read number by number; a larger one by its range
HIDDEN_WORD = "hidden (a quiz asks for it)"


@dataclass(frozen=True)
class WireLine:
    edge: Edge
    text: str  # "wire from a into input a of t1, carries gradient 21"


@dataclass(frozen=True)
class NodeLine:
    node_id: str
    text: str  # "t1 = a * b, value 6, gradient 7"
    wires: tuple[WireLine, ...]  # the wires into the node, in port order


def outline(document: GraphDocument, evaluation: Evaluation | None,
            concealment: Concealment = NOTHING_CONCEALED) -> list[NodeLine]:
    """Every node's sentence in the graph's order, each with the sentences of the wires into it."""
    output = document.effective_output()  # asked once: it looks at every wire
    return [NodeLine(node_id, node_sentence(document, evaluation, node_id, concealment, output),
                     tuple(WireLine(edge, wire_sentence(document, evaluation, edge, concealment))
                           for edge in wires_into(document, node_id)))
            for node_id in document.topological_order()]


def wires_into(document: GraphDocument, node_id: str) -> list[Edge]:
    node = document.node(node_id)
    edges = (document.edge_at(node_id, port) for port in range(node.port_count))
    return [edge for edge in edges if edge is not None]


def node_sentence(document: GraphDocument, evaluation: Evaluation | None, node_id: str,
                  concealment: Concealment = NOTHING_CONCEALED, output: str | None = "") -> str:
    """``t1 = a * b, value 6, gradient 7``; a leaf ``a, input, value 2, gradient 31``; an array
    ``H = tanh(Z), shape (200, 16), value from -0.99 to 0.98, mean 0.01, gradient ...``. ``output``: the
    document's effective output when the caller knows it ("": ask the document)."""
    node, name = document.node(node_id), document.name(node_id)
    node_kind = kind(node.kind)
    if node_kind.is_leaf:
        parts = [name, node_kind.title.lower()]
    else:
        parts = [f"{name} = {node_kind.formula(_operands(document, node_id), node.params)}"]
    if node_id == (document.effective_output() if output == "" else output):
        parts.append("the output")
    result = evaluation.results.get(node_id) if evaluation is not None else None
    value = result.value if result is not None else (node.value if node.is_leaf else None)
    shape = np.shape(value) if value is not None else document.shape_of(node_id) if document.is_tensor_graph else ()
    if shape and not (result is not None and result.per_point and not document.is_tensor_graph):
        parts.append(f"shape {shape_text(shape)}")  # (a scalar graph's node for each point: the points are said)
    trained = result is not None and result.trained_step is not None
    if trained:  # the trained network's numbers, not the drawn graph's (`trained.trained_evaluation`)
        parts.append(f"trained network at step {format_number(result.trained_step)}")
        if result.per_point and value is not None:
            parts.append(f"for each of the {np.shape(value)[0] if np.ndim(value) else 1} training points")
    if node_id in concealment.values:
        parts.append(f"value {HIDDEN_WORD}")
    elif value is None:
        parts.append(f"no value yet: {_missing_text(result.missing_ports if result else [])}")
    else:
        parts.append(f"value {spoken_number(value)}")
    if result is not None and result.problem and node_id not in concealment.values:
        parts.append(result.problem)
    if node_id in concealment.grads:
        parts.append(f"gradient {HIDDEN_WORD}")
    elif result is None:
        parts.append("no gradient yet")  # not evaluated
    elif result.grad is None:
        parts.append("no gradient" + (": the output does not depend on it" if value is not None else ""))
    else:
        parts.append(f"gradient {'of the training loss ' if trained else ''}{spoken_number(result.grad)}")
    return ", ".join(parts)


def wire_sentence(document: GraphDocument, evaluation: Evaluation | None, edge: Edge,
                  concealment: Concealment = NOTHING_CONCEALED) -> str:
    """``wire from a into input a of t1, carries gradient 21`` (the gradient the wire hands back to a)."""
    target = document.node(edge.target)
    port = kind(target.kind).port_name(edge.port)
    text = f"wire from {document.name(edge.source)} into input {port} of {document.name(edge.target)}"
    grads = evaluation.edge_grads if evaluation is not None else {}
    if edge in concealment.wires:
        return f"{text}, carries gradient {HIDDEN_WORD}"
    if grads.get(edge) is None:
        return f"{text}, carries no gradient"
    grad = grads[edge]
    if evaluation.trained is not None and np.ndim(grad) > 0 and not document.is_tensor_graph:  # a gradient a point
        return (f"{text}, carries the training loss's gradient for each training point, {spoken_number(grad)}, "
                f"summed {format_number(float(np.sum(grad)))}")
    return f"{text}, carries gradient {spoken_number(grad)}"


def spoken_number(value) -> str:
    """A number as a card writes it; an array's numbers when few (``[0.5, -0.5]``), ``all 0`` when they are one
    number, else their range and mean."""
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        return format_number(float(array))
    if array.size <= SPOKEN_ELEMENTS and not (array.size > 1 and np.all(array == array.flat[0])):
        return format_array(array)
    finite = array[np.isfinite(array)]
    bad = array.size - finite.size
    if not finite.size:
        return f"all {array.size} not finite"
    if finite.min() == finite.max():
        text = f"all {format_number(finite.min())}"
    else:
        text = (f"from {format_number(finite.min())} to {format_number(finite.max())}, "
                f"mean {format_number(finite.mean())}")
    return f"{text}, {bad} not finite" if bad else text


def _operands(document: GraphDocument, node_id: str) -> list[str]:
    """The names wired into the node's ports; an open port reads "nothing" (the sentence says what is missing)."""
    node = document.node(node_id)
    names = []
    for port in range(node.port_count):
        edge = document.edge_at(node_id, port)
        names.append(document.name(edge.source) if edge is not None else "nothing")
    return names


def _missing_text(ports: list[str]) -> str:
    if not ports:
        return "an input upstream is not connected"
    if len(ports) == 1:
        return f"input {ports[0]} is not connected"
    return "inputs " + ", ".join(ports) + " are not connected"
