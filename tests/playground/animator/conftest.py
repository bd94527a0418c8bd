"""The animator tests' fixtures: `panel`, the backward animator shown at 1200 x 800 with the canvas focused, and
`loaded`, that panel on the hand-traced graph ((a*b)+c)*(a+d); `network`, a snapshot of the training tab's
network after 20 steps on 60 points."""

from __future__ import annotations

import pytest

from playground.animator.panel import AnimatorPanel
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot
from tests.playground.animator_driving import traced


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    panel.view.setFocus()
    return panel


@pytest.fixture
def loaded(panel):
    assert panel.load(traced())
    return panel


@pytest.fixture
def network():
    session = TrainingSession(TrainingSettings(points=60))
    session.train_steps(20)
    return network_snapshot(session.settings, session.state_dict(), session.step, session.data)
