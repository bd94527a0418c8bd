""""Why this gradient?" in the animator: the paths from the output down to the current step's node, under
the step's explanation (`animPathList`), and the hovered path drawn on the animator's graph.

It follows the panel from outside: each step reached and each change in what a quiz hides lists the
paths again (numbers "?" while Predict or a lesson's exercise hides a gradient or a value on them).
Before the backward pass reaches a node there is no gradient to explain yet; tensor graphs have no
scalar paths (an edge carries a Jacobian there).
"""

from __future__ import annotations

from ..canvas.path_list import PathHighlighter, PathListBox
from ..graph.concealment import NOTHING_CONCEALED
from ..graph.why_gradient import why_gradient
from ..widgets.errors import report_handled
from .model.forward_hiding import ForwardReveal
from .model.forward_timeline import ForwardAnimation
from .model.hiding import editor_concealment
from .model.timeline import DocumentAnimation

LIST_HEIGHT = 96  # about four rows: the step list below keeps its room
BEFORE_BACKWARD = "The paths of a node's gradient show once the backward pass reaches it."
FORWARD_START = "Each node's tangent is a sum over the paths from it down to the input: step forward to see them."
NOT_SCALAR = "Paths are drawn for scalar graphs: on a tensor graph an edge carries a Jacobian, not a number."


class AnimatorPaths:
    def __init__(self, panel):
        self.panel = panel
        self.box = PathListBox("anim")
        self.box.list.setObjectName("animPathList")
        self.box.list.setAccessibleName("Paths from the output to the current step's node")
        self.box.list.setMaximumHeight(LIST_HEIGHT)
        self.highlighter = PathHighlighter(panel.scene)
        panel.steps.extra.addWidget(self.box)
        self.box.path_hovered.connect(self._on_box_path_hovered)
        panel.step_reached.connect(self.refresh)
        panel.concealment_changed.connect(self.refresh)
        panel.predict.hiding_changed.connect(self.refresh)
        panel.hiding_applied.connect(self.refresh)  # an answer revealed a step: its paths' numbers too

    def node_id(self) -> str | None:
        """The node the current step is about once the backward pass has begun: the output at the seed, the
        operand a backward step hands its share to (``t1 → a``: a), else None."""
        animation = self.panel.animation
        if not isinstance(animation, DocumentAnimation):
            return None
        frame = animation.timeline.current
        if frame is None or frame.phase == "forward":
            return None
        return frame.step.parent if frame.step is not None else frame.node_id  # who receives this step's share

    def refresh(self, *_args) -> None:
        try:
            self._restore_scene()
            animation = self.panel.animation
            if isinstance(animation, ForwardAnimation):  # a tangent is a sum over paths too: node down to input
                frame = animation.timeline.current
                reveal = self.panel.hiding.reveal  # a tangent a quiz asks for: its paths' numbers read "?"
                concealment = (reveal.path_concealment(frame.node_id) if frame is not None
                               and isinstance(reveal, ForwardReveal) else NOTHING_CONCEALED)
                why = None if frame is None else why_gradient(animation.document, animation.evaluation,
                                                              animation.input_id, concealment, top=frame.node_id)
                self.box.show_why(why, FORWARD_START)
                return
            node_id = self.node_id()
            if node_id is None:
                self.box.show_why(None, BEFORE_BACKWARD if isinstance(animation, DocumentAnimation) or animation is None
                                  else NOT_SCALAR)
                return
            concealment = editor_concealment(animation.timeline, self.panel.hidden_positions)
            self.box.show_why(why_gradient(animation.document, animation.evaluation, node_id, concealment))
        except Exception as error:  # a slot: the animator goes on
            report_handled(error, "listing the paths in the animator")

    def _on_box_path_hovered(self, row) -> None:
        try:
            self._restore_scene()
            self.highlighter.show(row)
        except Exception as error:
            report_handled(error, "drawing a path in the animator")

    def _restore_scene(self) -> None:
        """Give the cards and wires of a drawn path the colours of the current step again (the step may have
        moved while it was drawn)."""
        sync = self.panel.sync
        for item in self.highlighter.drop():
            try:
                edge = getattr(item, "edge", None)
                if edge is not None:
                    item.set_highlight(sync.wire_highlights.get(edge))
                else:
                    item.set_highlight(None)
                    if sync.animation is not None:
                        sync.refresh_nodes([item.node_id])
            except RuntimeError:  # the scene was redrawn: the item is gone
                pass
