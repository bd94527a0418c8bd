"""The editor's graph as a file: which file it is (or the example, lesson or new graph it came from), its
name in the window's title with a mark while it has unsaved changes, and the ways it is replaced or written:
File > New, Open example, a lesson's graph, Save, Save as. Work not saved is asked about before it goes."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from ..files.disk import failure_reason
from ..files.paths import EXAMPLES
from ..graph.document import DocumentFormatError, GraphDocument
from ..graph.file_io import load_document, save_document
from ..widgets.file_dialogs import FILE_FOLDER
from .names import APP_NAME

GRAPH_FILTER = "Autograd Playground graphs (*.json);;All files (*)"
LESSON_SUFFIX = " (lesson)"


def example_index() -> list[dict]:
    """The examples shown under File > Open example, in menu order."""
    try:
        return json.loads((EXAMPLES / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return [{"file": p.name, "title": p.stem.replace("_", " "), "description": ""}
                for p in sorted(EXAMPLES.glob("*.json")) if p.name != "index.json"]


class DocumentFiles(QObject):
    def __init__(self, window: QMainWindow):
        """``window`` is the main window: its document, undo stack, editor and recent files, its title and
        status bar, and its two questions (`ask_save_changes`, `show_error`) that tests may answer."""
        super().__init__(window)
        self.window = window
        self.current_path: Path | None = None
        self.name = "Untitled"
        self.lesson: str | None = None  # the title of the lesson running, whatever graph the editor holds

    @property
    def is_clean(self) -> bool:
        """The graph is as it was saved: the undo stack at its clean index, or only steps that change no document
        between the two (the editor showing the trained network's values or the drawn ones: `ShowNumbersCommand`)."""
        stack = self.window.undo_stack
        if stack.isClean():
            return True
        clean, index = stack.cleanIndex(), stack.index()
        if clean < 0:
            return False
        return all(not getattr(stack.command(i), "changes_document", True) for i in range(min(clean, index),
                                                                                          max(clean, index)))

    def set_document(self, document: GraphDocument, path: Path | None, name: str) -> None:
        """Show ``document`` in the editor as the file ``path`` (None: not a file yet) called ``name``."""
        window = self.window
        window.document.replace_with(document)
        window.undo_stack.clear()
        window.undo_stack.setClean()
        self.current_path, self.name = path, name
        window.editor.refresh()
        window.editor.view.fit()
        self.update_title()

    def new_document(self) -> None:
        if self.confirm_discard():
            self.set_document(GraphDocument(), None, "Untitled")

    def open_example(self, file_name: str) -> bool:
        try:
            document = load_document(EXAMPLES / file_name)
        except (OSError, DocumentFormatError) as error:
            self.window.show_error("The example could not be opened", str(error))
            return False
        self.set_document(document, None, f"{Path(file_name).stem.replace('_', ' ')} (example)")
        return True

    def open_lesson_graph(self, document: GraphDocument, lesson: str) -> bool:
        """Show a lesson step's graph, as an example is shown; unsaved work of one's own is asked about first
        (a lesson's graph, edited or not, is the lesson's)."""
        if not self.name.endswith(LESSON_SUFFIX) and not self.confirm_discard():
            return False
        self.set_document(document, None, f"{lesson}{LESSON_SUFFIX}")
        return True

    def forget_file(self) -> None:
        """The graph shown is a new one (built from an expression), not an edit of the example, lesson or file
        shown before: the title and the save question must not name that one, nor Save overwrite its file."""
        self.current_path, self.name = None, "Untitled"
        self.update_title()

    def save(self) -> bool:
        if self.current_path is None:
            return self.save_as()
        return self.save_to(self.current_path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.window, "Save graph", str(self.start_folder() / "graph.json"),
                                              GRAPH_FILTER)
        return bool(path) and self.save_to(Path(path))

    def save_to(self, path: str | Path) -> bool:
        path = Path(path)
        try:
            save_document(path, self.window.document)
        except OSError as error:
            self.window.show_error(f"{path.name} could not be saved",
                                   f"{failure_reason(error, path)}. Your work is kept: it is still open here "
                                   "(and in the autosave); save it elsewhere with File > Save as.")
            return False
        except DocumentFormatError as error:  # past a graph file's limits: it would not open again
            self.window.show_error(f"{path.name} could not be saved",
                                   f"{error}. File > Export > Python code keeps a graph of any size.")
            return False
        self.current_path, self.name = path, path.name
        self.window.undo_stack.setClean()
        self.window.recent.remember(path)
        FILE_FOLDER.remember(path)
        self.update_title()
        self.window.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def start_folder(self) -> Path:
        """Where a file dialog opens: the one folder every dialog of the app remembers (the last one a file
        was opened from, saved to or exported into), else the home folder."""
        return FILE_FOLDER.folder()

    def confirm_discard(self) -> bool:
        """True if the graph shown may be replaced: it is saved, or the person says so."""
        if self.is_clean:
            return True
        answer = self.window.ask_save_changes()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def show_lesson(self, title: str | None) -> None:
        """A lesson (None: none any more) is shown: the title names it, also while its steps keep the graph an
        earlier lesson loaded (lessons 6 and 7 show the network and the training tab, not a graph of their own)."""
        self.lesson = title
        self.update_title()

    def update_title(self) -> None:
        """The graph's name (after the lesson's, when the editor still holds an earlier lesson's graph), and the
        training setup's file when the tab's setup is one's, with the ``*`` that Qt shows for ``[*]`` while
        either has changes not saved."""
        setups = getattr(self.window, "training_setups", None)  # made after this room
        setup_name = setups.name if setups is not None else None
        setup_modified = setups is not None and setups.modified
        shown = f"{self.name} · training setup {setup_name}" if setup_name else self.name
        shown = f"{shown}[*]"  # Qt shows [*] as * while modified
        if self.lesson is not None and self.name != f"{self.lesson}{LESSON_SUFFIX}":
            shown = f"{self.lesson}{LESSON_SUFFIX}, editor: {shown}"
        self.window.setWindowTitle(f"{shown} — {APP_NAME}")
        self.window.setWindowModified(not self.is_clean or setup_modified)

    def mark_unsaved(self) -> None:
        """The graph shown has changes that are in no file (recovered from the autosave): the title's ``*`` and
        the question before it goes say so, though the undo stack starts empty."""
        self.window.undo_stack.resetClean()
        self.update_title()
