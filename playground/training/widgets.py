"""Pieces the training panel and the optimizer race share: names and fonts, plot styling, a square
plot holder, and exporting a plot."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401 - registers pg.exporters
from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QGraphicsItem,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QWidget,
)

from ..widgets.elided_label import ElidedLabel  # noqa: F401 - where the training panel has always found it
from ..widgets.spoken import own_words

# Train: a wide pale line; test: a thin dark one drawn over it. Where the two coincide (a network that
# generalises well), the test line runs inside the train line and both stay visible.
# Both are middle tones (as the racers' colours): 3:1 off a white, a dark and a black plot (WCAG 1.4.11).
CURVE_PENS = {"train": ("#868b93", 4.5), "test": ("#e32b9c", 1.6),
              "batch": ("#868b93", 1.0)}  # each minibatch's own loss: thin and dotted, under the two
RACER_COLOURS = ("#c66109", "#b350dd", "#0e8f50")
# And a line style each, so the racers' loss curves are told apart without their colours (WCAG 1.4.1);
# the plot's legend draws each name beside a piece of its line.
RACER_LINES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine)


def named(widget: QWidget, name: str, tip: str = "", spoken: str = "") -> QWidget:
    """An objectName (tests and lessons find a control by it), the name a screen reader says and a tooltip that
    says what it does. The name said is ``spoken``, else the widget's own words (a button's text without its
    glyphs, a number box's `what`); a widget with neither keeps Qt's (a label is read by its text): never the
    objectName, which a reader would say as "batchSizeSpin"."""
    widget.setObjectName(name)
    words = spoken or own_words(widget)
    if words:
        widget.setAccessibleName(words)
    if tip:
        widget.setToolTip(tip)
        widget.setAccessibleDescription(tip)
    return widget


class CompactToolButton(QToolButton):
    """A borderless button of one sign ("+", "−", "‹") in a tight grid: its least size is its sign's, not the
    style's padded button (Fusion asks 27 px for a "+"), so a layout that gives it 19 px gives it enough."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        metrics = self.fontMetrics()
        return QSize(metrics.horizontalAdvance(self.text()) + 4, metrics.height())


def fix_size(label: QLabel, widest: str) -> None:
    """A label whose text changes many times a second gets a fixed size: otherwise every new text
    asks the whole panel to lay itself out and repaint. The size follows the label's font, so that
    presentation mode's larger text still fits."""
    _SizedToText(label, widest)


class _SizedToText(QObject):
    """Keeps a label's fixed size that of ``widest`` in the label's font, whenever the font changes."""

    def __init__(self, label: QLabel, widest: str):
        super().__init__(label)
        self.widest = widest
        self._fit(label)
        label.installEventFilter(self)

    def _fit(self, label: QLabel) -> None:
        metrics = label.fontMetrics()
        label.setFixedSize(metrics.horizontalAdvance(self.widest) + 8, metrics.height() + 4)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FontChange and isinstance(watched, QLabel):
            self._fit(watched)
        return False


def scale_plot_text(plot: pg.PlotWidget, factor: float, title_points: float = 8.0) -> None:
    """Presentation mode for a plot: its axis labels in the application's (scaled) font, its title
    ``title_points`` times ``factor`` points. The tick labels follow the widget's font by themselves."""
    item = plot.getPlotItem()
    font = QApplication.font()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.label.setFont(font)
        axis.update()
    item.titleLabel.setText(item.titleLabel.text, size=f"{title_points * factor:g}pt")


def heading_font(widget: QWidget) -> QFont:
    """The font of a column's title (DECISION BOUNDARY, OUTPUT): bold, slightly spaced."""
    font = QFont(widget.font())
    font.setBold(True)
    font.setLetterSpacing(QFont.SpacingType.PercentageSpacing, 108)
    return font


def let_combos_narrow(widget: QWidget, characters: int = 9) -> None:
    """Every combo box in ``widget`` may be as narrow as ``characters`` letters (its list still shows
    each choice whole): a long choice ("Binary cross-entropy") would otherwise set the column's width."""
    for combo in widget.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(characters)


def scrolling_column(widget: QWidget, width: int) -> QScrollArea:
    """A column that scrolls up and down on a short screen; never narrower than its widest control
    plus a scroll bar, so nothing is cut off on the right."""
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops at its controls, scrolled into sight, not at it
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    _ColumnWidth(area, widget, width)
    return area


