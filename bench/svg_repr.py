"""The notebook picture of a 1,000-node graph: time to write its SVG (engine.draw) and to render it (Qt's SVG
renderer, standing in for a browser), against the target of one second in all. The picture is rendered at
the width a notebook shows it (JupyterLab scales an output to the cell: 1,200 px here).

Run: .venv/bin/python bench/svg_repr.py
"""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QByteArray, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

from engine import Value  # noqa: E402
from engine.graph import reading_order  # noqa: E402

SHOWN_WIDTH = 1200


def thousand_nodes() -> Value:
    """A neuron-like mix of ops, 1,000 nodes and more: sums of products feeding tanh, layer on layer."""
    inputs = [Value(0.1 * i, label=f"x{i}") for i in range(8)]
    layer = inputs
    while True:
        outputs = []
        for j in range(8):
            total = Value.sum([v * Value(0.01 * (j + 1), label=f"w{j}") for v in layer])
            outputs.append(total.tanh())
        layer = outputs
        root = Value.sum(layer)
        if len(reading_order([root])) >= 1000:
            return root


def main() -> None:
    app = QGuiApplication([])  # noqa: F841 - the renderer needs one
    root = thousand_nodes()
    root.backward()
    nodes = len(reading_order([root]))
    write, render = [], []
    for _ in range(5):
        start = time.perf_counter()
        svg = root._repr_svg_()
        write.append(time.perf_counter() - start)
        start = time.perf_counter()
        renderer = QSvgRenderer(QByteArray(svg.encode()))
        size = renderer.defaultSize()
        size = size.scaled(min(size.width(), SHOWN_WIDTH), size.height(), Qt.AspectRatioMode.KeepAspectRatio)
        image = QImage(size, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        render.append(time.perf_counter() - start)
    total = [w + r for w, r in zip(write, render)]
    print(f"SVG repr of a {nodes}-node graph ({len(svg) / 1e6:.1f} MB, {renderer.defaultSize().width()} x "
          f"{renderer.defaultSize().height()} px, shown {size.width()} x {size.height()}), 5 runs, min/median/max:")
    print(f"  write (engine.draw)      {min(write):6.3f} {statistics.median(write):6.3f} {max(write):6.3f} s")
    print(f"  render (QSvgRenderer)    {min(render):6.3f} {statistics.median(render):6.3f} {max(render):6.3f} s")
    print(f"  in all                   {min(total):6.3f} {statistics.median(total):6.3f} {max(total):6.3f} s"
          f"   (target: under 1 s; {1 / statistics.median(total):.1f}x the target's pace)")


if __name__ == "__main__":
    main()
