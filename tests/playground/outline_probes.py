"""Probes for tests/real_screen.py: the editor's graph outline on a real screen (issue 32, item 1), opened as a
person opens it (View > Graph outline), with a node selected; what is squeezed, and how much of it is in sight."""

from __future__ import annotations

from tests.playground.squeeze_probes import _squeezed


def outline_opened(window, settle, presentation: float | None = None, dock: bool = True, outline: bool = True) -> dict:
    """Open the outline by its action, select the first leaf on the canvas; the widgets squeezed below their
    minimum, the outline's rows in sight and whether the selected node's row is one of them."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
    window.learning.dock.setVisible(dock)
    window.tabs.setCurrentWidget(window.editor)
    settle(0.8)
    editor = window.editor
    if not outline:  # the side panel opened without it: what it is like without the outline
        editor.outline.widget.hide()
        if not editor.side.isVisible():
            editor.side_action.trigger()
    elif not editor.outline.widget.isVisible():
        editor.outline_action.trigger()
    scene = editor.view.scene()
    leaf = next(item for item in scene.node_items() if item.node.is_leaf)
    scene.select_nodes([leaf.node.id])
    settle(0.8)
    if not outline:
        return {"squeezed": _squeezed(window), "side": editor.side.isVisible()}
    outline = editor.outline.widget
    row = outline.node_row(leaf.node.id)
    rows_in_sight = sum(outline.viewport().rect().intersects(outline.visualRect(outline.model_.index(i, 0)))
                        for i in range(outline.model_.rowCount()))
    return {"squeezed": _squeezed(window), "outline": [outline.width(), outline.height()],
            "side": editor.side.isVisible(), "focus": outline.hasFocus(), "rows_in_sight": rows_in_sight,
            "selected_row_in_sight": outline.viewport().rect().intersects(outline.visualRect(row.index())),
            "canvas": [editor.view.width(), editor.view.height()]}


def animator_outline_opened(window, settle, dock: bool = True, outline: bool = True) -> dict:
    """The animator on the editor's graph, its outline opened by its action (or, ``outline`` False, only its step
    panel), three steps in: the widgets squeezed, and the outline's rows in sight."""
    window.learning.dock.setVisible(dock)
    window.tabs.setCurrentWidget(window.animator)
    settle(0.8)
    animator = window.animator
    if outline:
        animator.outline.action.trigger()
    elif not animator.steps.isVisible():
        animator.steps_action.trigger()
    animator.seek(3)
    settle(0.8)
    widget = animator.outline.widget
    rows_in_sight = sum(widget.viewport().rect().intersects(widget.visualRect(widget.model_.index(i, 0)))
                        for i in range(widget.model_.rowCount())) if outline else 0
    return {"squeezed": _squeezed(window), "steps": animator.steps.isVisible(), "rows_in_sight": rows_in_sight,
            "outline": [widget.width(), widget.height()]}
