"""Repeat's runs in a process of their own (`child_process`), so that the window never waits for them. Free of Qt.

Trained in a thread of the app, the runs and the GUI took turns at the interpreter lock: every one of the GUI's
many returns into Python (each plot item's paint) waited for the training thread's turn, and the window stalled
60-200 ms at a time while five runs trained. Here the process trains them on the machine's other core and sends
what the dialog draws, a few times a second: `RepeatProgress` (every run's test-loss curve so far, the spread of
their ends), `RepeatPictures` (each run's boundary), and at the end each run as a setup the tab can take on.

`RepeatLink` is the app's end: it starts the process without waiting, sends the job once the two have met, and
hands over the messages that came (`take`), never blocking. A process that cannot start or dies is said
(`broken`), and the dialog trains in its own thread instead.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Listener

import numpy as np

from .child_process import PARENT_GONE, child_main, start_child
from .points import SplitData
from .repeat import Group, RepeatRuns, RunCurve, Spread
from .setup_file import TrainingSetup

log = logging.getLogger("autograd_playground.training")

CHUNK_S = 0.02          # the process trains this long between two looks at its connection
PROGRESS_RATE = 10.0    # curves sent at most this often
PICTURE_RATE = 3.0      # boundaries at most this often (and once at the end)


@dataclass(frozen=True)
class RepeatJob:
    groups: tuple[Group, ...]
    data: SplitData
    runs: int
    steps: int
    graph: object = None  # the editor's graph document, where the tab trains it


@dataclass(frozen=True)
class RepeatProgress:
    step: int                              # the slowest run's step
    curves: tuple[RunCurve, ...]           # copies
    spreads: tuple[Spread | None, ...]     # per group
    done: bool
    seconds: float                         # since the runs started


@dataclass(frozen=True)
class RepeatPictures:
    boundaries: tuple[np.ndarray, ...]     # per run, what it predicts over the plane
    extent: tuple[float, float, float, float]


@dataclass(frozen=True)
class RepeatDone:
    """The end: each run as a setup (its settings, step, weights and optimizer state)."""

    setups: tuple[TrainingSetup, ...]


def progress_of(runs: RepeatRuns, started: float) -> RepeatProgress:
    curves = tuple(RunCurve(c.group, c.seed, list(c.steps), list(c.test_losses), c.diverged) for c in runs.curves)
    return RepeatProgress(runs.step, curves, tuple(runs.spread(g) for g in range(len(runs.groups))), runs.done,
                          time.perf_counter() - started)


def pictures_of(runs: RepeatRuns) -> RepeatPictures:
    return RepeatPictures(tuple(runs.boundary(i).copy() for i in range(len(runs.sessions))),
                          runs.sessions[0].grid.view_extent)


def train_and_tell(runs: RepeatRuns, send, stop_asked) -> None:
    """Train ``runs`` to their end, a chunk at a time, sending progress and pictures as they come and, at the end,
    the runs as setups; ``stop_asked()`` ends it early (then nothing more is sent)."""
    started = time.perf_counter()
    last_progress = last_pictures = 0.0
    steps = 10  # each run's steps a chunk, grown or shrunk to fill `CHUNK_S`
    send(progress_of(runs, started))
    send(pictures_of(runs))
    while not runs.done:
        if stop_asked():
            return
        began = time.perf_counter()
        runs.advance(steps)
        took = time.perf_counter() - began
        if took > 0:
            steps = int(np.clip(steps * CHUNK_S / took, 1, 10_000))
        now = time.perf_counter()
        if runs.done or now - last_progress >= 1.0 / PROGRESS_RATE:
            last_progress = now
            send(progress_of(runs, started))
        if runs.done or now - last_pictures >= 1.0 / PICTURE_RATE:
            last_pictures = now
            send(pictures_of(runs))
    send(RepeatDone(tuple(runs.setup_of(i) for i in range(len(runs.sessions)))))


def serve(connection) -> None:
    """The process: one job, trained and told; a "stop" from the app, or the app gone, ends it."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)  # small products: BLAS's helper threads would take the GUI's core
    try:
        job = connection.recv()
    except PARENT_GONE:
        return
    runs = RepeatRuns(list(job.groups), job.data, job.runs, job.steps, graph=job.graph)

    def stop_asked() -> bool:
        try:
            return connection.poll() and connection.recv() == "stop"
        except PARENT_GONE:
            return True

    try:
        train_and_tell(runs, connection.send, stop_asked)
    except PARENT_GONE:
        return


def main() -> None:
    child_main(serve)


class RepeatLink:
    """The app's end of a Repeat process (see the module docstring); every method returns at once."""

    def __init__(self, job: RepeatJob):
        self.job = job
        self.broken = False
        self.finished = False  # its runs all came back
        self._process = None
        self._connection = None
        self._sent = False
        try:
            key = secrets.token_bytes(32)
            listener = Listener(authkey=key)
            self._process = start_child(__name__, listener.address, key)
        except Exception:  # noqa: BLE001 - no process here (a sandbox, a frozen app): the dialog trains itself
            log.exception("Repeat's process did not start; its runs train in a thread")
            self.broken = True
            return
        threading.Thread(target=self._accept, args=(listener,), name="repeat process accept", daemon=True).start()

    def _accept(self, listener: Listener) -> None:
        try:
            with listener:
                self._connection = listener.accept()
        except Exception:  # noqa: BLE001 - a child that never called
            log.exception("Repeat's process did not connect")
            self.broken = True

    def take(self) -> list:
        """The messages the process has sent since the last call (its job sent first, once it has called)."""
        connection = self._connection
        if self.broken or connection is None:
            if self._process is not None and self._process.poll() is not None and connection is None:
                self.broken = True  # it ended before it called
            return []
        taken = []
        try:
            if not self._sent:
                connection.send(self.job)
                self._sent = True
            while not self.finished and connection.poll():
                message = connection.recv()
                taken.append(message)
                self.finished = isinstance(message, RepeatDone)  # (then the process ends: nothing more to read)
        except PARENT_GONE:
            log.warning("Repeat's process ended early")
            self.broken = True
        return taken

    def close(self) -> None:
        """Stop the runs (if they still train) and let the process go."""
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.send("stop")
            except PARENT_GONE:
                pass
            connection.close()
        if self._process is not None:
            try:
                self._process.wait(timeout=2)
            except Exception:  # noqa: BLE001 - it will end once its connection is gone
                self._process.kill()
