"""Probes for tests/real_screen.py that measure what a class sees of the layout: the window on the screen,
and how large the starter graph (the neuron example) is drawn in the editor and the animator.

"Zoom" here is how large a card appears on the screen relative to its size at 100%: its width in screen
pixels over its width in the scene's own units. It is the view's scale times any scale of the cards
themselves, so it counts whatever makes the graph larger, and only that; the wire labels and the numbers
are drawn inside the same scene and grow with it.
"""

from __future__ import annotations

from PySide6.QtGui import QAction


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def apparent_zoom(view) -> float:
    """The smallest on-screen scale of any card (all cards have the same one today)."""
    scales = []
    for item in view.scene().node_items():
        own = item.boundingRect().width()
        shown = view.mapFromScene(item.sceneBoundingRect()).boundingRect().width()
        scales.append(shown / own)
    return min(scales)


def graph_shown_whole(view) -> bool:
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return all(shown.contains(item.sceneBoundingRect()) for item in view.scene().node_items())


def _unclipped(widget):
    """The part of ``widget`` its ancestors leave on show (a scroll area's viewport clips what it scrolls)."""
    from PySide6.QtCore import QPoint, QRect

    shown, parent = widget.rect(), widget.parentWidget()
    while parent is not None:
        shown = shown.intersected(QRect(widget.mapFrom(parent, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return shown


def window_on_screen(window, settle) -> dict:
    """The screen's available area, the window's frame on it, and the editor's graph as it first opens."""
    view = window.editor.view
    return {"available": _rect(window.screen().availableGeometry()), "frame": _rect(window.frameGeometry()),
            "learn_dock": window.learning.dock.isVisible(), "zoom": apparent_zoom(view),
            "whole": graph_shown_whole(view), "editor_tab": window.tabs.currentWidget() is window.editor,
            "panels_open": [window.editor.palette.isVisible(), window.editor.side.isVisible()]}


def fitted_zooms(window, settle, presentation: float | None = None) -> dict:
    """The starter graph's zoom after View > Fit (F), in the editor and the animator, with the Learn dock
    closed and open: ``{"editor closed": 1.72, ...}``, and whether it was then whole. ``presentation``:
    turn presentation mode on at that zoom first, as a teacher does in a window already open."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
        settle(0.5)
    fit = window.findChild(QAction, "actionFit")
    result = {"frame": _rect(window.frameGeometry()), "available": _rect(window.screen().availableGeometry())}
    for dock in ("closed", "open"):
        window.learning.dock.setVisible(dock == "open")
        for name in ("editor", "animator"):
            panel = getattr(window, name)
            window.tabs.setCurrentWidget(panel)
            settle(0.6)
            fit.trigger()  # F, as a teacher presses it
            settle(0.4)
            result[f"{name} {dock}"] = apparent_zoom(panel.view)
            result[f"{name} {dock} whole"] = graph_shown_whole(panel.view)
            shown = panel.view.mapToScene(panel.view.viewport().rect()).boundingRect()
            result[f"{name} {dock} output shown"] = any(
                shown.contains(item.sceneBoundingRect()) for item in panel.view.scene().node_items() if item.is_output)
    return result


def arrange(window, settle, tab: str = "editor", learn: bool | None = None, step: int = 0, fit: bool = False) -> dict:
    """Put the window in a state to look at (a screenshot is taken after): ``tab`` on show, the Learn dock
    open or closed, the animator at ``step``, View > Fit pressed or not. Returns the graph's zoom there."""
    if learn is not None:
        window.learning.dock.setVisible(learn)
    panel = getattr(window, tab)
    window.tabs.setCurrentWidget(panel)
    settle(0.6)
    if tab == "animator" and step:
        window.animator.seek(step)
        settle(0.3)
    if fit:
        window.findChild(QAction, "actionFit").trigger()
        settle(0.4)
    view = getattr(panel, "view", None)
    return {"zoom": apparent_zoom(view) if view is not None else None,
            "whole": graph_shown_whole(view) if view is not None else None}


def cut_texts(window, settle, tabs: tuple = ("editor", "animator")) -> dict:
    """Text cut off on ``tabs`` and in the Learn dock, as shown: a button or a one-line label narrower than
    its text, or partly outside its parent (scrolled off); a label that wraps, or an elided text with the
    whole of it in a tooltip, is not cut."""
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel

    cut = []
    for name in tabs:
        panel = getattr(window, name)
        window.tabs.setCurrentWidget(panel)
        settle(0.5)
        for widget in [*panel.findChildren(QLabel), *panel.findChildren(QAbstractButton),
                       *window.learning.dock.findChildren(QLabel), *window.learning.dock.findChildren(QAbstractButton)]:
            if not widget.isVisible() or not widget.text() or widget.width() <= 1:
                continue
            if isinstance(widget, QLabel) and (widget.wordWrap() or widget.textFormat() == 1 or "<" in widget.text()):
                continue  # wraps, or rich text laid out by Qt
            if widget.parentWidget() is not None and isinstance(widget.parentWidget(), QComboBox):
                continue
            text = widget.text().replace("&", "")
            shown = _unclipped(widget)
            whole_in_tooltip = text in widget.toolTip()  # elided, with the whole of it in the tooltip
            if shown.width() < widget.width() - 1 and not whole_in_tooltip:  # clipped by a parent: scrolled off
                cut.append(f"{name}: {widget.objectName() or type(widget).__name__} '{text}' shown {shown.width()} "
                           f"of {widget.width()}")
                continue
            needed = widget.fontMetrics().horizontalAdvance(text) + (12 if isinstance(widget, QAbstractButton) else 0)
            if needed > widget.width() + 1 and not whole_in_tooltip:
                label = widget.objectName() or type(widget).__name__
                cut.append(f"{name}: {label} '{text}' {needed} > {widget.width()}")
    return {"cut": sorted(set(cut))}
