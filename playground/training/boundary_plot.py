"""The decision-boundary column: the plane coloured by what the network predicts, the points, the
display toggles, the legend, and the class a click on the plot adds."""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from .boundary_view import BoundaryView
from .colours import MISCLASSIFIED, class_colours
from .flow_layout import FlowLayout
from .grid import FocusMap
from .points import COLOUR_NAMES
from .widgets import heading_font, named, style_plot


class ClassPicker(QWidget):
    """One radio button per class, in its colour: the class a click on the plot adds."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "classPicker", "The class a click on the plot adds (Shift-click: the next class)")
        self._flow = FlowLayout(self, spacing=10, row_spacing=2)  # wraps in a narrow column
        self._flow.right_aligned_last = False
        self._flow.addWidget(QLabel("Click adds:"))
        self.group = QButtonGroup(self)
        self.classes: tuple[str, ...] = ()
        self.dark = False
        self.show_classes(COLOUR_NAMES[:2])
        self.group.button(1).setChecked(True)

    def show_classes(self, classes: tuple[str, ...]) -> None:
        """One button per class name (keeping the chosen class when it is still there)."""
        chosen = max(self.group.checkedId(), 0)
        if tuple(classes) != self.classes:
            for button in self.group.buttons():
                self.group.removeButton(button)
                button.setObjectName("")  # nobody finds the old one by name before it is deleted
                button.hide()
                button.deleteLater()
            self.classes = tuple(classes)
            for label, name in enumerate(self.classes):
                radio = named(QRadioButton(f"● {name}"), f"clickClass{label}Radio",
                              f"Clicks add {name} points (label {label})")
                bold = QFont(radio.font())
                bold.setBold(True)
                radio.setFont(bold)
                self.group.addButton(radio, label)
                self._flow.addWidget(radio)
        self.set_theme(self.dark)
        self.group.button(min(chosen, len(self.classes) - 1)).setChecked(True)

    def set_theme(self, dark: bool) -> None:
        self.dark = dark
        colours = class_colours(dark)
        for button in self.group.buttons():
            palette = button.palette()  # the text in the class's colour; the rest follows the theme
            palette.setColor(QPalette.ColorRole.WindowText, QColor(colours[self.group.id(button)]))
            button.setPalette(palette)

    @property
    def current(self) -> int:
        return self.group.checkedId()

    def set_current(self, label: int) -> None:
        self.group.button(label).setChecked(True)


class BoundaryColumn(QWidget):
    clicked = Signal(float, float, bool)  # a left click on the plane: x1, x2, Shift held
    aspect_changed = Signal(float)        # the plot's data area, width / height: the plane is drawn to fill it

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("DECISION BOUNDARY")
        title.setFont(heading_font(self))
        layout.addWidget(title)
        # A line of its own, always there: whose map the plot shows while a neuron is hovered.
        self.focus_label = named(QLabel(), "focusLabel", "Whose map the plot shows")
        self.focus_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # never moves a thing
        self.focus_label.setWordWrap(True)
        self.focus_label.setFixedHeight(2 * self.focus_label.fontMetrics().lineSpacing() + 2)
        bold = QFont(self.focus_label.font())
        bold.setBold(True)
        self.focus_label.setFont(bold)
        layout.addWidget(self.focus_label)
        self.plot = named(pg.PlotWidget(), "boundaryPlot",
                          "What the network predicts over the plane; the line is its boundary. Click: add a point")
        style_plot(self.plot, self.palette())
        self.view = BoundaryView(self.plot)
        self.plot.scene().sigMouseClicked.connect(self._on_plot_clicked)
        # The plot fills the column; the worker draws the plane around the data's square to fill it too
        # (equal scales on both axes), so no empty bands above and below a square.
        self.plot.setMinimumSize(200, 200)
        self.plot.getPlotItem().vb.sigResized.connect(self._on_plot_resized)
        self.aspect = 1.0
        layout.addWidget(self.plot, 1)
        self.legend = QLabel()
        self.legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.legend.setWordWrap(True)
        layout.addWidget(self.legend)
        options_row = QWidget()
        options = FlowLayout(options_row, spacing=10, row_spacing=2)
        options.right_aligned_last = False
        self.discretize_check = named(QCheckBox("Discretise output"), "discretizeCheck",
                                      "Show the predicted class only, not how sure the network is")
        self.discretize_check.toggled.connect(self.view.set_discrete)
        self.show_test_check = named(QCheckBox("Show test data"), "showTestCheck",
                                     "Show the test points (triangles) on the plot")
        self.show_test_check.setChecked(True)
        self.show_test_check.toggled.connect(self.view.set_test_visible)
        options.addWidget(self.discretize_check)
        options.addWidget(self.show_test_check)
        layout.addWidget(options_row)
        self.class_picker = ClassPicker()
        layout.addWidget(self.class_picker)
        self._classes: tuple[str, ...] = COLOUR_NAMES[:2]
        self._show_legend()

    # -- classes --

    def show_classes(self, classes: tuple[str, ...]) -> None:
        self._classes = tuple(classes)
        self.class_picker.show_classes(self._classes)
        self._show_legend()

    @property
    def click_class(self) -> int:
        return self.class_picker.current

    def _show_legend(self) -> None:
        colours = class_colours(self.view.dark)
        swatches = " &nbsp; ".join(f"<span style='color:{colours[c]}'>●</span> {html.escape(name)}"
                                   for c, name in enumerate(self._classes))
        line = "p&nbsp;=&nbsp;0.5" if len(self._classes) == 2 else "between&nbsp;classes"
        wrong = f"<span style='color:{MISCLASSIFIED}'>◯</span>&nbsp;misclassified"
        self.legend.setText(f"{swatches}<br>●&nbsp;train &nbsp; ▲&nbsp;test &nbsp; {wrong} &nbsp; <b>—</b>&nbsp;{line}")

    # -- one neuron in place of the output --

    def show_focus(self, focus: FocusMap | None, title: str = "", levels: tuple[float, float] = (-1.0, 1.0)) -> None:
        self.view.show_focus(focus, levels)
        self.focus_label.setText(title)

    # -- events --

    @Slot(object)
    def _on_plot_resized(self, *_) -> None:
        size = self.plot.getPlotItem().vb.size()
        if size.width() < 10 or size.height() < 10:
            return
        aspect = size.width() / size.height()
        if abs(aspect - self.aspect) >= 0.01:
            self.aspect = aspect
            self.aspect_changed.emit(aspect)

    @Slot(object)
    def _on_plot_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.view.extent is None:
            return
        vb = self.plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        x0, x1, y0, y1 = self.view.plane_extent or self.view.extent  # anywhere the plane is drawn
        if not (x0 <= point.x() <= x1 and y0 <= point.y() <= y1):
            return
        self.clicked.emit(point.x(), point.y(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))

    def restyle(self, palette) -> None:
        style_plot(self.plot, palette)
        self.plot.setBackground(palette.color(palette.ColorRole.Window))  # the margin blends in
        dark = palette.color(palette.ColorRole.Window).lightness() < 128
        self.view.set_theme(dark)
        self.class_picker.set_theme(dark)
        self._show_legend()
