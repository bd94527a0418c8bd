"""Graph editor speed on a 500-node graph, measured offscreen in one run.

Targets (issue 3): open + lay out + paint under 1 s; one value edit re-evaluated and
repainted under 50 ms; panning stays cheap (zoomed out, nodes are drawn without text).
Tensor graphs (issue 19): a graph of about 20 nodes of 64 x 64 tensors opens (laid out, evaluated,
painted) within 0.5 s, and one element typed in a table re-evaluates and repaints within 30 ms.

Two ways a graph arrives: a file that has its positions (opened and painted), and a graph laid out by
the editor (Auto-layout: the layout computed, then the cards glide ~250 ms to their places and the view
fits them). Edits are timed on the graph as a person then sees it, fitted at a readable zoom.
Printed, not asserted: timings belong here, not in the test suite.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/editor_speed.py [nodes]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _random_graphs import random_graph  # noqa: E402  (beside this script)
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.editor.commands import EditCommand  # noqa: E402
from playground.editor.moves import MOVE_ANIMATION_MS  # noqa: E402
from playground.graph import edits  # noqa: E402
from playground.graph.expression import parse_expression  # noqa: E402
from playground.graph.layout import layered_layout  # noqa: E402
from playground.shell.main_window import MainWindow  # noqa: E402

NODES = int(sys.argv[1]) if len(sys.argv) > 1 else 500
# A layer-like tensor graph of 21 nodes, every array 64 x 64 (or 64), as a person would type it.
TENSOR_EXPRESSION = ("A = randn(64, 64, seed=0); B = randn(64, 64, seed=1); C = rand(64, 64, seed=2); "
                     "D = randn(64, 64, seed=3); b = zeros(64); H1 = tanh(A @ B + b); H2 = sigmoid(H1 @ C); "
                     "H3 = relu(H2 * D - A); H4 = exp(-H3) + H1.T; L = mean(H4 @ H2) ** 2")


def paint(window) -> None:
    """Render the editor view as the screen would (offscreen there is no real expose)."""
    view = window.editor.view
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    view.render(painter)
    painter.end()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    window = MainWindow(QSettings(os.devnull, QSettings.Format.IniFormat))
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    # A file with positions: open and paint it.
    document = random_graph(NODES)
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    start = time.perf_counter()
    window.files.set_document(document, None, "bench")  # what File > Open does after reading the file
    app.processEvents()
    paint(window)
    open_ms = 1e3 * (time.perf_counter() - start)

    # Auto-layout of a graph whose cards all stand at one spot: compute and push, then the glide.
    unplaced = random_graph(NODES)
    window.files.set_document(unplaced, None, "bench")
    app.processEvents()
    start = time.perf_counter()
    window.editor.auto_layout()
    layout_ms = 1e3 * (time.perf_counter() - start)
    while window.editor.scene.is_animating():
        app.processEvents()
    app.processEvents()
    paint(window)
    document = unplaced
    view = window.editor.view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    cards_shown = sum(card.sceneBoundingRect().intersects(shown) for card in window.editor.scene.node_items())
    fitted_zoom = view.zoom()

    leaf = document.nodes[0].id
    edit_times = []
    for k in range(30):
        start = time.perf_counter()
        window.undo_stack.push(EditCommand(window.document, edits.set_value(window.document, leaf, 0.01 * k)))
        window.editor.refresh()
        paint(window)
        edit_times.append(1e3 * (time.perf_counter() - start))

    view = window.editor.view
    pan_times = {}
    for zoom in (1.0, 0.2):
        view.set_zoom(zoom) if hasattr(view, "set_zoom") else None
        samples = []
        for k in range(20):
            start = time.perf_counter()
            view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + (15 if k % 2 else -15))
            paint(window)
            samples.append(1e3 * (time.perf_counter() - start))
        pan_times[zoom] = statistics.median(samples)

    evaluation = window.editor.evaluation
    print(f"graph editor, {NODES} nodes, {len(document.edges)} wires (output = {evaluation.summary()}):")
    print(f"  open a laid-out file + paint {open_ms:7.1f} ms   (target: under 1000 ms)")
    print(f"  auto-layout, computed + pushed {layout_ms:5.1f} ms   (then a {MOVE_ANIMATION_MS} ms glide; "
          f"the view fits {cards_shown} cards at zoom {fitted_zoom:.2f})")
    print(f"  one value edit, re-evaluate + repaint, median of 30   {statistics.median(edit_times):6.1f} ms"
          f"   (target: under 50 ms; worst {max(edit_times):.1f} ms)")
    for zoom, ms in pan_times.items():
        print(f"  pan one step at zoom {zoom:.1f}    {ms:6.1f} ms per repaint")
    tensor_figures(app, window)
    window.undo_stack.setClean()
    window.close()


def tensor_figures(app, window) -> None:
    """Open the tensor graph as Build graph does, then type one element of A as the table editor does."""
    document = parse_expression(TENSOR_EXPRESSION)
    for node_id, (x, y) in layered_layout(document).items():
        document.move_node(node_id, x, y)
    start = time.perf_counter()
    window.files.set_document(document, None, "bench")
    app.processEvents()
    paint(window)
    open_ms = 1e3 * (time.perf_counter() - start)
    leaf = next(node.id for node in window.document.nodes if window.document.name(node.id) == "A")
    edit_times = []
    for k in range(20):
        value = np.array(window.document.node(leaf).value, dtype=float)
        value[k % 64, (3 * k) % 64] += 0.25  # one cell of the table, typed
        start = time.perf_counter()
        window.undo_stack.push(EditCommand(window.document, edits.set_value(window.document, leaf, value)))
        window.editor.refresh()
        paint(window)
        edit_times.append(1e3 * (time.perf_counter() - start))
    output = window.editor.evaluation.summary()
    print(f"tensor graph, {len(window.document.nodes)} nodes of 64 x 64 (output = {output}):")
    print(f"  open + evaluate + paint      {open_ms:7.1f} ms   (target: under 500 ms)")
    print(f"  one element typed, re-evaluate + repaint, median of 20   {statistics.median(edit_times):6.1f} ms"
          f"   (target: under 30 ms; worst {max(edit_times):.1f} ms)")


if __name__ == "__main__":
    main()
