"""What a quiz keeps hidden: the numbers of the steps the student has not answered yet.

Qt-free. While Predict is on, or while a lesson's exercise asks for values or gradients, the
animator must not print the answers it is about to ask for. A `Reveal` holds the positions
(1 = the first frame) whose numbers are hidden, and writes for them a step-list row, a step box
and a card with "?" in place of every number: a row still says what is asked
("t1 = a * b = ?", "t1 → a: ? × ? = ?"), never what it comes to.

Two kinds of hiding, which the panel combines:

- `unpredicted`: Predict mode hides every backward step not predicted yet;
- `after`: a lesson's exercise hides every step after the last one it has revealed (the
  inputs' values stay: they are given, and so does the seed, which is always 1), and every share
  of a gradient it asks for.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping

from ...common.numbers import full_number
from ...graph.document import GraphDocument
from .timeline import DisplayState, Frame, Timeline, forward_formula, local_derivative_formula, terms

HIDDEN = "?"


def unpredicted(timeline: Timeline, predicted: Collection[int]) -> set[int]:
    """Predict mode: every chain-rule step not predicted yet (``predicted``: the positions answered)."""
    return {position for position, frame in enumerate(timeline.frames, start=1)
            if frame.step is not None and position not in predicted}


def after(timeline: Timeline, document: GraphDocument, position: int, asked: Collection[str] = ()) -> set[int]:
    """A lesson's exercise: every step after ``position``, but the inputs' values and the seed; and every
    step that hands a share of its gradient to a node in ``asked`` (the gradients asked for: a share
    is part of the answer, even before the last one arrives)."""
    return {p for p, frame in enumerate(timeline.frames, start=1)
            if (p > position and frame.phase != "seed"
                and not (frame.phase == "forward" and document.node(frame.node_id).is_leaf))
            or (frame.step is not None and frame.step.parent in asked)}


class Reveal:
    """The numbers a quiz hides on one timeline: the ``hidden`` positions, and for each a note that says
    how to reveal it (printed in its step box; ``notes`` maps positions to notes)."""

    def __init__(self, timeline: Timeline, document: GraphDocument, hidden: Iterable[int],
                 notes: Mapping[int, str] | None = None):
        self.timeline, self.document = timeline, document
        self.hidden = frozenset(hidden)
        self.notes = dict(notes or {})
        self._names = terms(document)
        self._changed_at: dict[tuple[str, str], list[int]] | None = None

    def hides(self, position: int) -> bool:
        return position in self.hidden

    # -- the step list and the step box ------------------------------------------------------------

    def title(self, position: int) -> str:
        """The step list's row for the step at ``position``: its numbers as "?" while hidden."""
        frame = self.timeline.frames[position - 1]
        if position not in self.hidden:
            return frame.title
        if frame.phase == "backward":
            arrow = frame.title.rsplit(": ", 1)[0]  # "t1 → a", or "s → x (a)" for x * x
            return f"{arrow}: {HIDDEN} × {HIDDEN} = {HIDDEN}"
        name = self._names[frame.node_id]
        formula = self._forward_formula(frame)
        return f"{name} = {formula} = {HIDDEN}" if formula else f"{name} = {HIDDEN}"

    def explanation(self, position: int) -> str:
        """The step box for the step at ``position``: what it computes, in symbols, while hidden."""
        frame = self.timeline.frames[position - 1]
        if position not in self.hidden:
            return frame.explanation
        note = f"\n\n{self.notes[position]}" if self.notes.get(position) else ""
        if frame.phase == "backward":
            step = frame.step
            node, parent = self._names[step.node], self._names[step.parent]
            formula = local_derivative_formula(self.document, step.node, step.port, self._names)
            symbolic = any(char.isalpha() for char in formula)  # "b", "1 - tanh(x)^2": its number is hidden
            return (f"d({node})/d({parent}) = {formula}{f' = {HIDDEN}' if symbolic else ''}\n"
                    f"contribution = {HIDDEN} × {HIDDEN} = {HIDDEN}\n{parent}.grad = {HIDDEN}{note}")
        name = self._names[frame.node_id]
        formula = self._forward_formula(frame)
        return (f"Forward: {name} = {formula}\n  = {HIDDEN}" if formula else f"Forward: {name} = {HIDDEN}") + note

    def _forward_formula(self, frame: Frame) -> str:
        node = self.document.node(frame.node_id)
        if node.is_leaf:
            return ""
        operands = [self._names[edge.source] for edge in frame.wires]
        return forward_formula(self.document, frame.node_id, operands)

    # -- the cards ---------------------------------------------------------------------------------

    def hides_number(self, node_id: str, field: str) -> bool:
        """True when the ``field`` ("value" or "grad") that ``node_id``'s card shows at the timeline's
        position was set by a hidden step."""
        positions = self._changes().get((node_id, field))
        if not positions:
            return False
        index = bisect_right(positions, self.timeline.position) - 1
        return index >= 0 and positions[index] in self.hidden

    def card_lines(self, node_id: str, lines: list[str]) -> list[str]:
        """A `DocumentAnimation`'s card lines ("value …", "grad …") with the hidden numbers as "?"."""
        shown = list(lines)
        for index, field in enumerate(("value", "grad")):
            if index < len(shown) and self.hides_number(node_id, field):
                shown[index] = f"{field} {HIDDEN}"
        return shown

    def tooltip(self, node_id: str, state: DisplayState, text: str) -> str:
        """A card's tooltip ``text``, written again with "?" where a number is hidden."""
        hidden = [field for field in ("value", "grad") if self.hides_number(node_id, field)]
        if not hidden:
            return text
        numbers = {field: HIDDEN if field in hidden else full_number(getattr(state, field))
                   for field in ("value", "grad")}
        return (f"{self._names[node_id]}: {state.state.value}\n"
                f"value = {numbers['value']}\ngrad = {numbers['grad']}")

    def _changes(self) -> dict[tuple[str, str], list[int]]:
        """For each (node, field), the positions of the steps that change it, in order."""
        if self._changed_at is None:
            changed_at = defaultdict(list)
            for position, frame in enumerate(self.timeline.frames, start=1):
                for change in frame.changes:
                    changed_at[change.node_id, change.field].append(position)
            self._changed_at = dict(changed_at)
        return self._changed_at
