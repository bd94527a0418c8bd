"""Probes for tests/real_screen.py: the training tab's run controls and gradient health plot on a classroom's
screen in presentation mode (issue 29, item 6)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPoint, QRect


def _shown_height(widget) -> int:
    """How many of ``widget``'s rows its ancestors leave in sight (scroll areas clip what they scroll)."""
    shown, parent = widget.rect(), widget.parentWidget()
    child = widget
    while parent is not None:
        shown = shown.intersected(QRect(child.mapFrom(parent, QPoint(0, 0)) + shown.topLeft() - shown.topLeft(),
                                        parent.size()))
        child = child
        parent = parent.parentWidget()
    return max(shown.height(), 0)


def _visible_part(widget) -> int:
    from PySide6.QtCore import QRect as Rect

    rect = Rect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not widget.window():
        rect = rect.intersected(Rect(parent.mapTo(widget.window(), QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return max(rect.height(), 0) if rect.isValid() else 0


def run_controls_with_health(window, settle, zoom: float = 1.5, hidden: list[int] | None = None) -> dict:
    """Presentation mode at ``zoom``, the Learn dock open, the training tab with its gradient health plot shown
    and pointed at (scrolled into view) as lesson 10 step 3 does; then what of the run's controls is in sight,
    and the plot's height and layer names."""
    from playground.learn.highlight import scroll_into_view

    window.presentation.set_zoom(zoom)
    window.presentation.set_on(True)
    window.learning.dock.setVisible(True)
    panel = window.training
    if hidden:
        panel.set_settings(replace(panel.settings, hidden=tuple(hidden), activation="sigmoid"))
    window.tabs.setCurrentWidget(panel)
    settle(0.5)
    panel.curves.gradient_health_check.setChecked(True)
    settle(0.5)
    panel.play()
    for _ in range(30):
        settle(0.1)
        if panel.step >= 20:
            break
    panel.pause()
    settle(0.3)
    scroll_into_view(panel.curves.gradient_health.plot)
    settle(0.5)
    toolbar = panel.toolbar
    health = panel.curves.gradient_health
    return {
        "play_shown": _visible_part(toolbar.play_button) == toolbar.play_button.height(),
        "step_shown": _visible_part(toolbar.step_button) == toolbar.step_button.height(),
        "health_plot_height": health.plot.height(),
        "health_plot_shown": _visible_part(health.plot),
        "layer_names": [label.toPlainText() for label in getattr(health, "layer_labels", [])
                        if label.isVisible()],
        "panel": [panel.width(), panel.height(), panel.minimumSizeHint().height(),
                  panel.heightForWidth(panel.width()), panel.layout().hasHeightForWidth()],
        "outer": [panel.parentWidget().height(), panel.parentWidget().parentWidget().verticalScrollBar().maximum()],
        "toolbar": [toolbar.height(), toolbar.heightForWidth(toolbar.width())],
        "diagram_columns": len(panel.network_view.canvas.neurons),
        "map_sides": sorted({min(n.width(), n.height()) for column in panel.network_view.canvas.neurons
                             for n in column}),
        "maps_shown": all(n.isVisible() for column in panel.network_view.canvas.neurons for n in column),
        "diagram_scrolls": panel.network_view.scroll.horizontalScrollBar().maximum() > 0,
        "layers": int(health.frame.norms.shape[1]) if health.frame is not None else 0,
    }
