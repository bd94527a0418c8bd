"""Probes for tests/real_screen.py: the editor's "No node selected" help in the side panel (issue 29, item 8),
whether every line of it can be read where it is shown, scrolling if it must."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractScrollArea


def _scroll_area_of(widget):
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and parent.viewport().isAncestorOf(widget):
            return parent
        parent = parent.parentWidget()
    return None


def _clip(widget) -> QRect:
    """The part of ``widget`` (its own coordinates) its ancestors leave on show."""
    shown, parent = widget.rect(), widget.parentWidget()
    while parent is not None:
        shown = shown.intersected(QRect(widget.mapFrom(parent, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return shown


def nothing_selected_help(window, settle, presentation: float | None = None, learn: bool = True) -> dict:
    """Open the side panel with nothing selected and measure the help: its lines, and for each whether it is on
    show, or can be scrolled to (its scroll area's range reaches it)."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
    window.learning.dock.setVisible(learn)
    editor = window.editor
    window.tabs.setCurrentWidget(editor)
    editor.scene.select_nodes([])
    if not editor.side.isVisible():
        editor.side_button.click()  # Details, as a teacher opens the side panel
    settle(0.8)
    label = editor.properties.heading
    metrics = label.fontMetrics()
    needed = label.heightForWidth(label.width()) if label.hasHeightForWidth() else label.sizeHint().height()
    shown = _clip(label)
    area = _scroll_area_of(label)
    result = {"text": label.text()[:40], "label": [label.width(), label.height()], "needed height": needed,
              "shown": [shown.y(), shown.height()], "line height": metrics.lineSpacing(),
              "scroll area": area is not None}
    if area is not None:
        bar = area.verticalScrollBar()
        top_in_content = label.mapTo(area.widget(), QPoint(0, 0)).y()
        result.update({"scroll maximum": bar.maximum(), "viewport height": area.viewport().height(),
                       "label top in content": top_in_content,
                       "bar shown": bar.isVisible()})
        # Scroll to the end: the label's last line is then on show.
        bar.setValue(bar.maximum())
        settle(0.3)
        shown_at_end = _clip(label)
        result["shown at the end"] = [shown_at_end.y(), shown_at_end.height()]
        bar.setValue(0)
        settle(0.2)
    return result