class _ColumnWidth(QObject):
    """Keeps a scrolling column as wide as its widest control, also once the font grows (presentation mode)."""

    def __init__(self, area: QScrollArea, widget: QWidget, width: int):
        super().__init__(area)
        self.area, self.widget, self.width = area, widget, width
        self.fit()
        widget.installEventFilter(self)

    def fit(self) -> None:
        scroll_bar = self.area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        self.area.setFixedWidth(max(self.width, self.widget.minimumSizeHint().width() + scroll_bar))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FontChange:
            QTimer.singleShot(0, self, self.fit)  # once the column's layout has taken the new font in
        return False


def style_plot(plot: pg.PlotWidget, palette) -> None:
    """Plots follow the app's palette (light or dark theme)."""
    background = palette.color(palette.ColorRole.Base)
    foreground = palette.color(palette.ColorRole.Text)
    plot.setBackground(background)
    item = plot.getPlotItem()
    for name in ("left", "bottom", "top", "right"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(foreground))
        axis.setTextPen(pg.mkPen(foreground))
        axis.enableAutoSIPrefix(False)  # "loss (x0.001)" reads worse than 0.0005
        # Keep the painted axis as a pixmap: redrawing its text for every new frame of the plot
        # costs milliseconds; pyqtgraph calls update() when the ticks change, which refreshes it.
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    item.titleLabel.item.setDefaultTextColor(foreground)
    item.setMenuEnabled(False)
    item.hideButtons()
    # A picture, not a control: no stop of Tab's (a click still gives it the keyboard, for Space to play).
    plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)


class SquareHolder(QWidget):
    """Sizes its plot so that the plot's data area (inside the axes) is the largest square that fits:
    the plane is drawn with equal axis scales, and a square data area shows exactly the data's
    square, with no bands of empty plot around it."""

    def __init__(self, plot: pg.PlotWidget, minimum: int = 320):
        super().__init__()
        self.plot = plot
        plot.setParent(self)
        self.setMinimumSize(minimum, minimum)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        # The axes' sizes are known once pyqtgraph has laid the plot out: fit again then.
        plot.getPlotItem().vb.sigResized.connect(self._fit)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self, *_) -> None:
        rect = self.plot.getPlotItem().vb.sceneBoundingRect()
        if self.plot.width() > 0 and rect.width() > 0:
            pad_x, pad_y = self.plot.width() - round(rect.width()), self.plot.height() - round(rect.height())
        else:
            pad_x = pad_y = 0
        side = max(10, min(self.width() - pad_x, self.height() - pad_y))
        width, height = side + pad_x, side + pad_y
        geometry = QRect((self.width() - width) // 2, (self.height() - height) // 2, width, height)
        if geometry != self.plot.geometry():
            self.plot.setGeometry(geometry)


def export_plot(plot: pg.PlotWidget, path: str | os.PathLike) -> None:
    """PNG (pyqtgraph's ImageExporter, at least 1200 pixels wide) or SVG by the file's extension, atomically.

    pyqtgraph 0.14's SVGExporter fails on every plot under Qt 6.11 (Qt now closes paths with "Z",
    which its coordinate rewriting cannot parse: pyqtgraph issue #3495, fix not released), so SVG
    is drawn with Qt's own QSvgGenerator, as the graph editor does.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"{path.name}: export a plot as .png or .svg")
    temporary = path.with_name(f".{path.stem}.{secrets.token_hex(4)}{suffix}")
    try:
        if suffix == ".png":
            exporter = pg.exporters.ImageExporter(plot.getPlotItem())
            if int(exporter.parameters()["width"]) < 1200:
                exporter.parameters()["width"] = 1200
            exporter.export(str(temporary))
        else:
            _render_svg(plot, temporary)
        if not temporary.exists():
            raise OSError(f"could not write {path.name}")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _render_svg(plot: pg.PlotWidget, path: Path) -> None:
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(plot.size())
    generator.setViewBox(QRect(0, 0, plot.width(), plot.height()))
    generator.setTitle(plot.accessibleName() or "plot")
    generator.setDescription("Autograd Playground, training panel")
    painter = QPainter(generator)
    try:
        plot.render(painter)
    finally:
        painter.end()
