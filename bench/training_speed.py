"""Training panel speed and responsiveness, measured offscreen in one run.

Targets (issues 5, 10 and 21): the default setup (two moons, 2-16-16-1 tanh, Adam 0.01, full batch)
reaches 97% test accuracy within 3 s of pressing Play at the Fastest pace (the default pace, 20
steps a second, is a teacher's: its time is printed too); the decision boundary and the diagram's 34
neuron maps are redrawn at least 60 times a second (a display's refresh rate); the GUI event loop
never stalls for more than 17 ms, one display frame (a 5 ms timer records the gaps between its
ticks); memory grows by less than 20 MB over 20,000 training steps (at the Fastest pace). With six
hidden layers of 64 neurons, at 500 steps a second: at least 30 redraws a second and no stall over
33 ms. Half of each watch has a neuron hovered, its map on the big plot. The gradient health plot is
shown throughout (its lines are redrawn with every frame, in the frame's second pass).
Printed, not asserted: timings belong here, not in the test suite.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/training_speed.py
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.shell.gc_pauses import freeze_startup_objects  # noqa: E402
from playground.training.panel import TrainingPanel  # noqa: E402

ACCURACY_TARGET, ACCURACY_SECONDS = 0.97, 3.0
BIG_PACE = 500  # steps a second: the pace the six-layer watch trains at
REDRAW_TARGET = 60.0
STALL_TARGET_MS = 17.0
BIG_HIDDEN = (64,) * 6
BIG_REDRAW_TARGET, BIG_STALL_TARGET_MS = 30.0, 33.0
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


def redraw_counts(panel) -> tuple[int, int, int, int]:
    """Boundary images, diagram pictures (neuron maps), wire images, gradient health lines drawn so far."""
    canvas = panel.network_view.canvas
    return panel.boundary_redraws, canvas.redraws, canvas.wire_redraws, panel.curves.gradient_health.redraws


def watch(panel, seconds: float, until=None) -> dict:
    """Let it train for ``seconds`` (or until ``until()``), the second half with a neuron hovered; what
    was painted per second and the event loop's gaps."""
    gaps = GapRecorder()
    gaps.start()
    before, step_before = redraw_counts(panel), panel.step
    started = time.perf_counter()
    reached_at = reached_step = None
    if until is not None:
        run_until(until, seconds)
        if until():
            reached_at, reached_step = time.perf_counter() - started, panel.step
    run_until(lambda: False, max(0.0, seconds / 2 - (time.perf_counter() - started)))
    canvas = panel.network_view.canvas
    canvas.hover_neuron(canvas.neurons[1][3])
    run_until(lambda: False, max(0.0, seconds - (time.perf_counter() - started)))
    canvas.hover_neuron(None)
    watched = time.perf_counter() - started
    gaps.stop()
    after = redraw_counts(panel)
    boundary, pictures, wires, health = ((b - a) / watched for a, b in zip(before, after))
    return {"reached_at": reached_at, "reached_step": reached_step, "boundary": boundary, "pictures": pictures,
            "wires": wires, "health": health, "redraws": min(boundary, pictures, health),
            "worst": max(gaps.gaps) * 1000,
            "p99": statistics.quantiles(gaps.gaps, n=100)[98] * 1000, "steps": (panel.step - step_before) / watched}


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)  # noqa: F841 - kept alive for the run
    panel = TrainingPanel()
    panel.set_settings(replace(panel.settings, stop_when="never"))  # on past the point the moons are learned
    panel.resize(1400, 860)
    panel.show()
    panel.findChild(object, "gradientHealthCheck").setChecked(True)
    run_until(lambda: panel.boundary_redraws > 0, 10)
    run_until(lambda: False, 0.3)  # settle
    freeze_startup_objects()  # as the app does once its window is up

    # 0. At the default pace, a teacher's: how long the moons take to reach 97%.
    started = time.perf_counter()
    panel.findChild(object, "playButton").click()
    run_until(lambda: (panel.test_accuracy or 0) >= ACCURACY_TARGET, 60)
    teacher_seconds, teacher_step = time.perf_counter() - started, panel.step
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": Reset at once, no question box
    panel.findChild(object, "resetButton").click()
    run_until(lambda: panel.step == 0 and panel.weights_step == 0, 10)

    # 1. Fastest, one click; press Play; time to 97% test accuracy. Meanwhile, watch the redraws and
    #    the event loop.
    panel.findChild(object, "fastestButton").click()
    panel.findChild(object, "playButton").click()
    small = watch(panel, WATCH_SECONDS, until=lambda: (panel.test_accuracy or 0) >= ACCURACY_TARGET)
    step_at_accuracy = small["reached_step"] or 0

    # 2. Memory over 20,000 steps (Fastest, through the whole worker/signal/plot path).
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

    # 3. Six hidden layers of 64 neurons (20,736 weights, 386 neuron maps).
    panel.set_settings(replace(panel.settings, hidden=BIG_HIDDEN, steps_per_second=BIG_PACE))
    run_until(lambda: panel.weights() is not None and len(panel.weights()) == 2 * (len(BIG_HIDDEN) + 1), 30)
    panel.play()
    run_until(lambda: False, 1.0)  # settle: the first pictures of the new network
    big = watch(panel, WATCH_SECONDS)

    # 4. Pause and close mid-run: the worker thread must end.
    panel.findChild(object, "playButton").click()
    panel.play()
    run_until(lambda: False, 0.2)
    closed_at = time.perf_counter()
    panel.close()
    close_ms = (time.perf_counter() - closed_at) * 1000
    thread_done = panel.worker_thread.isFinished()

    reached, to_accuracy = small["reached_at"] is not None, small["reached_at"] or float("inf")
    print("Training panel, default setup (two moons 200 points, 2-16-16-1 tanh, Adam 0.01, full batch)")
    print(f"  at the default pace (20 steps/s, a teacher's): {ACCURACY_TARGET:.0%} test accuracy after "
          f"{teacher_seconds:.1f} s at step {teacher_step:,}")
    print(f"  time to {ACCURACY_TARGET:.0%} test accuracy : {to_accuracy:6.2f} s at step {step_at_accuracy:,}"
          f" (Fastest)   target <= {ACCURACY_SECONDS:.0f} s   {verdict(reached and to_accuracy <= ACCURACY_SECONDS)}")
    print_watch(small, REDRAW_TARGET, STALL_TARGET_MS)
    memory_ok = steps_done >= MEMORY_STEPS and growth < MEMORY_TARGET_MB
    print(f"  memory growth over {steps_done:,} steps: {growth:6.1f} MB ({memory_seconds:.1f} s, "
          f"{steps_done / memory_seconds:,.0f} steps/s at the Fastest pace)"
          f"   target < {MEMORY_TARGET_MB:.0f} MB   {verdict(memory_ok)}")
    print(f"  close mid-run                : {close_ms:6.1f} ms, worker thread finished: {thread_done}")
    print("Six hidden layers of 64 neurons (2-64-64-64-64-64-64-1 tanh, 386 neuron maps, 20,736 wires)")
    print_watch(big, BIG_REDRAW_TARGET, BIG_STALL_TARGET_MS, f"at {BIG_PACE} steps/s")


def print_watch(seen: dict, redraw_target: float, stall_target: float, pace: str = "at the Fastest pace") -> None:
    print(f"  boundary, maps, health / s   : {seen['redraws']:6.1f} (boundary {seen['boundary']:.1f}, maps "
          f"{seen['pictures']:.1f}, gradient health {seen['health']:.1f}; wires {seen['wires']:.1f})"
          f"   target >= {redraw_target:.0f}   "
          f"{verdict(seen['redraws'] >= redraw_target)}")
    print(f"  longest event-loop stall     : {seen['worst']:6.1f} ms (99th percentile {seen['p99']:.1f} ms)"
          f"   target <= {stall_target:.0f} ms   {verdict(seen['worst'] <= stall_target)}")
    print(f"  training speed while watched : {seen['steps']:6.0f} steps/s {pace}")


if __name__ == "__main__":
    main()
