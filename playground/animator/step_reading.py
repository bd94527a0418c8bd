"""The animator's current step, for a screen reader (issue 32, item 1).

The graph is a picture to a screen reader, and the step panel's labels are read by their names; so each step's
words (the step panel's own text, a quiz's "?" included, never computed here) are also given as the accessible
description of the graph's view, where the focus is while a person steps with ← and →, and of the step panel's
heading and explanation. Qt announces a changed description (AT-SPI's accessible-description change), and Orca
speaks it for the focused view: "Step 14 of 20 · Backward pass · d(n)/d(b) = 1 · contribution = 0.5 × 1 = 0.5 ·
b.grad = 0.5" as the step is taken.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from ..widgets.errors import guarded
from .step_caption import caption_text
from .step_panel import StepPanel


class StepReading(QObject):
    """Follows ``steps``' text into the accessible descriptions of ``view`` and of the step panel's labels."""

    def __init__(self, steps: StepPanel, view: QWidget, parent: QObject | None = None):
        super().__init__(parent)
        self.steps, self.view = steps, view
        steps.text_shown.connect(self._on_steps_text_shown)

    @guarded
    def _on_steps_text_shown(self, heading: str, explanation: str) -> None:
        words = caption_text(heading, explanation)
        if self.view.accessibleDescription() != words:  # the same words again are not said again
            self.view.setAccessibleDescription(words)
        self.steps.heading.setAccessibleDescription(heading)
        self.steps.explanation.setAccessibleDescription(explanation)

    def _recover(self, _error: Exception) -> None:
        """Nothing to put right: the next step writes the descriptions afresh."""
