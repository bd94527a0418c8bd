"""The autosave: everything of the session that is in no file, written to this instance's recovery set
(`files.recovery`, content `recovery_set`) in the background, so that a kill, a crash or a power cut loses at
most the last second of work.

- A change (an edit of the graph, a value, a setting, a training step, a lesson's step or answer, the
  animator's place, the window's layout) starts a short wait; the set is written once changes have stopped
  for `QUIET_MS` (never on every mouse move), and at least every `LONGEST_MS` while they go on (a long drag).
  While the training tab trains, the set is written every `TRAINING_MS`.
- In the event loop only the cheap part is done: the graph's nodes are copied shallowly, the training tab's
  setup is taken by the worker's thread between two of its steps (`TrainingPanel.setup_later`), and the text
  is made and written by a thread of its own (`_Writer`), in small pieces, so the loop never waits on it.
- `write_now` writes the set at once, for SIGTERM and SIGHUP (`shell.recovery`); `finish` takes the set away
  at a clean exit: nothing is left to recover.
"""

from __future__ import annotations

import base64
import logging
import os
import threading
import time

from PySide6.QtCore import QEvent, QObject, QTimer, Signal

from ..files.disk import failure_reason
from ..files.recovery import OwnSet
from .recovery_set import EditorPart, GraphShot, Snapshot, TrainingPart, encode, encode_fast

log = logging.getLogger(__name__)

QUIET_MS = 400  # written this long after the last change (then the write itself: well within a second)
LONGEST_MS = 3000  # changes that never stop are written at least this often
TRAINING_MS = 10_000  # while training runs (at least every 30 s, as promised)
CAPTURE_WAIT_MS = 2000  # the worker's answer waited for before the set is written with its last training part

TRAINING_CHANGES = ("settings_requested", "points_requested", "values_requested", "point_requested",
                    "parameter_requested", "reset_requested", "setup_requested", "graph_requested",
                    "step_requested", "playing_changed")


class _Writer:
    """A thread that makes each snapshot's text and writes it; only the latest snapshot handed over waits."""

    def __init__(self, own: OwnSet, done) -> None:
        self.own, self._done = own, done
        self._condition = threading.Condition()
        self._waiting: tuple[int, Snapshot] | None = None
        self._busy = False
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="autosave-writer", daemon=True)
        self._thread.start()

    def submit(self, generation: int, snapshot: Snapshot) -> None:
        with self._condition:
            if self._waiting is None or self._waiting[0] < generation:
                self._waiting = (generation, snapshot)
            self._condition.notify()

    def idle(self) -> bool:
        with self._condition:
            return self._waiting is None and not self._busy

    def stop(self) -> None:
        with self._condition:
            self._stopped = True
            self._waiting = None
            self._condition.notify()

    def _run(self) -> None:
        while True:
            with self._condition:
                while self._waiting is None and not self._stopped:
                    self._condition.wait()
                if self._stopped:
                    return
                generation, snapshot = self._waiting
                self._waiting = None
                self._busy = True
            try:
                self.own.write(encode(snapshot), generation)
                self._done(generation, "")
            except Exception as error:  # a disk full, a folder gone: said once, the work stays in memory
                self._done(generation, failure_reason(error, self.own.path) if isinstance(error, OSError)
                           else f"{type(error).__name__}: {error}")
            finally:
                with self._condition:
                    self._busy = False


