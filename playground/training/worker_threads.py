"""Training threads' plumbing: a QObject worker with a timer in a QThread of its own (`ThreadedWorker`),
its slots guarded so that a failure reaches the GUI as a signal (`guarded`), and the threads started and
stopped cleanly (`start_thread`, `stop_thread`), every one of them before the application quits. Starting
the first also sets what the process needs while Python trains beside the GUI: BLAS on one thread and a
short turn at the interpreter lock."""

from __future__ import annotations

import atexit
import functools
import logging
import sys
import traceback
import weakref

from PySide6.QtCore import QCoreApplication, QMetaObject, QObject, Qt, QThread, QTimer, Signal, Slot
from threadpoolctl import threadpool_limits

log = logging.getLogger("autograd_playground.training")

TICK_MS = 16          # one chunk of steps per tick: about 60 a second, a display's rate
GIL_SWITCH_S = 0.0005  # the longest the GUI thread waits for its turn at the interpreter


def guarded(method):
    """A slot that reports its exception through `failed` instead of letting it reach sys.excepthook,
    which would try to open a dialog from this thread."""

    @functools.wraps(method)
    def wrapper(self, *args):
        try:
            return method(self, *args)
        except Exception as error:  # noqa: BLE001 - every failure goes to the GUI, the thread goes on
            log.exception("training worker failed")
            self._running = False
            self._timer.stop()
            self.failed.emit(f"{type(error).__name__}: {error}", traceback.format_exc())
    return wrapper


class ThreadedWorker(QObject):
    """Shared plumbing: a timer in the worker's thread, a stop flag, and a clean way home."""

    failed = Signal(str, str)  # summary, details

    def __init__(self):
        super().__init__()
        self._running = False
        self._home = QThread.currentThread()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._on_timer_timeout)

    def request_stop(self) -> None:
        """Called from the GUI thread: the current chunk ends before its next step."""
        self._running = False

    def _should_stop(self) -> bool:
        return not self._running

    @Slot()
    def finish(self) -> None:
        """Runs in the worker thread (blocking queued): stop the timer and move back to the GUI thread,
        so the worker can be deleted there once its thread has ended."""
        self._running = False
        self._timer.stop()
        self.moveToThread(self._home)

    def _on_timer_timeout(self) -> None:
        raise NotImplementedError


def single_threaded_blas() -> None:
    """BLAS multiplies on the thread that calls it, process-wide, from the first training thread on.

    OpenBLAS hands a product above 262,144 multiply-adds to helper threads; a playground network's
    products (a batch of 140 points through 64 x 64 weights: 573,000) are just above that, and
    waking the helpers costs far more than they save, while they take the core the GUI needs on
    a small machine: a training step of six layers of 64 went from 35 ms to 1.5 ms on one thread.
    """
    global _blas_limited
    if not _blas_limited:
        threadpool_limits(limits=1, user_api="blas")  # stays in force: nothing restores it
        _blas_limited = True


_blas_limited = False


def share_the_interpreter_quickly() -> None:
    """Let the GUI thread have Python's interpreter lock within `GIL_SWITCH_S` of asking for it.

    Training is Python code that holds the lock; the GUI thread takes it again for every handler Qt
    calls, a paint event and each plot item's paint and bounding box, some twenty times a frame. Beside a
    Python thread that never lets go, a picture of 5-7 ms of GUI work took 190 ms with Python's default
    turn of 5 ms, 25-40 ms with 0.5 ms (bench/training_frame_cost.py); the worker also waits while a
    picture is painted (`TrainingWorker._let_it_be_painted`)."""
    sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_S))


def shut_down_at_exit(panel) -> None:
    """Call ``panel.shutdown()`` (which ends its worker thread) when the event loop ends or Python
    exits, even if the window never closed: a QThread destroyed while running aborts the process."""
    ref = weakref.ref(panel)

    def shut_down() -> None:
        alive = ref()
        if alive is not None:
            try:
                alive.shutdown()
            except RuntimeError:  # the C++ side is already gone, and its thread with it
                pass

    QCoreApplication.instance().aboutToQuit.connect(shut_down)
    atexit.register(shut_down)


def start_thread(worker: ThreadedWorker, name: str) -> QThread:
    single_threaded_blas()
    share_the_interpreter_quickly()
    _hook_quit()
    thread = QThread()
    thread.setObjectName(name)
    worker.moveToThread(thread)
    thread.start()
    _live_threads[id(thread)] = (worker, thread)
    return thread


def stop_thread(worker: ThreadedWorker, thread: QThread, timeout_ms: int = 10_000) -> bool:
    """Stop ``worker`` and end ``thread``; True when the thread has finished. Safe to call twice."""
    worker.request_stop()
    if thread.isRunning():
        if worker.thread() is thread:
            QMetaObject.invokeMethod(worker, "finish", Qt.ConnectionType.BlockingQueuedConnection)
        thread.quit()
        thread.wait(timeout_ms)
    _live_threads.pop(id(thread), None)
    return thread.isFinished() or not thread.isRunning()


# A QThread object destroyed while its thread runs aborts the process; until each is stopped,
# this keeps it alive, and the application stops every one of them before it quits.
_live_threads: dict[int, tuple[ThreadedWorker, QThread]] = {}
_quit_hooked = False


def stop_all_threads() -> None:
    for worker, thread in list(_live_threads.values()):
        stop_thread(worker, thread)


def _hook_quit() -> None:
    global _quit_hooked
    app = QCoreApplication.instance()
    if app is not None and not _quit_hooked:
        app.aboutToQuit.connect(stop_all_threads)
        _quit_hooked = True
