"""Probes for tests/real_screen.py that measure the layout a class sees: the window on the screen,
how large the starter graph is drawn in the editor and the animator, what panels take."""

from __future__ import annotations

from PySide6.QtGui import QAction


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def measure(window, settle, tab: str = "editor", learn: bool | None = None, fit: bool = True) -> dict:
    if learn is not None:
        window.learning.dock.setVisible(learn)
        settle(0.4)
    panel = {"editor": window.editor, "animator": window.animator}[tab]
    window.tabs.setCurrentWidget(panel)
    settle(0.5)
    view = panel.view
    if fit:  # View > Fit (F), as a teacher presses it
        window.findChild(QAction, "actionFit").trigger()
        settle(0.3)
    scene = view.scene()
    bounds = scene.itemsBoundingRect()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return {"screen": _rect(window.screen().geometry()), "available": _rect(window.screen().availableGeometry()),
            "frame": _rect(window.frameGeometry()), "window": _rect(window.geometry()),
            "zoom": view.transform().m11(), "viewport": [view.viewport().width(), view.viewport().height()],
            "graph_shown_whole": shown.contains(bounds),
            "learn_dock": window.learning.dock.isVisible() and window.learning.dock.width(),
            "status": window.statusBar().currentMessage()}


def bounds(window, settle) -> dict:
    out = {}
    for name, panel in (("editor", window.editor), ("animator", window.animator)):
        window.tabs.setCurrentWidget(panel)
        settle(0.3)
        r = panel.view.graph_rect()
        out[name] = [r.x(), r.y(), r.width(), r.height()]
        out[name + "_items"] = sorted({type(i).__name__ for i in panel.view.scene().items()})
    return out


def minimums(window, settle) -> dict:
    out = {"frame": _rect(window.frameGeometry()), "available": _rect(window.screen().availableGeometry())}
    for name in ("editor", "animator", "training"):
        window.tabs.setCurrentWidget(getattr(window, name))
        settle(0.3)
        hint = window.minimumSizeHint()
        out[name] = {"min": [hint.width(), hint.height()], "frame": _rect(window.frameGeometry()),
                     "tab_min": [window.tabs.currentWidget().minimumSizeHint().width(),
                                 window.tabs.currentWidget().minimumSizeHint().height()],
                     "dock_min": [window.learning.dock.minimumSizeHint().width(),
                                  window.learning.dock.minimumSizeHint().height()]}
    return out
