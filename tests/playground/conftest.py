"""Fixtures shared by the playground's tests. `panel`: the training panel as the tests of its controls take it,
shown at 1300 x 820, its first picture drawn, its worker stopped afterwards; `window`: the app's main window
with settings of its own (a test file with a fixture of the same name, such as the animator's `panel`,
uses its own)."""

from __future__ import annotations

import pytest

from tests.playground.app_window import open_window, shown_panel


@pytest.fixture
def panel(qtbot):
    yield from shown_panel(qtbot)


@pytest.fixture
def window(qtbot, tmp_path):
    """`open_window` at 1500 x 900; training paused at the end (test files with a window of their own define
    theirs)."""
    window = open_window(qtbot, tmp_path)
    yield window
    window.training.pause()
