"""Training setups at the door: every bad file or pasted text refused with one message naming its field,
never a crash and never a tab half changed; every good one restores and saves back the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from playground.files.disk import FileFormatError
from playground.shell.file_kinds import read_any
from playground.training.model.setup_file import SetupFormatError, from_dict, from_text, restore, to_dict, to_text
from tests.json_damage import damaged

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
GOOD = json.loads((CORPUS / "setup-trained-with-points.json").read_text())
BAD_SETUPS = sorted((CORPUS / "setups").iterdir())


@pytest.mark.parametrize("path", BAD_SETUPS, ids=lambda p: p.name)
def test_each_nasty_setup_file_is_refused_with_one_line(path):
    with pytest.raises(FileFormatError) as refused:
        read_any(path)
    message = str(refused.value)
    assert message.startswith(path.name) and "\n" not in message
    assert "Error:" not in message  # a checked refusal, not the catch-all for a loader's slip


@pytest.mark.parametrize("name, words", [
    ("seed-as-text.json", "settings.seed: expected a whole number, got 'x'"),
    ("seed-negative.json", "settings.seed: expected a number ≥ 0, got -1"),
    ("csv-without-data.json", "data: missing"),
    ("huge-integer-points.json", "settings.points: expected a number ≤ 100000, got a number of about 400 digits"),
    ("version-1.0.json", "version: expected a whole number ≥ 1, got 1.0"),
    ("misspelt-format.json", "format 'autograd-playground-training-setpu' is none that Autograd Playground opens"),
    ("optimizer-index-non-ascii-digit.json", "has no parameter '²'"),
    ("deep-nesting.json", "nested too deeply"),
])
def test_the_message_names_the_field(name, words):
    with pytest.raises(FileFormatError) as refused:
        read_any(CORPUS / "setups" / name)
    assert words in str(refused.value)


@pytest.mark.parametrize("text", ["{" + "[" * 50_000, "agp-setup:" + "A" * 100, "agp-setup:!!", "{\"format\": 1}"])
def test_pasted_junk_is_refused_as_a_setup_error(text):
    with pytest.raises(SetupFormatError):
        from_text(text)


@settings(max_examples=150, deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=damaged([GOOD]))
def test_a_damaged_setup_restores_whole_or_is_refused_with_its_message(tmp_path, text):
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8")
    try:
        item = read_any(path)
    except FileFormatError as refused:
        assert "\n" not in str(refused) and "Error:" not in str(refused), str(refused)
        return
    setup = item.content
    session = restore(setup, resolution=8)  # the tab can show it
    assert session.step == setup.step
    saved = to_dict(setup)
    assert to_dict(from_dict(json.loads(json.dumps(saved)))) == saved  # and it saves back the same
    assert to_dict(from_text(to_text(setup))) == saved


def _tab_state(window) -> dict:
    training = window.training
    return {"tab": window.tabs.currentIndex(), "settings": repr(training.settings), "message": training.message,
            "document": json.dumps(window.document.to_dict(), sort_keys=True), "title": window.windowTitle()}


def test_file_open_of_each_bad_setup_shows_its_message_and_changes_nothing(qtbot, tmp_path):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    shown = []
    window.show_error = lambda title, message: shown.append(title)
    before = _tab_state(window)
    for path in BAD_SETUPS:
        assert window.open_path(path) is False
        assert _tab_state(window) == before, path.name
    assert shown == [f"{p.name} could not be opened" for p in BAD_SETUPS]
