"""The optimizer race's worker: several sessions forked from one (same data, same initial weights)
trained in lockstep in a thread of their own, for the Compare dialog."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Signal, Slot

from .model.session import Metrics, TrainingSession
from .worker_threads import ThreadedWorker, guarded

RACE_FRAME_RATE = 20.0


@dataclass(frozen=True)
class RaceProgress:
    step: int
    metrics: dict[str, Metrics]          # by racer name
    diverged: dict[str, str]             # racer -> message, for those that stopped


@dataclass(frozen=True)
class RaceFrame:
    step: int
    probability: dict[str, np.ndarray]
    contour: dict[str, tuple[np.ndarray, np.ndarray]]
    extent: tuple[float, float, float, float]


class RaceWorker(ThreadedWorker):
    """Trains several sessions forked from one (same data, same initial weights) in lockstep."""

    progressed = Signal(object)        # RaceProgress
    boundary_updated = Signal(object)  # RaceFrame
    finished = Signal()

    def __init__(self, base: TrainingSession, racers: dict[str, dict], steps: int, steps_per_frame: int = 10):
        """``racers`` maps a name to the settings it changes, e.g. ``{"Adam": {"optimizer": "adam"}}``."""
        super().__init__()
        self.sessions = {name: base.fork(**changes) for name, changes in racers.items()}
        first = next(iter(self.sessions.values())).state_dict()
        for session in self.sessions.values():  # the same start, explicitly
            session.model.load_state_dict(first)
        self.extent = base.data.extent
        self.steps = steps
        self.steps_per_frame = steps_per_frame
        self._diverged: dict[str, str] = {}
        self._last_frame = 0.0

    @Slot()
    @guarded
    def start(self) -> None:
        self._running = True
        self._emit_progress()
        self._emit_frame()
        self._timer.start()

    @guarded
    def _on_timer_timeout(self) -> None:
        if not self._running:
            self._timer.stop()
            return
        step = self._step()
        count = min(self.steps_per_frame, self.steps - step)
        for name, session in self.sessions.items():
            if name in self._diverged or not self._running:
                continue
            result = session.train_steps(count, self._should_stop)
            if result.divergence is not None:
                self._diverged[name] = result.divergence.message()
                session.step = step + count  # keep the racers' clocks together
        self._emit_progress()
        done = self._step() >= self.steps or len(self._diverged) == len(self.sessions)
        if done or time.perf_counter() - self._last_frame >= 1.0 / RACE_FRAME_RATE:
            self._emit_frame()
        if done:
            self._running = False
            self._timer.stop()
            self.finished.emit()

    def _step(self) -> int:
        return max(session.step for session in self.sessions.values())

    def _emit_progress(self) -> None:
        self.progressed.emit(RaceProgress(self._step(), {n: s.evaluate() for n, s in self.sessions.items()},
                                          dict(self._diverged)))

    def _emit_frame(self) -> None:
        self._last_frame = time.perf_counter()
        drawings = {name: session.draw() for name, session in self.sessions.items()}
        probability = {name: drawing.probability for name, drawing in drawings.items()}
        contour = {name: drawing.contour for name, drawing in drawings.items()}
        self.boundary_updated.emit(RaceFrame(self._step(), probability, contour, self.extent))
