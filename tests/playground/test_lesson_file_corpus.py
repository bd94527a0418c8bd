"""Lesson files at the door: the nastiest found (digits of other scripts, nesting past the parser,
numbers past Python's digit limit) refused with the line and the reason; a byte-order mark is no reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground.files.disk import FileFormatError
from playground.learn.model.lesson import LessonFormatError, load_lesson
from playground.shell.file_kinds import read_any

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"
BAD_LESSONS = sorted((CORPUS / "lessons").iterdir())


@pytest.mark.parametrize("path", BAD_LESSONS, ids=lambda p: p.name)
def test_each_nasty_lesson_is_refused_with_its_line(path):
    with pytest.raises(FileFormatError) as refused:
        read_any(path)
    assert str(refused.value).startswith(f"{path.name}, line ") and "\n" not in str(refused.value)
    with pytest.raises(LessonFormatError):
        load_lesson(path)  # File > Open lesson reads it the same way


@pytest.mark.parametrize("name, words", [
    ("version-in-other-digits.lesson", "line 1: the first line should be 'autograd-playground-lesson <version>'"),
    ("animator-step-in-other-digits.lesson", "not 'step ١'"),
    ("graph-nested-too-deeply.lesson", "too many nested parentheses"),
    ("huge-number-in-graph.lesson", "this number is too large"),
])
def test_the_message_says_what_is_wrong(name, words):
    with pytest.raises(FileFormatError, match=".") as refused:
        read_any(CORPUS / "lessons" / name)
    assert words in str(refused.value)


def test_a_byte_order_mark_before_a_good_lesson_is_no_reason_to_refuse_it():
    for lesson in (read_any(CORPUS / "lesson-with-byte-order-mark.lesson").content,
                   load_lesson(CORPUS / "lesson-with-byte-order-mark.lesson")):
        assert lesson.title and len(lesson.steps) > 3


def test_file_open_of_each_bad_lesson_shows_its_message_and_changes_nothing(qtbot, tmp_path):
    import json

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    shown = []
    window.show_error = lambda title, message: shown.append(title)
    panel = window.learning.panel

    def state():
        return (panel.lesson, panel.run.index if panel.run else None, [lesson.id for lesson in panel.lessons],
                json.dumps(window.document.to_dict(), sort_keys=True), window.tabs.currentIndex(),
                window.windowTitle())

    before = state()
    for path in BAD_LESSONS:
        assert window.open_path(path) is False
        assert state() == before, path.name
    assert shown == [f"{p.name} could not be opened" for p in BAD_LESSONS]


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "resources" / "lessons").glob("*.lesson"))


@settings(max_examples=150, deadline=3000, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(path=st.sampled_from(SHIPPED), data=st.data())
def test_a_lesson_with_characters_changed_anywhere_parses_and_runs_or_is_refused_with_a_line(path, data):
    from playground.learn.model.lesson import parse_lesson
    from playground.learn.model.runner import LessonRun

    text = path.read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        new = data.draw(st.one_of(st.characters(codec="utf-8"), st.sampled_from(["²", "١", "\ufeff", "{", "$", "\n"]),
                                  st.text(max_size=6)))
        text = text[:at] + new + text[at + data.draw(st.integers(0, 3)):]
    try:
        lesson = parse_lesson(text)
    except LessonFormatError as error:
        assert error.line is None or 1 <= error.line <= text.count("\n") + 2
        return
    for index in range(len(lesson.steps)):  # whatever parses can be shown
        run = LessonRun(lesson)
        run.go(index)
        run.html()


def test_a_line_break_inside_braces_is_text_not_a_number_to_look_up():
    """Found by the test above: U+001E is a line break to str.splitlines, so "{\\x1einear 1.grad.sum(0)}" was
    checked as two lines with no number in them, and looked up as 'inear 1' when the step was drawn."""
    from playground.learn.model.lesson import parse_lesson
    from playground.learn.model.runner import LessonRun

    text = next(path for path in SHIPPED if path.stem == "06-tensors").read_text(encoding="utf-8")
    lesson = parse_lesson(text.replace("{Linear 1.grad.sum(0)}", "{\x1einear 1.grad.sum(0)}", 1))
    for index in range(len(lesson.steps)):
        run = LessonRun(lesson)
        run.go(index)
        run.html()
