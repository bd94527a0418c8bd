"""Application entry point and main window of Autograd Playground."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSettings, QSize, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence, QPainter, QUndoGroup, QUndoStack
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..animator.panel import AnimatorPanel
from ..editor.panel import EditorPanel
from ..files.disk import FileFormatError, without_file_name, write_atomic
from ..files.paths import EXAMPLES
from ..graph.document import DocumentFormatError, GraphDocument
from ..graph.export_code import to_python
from ..graph.file_io import load_document, save_document
from ..learn.model.lesson import LessonFormatError
from ..training.panel import TrainingPanel
from .dock_share import DockShare
from .file_kinds import ReadFile, read_any
from .learn_dock import install_learning
from .panel_tabs import PanelTabs
from .status_bar import StatusBar
from .theme import apply_theme
from .training_setups import install_setup_actions
from .view_menu import ViewMenu
from .window_size import first_window

APP_NAME = "Autograd Playground"
MAX_RECENT_FILES = 8
GRAPH_FILTER = "Autograd Playground graphs (*.json);;All files (*)"
OPEN_FILTER = ("Autograd Playground files (*.json *.lesson);;Graphs and training setups (*.json);;Lessons (*.lesson);;"
               "All files (*)")
LESSON_SUFFIX = " (lesson)"

CANVAS_GESTURES = (
    ("Drag a palette entry onto the canvas", "Add a node (drop it on a wire to insert it)"),
    ("Drag from an output port to an input port", "Connect (red: refused, the status bar says why)"),
    ("Drag a wire's input end away", "Disconnect or reconnect"),
    ("Double-click an input, parameter or constant", "Edit its value"),
    ("Tab", "Quick search: add a node at the cursor"),
    ("Mouse wheel", "Zoom around the cursor"),
    ("Middle drag, or Space + drag", "Pan"),
    ("Drag on the background", "Select with a rubber band"),
    ("Right-click a node", "Make it the output, delete it"),
)


def example_index() -> list[dict]:
    """The examples shown under File > Open example, in menu order."""
    try:
        return json.loads((EXAMPLES / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [{"file": p.name, "title": p.stem.replace("_", " "), "description": ""}
                for p in sorted(EXAMPLES.glob("*.json")) if p.name != "index.json"]


class MainWindow(QMainWindow):
    """Top-level window: the editor and the other panels in tabs, menus, a status bar."""

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setAccessibleName("MainWindow")
        self.settings = settings if settings is not None else QSettings()
        self.current_path: Path | None = None
        self._first_size, self._maximize_when_shown = QSize(), False
        self.document_name = "Untitled"

        self.document = GraphDocument()
        self.undo_stack = QUndoStack(self)
        self.editor = EditorPanel(self.document, self.undo_stack)

        self.tabs = PanelTabs()  # a panel larger than the window scrolls in its tab
        self.tabs.setObjectName("mainTabs")
        self.tabs.setAccessibleName("mainTabs")
        self.animator = AnimatorPanel()
        self.animator.follow(self.document)  # editing the graph resets the animation to the new graph
        self.tabs.addTab(self.editor, "Graph editor")
        self.training = TrainingPanel()
        self.tabs.addTab(self.animator, "Backward animator")
        self.tabs.addTab(self.training, "Training")
        self.setCentralWidget(self.tabs)

        # The status bar belongs to the tab on show: each panel keeps its own summary on the right
        # (the editor's "Output = 0.7071"), and its messages wait until its tab is shown.
        self._tab_summaries: dict[QWidget, str] = {}
        self._tab_messages: dict[QWidget, str] = {}
        self.evaluation_label = QLabel()
        self.evaluation_label.setObjectName("evaluationLabel")
        self.setStatusBar(StatusBar(self))  # long messages elided, never drawn over the summary
        self.statusBar().addPermanentWidget(self.evaluation_label)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.editor.status_message.connect(lambda text: self._show_tab_message(self.editor, text))
        self.editor.status_withdrawn.connect(self._on_editor_status_withdrawn)
        self.editor.summary_changed.connect(self._on_editor_summary_changed)
        self.editor.graph_built.connect(self._on_editor_graph_built)
        self.editor.animate_backward_requested.connect(self.animate_backward)
        self.animator.status_message.connect(lambda text: self._show_tab_message(self.animator, text))
        self.training.message_shown.connect(lambda text: self._show_tab_message(self.training, text))
        self.training.summary_changed.connect(lambda text: self._set_tab_summary(self.training, text))
        self.training.animate_backward_requested.connect(self.animate_network)
        self.animator.network_requested.connect(self._load_network_into_animator)
        self.animator.concealment_changed.connect(self.editor.conceal)  # a quiz hides its answers in both tabs
        self.undo_stack.cleanChanged.connect(self._update_title)
        # Edit > Undo and Redo act on the stack of the tab shown (the animator has none: they are disabled).
        self.undo_group = QUndoGroup(self)
        self._undo_stacks = {self.editor: self.undo_stack, self.training: self.training.undo_stack}
        for stack in self._undo_stacks.values():
            self.undo_group.addStack(stack)
        self.undo_group.setActiveStack(self.undo_stack)

        self._build_menus()
        self.learning = install_learning(self)  # the Learn dock, File > Open lesson…, View > Presentation mode, F11
        self.dock_share = DockShare(self, self.learning.dock)  # the Learn dock leaves the tabs most of the width
        self.training_setups = install_setup_actions(self)  # save, open, copy, paste, export training setups
        self.training.reset_confirmation.remember_in(self.settings)  # its "Don't ask again"
        # ... and the way to ask again: Edit > Ask before resetting a trained network.
        self.ask_before_reset_action = self._action(self.edit_menu, "Ask before resetting a trained network",
                                                    self.training.reset_confirmation.set_asks, None,
                                                    "actionAskBeforeReset")
        self.ask_before_reset_action.setCheckable(True)
        self.ask_before_reset_action.setChecked(self.training.reset_confirmation.asks)
        self.training.reset_confirmation.asks_changed.connect(self.ask_before_reset_action.setChecked)
        self._restore_settings()
        self.open_example("neuron.json")
        self.statusBar().showMessage("Ready")

    # -- menus -------------------------------------------------------------------------------

    def _action(self, menu, text: str, slot, shortcut=None, name: str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        words = text.replace("&", "").strip(".…").split()
        action.setObjectName(name or "action" + "".join(w.capitalize() for w in words))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = file_menu = bar.addMenu("&File")
        self._action(file_menu, "&New", self.new_document, QKeySequence.StandardKey.New)
        self._action(file_menu, "&Open…", self._on_open_triggered, QKeySequence.StandardKey.Open, "actionOpen")
        self.examples_menu = file_menu.addMenu("Open &example")
        for entry in example_index():
            action = self.examples_menu.addAction(entry["title"])
            action.setToolTip(entry.get("description", ""))
            action.triggered.connect(lambda _=False, name=entry["file"]: self._confirm_discard()
                                     and self.open_example(name))
        self.recent_menu = file_menu.addMenu("Open &recent")
        file_menu.addSeparator()
        self._action(file_menu, "&Save", self.save, QKeySequence.StandardKey.Save)
        self._action(file_menu, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs, "actionSaveAs")
        file_menu.addSeparator()
        self.export_menu = export_menu = file_menu.addMenu("E&xport")
        self._action(export_menu, "Image as PNG…", lambda: self._on_export_image_triggered("png"), None,
                     "actionExportPng")
        self._action(export_menu, "Image as SVG…", lambda: self._on_export_image_triggered("svg"), None,
                     "actionExportSvg")
        self._action(export_menu, "Python code…", lambda: self._on_export_code_triggered(False), None,
                     "actionExportPython")
        self._action(export_menu, "Python code with a PyTorch check…", lambda: self._on_export_code_triggered(True),
                     None, "actionExportPythonTorch")
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        self.edit_menu = edit_menu = bar.addMenu("&Edit")
        undo = self.undo_group.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        undo.setObjectName("actionUndo")
        redo = self.undo_group.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        redo.setObjectName("actionRedo")
        edit_menu.addActions([undo, redo])
        edit_menu.addSeparator()
        # The graph editor's own actions: on another tab they would act, unseen, on the editor's graph
        # (Delete over the training plot deleted the selected nodes): enabled on the editor's tab only.
        self.editor_actions = [
            self._action(edit_menu, "Cu&t", self.editor.cut_selection, QKeySequence.StandardKey.Cut),
            self._action(edit_menu, "&Copy", self.editor.copy_selection, QKeySequence.StandardKey.Copy),
            self._action(edit_menu, "&Paste", self.editor.paste, QKeySequence.StandardKey.Paste),
            self._action(edit_menu, "&Duplicate", self.editor.duplicate_selection, "Ctrl+D"),
            self._action(edit_menu, "De&lete", self.editor.delete_selection, QKeySequence.StandardKey.Delete),
            self._action(edit_menu, "Select &all", self.editor.select_all, QKeySequence.StandardKey.SelectAll),
        ]
        edit_menu.addSeparator()
        self.editor_actions.append(
            self._action(edit_menu, "Check &gradients", self.editor.run_gradient_check, "Ctrl+G"))
        self._action(edit_menu, "Animate &backward", self.animate_backward, "Ctrl+B")

        self.view_actions = ViewMenu(self)  # Fit and Zoom act on the tab's graph; the panels; minimap; theme
        self.view_menu, self.minimap_action = self.view_actions.menu, self.view_actions.minimap_action
        self.theme_group = self.view_actions.theme_group
        self.editor_actions.append(self.view_actions.auto_layout_action)

        self.help_menu = help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&Keyboard shortcuts", self.show_shortcuts, QKeySequence.StandardKey.HelpContents)
        self._action(help_menu, "&About", self.show_about)

    # -- documents ---------------------------------------------------------------------------

    def _set_document(self, document: GraphDocument, path: Path | None, name: str) -> None:
        self.document.replace_with(document)
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.current_path, self.document_name = path, name
        self.editor.refresh()
        self.editor.view.fit()
        self._update_title()

    def new_document(self) -> None:
        if self._confirm_discard():
            self._set_document(GraphDocument(), None, "Untitled")

    def open_example(self, file_name: str) -> bool:
        try:
            document = load_document(EXAMPLES / file_name)
        except (OSError, DocumentFormatError) as error:
            self._show_error("The example could not be opened", str(error))
            return False
        self._set_document(document, None, f"{Path(file_name).stem.replace('_', ' ')} (example)")
        return True

    def open_lesson_graph(self, document: GraphDocument, lesson: str) -> bool:
        """Show a lesson step's graph, as an example is shown; unsaved work of one's own is asked about first
        (a lesson's graph, edited or not, is the lesson's)."""
        if not self.document_name.endswith(LESSON_SUFFIX) and not self._confirm_discard():
            return False
        self._set_document(document, None, f"{lesson}{LESSON_SUFFIX}")
        return True

    def show_document_from_python(self, document: GraphDocument, title: str, result=None) -> None:
        """Show a graph built from an engine result (`playground.show`) in the editor; a Tensor loss
        ``result`` is replayed in the backward animator too, a tab away."""
        self._set_document(document, None, title)
        if result is not None:
            self.animator.load_tensor_result(result)
        self.tabs.setCurrentWidget(self.editor)

    def show_tensor_from_python(self, result) -> bool:
        """Show a scalar tensor result's graph (`playground.show`) in the backward animator."""
        self.tabs.setCurrentWidget(self.animator)
        return self.animator.load_tensor_result(result)

    def open_path(self, path: str | Path) -> bool:
        """Open a file of any kind the app knows where it belongs (a graph in the editor, ...);
        a file that cannot be read is refused with a message and changes nothing."""
        path = Path(path)
        try:
            item = read_any(path)
        except (OSError, FileFormatError) as error:
            self._show_error(f"{path.name} could not be opened", without_file_name(str(error), path.name))
            return False
        return self.open_read_file(item)

    def open_read_file(self, item: ReadFile) -> bool:
        """Show a file already read (`file_kinds.read_any`) in its place."""
        if item.kind == "graph":
            self._set_document(item.content, item.path, item.path.name)
            self.tabs.setCurrentWidget(self.editor)
        elif item.kind == "setup":
            self.training_setups.open(item.content, item.path.name)
        elif item.kind == "lesson":
            try:
                self.learning.open_lesson(item.content)
            except LessonFormatError as error:
                self._show_error(f"{item.path.name} could not be opened", without_file_name(str(error), item.path.name))
                return False
        self._remember_recent(item.path)
        self.statusBar().showMessage(f"Opened {item.path}", 5000)
        return True

    def save(self) -> bool:
        if self.current_path is None:
            return self.save_as()
        return self.save_to(self.current_path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save graph", str(self._start_folder() / "graph.json"),
                                              GRAPH_FILTER)
        return bool(path) and self.save_to(Path(path))

    def save_to(self, path: str | Path) -> bool:
        path = Path(path)
        try:
            save_document(path, self.document)
        except OSError as error:
            self._show_error(f"{path.name} could not be saved", str(error))
            return False
        except DocumentFormatError as error:  # past a graph file's limits: it would not open again
            self._show_error(f"{path.name} could not be saved",
                             f"{error}. File > Export > Python code keeps a graph of any size.")
            return False
        self.current_path, self.document_name = path, path.name
        self.undo_stack.setClean()
        self._remember_recent(path)
        self._update_title()
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _on_open_triggered(self) -> None:
        if not self._confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open", str(self._start_folder()), OPEN_FILTER)
        if path:
            self.open_path(path)

    def _start_folder(self) -> Path:
        return self.current_path.parent if self.current_path else Path.home()

    # -- export ------------------------------------------------------------------------------

    def export_image(self, path: str | Path) -> None:
        """Draw the graph (without selection highlights) to a PNG or SVG file."""
        path = Path(path)
        scene = self.editor.scene
        selected = scene.selected_node_ids()
        scene.clearSelection()
        source = scene.itemsBoundingRect().adjusted(-24, -24, 24, 24)
        size = QSize(max(1, round(source.width())), max(1, round(source.height())))
        try:
            if path.suffix.lower() == ".svg":
                generator = QSvgGenerator()
                generator.setFileName(str(path))
                generator.setSize(size)
                generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
                generator.setTitle(self.document_name)
                painter = QPainter(generator)
                scene.render(painter, QRectF(0, 0, size.width(), size.height()), source)
                painter.end()
            else:
                image = QImage(size * 2, QImage.Format.Format_ARGB32)
                image.fill(self.palette().base().color())
                painter = QPainter(image)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                scene.render(painter, QRectF(image.rect()), source)
                painter.end()
                if not image.save(str(path)):
                    raise OSError(f"could not write {path}")
        finally:
            scene.select_nodes(selected)

    def _on_export_image_triggered(self, extension: str) -> None:
        default = self._start_folder() / f"{Path(self.document_name).stem or 'graph'}.{extension}"
        path, _ = QFileDialog.getSaveFileName(self, f"Export image as {extension.upper()}", str(default),
                                              f"{extension.upper()} image (*.{extension})")
        if path:
            try:
                self.export_image(path)
            except OSError as error:
                self._show_error("The image could not be exported", str(error))
            else:
                self.statusBar().showMessage(f"Exported {path}", 5000)

    def export_code(self, path: str | Path, use_torch: bool = False) -> None:
        write_atomic(path, to_python(self.document, use_torch=use_torch))

    def _on_export_code_triggered(self, use_torch: bool) -> None:
        default = self._start_folder() / f"{Path(self.document_name).stem.replace(' ', '_') or 'graph'}.py"
        path, _ = QFileDialog.getSaveFileName(self, "Export Python code", str(default), "Python (*.py)")
        if not path:
            return
        try:
            self.export_code(path, use_torch)
        except (OSError, ValueError) as error:
            self._show_error("The code could not be exported", str(error))
        else:
            self.statusBar().showMessage(f"Exported {path}", 5000)

    def animate_backward(self) -> None:
        """Open the backward animator on the editor's graph, at its start."""
        self.tabs.setCurrentWidget(self.animator)
        self.animator.load(self.document)

    def animate_network(self) -> None:
        """Open the backward animator on the training panel's network, one batch, at tensor level."""
        if self._load_network_into_animator():
            self.tabs.setCurrentWidget(self.animator)

    def _load_network_into_animator(self) -> bool:
        snapshot = self.training.network_snapshot()
        if snapshot is None:
            self.statusBar().showMessage("The training panel has no network yet: open the Training tab first", 6000)
            return False
        self.animator.forward.count_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y,
                                            snapshot.description)
        return self.animator.load_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y,
                                          snapshot.description)

    # -- view --------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        apply_theme(QApplication.instance(), theme)
        self.editor.scene.set_theme(theme == "dark")
        self.animator.set_theme(theme == "dark")  # the training panel follows the app's palette itself
        for action in self.theme_group.actions():
            action.setChecked(action.data() == theme)
        self.settings.setValue("theme", theme)

    def _on_minimap_toggled(self) -> None:
        self.editor.view.set_minimap_visible(self.minimap_action.isChecked())
        self.settings.setValue("minimap", self.minimap_action.isChecked())

    def show_shortcuts(self) -> None:
        rows = [(a.text().replace("&", ""), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
                for menu in self.menuBar().findChildren(type(self.examples_menu)) for a in menu.actions()
                if not a.shortcut().isEmpty()]
        rows += CANVAS_GESTURES
        dialog = QDialog(self)
        dialog.setObjectName("shortcutsDialog")
        dialog.setWindowTitle("Keyboard shortcuts")
        table = QTableWidget(len(rows), 2, dialog)
        table.setHorizontalHeaderLabels(["Action", "Keys"])
        for i, (action, keys) in enumerate(rows):
            table.setItem(i, 0, QTableWidgetItem(action))
            table.setItem(i, 1, QTableWidgetItem(keys))
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.verticalHeader().setVisible(False)
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(table)
        layout.addWidget(buttons)
        dialog.resize(620, 520)
        dialog.open()

    def show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_NAME}",
                          f"<b>{APP_NAME}</b><p>See backpropagation happen: build a computation graph, "
                          "watch every value and gradient, step through the chain rule, train a network.</p>"
                          "<p>Its own autodiff engine checks every gradient against finite differences "
                          "and PyTorch.</p>")

    # -- state, title, status ------------------------------------------------------------------

    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self._first_size, self._maximize_when_shown = first_window(self.screen(),
                                                                       self.learning.presentation.is_on)
            self.resize(self._first_size)
        theme = self.settings.value("theme", "light")
        self.set_theme(theme if theme in ("light", "dark") else "light")
        minimap = self.settings.value("minimap", False, type=bool)
        self.minimap_action.setChecked(minimap)
        self.editor.view.set_minimap_visible(minimap)
        self._rebuild_recent_menu()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _remember_recent(self, path: Path) -> None:
        path = str(Path(path).resolve())
        recent = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recentFiles", recent[:MAX_RECENT_FILES])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.triggered.connect(lambda _=False, p=path: self._confirm_discard() and self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.document_name}[*] — {APP_NAME}")  # Qt shows [*] as * while modified
        self.setWindowModified(not self.undo_stack.isClean())

    def _on_status_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    def _show_tab_message(self, panel: QWidget, text: str) -> None:
        """A panel's message: shown now if its tab is on show, else when it is shown next."""
        if self.tabs.currentWidget() is panel:
            self._on_status_message(text)
        else:
            self._tab_messages[panel] = text

    def _on_editor_graph_built(self, _expression: str) -> None:
        # A graph built from an expression is a new graph, not an edit of the example, lesson or file shown
        # before: the title and the save question must not name that one, nor Save overwrite its file.
        self.current_path, self.document_name = None, "Untitled"
        self._update_title()

    def reveal(self, control: QWidget) -> None:
        """Open the panel that gave way to the graph if ``control`` is in it (a lesson points at it)."""
        for give_way in (self.editor.give_way, self.animator.give_way):
            if give_way.reveal(control):
                return

    def _on_editor_status_withdrawn(self, text: str) -> None:
        if self.statusBar().currentMessage() == text:
            self.statusBar().clearMessage()
        if self._tab_messages.get(self.editor) == text:
            del self._tab_messages[self.editor]

    def _on_editor_summary_changed(self, text: str) -> None:
        self._set_tab_summary(self.editor, text)

    def _set_tab_summary(self, panel: QWidget, text: str) -> None:
        self._tab_summaries[panel] = text
        if self.tabs.currentWidget() is panel:
            self.evaluation_label.setText(text)

    def _on_tabs_current_changed(self, index: int) -> None:
        panel = self.tabs.widget(index)
        for action in self.editor_actions:
            action.setEnabled(panel is self.editor)
        self.view_actions.follow_tab(panel)
        self.undo_group.setActiveStack(self._undo_stacks.get(panel))
        self.statusBar().clearMessage()
        self.evaluation_label.setText(self._tab_summaries.get(panel, ""))
        if panel in self._tab_messages:
            self._on_status_message(self._tab_messages.pop(panel))

    def _show_error(self, title: str, message: str) -> None:
        self.statusBar().showMessage(f"{title}: {message}", 8000)
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorDialog")
        box.open()

    def _confirm_discard(self) -> bool:
        """True if the current document may be replaced: it is saved, or the person says so."""
        if self.undo_stack.isClean():
            return True
        answer = self.ask_save_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def ask_save_changes(self) -> QMessageBox.StandardButton:
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        return QMessageBox.question(self, "Unsaved changes",
                                    f"{self.document_name} has changes that are not saved. Save them first?",
                                    buttons, QMessageBox.StandardButton.Save)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._maximize_when_shown:
            self._maximize_when_shown = False
            if self.size() == self._first_size and not self.isFullScreen():
                self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)

    def closeEvent(self, event) -> None:
        if not self._confirm_discard():
            event.ignore()
            return
        self.training.shutdown()  # ends the worker thread before the window goes
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.sync()
        event.accept()
