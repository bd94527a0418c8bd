"""The main window's File and Edit menus (View is `view_menu`, Help `help_menu`): each action calls the room
that does the work (`DocumentFiles`, `FileOpener`, `GraphExports`, the editor), none does it here."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence, QUndoGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from .actions import add_action
from .document_files import example_index


@dataclass
class FileMenu:
    menu: QMenu
    examples: QMenu
    recent: QMenu
    export: QMenu


def build_file_menu(window: QMainWindow) -> FileMenu:
    """File: New, Open…, Open example, Open recent, Save, Save as…, Export, Quit. ``window`` has `files`,
    `opener` and `exports` (built before the menus)."""
    files, opener, exports = window.files, window.opener, window.exports
    menu = window.menuBar().addMenu("&File")
    add_action(window, menu, "&New", files.new_document, QKeySequence.StandardKey.New)
    add_action(window, menu, "&Open…", opener.on_open_triggered, QKeySequence.StandardKey.Open, "actionOpen")
    examples = menu.addMenu("Open &example")
    for entry in example_index():
        action = examples.addAction(entry["title"])
        action.setToolTip(entry.get("description", ""))
        action.triggered.connect(lambda _=False, name=entry["file"]: files.confirm_discard()
                                 and files.open_example(name))
    recent = menu.addMenu("Open &recent")
    menu.addSeparator()
    add_action(window, menu, "&Save", window.save_current, QKeySequence.StandardKey.Save, "actionSave")
    add_action(window, menu, "Save &as…", files.save_as, QKeySequence.StandardKey.SaveAs, "actionSaveAs")
    menu.addSeparator()
    export = menu.addMenu("E&xport")
    add_action(window, export, "Image as PNG…", lambda: exports.on_export_image_triggered("png"), None,
               "actionExportPng")
    add_action(window, export, "Image as SVG…", lambda: exports.on_export_image_triggered("svg"), None,
               "actionExportSvg")
    add_action(window, export, "Python code…", lambda: exports.on_export_code_triggered(False), None,
               "actionExportPython")
    add_action(window, export, "Python code with a PyTorch check…", lambda: exports.on_export_code_triggered(True),
               None, "actionExportPythonTorch")
    menu.addSeparator()
    add_action(window, menu, "&Quit", window.close, QKeySequence.StandardKey.Quit)
    return FileMenu(menu, examples, recent, export)


def build_edit_menu(window: QMainWindow, undo_group: QUndoGroup) -> tuple[QMenu, list[QAction]]:
    """Edit: Undo and Redo (of the tab on show), the editor's own actions, Check gradients, Animate backward.
    Returns the menu and the editor's actions, which are enabled on the editor's tab only: on another tab they
    would act, unseen, on the editor's graph (Delete over the training plot deleted the selected nodes)."""
    editor = window.editor
    menu = window.menuBar().addMenu("&Edit")
    undo = undo_group.createUndoAction(window, "&Undo")
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    undo.setObjectName("actionUndo")
    redo = undo_group.createRedoAction(window, "&Redo")
    redo.setShortcut(QKeySequence.StandardKey.Redo)
    redo.setObjectName("actionRedo")
    menu.addActions([undo, redo])
    menu.addSeparator()
    editor_actions = [
        add_action(window, menu, "Cu&t", editor.cut_selection, QKeySequence.StandardKey.Cut),
        add_action(window, menu, "&Copy", editor.copy_selection, QKeySequence.StandardKey.Copy),
        add_action(window, menu, "&Paste", editor.paste, QKeySequence.StandardKey.Paste),
        add_action(window, menu, "&Duplicate", editor.duplicate_selection, "Ctrl+D"),
        add_action(window, menu, "De&lete", editor.delete_selection, QKeySequence.StandardKey.Delete),
        add_action(window, menu, "Select &all", editor.select_all, QKeySequence.StandardKey.SelectAll),
        # Wiring without a drag: the selected node's output to an input chosen from a list, or a wire removed.
        add_action(window, menu, "Co&nnect…", lambda: editor.scene.open_connect(window), "Ctrl+K", "actionConnect"),
        add_action(window, menu, "Make &output", editor.scene.make_selected_output, "Ctrl+Shift+M",
                   "actionMakeOutput"),
        add_action(window, menu, "Disconn&ect…", lambda: editor.scene.open_disconnect(window), "Ctrl+Shift+K",
                   "actionDisconnect"),
    ]
    menu.addSeparator()
    editor_actions.append(add_action(window, menu, "Check &gradients", editor.run_gradient_check, "Ctrl+G"))
    add_action(window, menu, "Animate &backward", window.animate_backward, "Ctrl+B")
    add_action(window, menu, "&Train this graph", lambda: window.graph_link.train(), "Ctrl+T", "actionTrainGraph")
    return menu, editor_actions
