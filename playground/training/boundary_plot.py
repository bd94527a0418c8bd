"""The decision-boundary column: the plane coloured by what the network predicts, the points, and a
click that adds a point."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from .widgets import CLASS_COLOURS, BoundaryView, SquareHolder, heading_font, named, style_plot


class BoundaryColumn(QWidget):
    clicked = Signal(float, float, bool)  # a left click inside the data's square: x1, x2, Shift held

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("DECISION BOUNDARY")
        title.setFont(heading_font(self))
        layout.addWidget(title)
        self.plot = named(pg.PlotWidget(), "boundaryPlot",
                          "P(blue) over the plane; the line is p = 0.5. Click: add a point")
        style_plot(self.plot, self.palette())
        self.view = BoundaryView(self.plot)
        self.plot.scene().sigMouseClicked.connect(self._on_plot_clicked)
        layout.addWidget(SquareHolder(self.plot), 1)
        legend = QLabel(
            f"<span style='color:{CLASS_COLOURS[0]}'>●</span><span style='color:{CLASS_COLOURS[1]}'>●</span> "
            f"train &nbsp; <span style='color:{CLASS_COLOURS[0]}'>▲</span><span style='color:{CLASS_COLOURS[1]}'>▲"
            "</span> test &nbsp; <span style='color:#d93025'>◯</span> misclassified &nbsp; "
            "<b>—</b> p = 0.5")
        legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(legend)

    @Slot(object)
    def _on_plot_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.view.extent is None:
            return
        vb = self.plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        x0, x1, y0, y1 = self.view.extent
        if not (x0 <= point.x() <= x1 and y0 <= point.y() <= y1):
            return
        self.clicked.emit(point.x(), point.y(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))

    def restyle(self, palette) -> None:
        style_plot(self.plot, palette)
        self.plot.setBackground(palette.color(palette.ColorRole.Window))  # the margin blends in
