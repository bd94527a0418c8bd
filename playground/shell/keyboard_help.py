"""Help > Keyboard shortcuts: every key of the app, grouped as a person works (Editor, Canvas, Animator,
Training, Lessons, Window).

The menus' keys are read from their QActions as the dialog opens, so the list cannot go stale when a shortcut
changes; the keys that belong to a place rather than a menu (the canvas's arrows, the animator's steps, Space
in the training tab) come from the modules that handle them. The README's "Keyboard" section lists the same.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QMainWindow,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from ..animator.keys import KEY_HELP as ANIMATOR_KEYS
from ..editor.keyboard_moves import CANVAS_KEYS
from ..training.plot_cursor import KEY_HELP as PLOT_KEYS
from ..widgets.screen_fit import fit_to_screen

MOUSE_GESTURES = (
    ("Drag a palette entry onto the canvas", "Add a node (drop it on a wire to insert it)"),
    ("Drag from an output port to an input port", "Connect (red: refused, the status bar says why)"),
    ("Drag a wire's input end away", "Disconnect or reconnect"),
    ("Double-click an input, parameter or constant", "Edit its value"),
    ("Mouse wheel", "Zoom around the cursor"),
    ("Drag on the background", "Select with a rubber band"),
    ("Right-click a node", "Make it the output, connect or disconnect it, delete it"),
)
TRAINING_KEYS = (
    ("Space", "Play or pause, anywhere in the tab but on a control that takes Space"),
    ("Space on Play, Step or Reset", "Press the button"),
)
LESSON_KEYS = (
    ("↑ ↓ in the lesson list, then Enter", "Start the lesson chosen (or Space on Start)"),
    ("Enter in the answer box", "Check the answer"),
    ("Space on Next ▶ or ◀ Back", "The next or the previous step"),
)
WINDOW_KEYS = (
    ("Tab, Shift+Tab", "The next or the previous control: the tab bar, the tab's controls, the Learn panel"),
    ("← → on the tab bar", "Another tab"),
    ("Space, Enter on a button", "Press it"),
    ("Escape in a dialog", "Close it, changing nothing"),
)
MENU_GROUPS = {"Edit": "Editor"}  # the Edit menu's keys edit the graph; the other menus' are the window's


def keys_text(action: QAction) -> str:
    """Every shortcut of ``action`` as the README writes it ("Ctrl+Z", "Del, Backspace"), "" for none."""
    return ", ".join(key.toString(QKeySequence.SequenceFormat.PortableText) for key in action.shortcuts())


def _menu_rows(menu: QMenu, path: str) -> list[tuple[str, str]]:
    rows = []
    for action in menu.actions():
        text = action.text().replace("&", "")
        if action.menu() is not None:
            rows += _menu_rows(action.menu(), f"{path} > {text}")
        elif not action.shortcut().isEmpty():
            rows.append((f"{path} > {text}", keys_text(action)))
    return rows


def shortcut_groups(window: QMainWindow) -> list[tuple[str, list[tuple[str, str]]]]:
    """The groups of (what, keys) rows the dialog shows: the menus' actions first, read as they are now."""
    groups: dict[str, list[tuple[str, str]]] = {"Editor": [], "Window": []}
    for action in window.menuBar().actions():
        menu = action.menu()
        if menu is None:
            continue
        title = action.text().replace("&", "")
        groups[MENU_GROUPS.get(title, "Window")] += _menu_rows(menu, title)
    flip = [(what, keys) for keys, what in CANVAS_KEYS]
    return [
        ("Editor", groups["Editor"]),
        ("Canvas (when it has the keyboard: the blue frame round it)", flip),
        ("Animator", [(what, keys) for keys, what in ANIMATOR_KEYS]),
        ("Training", [(what, keys) for keys, what in TRAINING_KEYS + PLOT_KEYS]),
        ("Lessons", [(what, keys) for keys, what in LESSON_KEYS]),
        ("Window", groups["Window"] + [(what, keys) for keys, what in WINDOW_KEYS]),
        ("Mouse", [(what, gesture) for gesture, what in MOUSE_GESTURES]),
    ]


def show_shortcuts(window: QMainWindow) -> QDialog:
    """The dialog, opened whole on its screen; each group a branch of a tree a screen reader walks."""
    dialog = QDialog(window)
    dialog.setObjectName("shortcutsDialog")
    dialog.setWindowTitle("Keyboard shortcuts")
    tree = QTreeWidget(dialog)
    tree.setObjectName("shortcutsTree")
    tree.setAccessibleName("Keyboard shortcuts, by where they work")
    tree.setHeaderLabels(["Keys", "What they do"])  # keys first: what a person looks up
    tree.setRootIsDecorated(True)
    tree.setUniformRowHeights(True)
    for group, rows in shortcut_groups(window):
        branch = QTreeWidgetItem(tree, [group])
        branch.setFirstColumnSpanned(True)
        font = branch.font(0)
        font.setBold(True)
        branch.setFont(0, font)
        for what, keys in rows:
            item = QTreeWidgetItem(branch, [keys, what])
            item.setToolTip(0, keys)
            item.setToolTip(1, what)
    tree.expandAll()
    tree.resizeColumnToContents(0)
    tree.setColumnWidth(0, min(tree.columnWidth(0), 300))
    tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(tree)
    layout.addWidget(buttons)
    fit_to_screen(dialog, QSize(760, 620))
    tree.setFocus(Qt.FocusReason.OtherFocusReason)
    dialog.open()
    return dialog
