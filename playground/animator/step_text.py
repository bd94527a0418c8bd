"""The step panel's heading and explanation for where the animation is: "Ready", the step's arithmetic
(or, while a quiz hides it, what it computes with "?" for the numbers), and at the end what is finished.
An animation may bring texts of its own (forward mode's ``start_text``, ``finished_text``)."""

from __future__ import annotations

from .colors import PHASE_NAMES

START_TEXT = ("Press Play or → to start: first the forward pass computes every value, then the backward "
              "pass applies the chain rule one wire at a time.")
FINISHED_TEXT = "\n\nFinished: every gradient is ready (green)."


def _note(text: str) -> str:
    return f"\n\n{text}" if text else ""


class StepText:
    """Writes ``panel``'s step text (into its `StepPanel`) and the transport's position."""

    def __init__(self, panel):
        self.panel = panel

    def refresh(self) -> None:
        panel = self.panel
        animation = panel.animation
        if animation is None:
            return
        timeline = animation.timeline
        position, count, frame = timeline.position, len(timeline), timeline.current
        if frame is None:
            panel.steps.show_text(f"Ready: {count} steps", getattr(animation, "start_text", START_TEXT))
        else:
            finished = (getattr(animation, "finished_text", FINISHED_TEXT) + _note(animation.finished_note)
                        if position == count else "")
            if panel.hiding.hides(position):  # a quiz asks for it: what it computes, not what it comes to
                explanation = panel.hiding.explanation(timeline.frames, position)
            else:
                explanation = frame.explanation + panel.pitfalls.explain(position) + finished
            panel.steps.show_text(f"Step {position} of {count} · {PHASE_NAMES[frame.phase]}", explanation)
        panel.controls.show_position(position, count)
        panel.steps.show_position(position)

    def show_nothing(self, text: str, error: bool) -> None:
        """No animation: ``text`` says why (in red above the graph too, for an ``error``)."""
        panel = self.panel
        panel.message.setText(text)
        panel.message.setVisible(error)
        panel.steps.show_text("Nothing to animate" if error else "Backward animator",
                              text + ("\n\nFix the graph in the editor: the animator follows it." if error else ""))
