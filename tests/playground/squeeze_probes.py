"""Probes for tests/real_screen.py: widgets shown smaller than their minimum size hint (issue 29, item 1: in
presentation mode the properties panel's fields and slider were crushed to half their height)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

TABS = ("editor", "animator", "training")


def _squeezed(root: QWidget) -> list[str]:
    """Every visible widget under ``root`` shorter or narrower than the least it asks for (by more than a
    pixel), named with its object name, class and sizes. A scroll area's own content is not counted against
    the scroll area: it scrolls."""
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.isWindow():
            continue
        hint = widget.minimumSizeHint()
        # As Qt's layouts take it: an explicit minimum stands in for the hint (a combo that may give way).
        least = QSize(widget.minimumWidth() or hint.width(), widget.minimumHeight() or hint.height())
        if isinstance(widget, QAbstractScrollArea) or not hint.isValid():
            continue
        if widget.objectName().startswith("qt_"):  # Qt's own insides (a spin box's line edit): sized by Qt
            continue
        short_h = least.height() > 0 and widget.height() < least.height() - 1
        short_w = least.width() > 0 and widget.width() < least.width() - 1
        if short_h or short_w:
            name = widget.objectName() or type(widget).__name__
            found.append(f"{name} ({type(widget).__name__}) {widget.width()}x{widget.height()} "
                         f"< {least.width()}x{least.height()}")
    return found


def squeezed_widgets(window, settle, presentation: float | None = None, dock: bool = True,
                     tabs: tuple[str, ...] = TABS) -> dict:
    """In each tab (and with the Learn dock open or closed), the widgets smaller than their minimum."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
    window.learning.dock.setVisible(dock)
    seen = {}
    for name in tabs:
        window.tabs.setCurrentWidget(getattr(window, name))
        settle(0.8)
        seen[name] = _squeezed(window)
        if name == "editor":  # and with a parameter selected: the properties panel's fields and slider
            scene = window.editor.view.scene()
            leaf = next(item for item in scene.node_items() if item.node.is_leaf)
            scene.select_nodes([leaf.node.id])
            window.editor.side_action.setChecked(True)  # Details: the side panel open, as a teacher opens it
            settle(0.8)
            seen["editor, a node selected"] = _squeezed(window)
            if not window.editor.outline.widget.isVisible():  # and View > Graph outline too: less room still
                window.editor.outline.action.trigger()
            settle(0.8)
            seen["editor, a node selected, the outline open"] = _squeezed(window)
    return seen
