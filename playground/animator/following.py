"""The animator follows the editor's graph: each change reloads the animation at the next turn of the
event loop while the panel is visible (one reload per edit, however many changes the edit makes), else
when the panel is next shown. A change that leaves the maths alone (nodes moved) keeps the current step;
while a tensor graph (the training network, a tensor from Python) is shown, only new maths bring the
editor's graph back.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer

from ..canvas.follower import DocumentFollower
from ..graph.document import Change, GraphDocument, maths_of
from ..widgets.errors import guarded


class GraphFollowing:
    """Keeps ``panel`` (an `AnimatorPanel`) on the editor's latest graph."""

    def __init__(self, panel):
        self.panel = panel
        self.follower = DocumentFollower(panel)
        self.follower.changed.connect(self._on_followed_document_changed)
        self.stale = False  # the followed graph changed since it was last loaded
        self._timer = QTimer(panel, singleShot=True, interval=0)
        self._timer.timeout.connect(self._on_timer_timeout)

    @property
    def document(self) -> GraphDocument | None:
        return self.follower.document

    def follow(self, document: GraphDocument | None) -> None:
        """Animate ``document`` and start again from its first step whenever it changes."""
        self.follower.follow(document)
        self.stale = document is not None
        if document is None:
            return
        self.panel.maths = None  # a new document: start from the beginning
        if self.panel.isVisible():
            self.reload_if_stale()

    def catch_up(self) -> None:
        """Show the followed graph's latest edit now, not at the next turn of the event loop."""
        self._timer.stop()
        self.reload_if_stale()

    def reload_if_stale(self) -> None:
        """Show the followed graph again after it changed, at the same step if only its layout changed."""
        panel = self.panel
        if not self.stale or self.document is None:
            return
        self.stale = False
        same_maths = panel.maths == maths_of(self.document)
        if panel.source != "graph" and same_maths:  # a tensor graph is shown: only new maths bring the graph back
            return
        position = panel.position
        same_step = same_maths and panel.timeline is not None
        if panel.load(self.document) and same_step:
            panel.seek(position)

    @guarded
    def _on_followed_document_changed(self, change: Change) -> None:
        self.stale = True
        if self.panel.isVisible():
            self._timer.start()

    @guarded
    def _on_timer_timeout(self) -> None:
        self.reload_if_stale()

    def _recover(self, error: Exception) -> None:
        self.panel.pause()
