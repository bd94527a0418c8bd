"""What going round cards costs the wires while a card moves (issue 29, item 8), measured offscreen.

A card is moved in 40 steps across its graph, twice. Moved by the keys (Shift+arrows), each step routes: the
card's own wires follow it, and every other wire whose course it enters or that went round a card finds its way
again. Dragged by the mouse (`CardScene.begin_drag`, as the editor's drag does), its wires keep plain curves while
it moves, and find their way once it lands (`end_drag`). Printed: the milliseconds a wire's update takes (its
course routed, its label placed), a step of each move, and the landing, for the biggest example (two_layer.json)
and for the editor benchmark's 500-node random graph laid out by the editor.
Printed, not asserted: timings belong here, not in the test suite.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/wire_routing_speed.py
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _random_graphs import random_graph  # noqa: E402  (beside this script)
from PySide6.QtCore import QPointF  # noqa: E402
from PySide6.QtGui import QUndoStack  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from playground.canvas.wires import WireItem  # noqa: E402
from playground.editor.scene import GraphScene  # noqa: E402
from playground.graph.document import GraphDocument  # noqa: E402
from playground.graph.layout import layered_layout  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "resources" / "examples"


def drag_across(document: GraphDocument, name: str) -> None:
    scene = GraphScene(document, QUndoStack())
    wire_times: list[float] = []
    original = WireItem.update_path

    def timed(wire: WireItem) -> None:
        began = time.perf_counter()
        original(wire)
        wire_times.append(time.perf_counter() - began)

    WireItem.update_path = timed
    try:
        cards = scene.node_items()
        card = cards[len(cards) // 2]  # one in the middle of the graph, with wires all round it
        bounds = scene.items_bounding_rect()
        start = QPointF(card.pos())

        def move_across() -> list[float]:
            step_times = []
            for step in range(40):
                target = QPointF(bounds.left() + bounds.width() * step / 39, start.y() + 30 * ((step % 5) - 2))
                began = time.perf_counter()
                card.setPos(target)
                step_times.append(time.perf_counter() - began)
            return step_times

        keys = move_across()
        routed = len(wire_times)
        detoured = sum(getattr(wire, "is_detoured", False) for wire in scene.wire_items())
        card.setPos(start)
        scene.begin_drag()
        drag = move_across()
        began = time.perf_counter()
        scene.end_drag()
        landing = time.perf_counter() - began
    finally:
        WireItem.update_path = original
    print(f"{name}: {len(cards)} cards, {len(scene.wire_items())} wires ({detoured} going round a card at the end); "
          f"a wire's update {statistics.median(wire_times[:routed]) * 1e3:.2f} ms median, "
          f"{max(wire_times[:routed]) * 1e3:.2f} ms at most")
    print(f"  moved by the keys   : a step {statistics.median(keys) * 1e3:5.1f} ms median, "
          f"{max(keys) * 1e3:5.1f} ms at most ({routed / len(keys):.1f} wire updates a step)")
    print(f"  dragged by the mouse: a step {statistics.median(drag) * 1e3:5.1f} ms median, "
          f"{max(drag) * 1e3:5.1f} ms at most; the landing {landing * 1e3:.1f} ms")


def main() -> None:
    QApplication.instance() or QApplication([])
    example = GraphDocument.from_dict(json.loads((EXAMPLES / "two_layer.json").read_text(encoding="utf-8")))
    drag_across(example, "two_layer.json")
    big = random_graph(500)
    for node_id, (x, y) in layered_layout(big).items():
        big.move_node(node_id, x, y)
    drag_across(big, "random 500-node graph")


if __name__ == "__main__":
    main()
