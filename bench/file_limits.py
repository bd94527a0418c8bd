"""Files at their limits (issue 20): how long the largest graph and setup the app accepts take to open.

Target: a graph at the node limit opens (read, checked, drawn) and evaluates within 2 s; a setup with
the most points the app takes opens well within that. Each is timed as File > Open does it in the real
window (offscreen), three times; printed, not asserted.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/file_limits.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _random_graphs import random_graph  # noqa: E402  (beside this script)
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.graph.file_io import save_document  # noqa: E402
from playground.graph.graph_file import MAX_NODES  # noqa: E402
from playground.graph.layout import layered_layout  # noqa: E402
from playground.shell.main_window import MainWindow  # noqa: E402
from playground.training.model.settings import MAX_POINTS, TrainingSettings  # noqa: E402
from playground.training.model.setup_file import TrainingSetup, save_setup  # noqa: E402

RUNS = 3


def timed_open(app, window, path: Path) -> float:
    start = time.perf_counter()
    if not window.open_path(path):
        sys.exit(f"{path.name} was refused")
    app.processEvents()
    window.editor.evaluation  # noqa: B018 - the evaluation pending for this turn of the event loop
    return time.perf_counter() - start


def main() -> None:
    app = QApplication.instance() or QApplication([])
    window = MainWindow(QSettings(os.devnull, QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: None
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    folder = Path(tempfile.mkdtemp())

    graph = random_graph(MAX_NODES)
    for node_id, (x, y) in layered_layout(graph).items():
        graph.move_node(node_id, x, y)
    graph_path = folder / "limit.json"
    save_document(graph_path, graph)
    times = [timed_open(app, window, graph_path) for _ in range(RUNS)]
    print(f"graph of {MAX_NODES:,} nodes ({graph_path.stat().st_size / 2**20:.1f} MB): opened and evaluated in "
          f"{min(times):.2f} / {statistics.median(times):.2f} / {max(times):.2f} s (min / median / max; target 2 s)")

    setup_path = folder / "setup.json"
    save_setup(setup_path, TrainingSetup(TrainingSettings(points=MAX_POINTS)))
    times = [timed_open(app, window, setup_path) for _ in range(RUNS)]
    print(f"setup of {MAX_POINTS:,} generated points: read, checked and applied in "
          f"{min(times):.2f} / {statistics.median(times):.2f} / {max(times):.2f} s")
    print(json.dumps({"graph_nodes": MAX_NODES, "setup_points": MAX_POINTS}))


if __name__ == "__main__":
    main()
