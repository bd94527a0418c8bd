"""The decision-boundary column: the plane coloured by what the network predicts, the points, the
display toggles, the legend, and the class a click on the plot adds."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QCheckBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from ..common.class_marks import class_glyph
from ..common.colours import class_colours, class_line_colours
from ..widgets.meaning_colours import fitted
from .boundary_view import BoundaryView
from .flow_layout import FlowLayout
from .model.grid import FocusMap
from .model.points import COLOUR_NAMES
from .plot_cursor import PlotCursor
from .plot_fit import FittedPlotHolder, fitted_view
from .value_scale import ValueScale
from .widgets import heading_font, named, style_plot

PLOT_MIN = 200             # the plot's smallest side, axes included
PLOT_MIN_PRESENTING = 240  # in presentation mode: the plane's smallest side, inside the axes


class ClassPicker(QWidget):
    """One radio button per class, in its colour: the class a click on the plot adds."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "classPicker", "The class a click on the plot adds (Shift-click: the next class; "
                                    "0-9 on the plot choose it)", spoken="The class a click on the plot adds")
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
                radio = named(QRadioButton(f"{class_glyph(label)} {name}"), f"clickClass{label}Radio",
                              f"Clicks add {name} points (label {label})", spoken=f"Click adds {name} points")
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
            palette = button.palette()  # the text in the class's colour, as deep as text must be; the rest follows
            colour = fitted(colours[self.group.id(button)], QApplication.palette())
            palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
            button.setPalette(palette)

    @property
    def current(self) -> int:
        return self.group.checkedId()

    def set_current(self, label: int) -> None:
        self.group.button(label).setChecked(True)


