"""The training tab's readouts of where training stands, and the pace they change at.

The toolbar's "Step 1234 · epoch 9", the figures beside the curves and the one-line summary for the main
window's status bar ("Step 1234 · epoch 9 · test accuracy 98.33%") always show one and the same report:
`ReadoutPace` hands the latest report on at most ten times a second while training runs (a counter
rewritten sixty times a second is a blur nobody reads, and each new status-bar text costs the window a
layout pass), and at once when training is not running (a click on Step shows its step straight away).
"""

from __future__ import annotations

import time

from ...common.numbers import format_number
from .session import Metrics, epoch_text, percent

READOUT_INTERVAL_S = 0.1  # while training runs, the readouts change at most ten times a second


def summary_text(metrics: Metrics | None) -> str:
    if metrics is None:
        return "Step 0 · not trained yet"
    figure = (f"test R² {format_number(metrics.test_r2)} · MAE {format_number(metrics.test_mae)}"
              if metrics.test_r2 is not None else f"test accuracy {percent(metrics.test_accuracy)}")
    return f"Step {format_number(metrics.step)} · epoch {epoch_text(metrics.epoch)} · {figure}"


NOTHING = object()  # `ReadoutPace.due` when nothing is due (None is a report: a new network, not yet trained)


class ReadoutPace:
    """Passes the latest of what is offered on at most once every ``interval`` seconds, or at once when it is
    offered as urgent; what is held back comes out at the next `due` call after the interval, so the
    readouts always end on the last report."""

    def __init__(self, interval: float = READOUT_INTERVAL_S, clock=time.perf_counter):
        self.interval = interval
        self.clock = clock
        self._waiting = NOTHING
        self._urgent = False
        self._last = -float("inf")

    def offer(self, item, urgent: bool = False) -> None:
        """``item`` is the latest report; `due` hands it out when its time comes."""
        self._waiting = item
        self._urgent = self._urgent or urgent

    def due(self, force: bool = False):
        """The report held back once its time has come (with ``force``: now), else `NOTHING`."""
        if self._waiting is NOTHING or not (force or self._urgent or self.clock() - self._last >= self.interval):
            return NOTHING
        item, self._waiting, self._urgent = self._waiting, NOTHING, False
        self._last = self.clock()
        return item
