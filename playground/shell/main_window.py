"""The main window: the three panels in tabs around one graph document, the Learn dock beside them, and the
menus. It composes; the work is done in rooms of its own: the graph's file (`document_files`), opening any
file kind (`opening`), exports (`graph_exports`), the menus (`menus`, `view_menu`, `help_menu`), the status
bar of each tab (`tab_status`), presentation mode (`presentation`), the Learn dock (`learn_dock`) and the
training setups' actions (`training_setups`).

Its public methods are the shell's interface, which the Learn panel's driver, the command line and
`playground.show` use to drive the panels; they never reach into a panel's widgets through it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, Signal
from PySide6.QtGui import QUndoGroup, QUndoStack
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox, QWidget

from ..animator.panel import AnimatorPanel
from ..editor.panel import EditorPanel
from ..graph.document import GraphDocument
from ..training.panel import TrainingPanel
from ..training.play_key import PlayPauseKey
from ..widgets.file_dialogs import FILE_FOLDER
from ..widgets.wheel_guard import install_wheel_guard
from .actions import add_action
from .dock_share import DockShare
from .document_files import DocumentFiles
from .file_kinds import ReadFile
from .graph_exports import GraphExports
from .graph_training import GraphTrainingLink
from .help_menu import build_help_menu
from .learn_dock import install_learning
from .menus import build_edit_menu, build_file_menu
from .opening import FileOpener
from .panel_tabs import PanelTabs
from .presentation import Presentation
from .recent_files import RecentFiles
from .tab_status import TabStatus
from .theme import THEMES, apply_theme, system_theme
from .training_setups import install_setup_actions
from .view_menu import ViewMenu
from .window_size import first_window


class MainWindow(QMainWindow):
    """Top-level window: the editor and the other panels in tabs, menus, a status bar."""

    closed_cleanly = Signal()  # the window closed as asked, its work saved or let go

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.settings = settings if settings is not None else QSettings()
        install_wheel_guard()  # before the panels are made: the wheel scrolls them, it edits only what has focus
        FILE_FOLDER.remember_in(self.settings)  # every file dialog opens in the folder last used, kept between runs
        self._first_size, self._maximize_when_shown = QSize(), False

        self.document = GraphDocument()
        self.undo_stack = QUndoStack(self)
        self.editor = EditorPanel(self.document, self.undo_stack)
        self.tabs = PanelTabs()  # a panel larger than the window scrolls in its tab
        self.tabs.setObjectName("mainTabs")
        self.animator = AnimatorPanel()
        self.animator.follow(self.document)  # editing the graph resets the animation to the new graph
        self.training = TrainingPanel()
        self.training_play_key = PlayPauseKey(self.training, self.training.toolbar.play_button)
        self.tabs.addTab(self.editor, "Graph editor")
        self.tabs.addTab(self.animator, "Backward animator")
        self.tabs.addTab(self.training, "Training")
        self.setCentralWidget(self.tabs)

        self.status = TabStatus(self, self.tabs)
        self.files = DocumentFiles(self)
        self.opener = FileOpener(self)
        self.exports = GraphExports(self, self.files)
        # Edit > Undo and Redo act on the stack of the tab shown (the animator has none: they are disabled).
        self.undo_group = QUndoGroup(self)
        self._undo_stacks = {self.editor: self.undo_stack, self.training: self.training.undo_stack}
        for stack in self._undo_stacks.values():
            self.undo_group.addStack(stack)
        self.undo_group.setActiveStack(self.undo_stack)
        self._connect_panels()

        file_menu = build_file_menu(self)
        self.file_menu, self.examples_menu = file_menu.menu, file_menu.examples
        self.recent_menu, self.export_menu = file_menu.recent, file_menu.export
        self.recent = RecentFiles(self.settings, self.recent_menu,
                                  lambda path: self.files.confirm_discard() and self.open_path(path), self)
        self.edit_menu, self.editor_actions = build_edit_menu(self, self.undo_group)
        self.view_actions = ViewMenu(self)  # Fit and Zoom act on the tab's graph; the panels; minimap; theme
        self.view_menu, self.minimap_action = self.view_actions.menu, self.view_actions.minimap_action
        self.theme_group = self.view_actions.theme_group
        self.editor_actions.append(self.view_actions.auto_layout_action)
        self.help_menu = build_help_menu(self)

        self.learning = install_learning(self)  # the Learn dock, File > Open lesson…, View > Learn panel
        self.presentation = Presentation(self, self.settings)  # after the dock, whose font it sets too
        self.view_menu.addAction(self.presentation.action)
        self.view_menu.addMenu(self.presentation.zoom_menu)
        self.view_menu.addAction(self.presentation.full_screen_action)
        self.dock_share = DockShare(self, self.learning.dock)  # the Learn dock leaves the tabs most of the width
        self.training_setups = install_setup_actions(self)  # save, open, copy, paste, export training setups
        self.training_setups.file_changed.connect(self.files.update_title)
        self.graph_link = GraphTrainingLink(self)  # the editor's graph trained in the training tab
        self._install_reset_question()
        self._restore_settings()
        self.files.open_example("neuron.json")
        self.statusBar().showMessage("Ready")

    def _connect_panels(self) -> None:
        status, editor = self.status, self.editor
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        editor.status_message.connect(lambda text: status.show_panel_message(editor, text))
        editor.status_withdrawn.connect(lambda text: status.withdraw_panel_message(editor, text))
        editor.summary_changed.connect(lambda text: status.set_summary(editor, text))
        editor.graph_built.connect(lambda _expression: self.files.forget_file())
        editor.animate_backward_requested.connect(self.animate_backward)
        self.animator.status_message.connect(lambda text: status.show_panel_message(self.animator, text))
        self.training.message_shown.connect(lambda text: status.show_panel_message(self.training, text))
        self.training.summary_changed.connect(lambda text: status.set_summary(self.training, text))
        self.training.animate_backward_requested.connect(self.animate_network)
        self.animator.network_requested.connect(self._load_network_into_animator)
        self.animator.concealment_changed.connect(editor.conceal)  # a quiz hides its answers in both tabs
        # The window receives it (not `files`), so that nothing reaches the title while the window is destroyed.
        self.undo_stack.cleanChanged.connect(self._on_undo_stack_clean_changed)

    def _install_reset_question(self) -> None:
        """The training tab's "Don't ask again" is remembered, and Edit > Ask before resetting a trained network
        is the way to ask again."""
        confirmation = self.training.reset_confirmation
        confirmation.remember_in(self.settings)
        self.ask_before_reset_action = add_action(self, self.edit_menu, "Ask before resetting a trained network",
                                                  confirmation.set_asks, None, "actionAskBeforeReset")
        self.ask_before_reset_action.setCheckable(True)
        self.ask_before_reset_action.setChecked(confirmation.asks)
        confirmation.asks_changed.connect(self.ask_before_reset_action.setChecked)

    # -- the shell's interface ---------------------------------------------------------------------

    @property
    def document_name(self) -> str:
        """The graph's name in the title: its file's, or "neuron (example)", "… (lesson)", "Untitled"."""
        return self.files.name

    @property
    def current_path(self) -> Path | None:
        """The file the editor's graph was opened from or saved to (None: not a file)."""
        return self.files.current_path

    def open_path(self, path: str | Path) -> bool:
        """Open a file of any kind the app knows where it belongs (a graph in the editor, ...);
        a file that cannot be read is refused with a message and changes nothing."""
        return self.opener.open_path(path)

    def open_read_file(self, item: ReadFile) -> bool:
        """Show a file already read (`file_kinds.read_any`) in its place."""
        return self.opener.open_read_file(item)

    def open_lesson_graph(self, document: GraphDocument, lesson: str) -> bool:
        """Show a lesson step's graph in the editor (unsaved work of one's own is asked about first)."""
        return self.files.open_lesson_graph(document, lesson)

    def show_document_from_python(self, document: GraphDocument, title: str, result=None) -> None:
        """Show a graph built from an engine result (`playground.show`) in the editor; a Tensor loss
        ``result`` is replayed in the backward animator too, a tab away."""
        self.files.set_document(document, None, title)
        if result is not None:
            self.animator.load_tensor_result(result)
        self.tabs.setCurrentWidget(self.editor)

    def show_tensor_from_python(self, result) -> bool:
        """Show a scalar tensor result's graph (`playground.show`) in the backward animator."""
        self.tabs.setCurrentWidget(self.animator)
        return self.animator.load_tensor_result(result)

    def animate_backward(self) -> None:
        """Open the backward animator on the editor's graph, at its start."""
        self.tabs.setCurrentWidget(self.animator)
        self.animator.load(self.document)
        self.animator.view.setFocus(Qt.FocusReason.OtherFocusReason)  # the keys step the graph, from the keyboard too

    def animate_network(self) -> None:
        """Open the backward animator on the training panel's network, one batch, at tensor level."""
        if self._load_network_into_animator():
            self.tabs.setCurrentWidget(self.animator)
            self.animator.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def reveal(self, control: QWidget) -> None:
        """Open the panel that gave way to the graph, or the training settings folded away, if ``control`` is
        in it (a lesson points at it)."""
        for give_way in (self.editor.give_way, self.animator.give_way, self.training.body):
            if give_way.reveal(control):
                return

    def set_theme(self, theme: str) -> None:
        apply_theme(QApplication.instance(), theme)
        self.editor.scene.set_theme(theme)
        self.animator.set_theme(theme)  # the training panel follows the app's palette itself
        for action in self.theme_group.actions():
            action.setChecked(action.data() == theme)
        self.settings.setValue("theme", theme)

    def set_minimap_visible(self, visible: bool) -> None:
        self.minimap_action.setChecked(visible)
        self.editor.view.set_minimap_visible(visible)
        self.settings.setValue("minimap", visible)

    def show_error(self, title: str, message: str) -> None:
        """A file or export that failed: said in the status bar and in a box (tests may answer it)."""
        self.statusBar().showMessage(f"{title}: {message}", 8000)
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("errorDialog")
        box.open()

    def save_current(self, _checked: bool = False) -> bool:
        """File > Save (Ctrl+S): on the Training tab, a setup opened from a file (or saved to one) goes back to
        that file; elsewhere the editor's graph goes to its file (Save as when it has none)."""
        if self.tabs.currentWidget() is self.training and self.training_setups.path is not None:
            return self.training_setups.save_to_file()
        return self.files.save()

    def confirm_discard(self) -> bool:
        """True if the work shown may go (the window closes): the graph and a training setup of a file are
        saved, or the person says so for each."""
        return self.files.confirm_discard() and self.training_setups.confirm_discard()

    def ask_save_changes(self, name: str | None = None) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for the unsaved changes of the graph (or of ``name``, the training setup's
        file) (tests may answer it)."""
        buttons = (QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                   | QMessageBox.StandardButton.Cancel)
        return QMessageBox.question(self, "Unsaved changes",
                                    f"{name or self.files.name} has changes that are not saved. Save them first?",
                                    buttons, QMessageBox.StandardButton.Save)

    # -- what happens ------------------------------------------------------------------------------

    def _load_network_into_animator(self) -> bool:
        snapshot = self.training.network_snapshot()
        if snapshot is None:
            self.statusBar().showMessage("The training panel has no network yet: open the Training tab first", 6000)
            return False
        self.animator.forward.count_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y,
                                            snapshot.description)
        return self.animator.load_network(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y,
                                          snapshot.description)

    def _on_undo_stack_clean_changed(self, _clean: bool) -> None:
        self.files.update_title()

    def _on_tabs_current_changed(self, index: int) -> None:
        panel = self.tabs.widget(index)
        for action in self.editor_actions:
            action.setEnabled(panel is self.editor)
        self.view_actions.follow_tab(panel)
        self.undo_group.setActiveStack(self._undo_stacks.get(panel))
        self.status.tab_shown(panel)

    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self._first_size, self._maximize_when_shown = first_window(self.screen(), self.presentation.is_on)
            self.resize(self._first_size)
        theme = self.settings.value("theme")  # none at the first start: the system's dark or light setting
        self.set_theme(theme if theme in THEMES else system_theme())
        minimap = self.settings.value("minimap", False, type=bool)
        self.minimap_action.setChecked(minimap)
        self.editor.view.set_minimap_visible(minimap)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._maximize_when_shown:
            self._maximize_when_shown = False
            if self.size() == self._first_size and not self.isFullScreen():
                self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)

    def closeEvent(self, event) -> None:
        if not self.confirm_discard():
            event.ignore()
            return
        self.training.shutdown()  # ends the worker thread before the window goes
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.sync()
        event.accept()
        self.closed_cleanly.emit()  # the autosave's set goes: nothing is left to recover
