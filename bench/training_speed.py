"""Training panel speed and responsiveness, measured offscreen in one run.

Targets (issue 5): the default setup (two moons, 2-16-16-1 tanh, Adam 0.01, full batch) reaches
97% test accuracy within 3 s of pressing Play; the decision boundary is redrawn at least 30 times
a second; the GUI event loop never stalls for more than 50 ms (a 5 ms timer records the gaps
between its ticks); memory grows by less than 20 MB over 20,000 training steps.
Printed, not asserted: timings belong here, not in the test suite.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/training_speed.py
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.training.panel import TrainingPanel  # noqa: E402

ACCURACY_TARGET, ACCURACY_SECONDS = 0.97, 3.0
REDRAW_TARGET = 30.0
STALL_TARGET_MS = 50.0
MEMORY_STEPS, MEMORY_TARGET_MB = 20_000, 20.0
WATCH_SECONDS = 4.0


def rss_mb() -> float:
    """Resident memory of this process, from /proc (Linux) or the peak from resource elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class GapRecorder:
    """A 5 ms timer in the GUI thread; the longest time between two of its ticks is the worst stall."""

    def __init__(self):
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self._last = None

    def start(self):
        self.gaps.clear()
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self):
        self.timer.stop()

    def _tick(self):
        now = time.perf_counter()
        self.gaps.append(now - self._last)
        self._last = now


def run_until(condition, timeout: float) -> bool:
    """Run the event loop (sleeping when idle, as the app's does) until ``condition()`` or the timeout."""
    loop, met = QEventLoop(), [bool(condition())]
    if met[0]:
        return True
    deadline = time.perf_counter() + timeout

    def check():
        met[0] = bool(condition())
        if met[0] or time.perf_counter() >= deadline:
            loop.quit()

    poll = QTimer()
    poll.setTimerType(Qt.TimerType.PreciseTimer)
    poll.timeout.connect(check)
    poll.start(5)
    loop.exec()
    poll.stop()
    return met[0]


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)  # noqa: F841 - kept alive for the run
    panel = TrainingPanel()
    panel.resize(1400, 860)
    panel.show()
    run_until(lambda: panel.boundary_redraws > 0, 10)
    run_until(lambda: False, 0.3)  # settle

    # 1. Press Play; time to 97% test accuracy. Meanwhile, watch the redraws and the event loop.
    gaps = GapRecorder()
    gaps.start()
    redraws_before = panel.boundary_redraws
    started = time.perf_counter()
    panel.findChild(object, "playButton").click()
    reached = run_until(lambda: (panel.test_accuracy or 0) >= ACCURACY_TARGET, 30)
    to_accuracy = time.perf_counter() - started
    step_at_accuracy = panel.step
    run_until(lambda: False, max(0.0, WATCH_SECONDS - (time.perf_counter() - started)))
    watched = time.perf_counter() - started
    redraws = (panel.boundary_redraws - redraws_before) / watched
    steps_per_second = panel.step / watched
    gaps.stop()
    worst_gap = max(gaps.gaps) * 1000
    p99_gap = statistics.quantiles(gaps.gaps, n=100)[98] * 1000

    # 2. Memory over 20,000 steps (at 200 steps per frame, through the whole worker/signal/plot path).
    panel.findChild(object, "speedCombo").setCurrentIndex(panel.findChild(object, "speedCombo").findData(200))
    run_until(lambda: panel.step >= 2_000, 60)  # warm up: caches, history buffers, pixmaps
    gc.collect()
    memory_before, step_before = rss_mb(), panel.step
    memory_started = time.perf_counter()
    run_until(lambda: panel.step >= step_before + MEMORY_STEPS, 300)
    memory_seconds = time.perf_counter() - memory_started
    gc.collect()
    run_until(lambda: False, 0.2)
    growth = rss_mb() - memory_before
    steps_done = panel.step - step_before

    # 3. Pause and close mid-run: the worker thread must end.
    panel.findChild(object, "playButton").click()
    panel.play()
    run_until(lambda: False, 0.2)
    closed_at = time.perf_counter()
    panel.close()
    close_ms = (time.perf_counter() - closed_at) * 1000
    thread_done = panel.worker_thread.isFinished()

    print("Training panel, default setup (two moons 200 points, 2-16-16-1 tanh, Adam 0.01, full batch)")
    print(f"  time to {ACCURACY_TARGET:.0%} test accuracy : {to_accuracy:6.2f} s at step {step_at_accuracy:,}"
          f"   target <= {ACCURACY_SECONDS:.0f} s   {verdict(reached and to_accuracy <= ACCURACY_SECONDS)}")
    print(f"  boundary redraws per second  : {redraws:6.1f}"
          f"       target >= {REDRAW_TARGET:.0f}     {verdict(redraws >= REDRAW_TARGET)}")
    print(f"  longest event-loop stall     : {worst_gap:6.1f} ms (99th percentile {p99_gap:.1f} ms)"
          f"   target <= {STALL_TARGET_MS:.0f} ms   {verdict(worst_gap <= STALL_TARGET_MS)}")
    memory_ok = steps_done >= MEMORY_STEPS and growth < MEMORY_TARGET_MB
    print(f"  memory growth over {steps_done:,} steps: {growth:6.1f} MB ({memory_seconds:.1f} s, "
          f"{steps_done / memory_seconds:,.0f} steps/s at 200 steps/frame)"
          f"   target < {MEMORY_TARGET_MB:.0f} MB   {verdict(memory_ok)}")
    print(f"  training speed while watched : {steps_per_second:6.0f} steps/s at 10 steps/frame")
    print(f"  close mid-run                : {close_ms:6.1f} ms, worker thread finished: {thread_done}")


if __name__ == "__main__":
    main()
