"""What a tensor node and a tensor wire say in words: the texts the editor's tooltips and the animator show.

Qt-free. ``b  shape (2,)  value [0.5, -0.5]  grad [21, 21]`` for a node (every element up to 64, as issue 19
asks), and for a wire its shape, the gradient it carries back and, where the op broadcast its operand, how
that gradient was summed back (`tensor_evaluate.broadcast_text`, read from the engine's backward steps).
"""

from __future__ import annotations

import numpy as np

from ..common.numbers import format_number
from .arrays import format_array, shape_text
from .catalog import kind
from .outline import spoken_number

SHOWN_ELEMENTS = 64


def _array_text(value) -> str:
    return "—" if value is None else format_array(value, limit=SHOWN_ELEMENTS)


def node_text(document, evaluation, node_id: str) -> str:
    """``b  shape (2,)  value [0.5, -0.5]  grad [21, 21]``; a shape still unknown reads ``shape ?``."""
    result = evaluation.results.get(node_id)
    shape = document.shape_of(node_id)
    shown = "?" if shape is None else shape_text(shape)
    text = f"{document.name(node_id)}  shape {shown}"
    if result is None:
        return text
    if result.per_point:  # a trained network's node, a row a training point: its range, not its numbers
        grad = "—" if result.grad is None else spoken_number(result.grad)
        text += f"  value {spoken_number(result.value)}  grad {grad}"
    else:
        text += f"  value {_array_text(result.value)}  grad {_array_text(result.grad)}"
    if result.trained_step is not None:
        text += (f"\ntrained network at step {format_number(result.trained_step)}: grad is the training loss's"
                 + (f", for each of the {np.shape(result.value)[0]} training points" if result.per_point else ""))
    if result.problem:
        text += f"\n{result.problem}"
    return text


def wire_text(document, evaluation, edge) -> str:
    """``X → t1 (input 'a')  shape (3, 2)  grad [...]``, then the broadcast's sum-back, if any."""
    target = document.node(edge.target)
    port = kind(target.kind).port_name(edge.port)
    shape = document.wire_shape(edge)
    text = (f"{document.name(edge.source)} → {document.name(edge.target)} (input '{port}')  "
            f"shape {'?' if shape is None else shape_text(shape)}")
    grad = evaluation.edge_grads.get(edge)
    if grad is not None and evaluation.trained is not None and np.size(grad) > SHOWN_ELEMENTS:
        text += f"  grad of the training loss {spoken_number(grad)}"  # a gradient a training point
    elif grad is not None:
        text += f"  grad {_array_text(np.asarray(grad))}"
    broadcast = evaluation.broadcasts.get(edge)
    return f"{text}\n{broadcast}" if broadcast else text