class Autosave(QObject):
    written = Signal(int)  # a generation written (tests wait for it)
    failed = Signal(str)  # why a write failed
    _finished = Signal(int, str)  # from the writer's thread: a generation, and why it failed ("" if it did not)

    def __init__(self, window, own: OwnSet, started: float | None = None) -> None:
        super().__init__(window)
        self.window, self.own = window, own
        self.started = time.time() if started is None else started
        self.generation = 0  # of the last snapshot taken
        self.written_generation = 0
        self._dirty_since: float | None = None
        self._training_part: TrainingPart | None = None  # the last one the worker gave
        self._waiting_for: int | None = None  # the generation whose training part is awaited
        self._stopped = False
        self._failure = ""
        self.paused = False  # while a set is being restored into the window: its changes are not ours yet

        self._quiet = QTimer(self, singleShot=True, interval=QUIET_MS)
        self._quiet.timeout.connect(self.save)
        self._training_timer = QTimer(self, interval=TRAINING_MS)
        self._training_timer.timeout.connect(self.save)
        self._capture_timeout = QTimer(self, singleShot=True, interval=CAPTURE_WAIT_MS)
        self._capture_timeout.timeout.connect(self._on_capture_timeout)
        self._finished.connect(self._on_finished)
        self._writer = _Writer(own, self._finished.emit)
        self._watch()

    # -- what changes -----------------------------------------------------------------------------------

    def _watch(self) -> None:
        window, training = self.window, self.window.training
        window.document.subscribe(self._on_document_changed)
        window.undo_stack.indexChanged.connect(self.changed)
        window.undo_stack.cleanChanged.connect(self.changed)
        window.windowTitleChanged.connect(self.changed)
        window.tabs.currentChanged.connect(self.changed)
        for name in TRAINING_CHANGES:
            getattr(training, name).connect(self.changed)
        training.playing_changed.connect(self._on_playing_changed)
        training.undo_stack.indexChanged.connect(self.changed)
        window.training_setups.file_changed.connect(self.changed)
        window.animator.step_reached.connect(self.changed)
        learning = window.learning
        learning.panel.step_shown.connect(self.changed)
        learning.panel.step_answered.connect(self.changed)
        learning.panel.lesson_closed.connect(self.changed)
        learning.dock.visibilityChanged.connect(self.changed)
        window.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if watched is self.window and event.type() in (QEvent.Type.Resize, QEvent.Type.Move,
                                                       QEvent.Type.WindowStateChange):
            self.changed()
        return False

    def _on_document_changed(self, _change) -> None:
        self.changed()

    def _on_playing_changed(self, playing: bool) -> None:
        if playing and not self._stopped:
            self._training_timer.start()
        else:
            self._training_timer.stop()

    def changed(self, *_) -> None:
        """Something of the session changed: the set is written once changes stop (or at the latest soon)."""
        if self._stopped or self.paused:
            return
        now = time.monotonic()
        if self._dirty_since is None:
            self._dirty_since = now
        if (now - self._dirty_since) * 1000 >= LONGEST_MS:
            self.save()
        else:
            self._quiet.start()

    # -- writing ----------------------------------------------------------------------------------------

    def snapshot(self, training: TrainingPart | None) -> Snapshot:
        """The session as it stands (the cheap parts, taken in the event loop), with ``training``."""
        window = self.window
        files = window.files
        editor = EditorPart(GraphShot.of(window.document), str(files.current_path) if files.current_path else None,
                            files.name, not files.is_clean)
        animator = None
        if window.animator.source == "graph" and window.animator.timeline is not None:
            animator = {"position": int(window.animator.position)}
        panel = window.learning.panel
        lesson = {"id": panel.run.lesson.id, "state": panel.run.state()} if panel.run is not None else None
        layout = {"geometry": base64.b64encode(bytes(window.saveGeometry())).decode("ascii"),
                  "state": base64.b64encode(bytes(window.saveState())).decode("ascii"),
                  "tab": window.tabs.currentIndex(), "learn_visible": window.learning.dock.isVisible()}
        return Snapshot(os.getpid(), self.started, time.time(), editor, training, animator, lesson, layout)

    def _training(self, setup) -> TrainingPart:
        setups = self.window.training_setups
        return TrainingPart(setup, str(setups.path) if setups.path else None, setups.with_weights, setups.modified)

    def save(self) -> None:
        """Take the session now and have it written in the background."""
        if self._stopped:
            return
        self._quiet.stop()
        self._dirty_since = None
        self.generation += 1
        generation = self.generation
        training = self.window.training
        if training.is_shut_down:
            self._writer.submit(generation, self.snapshot(self._training_part))
            return
        self._waiting_for = generation
        self._capture_timeout.start()
        shot = self.snapshot(None)  # now, not when the worker answers: the graph as it was at the change
        training.setup_later(lambda setup: self._on_training_taken(generation, shot, setup))

    def _on_training_taken(self, generation: int, shot: Snapshot, setup) -> None:
        if self._stopped:
            return
        self._training_part = self._training(setup)
        shot.training = self._training_part
        if self._waiting_for == generation:
            self._waiting_for = None
            self._capture_timeout.stop()
        self._writer.submit(generation, shot)

    def _on_capture_timeout(self) -> None:
        """The worker did not answer (a very long step): the set is written with the training it gave last."""
        if self._waiting_for is not None and not self._stopped:
            generation, self._waiting_for = self._waiting_for, None
            self._writer.submit(generation, self.snapshot(self._training_part))

    def _on_finished(self, generation: int, problem: str) -> None:
        if problem:
            if problem != self._failure:  # said once, not at every write
                self._failure = problem
                log.warning("autosave: %s", problem)
                self.window.statusBar().showMessage(f"The autosave could not be written: {problem}. "
                                                    "Save your work to a file.", 10_000)
            self.failed.emit(problem)
            return
        self._failure = ""
        self.written_generation = max(self.written_generation, generation)
        self.written.emit(generation)

    def idle(self) -> bool:
        """Nothing waits to be written (tests)."""
        return (self._dirty_since is None and not self._quiet.isActive() and self._waiting_for is None
                and self._writer.idle())

    def write_now(self, wait_for_training: float = 0.6) -> bool:
        """Write the set at once, in this thread (SIGTERM, SIGHUP: the app ends right after). The training tab's
        setup is asked of its worker for at most ``wait_for_training`` seconds, else its last one is written."""
        if self._stopped:
            return False
        training = self.window.training
        part = self._training_part
        if not training.is_shut_down:
            try:
                part = self._training(training.worker.setup_now(True, timeout=wait_for_training))
            except Exception as error:  # noqa: BLE001 - whatever it was, the last training part is written
                log.warning("autosave: the training tab's setup was not taken (%s)", error)
        self.generation += 1
        snapshot = self.snapshot(part)
        try:
            self.own.write(encode_fast(snapshot), self.generation)
        except OSError as error:
            log.error("autosave: %s", failure_reason(error, self.own.path))
            return False
        self.written_generation = self.generation
        return True

    def stop(self) -> None:
        """No more writes (the app ends); the set stays for the next start."""
        self._stopped = True
        self._quiet.stop()
        self._training_timer.stop()
        self._capture_timeout.stop()
        self._writer.stop()
        try:
            self.window.document.unsubscribe(self._on_document_changed)
        except ValueError:
            pass

    def finish(self) -> None:
        """A clean exit: no more writes, and the set goes (nothing to recover)."""
        self.stop()
        self.own.close()