class BoundaryColumn(QWidget):
    clicked = Signal(float, float, bool)  # a left click on the plane: x1, x2, Shift held

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = title = QLabel("DECISION BOUNDARY")
        title.setFont(heading_font(self))
        layout.addWidget(title)
        self.plot = named(pg.PlotWidget(), "boundaryPlot",
                          "What the network predicts over the plane; the line is its boundary. Click: add a point "
                          "(or arrows and Enter, once the plot has the keyboard)",
                          spoken="Decision boundary plot: click, or arrows and Enter, add a point")
        # Whose map the plot shows while a neuron is hovered: written over the plot's top edge, so that
        # it never moves a thing and takes no line of its own from a short screen.
        self.focus_label = named(QLabel(self.plot), "focusLabel", "Whose map the plot shows")
        self.focus_label.setWordWrap(True)
        self.focus_label.setAutoFillBackground(True)
        self.focus_label.setContentsMargins(4, 2, 4, 2)
        self.focus_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        bold = QFont(self.focus_label.font())
        bold.setBold(True)
        self.focus_label.setFont(bold)
        self.focus_label.hide()
        style_plot(self.plot, self.palette())
        self.view = BoundaryView(self.plot)
        self.plot.scene().sigMouseClicked.connect(self._on_plot_clicked)
        # The plot shows the data with a margin, equal scales on both axes, as large as the column allows
        # (`plot_fit`); the worker draws the plane over the data's square, which holds every such view.
        self.holder = FittedPlotHolder(self.plot, PLOT_MIN)
        # The holder gives the data area the view's shape, so the scales are equal; pyqtgraph's own lock
        # would widen the view past the data's square (and the picture) whenever the axes took a pixel
        # less than the room kept for them.
        self.plot.getPlotItem().setAspectLocked(False)
        self.plot.getPlotItem().vb.sigResized.connect(self._place_focus_label)
        layout.addWidget(self.holder, 1)
        self.value_scale = ValueScale()  # a regression's colour bar
        self.value_scale.hide()
        layout.addWidget(self.value_scale)
        self.legend = QLabel()
        self.legend.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.legend.setWordWrap(True)
        layout.addWidget(self.legend)
        self.options_row = options_row = QWidget()
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
        layout.addStretch(0)  # what the plot cannot use in a tall column: below everything
        self._classes: tuple[str, ...] = COLOUR_NAMES[:2]
        self._show_legend()
        self.keyboard = PlotCursor(self)  # arrows, Enter and 0-9 on the plot: a click's point without a mouse

    def fit_to(self, square, points: np.ndarray) -> None:
        """New data: the plane is drawn over the data's ``square``; the plot shows ``points`` with a margin."""
        self.view.set_extent(square)
        self.holder.show_fitted(fitted_view(points, square))

    # -- classes --

    def show_classes(self, classes: tuple[str, ...]) -> None:
        self._classes = tuple(classes)
        self.class_picker.show_classes(self._classes)
        self._show_legend()

    def show_values(self, X_train, y_train, X_test, y_test) -> None:
        """A regression: its points coloured by value, the colour bar in place of the classes' picker (a
        click adds no point to a regression), the legend without classes."""
        self.view.set_values(X_train, y_train, X_test, y_test)
        self.value_scale.set_levels(self.view.levels)
        self.value_scale.set_theme(self.view.dark)
        self.value_scale.show()
        self.class_picker.hide()
        self.discretize_check.setEnabled(False)
        self.legend.setText("●&nbsp;train &nbsp; ▲&nbsp;test &nbsp; <b>—</b>&nbsp;predicted&nbsp;value&nbsp;0")
        self.title.setText("PREDICTED VALUE")  # a regression has no classes to draw a boundary between
        self.plot.setAccessibleDescription("What the network predicts at each place of the plane, on the colour "
                                           "bar's scale; the line is where the prediction is 0")

    def show_points(self, X_train, y_train, X_test, y_test) -> None:
        """A classification's points, in their classes' colours (the colour bar hidden)."""
        self.view.set_points(X_train, y_train, X_test, y_test)
        self.title.setText("DECISION BOUNDARY")
        self.value_scale.hide()
        self.class_picker.show()
        self.discretize_check.setEnabled(True)
        self._show_legend()

    @property
    def click_class(self) -> int:
        return self.class_picker.current

    def _show_legend(self) -> None:
        colours = class_line_colours(self.view.dark)
        # Each class's shape in its colour; filled is a training point, hollow a test point (as plotted).
        swatches = " &nbsp; ".join(f"<span style='color:{colours[c]}'>{class_glyph(c)}</span> {html.escape(name)}"
                                   for c, name in enumerate(self._classes))
        line = "p&nbsp;=&nbsp;0.5" if len(self._classes) == 2 else "between&nbsp;classes"
        wrong = "<b>◯</b>&nbsp;misclassified&nbsp;(ringed)"
        self.legend.setText(f"{swatches}<br>filled&nbsp;{class_glyph(0)}&nbsp;train &nbsp; "
                            f"hollow&nbsp;{class_glyph(0, hollow=True)}&nbsp;test &nbsp; {wrong} &nbsp; "
                            f"<b>—</b>&nbsp;{line}")

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: the plot never smaller than a class can read (`PLOT_MIN_PRESENTING` inside
        its axes, which grow with the text)."""
        self.holder.set_inner_minimum(0 if factor <= 1.0 else PLOT_MIN_PRESENTING)
        if factor <= 1.0:
            self.holder.setMinimumSize(PLOT_MIN, PLOT_MIN)
        self._place_focus_label()
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        """Tall enough for the plot at its smallest and every line under it as wrapped at this width:
        Qt's own hint counts a wrapped label as one line, and the splitter holding the column does not
        ask for more, so a short screen would lay the legend over the plot's axis."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        width = max(self.width(), hint.width())
        height = sum(widget.heightForWidth(width) if widget.hasHeightForWidth() else widget.minimumSizeHint().height()
                     for widget in (self.title, self.legend, self.options_row, self.class_picker))
        height += self.holder.minimumHeight() + 4 * layout.spacing()
        return QSize(hint.width(), max(hint.height(), height))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the lines under the plot wrap differently: another smallest height

    # -- one neuron in place of the output --

    def show_focus(self, focus: FocusMap | None, title: str = "", levels: tuple[float, float] = (-1.0, 1.0)) -> None:
        self.view.show_focus(focus, levels)
        self.focus_label.setText(title)
        self.focus_label.setVisible(bool(title))
        self._place_focus_label()

    def _place_focus_label(self, *_) -> None:
        """Across the top of the plot's data area, as many lines tall as its text takes there."""
        area = self.plot.getPlotItem().vb.sceneBoundingRect().toAlignedRect()
        if area.width() < 10:
            area = self.plot.rect()
        label = self.focus_label
        label.setGeometry(area.left(), area.top(), area.width(), label.heightForWidth(area.width()))

    # -- events --

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
        self.keyboard.restyle()
