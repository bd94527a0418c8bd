"""Fixtures shared by the playground's tests. `panel`: the training panel as the tests of its controls take it,
shown at 1300 x 820, its first picture drawn, its worker stopped afterwards; `window`: the app's main window
with settings of its own (a test file with a fixture of the same name, such as the animator's `panel`,
uses its own)."""

from __future__ import annotations

import pytest

from playground.training.panel import TrainingPanel
from tests.playground.app_window import open_window

WAIT = 20_000  # ms: the worker's first picture on a busy machine


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.resize(1300, 820)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
    yield panel
    panel.shutdown()


@pytest.fixture
def window(qtbot, tmp_path):
    """`open_window` at 1500 x 900; training paused at the end (test files with a window of their own define
    theirs)."""
    window = open_window(qtbot, tmp_path)
    yield window
    window.training.pause()
