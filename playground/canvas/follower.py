"""Follow a graph document from Qt: `changed` fires for every change, and the document holds the
follower only weakly, so a panel that goes away is never kept alive by the graph it followed."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, Signal

from ..graph.document import Change, GraphDocument


class DocumentFollower(QObject):
    changed = Signal(object)  # the document's `Change`

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.document: GraphDocument | None = None
        self._subscription = None

    def follow(self, document: GraphDocument | None) -> None:
        """Follow ``document`` (None: nothing) instead of the one followed so far."""
        if self.document is not None and self._subscription is not None:
            try:
                self.document.unsubscribe(self._subscription)
            except ValueError:
                pass
        self.document, self._subscription = document, None
        if document is None:
            return
        this = weakref.ref(self)

        def on_change(change: Change, _this=this, _document=document) -> None:
            follower = _this()
            if follower is None:
                _document.unsubscribe(on_change)
                return
            try:
                follower.changed.emit(change)
            except RuntimeError:  # the C++ side is gone
                _document.unsubscribe(on_change)

        self._subscription = on_change
        document.subscribe(on_change)
