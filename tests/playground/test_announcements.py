"""Issue 32, item 1 (WCAG 4.1.3): what changes and matters reaches a screen reader as an announcement, not only
as painted text: the animator's new step, the lesson's verdict on an answer (in words, where ✓ and ✗ show),
Predict mode's verdict, and a refusal in the status bar. A test watches `spoken._send`, the one door to the
accessibility bridge."""

from __future__ import annotations

import pytest

from playground.widgets import spoken
from tests.playground.app_window import open_window


@pytest.fixture
def window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path)
    yield window
    window.training.pause()


@pytest.fixture
def said(monkeypatch):
    """What the screen reader is told: (the widget it comes from, the words)."""
    sent = []
    monkeypatch.setattr(spoken, "_send", lambda event: sent.append((event.object(), event.message())))
    monkeypatch.setattr(spoken, "_last", ("", 0.0))
    return sent


def test_each_new_step_of_the_animator_is_announced_from_what_shows_it(window, qtbot, said):
    animator = window.animator
    window.animate_backward()  # "Step 0 of 20 ...": said; then nothing for a moment
    qtbot.waitUntil(lambda: not animator.caption._pace.isActive(), timeout=5000)
    said.clear()
    animator.step_forward()
    assert len(said) == 1
    source, words = said[0]
    assert source.isVisible() and words == animator.caption.text() and words.startswith("Step 1")
    for _ in range(3):  # faster than a reader can say them: the last is said once the steps pause
        animator.step_forward()
    assert len(said) == 1
    qtbot.waitUntil(lambda: len(said) == 2, timeout=3000)
    assert said[1][1].startswith("Step 4") and said[1][1] == animator.caption.text()
    qtbot.wait(1700)
    assert len(said) == 2  # each step said once


def test_the_lessons_verdict_is_announced_in_words(window, qtbot, said):
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    panel.next()
    said.clear()
    assert not panel.answer("5")
    assert said[-1][0] is panel.feedback and said[-1][1].startswith("Not right: 5 is a + b")
    assert panel.feedback.accessibleName() == said[-1][1] and "✗" in panel.feedback.text()
    assert panel.answer("6")
    assert (panel.feedback, "Right.") in said  # then the animator shows the step answered, and says it


def test_predict_modes_verdict_is_announced_in_words(window, qtbot, said):
    animator = window.animator
    window.animate_backward()
    animator.set_predict(True)
    while animator.predict.pending is None and animator.step_forward():
        pass
    assert animator.predict.pending is not None
    said.clear()
    assert animator.predict.answer("123456")  # not what the step carries
    feedback = animator.predict.feedback
    assert (feedback, feedback.accessibleName()) in said and feedback.accessibleName().startswith("Not quite: 123456")


def test_a_refusal_in_the_status_bar_is_announced_and_named(window, tmp_path, said):
    path = tmp_path / "bad.json"
    path.write_text('{"hello": "world"}')
    assert not window.open_path(path)
    bar = window.statusBar()
    words = bar.currentMessage()
    assert "not an Autograd Playground graph" in words
    assert (bar, words) in said and bar.accessibleName() == f"Status: {words}"


def test_the_same_words_from_two_places_at_once_are_said_once(window, said):
    window.tabs.setCurrentWidget(window.training)
    window.training.show_message("Paused: the loss went to nan; the weights are back at step 40")
    assert [words for _, words in said].count("Paused: the loss went to nan; the weights are back at step 40") == 1
    assert window.statusBar().currentMessage().startswith("Paused: the loss went to nan")
