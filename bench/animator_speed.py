"""Backward animator speed on a 1000-node graph, measured offscreen in one run.

Targets (issue 4): at the "fastest" setting the animation steps at 60 steps per second or more,
and the event loop never freezes (a 5 ms heartbeat timer records the gaps between its timeouts;
the longest gap is the worst stall a person would feel). Printed, not asserted.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/animator_speed.py [nodes] [seconds]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _random_graphs import random_graph  # noqa: E402  (beside this script)
from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.animator.panel import SPEEDS, AnimatorPanel  # noqa: E402
from playground.graph.document import GraphDocument  # noqa: E402
from playground.graph.layout import layered_layout  # noqa: E402

NODES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0


def laid_out_graph(n: int, seed: int = 0) -> GraphDocument:
    """`random_graph` placed by the editor's auto-layout, as a person would see it."""
    doc = random_graph(n, seed)
    for node_id, (x, y) in layered_layout(doc).items():
        doc.move_node(node_id, x, y)
    return doc


class PaintCounter(QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def run_loop(app: QApplication, seconds: float, until=None) -> None:
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    if until is not None:
        poll = QTimer()
        poll.timeout.connect(lambda: loop.quit() if until() else None)
        poll.start(20)
    loop.exec()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    panel = AnimatorPanel()
    panel.resize(1400, 900)
    panel.show()
    app.processEvents()
    document = laid_out_graph(NODES)

    start = time.perf_counter()
    panel.load(document)
    app.processEvents()
    load_ms = 1e3 * (time.perf_counter() - start)
    frames = panel.frame_count

    # one step at a time, by hand: the update alone and the update + repaint
    panel.seek(frames // 2)
    app.processEvents()
    step_ms, step_paint_ms = [], []
    for k in range(60):
        start = time.perf_counter()
        panel.step_forward() if k % 2 == 0 else panel.step_back()
        step_ms.append(1e3 * (time.perf_counter() - start))
        panel.view.viewport().repaint()
        step_paint_ms.append(1e3 * (time.perf_counter() - start))
    start = time.perf_counter()
    panel.seek(frames)
    jump_ms = 1e3 * (time.perf_counter() - start)
    start = time.perf_counter()
    panel.seek(0)
    back_ms = 1e3 * (time.perf_counter() - start)
    app.processEvents()

    # play at "fastest" with a 5 ms heartbeat
    painter = PaintCounter()
    panel.view.viewport().installEventFilter(painter)
    beats: list[float] = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    panel.set_speed_index(len(SPEEDS) - 1)
    heartbeat.start()
    start = time.perf_counter()
    panel.play()
    run_loop(app, SECONDS, until=lambda: not panel.is_playing)
    elapsed = time.perf_counter() - start
    steps = panel.position
    panel.pause()
    heartbeat.stop()
    gaps = [1e3 * (b - a) for a, b in zip(beats, beats[1:])]
    rate = steps / elapsed

    print(f"backward animator, {NODES} nodes, {len(document.edges)} wires, {frames} steps:")
    print(f"  load (copy, timeline, scene, first draw)   {load_ms:7.1f} ms")
    print(f"  one step, items + text                      {statistics.median(step_ms):7.2f} ms median"
          f"   (worst {max(step_ms):.2f} ms)")
    print(f"  one step + repaint of the view              {statistics.median(step_paint_ms):7.2f} ms median")
    print(f"  jump middle → last / last → first           {jump_ms:7.1f} ms / {back_ms:.1f} ms")
    print(f"  play at 'fastest' for {elapsed:.1f} s: {steps} steps = {rate:6.1f} steps/s   (target: 60 steps/s or more)"
          f"   {'OK' if rate >= 60 else 'SLOW'}")
    print(f"  view repaints while playing                 {painter.count / elapsed:7.1f} per second")
    if gaps:
        worst = max(gaps)
        p99 = sorted(gaps)[int(0.99 * (len(gaps) - 1))]
        print(f"  event-loop gaps (5 ms heartbeat): median {statistics.median(gaps):.1f} ms, 99th percentile "
              f"{p99:.1f} ms, longest {worst:.1f} ms   (target: no freezing, longest under 100 ms)"
              f"   {'OK' if worst < 100 else 'STALL'}")
    panel.close()


if __name__ == "__main__":
    main()
