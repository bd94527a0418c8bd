"""What a quiz hides in forward mode, Qt-free: a tangent asked and not answered yet, and, while a lesson's
exercise asks about the backward pass of the same graph, the values and gradients it asks for.

Forward mode prints a value and a tangent at each step. Two kinds of exercise reach it:

- a forward-mode exercise (lesson 8: "ṫ₁ = ∂t₁/∂a = ?", asked along one input): from the step of the
  first tangent still asked along the input shown, every computed node's tangent reads "?" (its value
  stays: the values are given); the tangents after it would hand the answer over in their arithmetic
  (L̇ = 7 × 3 + 10 × 1). Each answer moves that first step on, and so reveals its step.
- an exercise about the backward pass (lesson 2) while the student looks at forward mode: a value the
  exercise hides is hidden here too (with the tangent of its step, whose arithmetic holds values), and the
  output's tangent along an input whose gradient is hidden, since L̇ along a is ∂L/∂a.

`ForwardReveal` has the shape of `reveal.Reveal` that the animator's `QuizHiding` and `SceneSync` use:
rows, step boxes, cards and tooltips with "?" for what is hidden.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from ...graph.concealment import NOTHING_CONCEALED, Concealment
from .forward_timeline import ForwardAnimation
from .hiding import EXERCISE_NOTE, editor_concealment
from .reveal import after
from .timeline import DisplayState

TANGENT_NOTE = ("Hidden while the lesson's exercise asks for this tangent (or one before it): answer in the Learn "
                "panel, and each step shows once answered.")


@dataclass(frozen=True)
class ForwardHiding:
    """For each hidden position (1 = the first step), what it hides: "value", "tangent" or both."""

    fields: Mapping[int, frozenset[str]] = field(default_factory=dict)
    notes: Mapping[int, str] = field(default_factory=dict)
    concealment: Concealment = NOTHING_CONCEALED  # what the editor's cards must hide meanwhile


def forward_hiding(animation: ForwardAnimation, maths: tuple | None,
                   exercise: tuple[int, frozenset[str], tuple] | None,
                   tangents: Collection[tuple[str, str]] = ()) -> ForwardHiding:
    """What ``animation`` must hide while ``exercise`` (revealed up to, the gradients asked, on the graph of
    these maths; None: no exercise) asks, with ``tangents`` the (node, input) pairs still asked in forward
    mode (then the exercise is a forward-mode one: its position counts forward mode's steps)."""
    if exercise is None or exercise[2] != maths:
        return ForwardHiding()
    document, frames = animation.document, animation.timeline.frames
    computed = [p for p, frame in enumerate(frames, 1) if not document.node(frame.node_id).is_leaf]
    if tangents:
        along = [animation.positions[node] for node, input_id in tangents
                 if input_id == animation.input_id and node in animation.positions]
        if not along:  # asked along another input: this pass answers none of them
            return ForwardHiding()
        first = min(along)
        hidden = [p for p in computed if p >= first]
        return ForwardHiding(dict.fromkeys(hidden, frozenset({"tangent"})), dict.fromkeys(hidden, TANGENT_NOTE))
    position, asked, _maths = exercise
    backward = animation.backward_timeline
    concealment = editor_concealment(backward, after(backward, document, position, asked))
    fields: dict[int, frozenset[str]] = {}
    for p in computed:
        node_id = frames[p - 1].node_id
        if node_id in concealment.values:
            fields[p] = frozenset({"value", "tangent"})
        elif node_id == animation.output and animation.input_id in concealment.grads:
            fields[p] = frozenset({"tangent"})  # the output's tangent along an input is that input's gradient
    return ForwardHiding(fields, dict.fromkeys(fields, EXERCISE_NOTE), concealment)


class ForwardReveal:
    """The numbers a quiz hides on forward mode's timeline (see the module docstring)."""

    def __init__(self, animation: ForwardAnimation, hiding: ForwardHiding):
        self.animation, self.timeline = animation, animation.timeline
        self.fields, self.notes = dict(hiding.fields), dict(hiding.notes)
        self.hidden = frozenset(self.fields)

    def hides(self, position: int) -> bool:
        return position in self.hidden

    def _texts(self, position: int) -> tuple[str, str]:
        fields = self.fields.get(position, frozenset())
        return self.animation.texts(self.timeline.frames[position - 1].node_id, "value" in fields, "tangent" in fields)

    def title(self, position: int) -> str:
        return self._texts(position)[0]

    def explanation(self, position: int) -> str:
        note = f"\n\n{self.notes[position]}" if self.notes.get(position) else ""
        return self._texts(position)[1] + note

    def hidden_fields(self, node_id: str) -> frozenset[str]:
        """What ``node_id``'s card must not show at the timeline's position: what its step hides, once reached."""
        position = self.animation.positions.get(node_id)
        if position is None or position > self.timeline.position:
            return frozenset()
        return self.fields.get(position, frozenset())

    def card_lines(self, node_id: str, lines: list[str]) -> list[str]:
        hidden = self.hidden_fields(node_id)
        if not hidden:
            return lines
        return self.animation.node_lines(node_id, self.timeline.display[node_id], hidden)

    def tooltip(self, node_id: str, state: DisplayState, text: str) -> str:
        hidden = self.hidden_fields(node_id)
        return self.animation.node_tooltip(node_id, state, hidden) if hidden else text

    def path_concealment(self, node_id: str) -> Concealment:
        """What the path list of ``node_id``'s tangent must not show: its numbers, when its step hides them."""
        position = self.animation.positions.get(node_id)
        fields = self.fields.get(position, frozenset()) if position is not None else frozenset()
        if not fields:
            return NOTHING_CONCEALED
        return Concealment(grads=frozenset({node_id}))  # a tangent's paths are products of its share
