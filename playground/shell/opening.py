"""Opening a file of any kind the app knows, from File > Open, Open recent or the command line: its kind is
told by its content (`file_kinds.read_any`), and it opens in its place: a graph in the editor, a training
setup in the training tab, a lesson in the Learn panel. A file that cannot be read is refused with a message
and changes nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow

from ..files.disk import FileFormatError, without_file_name
from ..learn.model.lesson import LessonFormatError
from ..widgets.file_dialogs import FILE_FOLDER
from .file_kinds import ReadFile, read_any

OPEN_FILTER = ("Autograd Playground files (*.json *.lesson);;Graphs and training setups (*.json);;Lessons (*.lesson);;"
               "All files (*)")


class FileOpener(QObject):
    def __init__(self, window: QMainWindow):
        """``window`` is the main window: its `DocumentFiles`, training setups, Learn dock and recent files."""
        super().__init__(window)
        self.window = window

    def open_path(self, path: str | Path) -> bool:
        path = Path(path)
        try:
            item = read_any(path)
        except (OSError, FileFormatError) as error:
            self.window.show_error(f"{path.name} could not be opened", without_file_name(str(error), path.name))
            return False
        return self.open_read_file(item)

    def open_read_file(self, item: ReadFile) -> bool:
        """Show a file already read (`file_kinds.read_any`) in its place."""
        window = self.window
        if item.kind == "graph":
            window.files.set_document(item.content, item.path, item.path.name)
            window.tabs.setCurrentWidget(window.editor)
        elif item.kind == "setup":
            if not window.training_setups.open(item.content, item.path.name, item.path):
                return False
        elif item.kind == "lesson":
            try:
                window.learning.open_lesson(item.content)
            except LessonFormatError as error:
                window.show_error(f"{item.path.name} could not be opened",
                                  without_file_name(str(error), item.path.name))
                return False
        window.recent.remember(item.path)
        FILE_FOLDER.remember(item.path)  # from a dialog, the recent list or the command line alike
        window.statusBar().showMessage(f"Opened {item.path}", 5000)
        return True

    def on_open_triggered(self, _checked: bool = False) -> None:
        if not self.window.files.confirm_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self.window, "Open", str(self.window.files.start_folder()), OPEN_FILTER)
        if path:
            self.open_path(path)
