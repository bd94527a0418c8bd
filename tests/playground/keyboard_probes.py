"""Probes for tests/real_screen.py: the editor's canvas driven by the keyboard on a real screen (issue 32, item 2):
the canvas's focus frame, the selected card's ring clear of the minimap, and Connect… whole on the screen."""

from __future__ import annotations

import time


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def canvas_by_keyboard(window, settle, shot: str | None = None) -> dict:
    """Tab to the canvas, the minimap on, the arrows walked down a graph taller than the view; then Ctrl+K."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QDialog, QLineEdit

    window.activateWindow()
    settle(0.5)
    window.set_minimap_visible(True)
    editor = window.editor
    editor.build_from_expression("; ".join(f"x{i}={i}" for i in range(1, 13)) + "; L=" + "+".join(
        f"x{i}*x{i}" for i in range(1, 13)))
    settle(0.5)
    box = window.findChild(QLineEdit, "expressionInput")
    box.setFocus()
    settle(0.2)
    for _ in range(40):
        if QApplication.focusWidget() is editor.view:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        settle(0.02)
    view = editor.view
    seen = {"canvas_focused": QApplication.focusWidget() is view, "came_by_keyboard": view.came_by_keyboard}
    shown_before = view.mapToScene(view.viewport().rect()).boundingRect()
    QTest.keyClick(view, Qt.Key.Key_Right)  # the output
    for key in [Qt.Key.Key_Left] * 3 + [Qt.Key.Key_Down] * 30:  # then down a column to its lowest card
        QTest.keyClick(view, key)
    settle(0.5)
    scene = editor.scene
    [chosen] = scene.selected_node_ids()
    seen["was_out_of_sight"] = not shown_before.contains(scene.node_item(chosen).sceneBoundingRect())
    card = view.mapFromScene(scene.node_item(chosen).sceneBoundingRect()).boundingRect()
    image = view.viewport().grab().toImage()
    seen.update(card=_rect(card), viewport=_rect(view.viewport().rect()), minimap=_rect(view.minimap.geometry()),
                frame_colour=image.pixelColor(1, view.viewport().height() // 3).name(),
                selected_colour=scene.colors["selected"].name())
    if shot:
        settle(1)
        window.screen().grabWindow(0).save(shot)
    QTest.keyClick(view, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    dialog = window.findChild(QDialog, "connectDialog")
    deadline = time.monotonic() + 10
    while dialog is not None and dialog.frameGeometry() == dialog.geometry() and time.monotonic() < deadline:
        settle(0.05)
    settle(0.5)
    if dialog is not None:
        seen["connect"] = {"frame": _rect(dialog.frameGeometry()), "rows": dialog.list.count(),
                           "available": _rect(dialog.screen().availableGeometry())}
        if shot:
            window.screen().grabWindow(0).save(shot.replace(".png", "-connect.png"))
        dialog.reject()
    return seen


def plot_by_keyboard(window, settle, shot: str | None = None) -> dict:
    """The training tab: Tab from Play to the decision-boundary plot, the arrows, 0, Enter; what shows and what was
    added."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPalette
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    window.activateWindow()
    training = window.training
    window.tabs.setCurrentWidget(training)
    deadline = time.monotonic() + 30
    while training.data is None and time.monotonic() < deadline:
        settle(0.1)
    count = len(training.data.X_train)
    play = training.findChild(object, "playButton")
    play.setFocus(Qt.FocusReason.TabFocusReason)
    settle(0.2)
    plot = training.findChild(object, "boundaryPlot")
    for _ in range(80):
        if QApplication.focusWidget() is plot:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        settle(0.02)
    seen = {"plot_focused": QApplication.focusWidget() is plot}
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_0):
        QTest.keyClick(plot, key, Qt.KeyboardModifier.ShiftModifier if key != Qt.Key.Key_0 else
                       Qt.KeyboardModifier.NoModifier)
    settle(0.3)
    image = plot.grab().toImage()
    cursor = training.boundary_column.keyboard
    seen.update(frame_colour=image.pixelColor(plot.width() // 2, 1).name(),
                highlight=plot.palette().color(QPalette.ColorRole.Highlight).name(),
                crosshair_shown=all(line.isVisible() for line in cursor.lines),
                description=plot.accessibleDescription())
    QTest.keyClick(plot, Qt.Key.Key_Return)
    deadline = time.monotonic() + 20
    while len(training.data.X_train) == count and time.monotonic() < deadline:
        settle(0.05)
    seen.update(added=len(training.data.X_train) - count, label=int(training.data.y_train[-1]),
                at=[float(v) for v in training.data.X_train[-1]], cursor=list(cursor.position))
    if shot:
        settle(0.5)
        window.screen().grabWindow(0).save(shot)
    QTest.keyClick(plot, Qt.Key.Key_Tab)
    settle(0.2)
    seen["left_by_tab"] = QApplication.focusWidget() is not plot and not cursor.frame.isVisible()
    return seen
