"""Training setups in the main window: File > Save training setup…, Open training setup…, Edit > Copy and
Paste training setup, File > Export > Training as Python (optionally with a PyTorch check). Kept here so
that the main window only calls `install_setup_actions` and opens a setup file like any other.

A setup opened from a file (or saved to one) is that file's until another setup comes: a change on the tab
after it (a setting, a point, a typed weight, Reset, and for a file with its weights a training step) marks
it unsaved (the title's ``*``, "Save changes?" on close), and Ctrl+S on the Training tab saves it to that
file, with its weights if the file had them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..files.disk import failure_reason, write_atomic
from ..training.model.export_script import training_script
from ..training.model.setup_file import SetupFormatError, TrainingSetup, from_text, points_of, save_setup, to_text
from ..widgets.errors import guarded
from ..widgets.file_dialogs import FILE_FOLDER

WITH_WEIGHTS_FILTER = "Training setup with its trained weights (*.json)"
UNTRAINED_FILTER = "Training setup, untrained (*.json)"
PYTHON_FILTER = "Python scripts (*.py)"


# The training tab's requests that change what a setup file holds: always, and for a file with its weights.
CHANGES = ("settings_requested", "points_requested", "values_requested", "point_requested", "parameter_requested",
           "reset_requested", "graph_requested")
TRAINING_CHANGES = ("step_requested", "start_requested")


class SetupActions(QObject):
    file_changed = Signal()  # the setup's file, or whether it has unsaved changes

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.training = window.training
        self.path: Path | None = None  # the setup file the tab's setup came from or was saved to
        self.with_weights = True  # whether that file holds the trained weights
        self.modified = False
        self._opening = False
        for name in CHANGES:
            getattr(self.training, name).connect(self._on_training_changed)
        for name in TRAINING_CHANGES:
            getattr(self.training, name).connect(self._on_training_trained)
        file_menu, export_menu, edit_menu = window.file_menu, window.export_menu, window.edit_menu
        before = export_menu.menuAction()
        self.save_action = self._add(file_menu, "Save &training setup…", "actionSaveTrainingSetup",
                                     self._on_save_triggered, before)
        self.open_action = self._add(file_menu, "Open training set&up…", "actionOpenTrainingSetup",
                                     self._on_open_triggered, before)
        file_menu.insertSeparator(before)
        self._add(export_menu, "Training as Python…", "actionExportTrainingPython", self._on_export_triggered)
        self._add(export_menu, "Training as Python with a PyTorch check…", "actionExportTrainingPythonTorch",
                  self._on_export_torch_triggered)
        edit_menu.addSeparator()
        self.copy_action = self._add(edit_menu, "Copy training setup", "actionCopyTrainingSetup",
                                     self._on_copy_triggered)
        self.paste_action = self._add(edit_menu, "Paste training setup", "actionPasteTrainingSetup",
                                      self._on_paste_triggered)

    def _add(self, menu, text: str, name: str, slot, before: QAction | None = None) -> QAction:
        action = QAction(text, self.window)
        action.setObjectName(name)
        action.triggered.connect(slot)
        if before is None:
            menu.addAction(action)
        else:
            menu.insertAction(before, action)
        return action

    # -- what the actions do (tests call these) ------------------------------------------------------

    def save(self, path: str | Path, with_weights: bool = True) -> bool:
        path = Path(path)
        try:
            save_setup(path, self.training.current_setup(with_weights))
        except TimeoutError as error:
            self.window.show_error(f"{path.name} could not be saved", f"{error}. Your work is kept.")
            return False
        except OSError as error:
            self.window.show_error(f"{path.name} could not be saved",
                                   f"{failure_reason(error, path)}. Your work is kept: it is still open here "
                                   "(and in the autosave).")
            return False
        self.set_file(path, with_weights)
        self._say(f"Saved the training setup{' with its trained weights' if with_weights else ''} to {path}")
        return True

    def save_to_file(self) -> bool:
        """Ctrl+S on the Training tab: the setup to the file it came from (asked for when it has none)."""
        if self.path is None:
            self._on_save_triggered()
            return not self.modified and self.path is not None
        return self.save(self.path, self.with_weights)

    @property
    def name(self) -> str | None:
        return self.path.name if self.path is not None else None

    def set_file(self, path: Path | None, with_weights: bool = True, modified: bool = False) -> None:
        """The setup on the tab is ``path``'s (None: of no file)."""
        self.path, self.with_weights, self.modified = path, with_weights, modified
        self.file_changed.emit()

    def confirm_discard(self) -> bool:
        """True if the setup may go: it is of no file, saved, or the person says so."""
        if self.path is None or not self.modified:
            return True
        answer = self.ask_save_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save(self.path, self.with_weights)
        return answer == QMessageBox.StandardButton.Discard

    def ask_save_changes(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for the training setup's unsaved changes: the window's question (which tests
        answer; a test's stand-in takes no name)."""
        ask = self.window.ask_save_changes
        if getattr(ask, "__self__", None) is self.window:
            return ask(f"The training setup {self.name}")
        return ask()

    def _on_training_changed(self, *_) -> None:
        if self.path is not None and not self.modified and not self._opening:
            self.modified = True
            self.file_changed.emit()

    def _on_training_trained(self, *_) -> None:
        if self.with_weights:
            self._on_training_changed()

    def open(self, setup: TrainingSetup, where: str, path: Path | None = None) -> bool:
        """Show a setup read from a file (``path``) or the clipboard on the Training tab; False if it cannot be
        shown. A setup that trains a graph puts that graph in the editor too (unsaved work there is asked about
        first), and a setup of a file with unsaved changes on the tab is asked about first."""
        if not self.confirm_discard():
            return False
        if setup.graph is not None and self.window.files.confirm_discard():
            self.window.files.set_document(setup.graph.copy(), None, "The graph of a training setup")
        self.window.tabs.setCurrentWidget(self.training)
        self._opening = True
        try:
            self.training.apply_setup(setup)
        finally:
            self._opening = False
        self.set_file(path, setup.has_weights or path is None)
        trained = f", step {setup.step}" if setup.has_weights else ""
        self._say(f"Opened the training setup from {where} ({setup.settings.architecture()}{trained})")
        return True

    def copy_setup(self) -> str:
        """Put the setup (with its trained weights) on the clipboard as one line of text; returns it."""
        text = to_text(self.training.current_setup(True))
        QGuiApplication.clipboard().setText(text)
        self._say(f"Copied the training setup ({len(text):,} characters): paste it in a message, "
                  "then Edit > Paste training setup")
        return text

    def paste_setup(self) -> bool:
        text = QGuiApplication.clipboard().text()
        try:
            setup = from_text(text)
        except SetupFormatError as error:
            self.window.show_error("The training setup could not be pasted", f"{error}. The tab is unchanged.")
            return False
        return self.open(setup, "the clipboard")

    def export_script(self, path: str | Path, use_torch: bool = False) -> bool:
        path = Path(path)
        setup = self.training.current_setup(False)
        data = points_of(setup)
        try:
            write_atomic(path, training_script(setup.settings, data, use_torch, setup.graph))
        except OSError as error:
            self.window.show_error(f"{path.name} could not be written", failure_reason(error, path))
            return False
        self._say(f"Wrote {path}: run it with the project's Python to take the run again")
        return True

    # -- dialogs -----------------------------------------------------------------------------------------

    def _folder(self) -> str:
        return str(self.window.files.start_folder())

    @guarded
    def _on_save_triggered(self, _checked: bool = False) -> None:
        path, chosen = QFileDialog.getSaveFileName(self.window, "Save training setup",
                                                   str(Path(self._folder()) / "training.json"),
                                                   f"{WITH_WEIGHTS_FILTER};;{UNTRAINED_FILTER}")
        if path:
            FILE_FOLDER.remember(path)
            self.save(path, with_weights=chosen != UNTRAINED_FILTER)

    @guarded
    def _on_open_triggered(self, _checked: bool = False) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, "Open training setup", self._folder(),
                                              "Training setups (*.json);;All files (*)")
        if path:
            self.window.open_path(path)

    @guarded
    def _on_export_triggered(self, _checked: bool = False, use_torch: bool = False) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Export training as Python",
                                              str(Path(self._folder()) / "training.py"), PYTHON_FILTER)
        if path:
            FILE_FOLDER.remember(path)
            self.export_script(path, use_torch)

    @guarded
    def _on_export_torch_triggered(self, _checked: bool = False) -> None:
        self._on_export_triggered(use_torch=True)

    @guarded
    def _on_copy_triggered(self, _checked: bool = False) -> None:
        self.copy_setup()

    @guarded
    def _on_paste_triggered(self, _checked: bool = False) -> None:
        self.paste_setup()

    def _recover(self, error: Exception) -> None:
        """Nothing to put right: an action either finished or changed nothing (the error was shown)."""

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)


def install_setup_actions(window) -> SetupActions:
    return SetupActions(window)
