"""What one picture of the training panel costs the GUI thread, measured offscreen.

The panel is paused; the same frame of the worker (boundary, neuron maps, gradient health) is handed to
it and painted again and again, as if training ran. Printed per frame: the GUI thread's CPU time and
the wall time, alone and with a Python thread busy beside it (as training is), for the default network,
for six layers of 64 and for the editor's graph 2-16-1 tanh (its cards' maps and parameters in the diagram's
place), with the gradient health plot shown over 8,000 steps of history. A display
frame is 16.7 ms: the GUI's share of it is what is left for everything else.
Printed, not asserted.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/training_frame_cost.py
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtWidgets import QApplication  # noqa: E402
from training_speed import run_until  # noqa: E402

from playground.graph.expression import parse_expression  # noqa: E402
from playground.shell.gc_pauses import freeze_startup_objects  # noqa: E402
from playground.training.panel import TrainingPanel  # noqa: E402

FRAMES = 120
GRAPH = ("X = points(); W1 = randn(2, 16, seed=0); b1 = zeros(16); W2 = randn(16, 1, seed=1); b2 = zeros(1); "
         "out = tanh(X @ W1 + b1) @ W2 + b2")  # as bench/graph_training_speed.py trains it
HISTORY_STEPS = 8_000


class BusyThread:
    """Pure Python in a loop, holding the interpreter lock as training does between its numpy calls."""

    def __init__(self):
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)

    def _spin(self) -> None:
        total = 0
        while not self._stop.is_set():
            for i in range(1000):
                total += i

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *_):
        self._stop.set()
        self._thread.join()


def frame_costs(panel, app) -> tuple[list[float], list[float]]:
    """CPU and wall milliseconds of each of `FRAMES` pictures, painted from the panel's last frame."""
    frame, progress = panel._frame, panel._progress
    cpu, wall = [], []
    for _ in range(FRAMES):
        panel.worker.painted.clear()
        started_cpu, started = time.thread_time(), time.perf_counter()
        panel._on_worker_progressed(progress)
        panel._on_worker_boundary_updated(frame)
        panel._redraw()
        while not panel.worker.painted.is_set():  # both passes: the boundary and diagram, then the health lines
            app.processEvents()
        cpu.append((time.thread_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return cpu[10:], wall[10:]


def describe(values: list[float]) -> str:
    tail = statistics.quantiles(values, n=10)[8]
    return f"median {statistics.median(values):5.2f} ms, 90th percentile {tail:5.2f} ms"


def measure(app, hidden: tuple[int, ...]) -> None:
    panel = TrainingPanel()
    panel.set_settings(replace(panel.settings, hidden=hidden, stop_when="never"))
    panel.resize(1400, 860)
    panel.show()
    panel.findChild(object, "gradientHealthCheck").setChecked(True)
    run_until(lambda: panel.weights() is not None and panel.boundary_redraws > 0, 30)
    panel.findChild(object, "fastestButton").click()
    panel.play()
    run_until(lambda: panel.step >= HISTORY_STEPS, 120)
    panel.pause()
    run_until(lambda: False, 1.0)
    canvas = panel.network_view.canvas
    panel._redraw_timer.stop()  # only the frames painted here
    freeze_startup_objects()
    name = "-".join(str(n) for n in panel.settings.layer_sizes)
    print(f"{name} ({sum(panel.settings.layer_sizes)} neuron maps), gradient health shown, "
          f"{panel.step:,} steps of history")
    for hovered in (False, True):
        canvas.hover_neuron(canvas.neurons[1][3] if hovered else None)
        run_until(lambda shown=hovered: panel._frame is not None and (panel._frame.focus is not None) == shown, 5)
        cpu, wall = frame_costs(panel, app)
        with BusyThread():
            _, busy_wall = frame_costs(panel, app)
        what = "a neuron hovered" if hovered else "no hover        "
        print(f"  {what}  GUI CPU {describe(cpu)};  wall {describe(wall)};  "
              f"wall beside a busy Python thread {describe(busy_wall)}")
    panel.shutdown()


def measure_graph(app) -> None:
    """The editor's graph trained in the tab: the boundary and its cards, each hidden node's 16 maps."""
    panel = TrainingPanel()
    panel.resize(1400, 860)
    panel.show()
    run_until(lambda: panel.boundary_redraws > 0, 30)
    panel.train_graph(parse_expression(GRAPH))
    panel.set_settings(replace(panel.settings, stop_when="never", steps_per_second=None))
    panel.play()
    run_until(lambda: panel.step >= 300, 120)
    panel.pause()
    run_until(lambda: panel._frame is not None and panel._frame.node_images is not None, 5)
    run_until(lambda: False, 1.0)
    panel._redraw_timer.stop()
    freeze_startup_objects()
    print(f"the editor's graph 2-16-1 tanh ({len(panel.graph_view.plan.per_point)} nodes with maps), "
          f"{panel.step:,} steps of history")
    cpu, wall = frame_costs(panel, app)
    with BusyThread():
        _, busy_wall = frame_costs(panel, app)
    print(f"  no hover          GUI CPU {describe(cpu)};  wall {describe(wall)};  "
          f"wall beside a busy Python thread {describe(busy_wall)}")
    panel.shutdown()


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    from playground.training.worker_threads import share_the_interpreter_quickly

    share_the_interpreter_quickly()  # as the panel's worker does when it starts
    print(f"Python switch interval {sys.getswitchinterval() * 1000:.1f} ms")
    for hidden in ((16, 16), (64,) * 6):
        measure(app, hidden)
    measure_graph(app)


if __name__ == "__main__":
    main()
