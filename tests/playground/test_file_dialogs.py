"""Every file dialog opens in one remembered folder: the last one a file was opened from, saved to or exported
into, of any kind, kept in the settings for the next start (issue 30, item 9)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from playground.widgets import file_dialogs
from playground.widgets.file_dialogs import FileFolder


class Dialogs:
    """QFileDialog's static functions, answering as a person would and noting the folder each opened in."""

    def __init__(self, monkeypatch):
        self.opened_in: list[str] = []
        self.answer = ""
        monkeypatch.setattr(QFileDialog, "getSaveFileName", self._file)
        monkeypatch.setattr(QFileDialog, "getOpenFileName", self._file)
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", self._folder)

    def _file(self, _parent, _title, start, _filters=""):
        self.opened_in.append(start)
        return self.answer, ""

    def _folder(self, _parent, _title, start):
        self.opened_in.append(start)
        return self.answer


@pytest.fixture
def dialogs(monkeypatch):
    return Dialogs(monkeypatch)


def test_the_next_dialog_of_any_kind_opens_where_the_last_file_went(qapp, dialogs, tmp_path):
    folder = FileFolder()
    assert folder.folder() == Path.home()
    dialogs.answer = str(tmp_path / "plots" / "loss.png")
    (tmp_path / "plots").mkdir()
    assert folder.ask_save_path(None, "Export the loss plot", "loss.png", "PNG (*.png)") == dialogs.answer
    assert dialogs.opened_in[-1] == str(Path.home() / "loss.png")
    dialogs.answer = ""  # cancelled: the folder stays
    assert folder.ask_open_path(None, "Open a lesson", "Lessons (*.lesson)") == ""
    assert dialogs.opened_in[-1] == str(tmp_path / "plots")
    dialogs.answer = str(tmp_path)
    folder.ask_folder(None, "Export one PNG per step into a folder")
    assert folder.folder() == tmp_path
    dialogs.answer = ""
    assert folder.ask_save_path(None, "Export", "weights.json", "JSON (*.json)") == ""
    assert dialogs.opened_in[-1] == str(tmp_path / "weights.json")


def test_the_folder_is_kept_for_the_next_start_while_it_is_there(qapp, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    first = FileFolder()
    first.remember_in(settings)
    (tmp_path / "class").mkdir()
    first.remember(tmp_path / "class" / "graph.json")
    settings.sync()
    again = FileFolder()
    again.remember_in(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    assert again.folder() == tmp_path / "class"
    (tmp_path / "class").rmdir()  # a folder since removed: home, not a dialog in nowhere
    assert again.folder() == Path.home()


def test_the_panels_dialogs_share_the_apps_folder(qtbot, dialogs, tmp_path, monkeypatch):
    from playground.training.panel import TrainingPanel

    monkeypatch.setattr(file_dialogs, "FILE_FOLDER", FileFolder())
    monkeypatch.setattr("playground.training.toolbar.FILE_FOLDER", file_dialogs.FILE_FOLDER)
    monkeypatch.setattr("playground.training.data_controls.FILE_FOLDER", file_dialogs.FILE_FOLDER)
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.data is not None, timeout=10_000)
    dialogs.answer = str(tmp_path / "points.csv")
    panel.toolbar._on_export_dataset_triggered()
    assert (tmp_path / "points.csv").exists()
    dialogs.answer = ""
    panel.data_controls._on_load_csv_button_clicked()  # Load points… opens where the points were exported
    assert dialogs.opened_in[-1] == str(tmp_path)
    panel.shutdown()


def test_the_windows_dialogs_open_where_any_file_last_went_and_again_at_the_next_start(qtbot, window, dialogs,
                                                                                       tmp_path):
    from playground.shell.main_window import MainWindow

    exported, opened = tmp_path / "exports", tmp_path / "class"
    exported.mkdir()
    opened.mkdir()
    qtbot.waitUntil(lambda: window.training.data is not None, timeout=10_000)
    dialogs.answer = str(exported / "points.csv")
    window.training.toolbar._on_export_dataset_triggered()  # the training tab's Export > Dataset as CSV
    dialogs.answer = ""
    window.opener.on_open_triggered()  # File > Open… opens where the points went
    assert dialogs.opened_in[-1] == str(exported)

    window.files.save_to(opened / "graph.json")  # a graph saved (or opened from the recent list) elsewhere
    window.open_path(opened / "graph.json")
    window.exports.on_export_code_triggered(use_torch=False)  # File > Export > Python opens there
    assert dialogs.opened_in[-1] == str(opened / "graph.py")

    window.settings.sync()
    again = MainWindow(QSettings(window.settings.fileName(), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    assert again.files.start_folder() == opened
    again.training.shutdown()
