"""The training tab's one-line summary for the main window's status bar ("Step 1234 · epoch 9 · test
accuracy 98.33%"), and the pace it changes at: a status bar rewritten fifty times a second is a blur
nobody reads, and each new text costs the window a layout pass."""

from __future__ import annotations

import time

from ..numbers import format_number
from .session import Metrics, epoch_text, percent

SUMMARY_INTERVAL_S = 0.25  # at most four new summaries a second


def summary_text(metrics: Metrics | None) -> str:
    if metrics is None:
        return "Step 0 · not trained yet"
    return (f"Step {format_number(metrics.step)} · epoch {epoch_text(metrics.epoch)} · "
            f"test accuracy {percent(metrics.test_accuracy)}")


class SummaryPace:
    """Passes a new text on at most once every ``interval`` seconds; the latest one held back comes out
    at the next `due` call after the interval, so the summary always ends on the last state."""

    def __init__(self, interval: float = SUMMARY_INTERVAL_S, clock=time.perf_counter):
        self.interval = interval
        self.clock = clock
        self.shown = ""
        self._waiting: str | None = None
        self._last = -float("inf")

    def offer(self, text: str) -> None:
        """``text`` is the latest summary; `due` hands it out when its time comes."""
        self._waiting = None if text == self.shown else text

    def due(self) -> str | None:
        """The summary held back, once its time has come."""
        if self._waiting is None or self.clock() - self._last < self.interval:
            return None
        text, self._waiting = self._waiting, None
        self.shown, self._last = text, self.clock()
        return text
