"""The animator's quiz hiding: what Predict mode and a lesson's exercise hide, kept applied to the step
list, the step box and the graph's cards and wires.

Predict hides every backward step not predicted yet; a lesson's exercise (`hide_after`) hides every
step after the last one it has revealed, on the graph it was set for. `apply` combines both into a
`reveal.Reveal` for the animation shown, rewrites the rows whose hiding changed and redraws the
scene; the panel asks it for each step box's text.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..graph.concealment import NOTHING_CONCEALED, Concealment
from ..graph.document import GraphDocument
from .model.forward_hiding import ForwardReveal, forward_hiding
from .model.forward_timeline import ForwardAnimation
from .model.hiding import editor_concealment, hidden_notes
from .model.reveal import Reveal
from .model.tensor_hiding import TensorReveal, tensor_concealment
from .model.tensor_timeline import TensorAnimation
from .model.timeline import DocumentAnimation
from .predict_view import PredictBox
from .scene_sync import SceneSync
from .step_panel import StepPanel


class QuizHiding:
    def __init__(self, steps: StepPanel, sync: SceneSync, predict: PredictBox):
        self.steps, self.sync, self.predict = steps, sync, predict
        self.reveal: Reveal | None = None
        # (revealed up to this position, the nodes whose gradients are asked, on the graph with these maths)
        self._exercise: tuple[int, frozenset[str], tuple] | None = None
        self._tangents: frozenset[tuple[str, str]] = frozenset()  # (node, input): forward mode's questions
        self.concealment = NOTHING_CONCEALED  # forward mode's: what the editor's cards must hide

    def hide_after(self, position: int | None, maths: tuple | None, asked: Iterable[str] = (),
                   tangents: Iterable[tuple[str, str]] = ()) -> None:
        """A lesson's exercise: the steps after ``position`` of the graph whose maths are ``maths`` stay hidden,
        and the shares of the gradients of the ``asked`` nodes (None: nothing is hidden for a lesson); the
        ``tangents`` (node, input) asked in forward mode (then ``position`` counts forward mode's steps).
        Call `apply` next."""
        self._exercise = (int(position), frozenset(asked), maths) if position is not None else None
        self._tangents = frozenset(tangents) if position is not None else frozenset()

    @property
    def exercise_position(self) -> int | None:
        return self._exercise[0] if self._exercise is not None else None

    def forget(self) -> None:
        """A new animation: the rows are fresh, nothing is hidden on them yet."""
        self.reveal = None
        self.concealment = NOTHING_CONCEALED

    def apply(self, animation, document: GraphDocument, maths: tuple | None) -> None:
        """Hide what Predict and the exercise hide on ``animation`` now; rewrite what changed."""
        old = self.reveal.hidden if self.reveal is not None else frozenset()
        if isinstance(animation, ForwardAnimation):  # forward mode hides tangents: its own rules
            forward = forward_hiding(animation, maths, self._exercise, self._tangents)
            hidden, self.concealment = frozenset(forward.fields), forward.concealment
            self.reveal = ForwardReveal(animation, forward) if hidden else None
        else:
            notes = hidden_notes(animation, document, maths, self.predict.predicted(), self._exercise)
            hidden, self.concealment = frozenset(notes), NOTHING_CONCEALED
            if not hidden:
                self.reveal = None
            elif isinstance(animation, TensorAnimation):  # an editor tensor graph's replay
                self.reveal = TensorReveal(animation, hidden, notes)
            else:
                self.reveal = Reveal(animation.timeline, document, hidden, notes)
        self.sync.reveal = self.reveal
        changed = old ^ hidden
        if not changed:
            return
        frames = animation.timeline.frames
        for position in sorted(changed):
            if position <= len(frames):
                self.steps.set_row(position, self.title(frames, position), self.explanation(frames, position))
        self.sync.refresh_all()

    def editor_concealment(self, animation, document: GraphDocument) -> Concealment:
        """What the editor's cards must hide while it shows ``document``, the graph ``animation`` replays."""
        hidden = self.reveal.hidden if self.reveal is not None else frozenset()
        if isinstance(animation, DocumentAnimation):
            return editor_concealment(animation.timeline, hidden)
        if isinstance(animation, TensorAnimation):  # an editor tensor graph's replay
            return tensor_concealment(animation, document, hidden)
        return self.concealment  # forward mode's (or nothing)

    def title(self, frames, position: int) -> str:
        return self.reveal.title(position) if self.reveal is not None else frames[position - 1].title

    def explanation(self, frames, position: int) -> str:
        return self.reveal.explanation(position) if self.reveal is not None else frames[position - 1].explanation

    def hides(self, position: int) -> bool:
        return self.reveal is not None and self.reveal.hides(position)
