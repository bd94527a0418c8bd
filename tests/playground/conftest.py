"""Fixtures shared by the playground's tests. `panel`: the training panel as the tests of its controls take it,
shown at 1300 x 820, its first picture drawn, its worker stopped afterwards (a test file with a `panel`
fixture of its own, such as the animator's, uses its own)."""

from __future__ import annotations

import pytest

from playground.training.panel import TrainingPanel

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
