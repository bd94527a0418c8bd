"""Probes for tests/real_screen.py: the Training tab as a class sees it on a real screen, measured in
the app's own process (see `tests/real_screen.py`)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QLabel,
    QRadioButton,
    QScrollArea,
    QWidget,
)


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def _visible_area(widget: QWidget) -> QRect:
    """The part of ``widget`` (in its own coordinates) that its ancestors do not clip. Inside a scroll
    area it counts as seen where a person can scroll to it: the viewport clips no more."""
    area = widget.rect()
    parent = widget.parentWidget()
    while parent is not None:
        holder = parent.parentWidget()
        if holder is not None and isinstance(holder, QScrollArea) and parent is holder.viewport():
            break
        area = area.intersected(QRect(widget.mapFrom(parent, QPoint(0, 0)), parent.size()))
        parent = holder
    return area


def cut_texts(root: QWidget) -> list[str]:
    """The labels and buttons under ``root`` whose text does not fit the room they were given, or that
    their ancestors cut off (one that elides its text and holds the whole of it in its tooltip is fine)."""
    cut = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisibleTo(root) or not widget.isVisible():
            continue
        if isinstance(widget, QLabel):
            text = widget.text()
            if not text or widget.pixmap() is not None and not widget.pixmap().isNull():
                continue
            if widget.wordWrap():
                fits = widget.heightForWidth(widget.width()) <= widget.height() + 1
            else:
                fits = widget.sizeHint().width() <= widget.width() + 1
            if not fits and widget.toolTip() and _elided_of(text, widget.toolTip()):
                fits = True
        elif isinstance(widget, (QCheckBox, QRadioButton)) and widget.text():
            text = widget.text()
            fits = widget.minimumSizeHint().width() <= widget.width() + 1
        elif isinstance(widget, QAbstractButton) and widget.text():
            text = widget.text()
            fits = widget.fontMetrics().horizontalAdvance(text) + 4 <= widget.width()
        else:
            continue
        visible = _visible_area(widget)
        inside = visible.width() >= widget.width() - 1 and visible.height() >= widget.height() - 1
        if not fits or not inside:
            cut.append(f"{widget.objectName() or type(widget).__name__}: {text[:40]!r} "
                       f"{widget.width()}x{widget.height()} shown {visible.width()}x{visible.height()}")
    return cut


def _elided_of(shown: str, whole: str) -> bool:
    return "…" in shown and whole.startswith(shown.split("…")[0])


def overlapping(column: QWidget) -> list[str]:
    """Lines of a column's layout drawn over one another (a column squeezed below its smallest height)."""
    layout = column.layout()
    items = [layout.itemAt(i) for i in range(layout.count())]
    shown = [item for item in items if not item.isEmpty() and item.geometry().height() > 0]
    return [f"{type(a.widget()).__name__ if a.widget() else 'row'} over the next one by "
            f"{a.geometry().bottom() - b.geometry().top() + 1} px"
            for a, b in zip(shown, shown[1:]) if a.geometry().bottom() >= b.geometry().top() + 1]


def training_tab(window, settle, steps: int = 30, dock: bool | None = None, fill_screen: bool = False,
                 classes: int = 2) -> dict:
    """Switch to the Training tab (the Learn dock shown or hidden when ``dock`` says), let the default
    run (with ``classes`` > 2, a spiral of as many arms) take about ``steps`` steps, and measure what a
    class sees: the neuron maps, the confusion matrices, the boundary plot, text cut off, and the
    window on the screen."""
    panel = window.training
    if classes > 2:
        panel.set_settings(replace(panel.settings, dataset="spiral", classes=classes, loss="cross_entropy"))
    if dock is not None:
        window.learning.dock.setVisible(dock)
    if fill_screen:
        # As a person does on a small screen whatever size the window first took: make it fill the screen.
        window.showMaximized()
        settle(1.0)
    window.tabs.setCurrentWidget(panel)
    settle(0.5)
    panel.play()
    deadline_steps = steps
    for _ in range(100):
        settle(0.1)
        if panel.step >= deadline_steps:
            break
    panel.pause()
    settle(0.6)
    canvas = panel.network_view.canvas
    maps = [neuron for column in canvas.neurons for neuron in column]
    confusion = panel.curves.confusion
    cell, side_by_side = confusion._geometry(confusion.width())
    vb = panel.boundary_plot.getPlotItem().vb.size()
    plot = panel.boundary_plot
    screen = window.screen()
    return {
        "available": _rect(screen.availableGeometry()),
        "frame": _rect(window.frameGeometry()),
        "dock": window.learning.dock.isVisible(),
        "factor": float(QApplication.instance().property("presentationFactor") or 1.0),
        "step": panel.step,
        "map_sides": sorted({min(n.width(), n.height()) for n in maps}),
        "maps_all_shown": all(n.isVisible() for n in maps),
        "confusion_side_by_side": bool(side_by_side),
        "confusion_cell": round(cell, 1),
        "confusion_size": [confusion.width(), confusion.height()],
        "confusion_visible": _visible_area(confusion).height() >= confusion.height() - 1,
        "boundary_data_area": [round(vb.width()), round(vb.height())],
        "boundary_widget": [plot.width(), plot.height()],
        "boundary_room": [plot.parentWidget().width(), plot.parentWidget().height()],
        "boundary_y_range": [round(v, 2) for v in plot.getPlotItem().vb.viewRange()[1]],
        "boundary_x_range": [round(v, 2) for v in plot.getPlotItem().vb.viewRange()[0]],
        "data_square": [round(v, 2) for v in panel.data.extent],
        "panel": [panel.width(), panel.height()],
        "panel_minimum": [panel.minimumSizeHint().width(), panel.minimumSizeHint().height()],
        "toolbar_minimum": panel.toolbar.minimumSizeHint().width(),
        "window_minimum": [window.minimumSizeHint().width(), window.minimumSizeHint().height()],
        "view_minimums": [panel.splitter.widget(i).minimumSizeHint().width() for i in range(3)],
        "view_widths": panel.splitter.sizes(),
        "diagram_scrolls": panel.network_view.scroll.horizontalScrollBar().maximum() > 0,
        "settings_shown": getattr(getattr(panel, "body", None), "settings_shown", True),
        "output_names": [label.text() for label in panel.network_view.canvas._name_labels],
        "overlaps": overlapping(panel.boundary_column) + overlapping(panel.curves),
        "cut": cut_texts(panel),
    }

