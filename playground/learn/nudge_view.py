"""Lesson 1's box: nudge an input in the editor, and see the change the gradient predicts beside the
change the engine measures.

It follows the editor's document (read only): when the nudged input's value there moves from the
lesson's value by h, the output should move by about grad × h; the box evaluates the graph with
the engine and shows both.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from ..canvas.follower import DocumentFollower
from ..common.numbers import format_number
from ..graph.document import GraphDocument
from ..graph.evaluate import evaluate
from ..widgets.errors import guarded
from .model.facts import GraphFacts


def _signed(x: float) -> str:
    text = format_number(x)
    return text if text.startswith("-") or text in ("0", "nan") else f"+{text}"


class NudgeView(QLabel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("nudgeReadout")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setVisible(False)
        self.facts: GraphFacts | None = None
        self.node: str | None = None
        self.follower = DocumentFollower(self)
        self.follower.changed.connect(self._on_document_changed)
        self.predicted: float | None = None  # what the last readout said, for tests and a screen reader
        self.actual: float | None = None

    def follow(self, document: GraphDocument | None) -> None:
        """The editor's document, whose nudged input the box watches."""
        self.follower.follow(document)
        self.refresh()

    def show_nudge(self, facts: GraphFacts | None, node_id: str | None) -> None:
        """Watch ``node_id`` of the lesson's graph ``facts`` (None: hide the box)."""
        self.facts, self.node = facts, node_id
        self.setVisible(facts is not None and node_id is not None)
        self.refresh()

    @guarded
    def _on_document_changed(self, _change) -> None:
        self.refresh()

    def _recover(self, error: Exception) -> None:
        self.setText(f"Can't measure the nudge ({type(error).__name__}: {error})")

    def refresh(self) -> None:
        self.predicted = self.actual = None
        facts, node_id, document = self.facts, self.node, self.follower.document
        if facts is None or node_id is None:
            return
        name, out = facts.name(node_id), facts.name(facts.output)
        if document is None or not document.has_node(node_id) or not document.has_node(facts.output):
            self.setText("The editor no longer shows the lesson's graph: go Back and Next to load it again.")
            return
        before, output_before, grad = facts.value(node_id), facts.value(facts.output), facts.grad(node_id)
        now = document.node(node_id).value
        result = evaluate(document).results.get(facts.output)
        if result is None or result.value is None:
            self.setText(f"{escape(out)} cannot be computed from the editor's graph now.")
            return
        h = now - before
        self.predicted, self.actual = grad * h, result.value - output_before
        cell = "style='padding: 1px 8px'"
        rows = (f"<tr><td {cell}></td><td {cell}><b>lesson</b></td><td {cell}><b>now</b></td>"
                f"<td {cell}><b>change</b></td></tr>"
                f"<tr><td {cell}><i>{escape(name)}</i></td><td {cell}>{format_number(before)}</td>"
                f"<td {cell}>{format_number(now)}</td><td {cell}>h = {_signed(h)}</td></tr>"
                f"<tr><td {cell}><i>{escape(out)}</i></td><td {cell}>{format_number(output_before)}</td>"
                f"<td {cell}>{format_number(result.value)}</td>"
                f"<td {cell}><b>{_signed(self.actual)}</b> measured</td></tr>")
        self.setText(f"<table>{rows}</table>"
                     f"<p>Predicted by the gradient: ∂{escape(out)}/∂{escape(name)} × h = {format_number(grad)} × "
                     f"{format_number(h)} = <b>{_signed(self.predicted)}</b></p>"
                     + ("" if h else f"<p>Move <i>{escape(name)}</i> in the editor to see both change.</p>"))
