"""The current step's arithmetic under the graph while the step panel is closed.

On a projector the step panel gives way to the graph (give_way.py); the chain-rule product it shows is
what a class must read, so while it is closed the same text runs under the graph on one line, in the
colour legend's place (the legend is in the caption's tooltip):
"Step 14 of 20 · Backward pass · d(n)/d(b) = 1 · contribution = 0.5 × 1 = 0.5 · b.grad = 0.5". It is the
step panel's own text (a quiz's "?" included), shown again, never computed here. It wraps onto a second or
third line rather than end in "…": a lesson names the numbers at its end (b1.grad = [-0.006479, ...]).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QSizePolicy

from ..widgets.spoken import announce
from .step_panel import StepPanel

SEPARATOR = "  ·  "
SAY_EVERY_MS = 1500  # a screen reader says a step's caption in about this time
STYLE = ("QLabel#stepCaption { background: palette(alternate-base); border: 1px solid palette(mid); "
         "border-radius: 4px; padding: 3px 8px; }")


START = "Press Play or → to start"


def caption_text(heading: str, explanation: str, whole: bool = True) -> str:
    """The heading and the explanation's first paragraph (its arithmetic) on one run of text; in forward mode
    its "Tangent:" paragraph too (the step's other half). Not ``whole``: before the first step, the key to
    press without what the passes will do (a second line under the graph cost the neuron its fit on a
    1280x720 projector at 150%; the whole of it is in the tooltip and the step panel)."""
    paragraphs = explanation.strip().split("\n\n")
    shown = paragraphs[:1] + [p for p in paragraphs[1:] if p.startswith("Tangent:\n")]
    lines = [line.strip() for p in shown for line in p.splitlines() if line.strip() and line.strip() != "Tangent:"]
    if not whole:
        lines = [START if line.startswith(START + ":") else line for line in lines]
    return SEPARATOR.join([heading, *lines]) if lines else heading


class StepCaption(QLabel):
    """Shows ``steps``' text under the graph in ``legend``'s place whenever the step panel is closed (its
    ``action`` unchecked), whole: wrapped, never wider than the graph's column."""

    def __init__(self, steps: StepPanel, action: QAction, legend: QLabel):
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.legend = legend
        self.heading = steps.heading
        self.setObjectName("stepCaption")
        self.setStyleSheet(STYLE)
        # Playing at 8 steps a second, a screen reader would still be saying step 3 at step 40: a step is said
        # at most every SAY_EVERY_MS, and the step reached when playing stops is said last.
        self._unsaid = ""
        self._pace = QTimer(self, singleShot=True, interval=SAY_EVERY_MS)
        self._pace.timeout.connect(self._on_pace_timeout)
        steps.text_shown.connect(self._on_steps_text_shown)
        action.toggled.connect(self._on_step_panel_toggled)
        self._on_step_panel_toggled(action.isChecked())

    def _on_steps_text_shown(self, heading: str, explanation: str) -> None:
        self.setText(caption_text(heading, explanation, whole=False))
        if self._pace.isActive():
            self._unsaid = self.text()
        else:
            self._say(self.text())
        # The whole step and what the colours mean (the legend this line stands in for).
        self.setToolTip(f"<p>{caption_text(heading, explanation)}</p><p>{self.legend.text()}</p>")

    def _say(self, text: str) -> None:
        """A new step is said, from the caption or from the step panel, whichever shows it."""
        announce(self if not self.isHidden() else self.heading, text)
        self._unsaid = ""
        self._pace.start()

    def _on_pace_timeout(self) -> None:
        if self._unsaid:
            self._say(self._unsaid)

    def _on_step_panel_toggled(self, open_: bool) -> None:
        self.setVisible(not open_)
        self.legend.setVisible(open_)
