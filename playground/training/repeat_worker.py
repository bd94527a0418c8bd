"""Repeat's worker where its process cannot run (`model.repeat_process`): the runs of `model.repeat.RepeatRuns`
trained in a thread of their own, a chunk at a time, sending copies of their curves (and, less often, their
boundaries) to the Repeat dialog."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import Signal, Slot

from .model.repeat import RepeatRuns
from .model.repeat_process import PICTURE_RATE, PROGRESS_RATE, pictures_of, progress_of
from .worker_threads import ThreadedWorker, guarded, share_the_interpreter_quickly

CHUNK_S = 0.012  # a tick trains this long, then the thread lets the GUI have the interpreter (the process: longer)


class RepeatWorker(ThreadedWorker):
    """Trains the runs until each has taken its steps (or diverged); `finished` once they all have."""

    progressed = Signal(object)    # RepeatProgress
    pictured = Signal(object)      # RepeatPictures
    finished = Signal()

    def __init__(self, runs: RepeatRuns):
        super().__init__()
        self.runs = runs
        self._started = 0.0
        self._last_progress = self._last_pictures = 0.0
        self._steps_a_tick = 10   # steps each run takes a tick, grown or shrunk to fill `CHUNK_S`

    @Slot()
    @guarded
    def start(self) -> None:
        share_the_interpreter_quickly()
        self._running = True
        self._started = time.perf_counter()
        self._emit_progress()
        self._emit_pictures()
        self._timer.setInterval(1)
        self._timer.start()

    @guarded
    def _on_timer_timeout(self) -> None:
        if not self._running:
            self._timer.stop()
            return
        began = time.perf_counter()
        self.runs.advance(self._steps_a_tick, self._should_stop)
        took = time.perf_counter() - began
        if took > 0:  # as many steps as fill a chunk, next time
            self._steps_a_tick = int(np.clip(self._steps_a_tick * CHUNK_S / took, 1, 5_000))
        done = self.runs.done
        now = time.perf_counter()
        if done or now - self._last_progress >= 1.0 / PROGRESS_RATE:
            self._emit_progress()
        if done or now - self._last_pictures >= 1.0 / PICTURE_RATE:
            self._emit_pictures()
        if done:
            self._running = False
            self._timer.stop()
            self.finished.emit()

    def _emit_progress(self) -> None:
        self._last_progress = time.perf_counter()
        self.progressed.emit(progress_of(self.runs, self._started))

    def _emit_pictures(self) -> None:
        self._last_pictures = time.perf_counter()
        self.pictured.emit(pictures_of(self.runs))
