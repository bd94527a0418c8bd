"""What a quiz hides in the animator, Qt-free: the steps Predict has not had predicted yet and those a
lesson's exercise has not revealed, each with the note its row shows, and what the editor's cards must
conceal while they are hidden. `animator.hiding` applies it to the step list and the scene."""

from __future__ import annotations

from collections.abc import Iterable

from ...graph.concealment import NOTHING_CONCEALED, Concealment
from ...graph.document import GraphDocument
from .reveal import after, unpredicted
from .tensor_hiding import tensor_after
from .tensor_timeline import TensorAnimation
from .timeline import DocumentAnimation

PREDICT_NOTE = "Not predicted yet: step back (←), then forward (→) to predict it, or switch Predict off."
EXERCISE_NOTE = "Hidden while the lesson's exercise asks: answer in the Learn panel, and each step shows once answered."


def hidden_notes(animation, document: GraphDocument, maths: tuple | None, predicted,
                 exercise: tuple[int, frozenset[str], tuple] | None) -> dict[int, str]:
    """The positions ``animation`` must hide, each with its note: those not ``predicted`` yet (None: Predict
    is off) and, where ``exercise`` (revealed up to, the nodes asked, on the graph of these maths) is set for
    this graph, those after what it has revealed."""
    notes: dict[int, str] = {}
    if isinstance(animation, DocumentAnimation):
        timeline = animation.timeline
        if predicted is not None:
            notes.update(dict.fromkeys(unpredicted(timeline, predicted), PREDICT_NOTE))
        if exercise is not None and exercise[2] == maths:
            position, asked, _maths = exercise
            notes.update(dict.fromkeys(after(timeline, document, position, asked), EXERCISE_NOTE))
    elif isinstance(animation, TensorAnimation) and exercise is not None and exercise[2] == maths:
        notes.update(dict.fromkeys(tensor_after(animation, document, *exercise[:2]), EXERCISE_NOTE))  # tensor_hiding
    return notes


def editor_concealment(timeline, hidden: Iterable[int]) -> Concealment:
    """What the editor's cards must not show while the animator hides the steps at ``hidden`` (positions,
    1 = the first frame) of ``timeline``, a timeline of the editor's own graph: the values computed at
    hidden forward steps, the gradients that a hidden step adds to, and the wires of hidden steps."""
    values, grads, wires = set(), set(), set()
    for position in hidden:
        frame = timeline.frames[position - 1]
        if frame.phase == "forward":
            values.add(frame.node_id)
        elif frame.step is not None and frame.edge is not None:
            grads.add(frame.edge.source)
            wires.add(frame.edge)
    if not (values or grads or wires):
        return NOTHING_CONCEALED
    return Concealment(frozenset(values), frozenset(grads), frozenset(wires))
