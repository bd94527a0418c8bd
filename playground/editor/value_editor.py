"""The inline value editor: a line edit over a leaf's value line, opened by a double-click.

Enter sets the typed number (one undo step), Escape cancels, and a click elsewhere or focus
moving away sets it too. Text that is not a number is refused with a message and the value
stays; Enter leaves the editor open to fix it.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGraphicsProxyWidget, QLineEdit

from ..canvas.card_scene import CardScene
from ..common.numbers import full_number
from ..graph import edits
from ..widgets.errors import guarded
from .canvas_edits import CanvasEdits
from .scene_part import ScenePart


class _ValueLineEdit(QLineEdit):
    """The line edit itself: Escape is reported (not swallowed by the scene), and so is losing focus."""

    cancelled = Signal()
    focus_lost = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self.cancelled.emit()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        if event.reason() not in (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason):
            self.focus_lost.emit()


class InlineValueEditor(ScenePart):
    """At most one line edit at a time over a leaf's card on ``scene``; `CanvasEdits` pushes the new value."""

    def __init__(self, scene: CardScene, canvas_edits: CanvasEdits):
        super().__init__(scene)
        self.canvas_edits = canvas_edits
        self._editor: _ValueLineEdit | None = None
        self._proxy: QGraphicsProxyWidget | None = None
        self._node_id: str | None = None

    @property
    def line_edit(self) -> QLineEdit | None:
        """The open line edit, or None."""
        return self._editor

    def has_focus(self) -> bool:
        """The editor is open and has the keyboard: keys go to it, not to the scene."""
        return self._editor is not None and self._proxy is not None and self._proxy.hasFocus()

    def open(self, node_id: str) -> QLineEdit | None:
        """Open a line edit over a leaf's value; Enter sets it (one undo step), Escape cancels."""
        document = self.canvas_edits.document
        item = self.scene.node_item(node_id)
        if item is None or not document.node(node_id).is_leaf or np.ndim(document.node(node_id).value) > 0:
            return None  # an array is edited in the properties panel's table
        self.close()
        editor = _ValueLineEdit(full_number(document.node(node_id).value))
        editor.setObjectName("nodeValueEditor")
        editor.setAccessibleName("Value of the node")
        editor.setToolTip("Type a number; Enter sets it, Escape cancels")
        rect = item.value_rect().adjusted(-4, -1, 4, 1)
        editor.setFixedSize(int(rect.width()), int(rect.height()) + 2)
        proxy = self.scene.addWidget(editor)
        proxy.setZValue(100)
        proxy.setPos(item.mapToScene(rect.topLeft()))
        self._editor, self._proxy, self._node_id = editor, proxy, node_id
        editor.returnPressed.connect(self._on_editor_return_pressed)
        editor.cancelled.connect(self._on_editor_cancelled)
        editor.focus_lost.connect(self._on_editor_focus_lost)
        editor.selectAll()
        proxy.setFocus(Qt.FocusReason.OtherFocusReason)
        editor.setFocus(Qt.FocusReason.OtherFocusReason)
        self.canvas_edits.announce("Type a value; Enter sets it, Escape cancels")
        return editor

    def commit_unless_over(self, pos: QPointF) -> None:
        """A click at ``pos``: one outside the open editor sets what it holds (or closes it, if not a number)."""
        if self._editor is not None and not self._proxy.sceneBoundingRect().contains(pos):
            self.commit(close_on_error=True)

    def commit(self, close_on_error: bool) -> None:
        if self._editor is None:
            return
        document, announce = self.canvas_edits.document, self.canvas_edits.announce
        node_id, text = self._node_id, self._editor.text().strip()
        try:
            value = float(text.replace("−", "-"))
        except ValueError:
            old = full_number(document.node(node_id).value) if document.has_node(node_id) else ""
            announce(f"'{text}' is not a number; the value stays {old}")
            if close_on_error:
                self.close()
            else:
                self._editor.selectAll()
            return
        self.close()
        if not document.has_node(node_id):
            return
        old = document.node(node_id).value
        if old == value or (math.isnan(old) and math.isnan(value)):
            return
        self.canvas_edits.push(edits.set_value(document, node_id, value))
        announce(f"Set {document.name(node_id)} = {full_number(value)}")

    def close(self) -> None:
        """Close the editor without setting anything (the view gets the keyboard back if the editor had it)."""
        editor, proxy = self._editor, self._proxy
        self._editor = self._proxy = self._node_id = None
        if editor is None:
            return
        had_focus = editor.hasFocus() or proxy.hasFocus()
        for signal in (editor.returnPressed, editor.cancelled, editor.focus_lost):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):
                pass
        proxy.hide()
        proxy.deleteLater()  # not now: we may be inside the editor's own key handler
        if had_focus:
            for view in self.scene.views()[:1]:
                view.setFocus(Qt.FocusReason.OtherFocusReason)

    def forget_node(self, node_id: str) -> None:
        """``node_id`` left the document: an editor over its card closes."""
        if node_id == self._node_id:
            self.close()

    @guarded
    def _on_editor_return_pressed(self) -> None:
        self.commit(close_on_error=False)

    @guarded
    def _on_editor_cancelled(self) -> None:
        self.close()
        self.canvas_edits.announce("Edit cancelled")

    @guarded
    def _on_editor_focus_lost(self) -> None:
        if self._editor is not None:
            self.commit(close_on_error=True)
