"""The decision-boundary plot by keyboard (issue 32): a student who cannot click adds points as one who can.

Once the plot has the keyboard (Tab stops at it; a frame in the palette's highlight colour says so), a
crosshair shows where a point would go: the arrows move it a small step, Shift+arrows a big one, Enter or
Space adds a point of the chosen class there (the same signal a click emits, so the same code path), and
0-9 choose the class (the picker's radio buttons follow). Tab and Shift+Tab are left alone: they leave the
plot. Where the cursor is and which class it adds is the plot's accessible description; an added point and
a chosen class are `announce`d.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt

from ..common.class_marks import class_symbol
from ..common.colours import POINT_OUTLINE, class_colours
from ..widgets.errors import guarded
from ..widgets.focus_frame import FocusFrame
from ..widgets.spoken import announce
from .boundary_view import LINE_COLOURS

STEPS = 40        # an arrow moves the cursor 1/STEPS of the plane's width (or height)
BIG_STEPS = 8     # Shift+arrow: 1/BIG_STEPS
ADD_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
MOVES = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1)}
KEY_HELP = (  # (keys, what they do) for Help > Keyboard shortcuts and the README
    ("← → ↑ ↓ on the decision-boundary plot", "Move the crosshair where a point would go"),
    ("Shift+← → ↑ ↓ on the plot", "Move the crosshair in bigger steps"),
    ("Enter, Space on the plot", "Add a point of the chosen class at the crosshair (as a click there)"),
    ("0-9 on the plot", "Choose the class the plot adds"),
    ("Tab, Shift+Tab on the plot", "The next or the previous control (no trap)"),
)


class PlotCursor(QObject):
    """The keyboard's crosshair on ``column``'s plot (a `BoundaryColumn`): it emits the column's ``clicked``."""

    def __init__(self, column):
        super().__init__(column)
        self.column = column
        self.plot: pg.PlotWidget = column.plot
        self.plot.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a Tab stop: the only way a keyboard adds points
        self.frame = FocusFrame(self.plot)  # the plot has the keyboard: a frame round it says so
        self.position: tuple[float, float] | None = None  # where a point would go; None: the view's centre
        pen = pg.mkPen(LINE_COLOURS[False], width=1.5, style=Qt.PenStyle.DashLine)
        self.lines = [pg.InfiniteLine(angle=angle, movable=False, pen=pen) for angle in (90, 0)]
        self.marker = pg.ScatterPlotItem(size=16, name="keyboard cursor")
        item = self.plot.getPlotItem()
        for part in (*self.lines, self.marker):
            part.setZValue(20)  # over the points
            part.setVisible(False)
            item.addItem(part)
        self.plot.installEventFilter(self)
        column.class_picker.group.idToggled.connect(self._on_class_toggled)  # a mouse's choice: the marker follows

    def _recover(self, error: Exception) -> None:
        """After a bug in a key's handler (`guarded`): the cursor goes back to the view's middle."""
        self.position = None

    def _on_class_toggled(self, label: int, checked: bool) -> None:
        if checked and self.position is not None:
            self._show()

    def restyle(self) -> None:
        """A new theme: the crosshair and the marker in its colours (and the plot a Tab stop again: `style_plot`
        makes every plot one a click focuses only)."""
        self.plot.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._show()

    # -- where, and what --

    def _plane(self) -> tuple[float, float, float, float] | None:
        view = self.column.view
        return view.plane_extent or view.extent

    def _place(self, x: float, y: float) -> None:
        x0, x1, y0, y1 = self._plane()
        self.position = (min(max(x, x0), x1), min(max(y, y0), y1))
        self._show()

    def _class_text(self, label: int) -> str:
        classes = self.column.class_picker.classes
        return f"class {label} ({classes[label]})" if 0 <= label < len(classes) else f"class {label}"

    def _adds_points(self) -> bool:
        return self.column.class_picker.isVisibleTo(self.column)  # hidden: a regression, whose points come with values

    def description(self) -> str:
        if self.position is None:
            return "Arrows move a crosshair over the plane; Enter adds a point there"
        x, y = self.position
        if not self._adds_points():
            return f"Crosshair at ({x:.2f}, {y:.2f}); a regression's points come from its data"
        return (f"Crosshair at ({x:.2f}, {y:.2f}); Enter adds a point of "
                f"{self._class_text(self.column.click_class)}; 0-9 choose the class")

    def _show(self) -> None:
        shown = self.plot.hasFocus() and self.position is not None
        for part in (*self.lines, self.marker):
            part.setVisible(shown)
        if self.position is not None:
            x, y = self.position
            self.lines[0].setValue(x)
            self.lines[1].setValue(y)
            dark = self.column.view.dark
            label = max(self.column.click_class, 0)
            for line in self.lines:
                line.setPen(pg.mkPen(LINE_COLOURS[dark], width=1.5, style=Qt.PenStyle.DashLine))
            self.marker.setData(pos=[(x, y)], symbol=class_symbol(label),
                                brush=pg.mkBrush(class_colours(dark)[label]),
                                pen=pg.mkPen(POINT_OUTLINE[dark], width=2))
        self.plot.setAccessibleDescription(self.description())

    # -- keys --

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.KeyPress:
            return bool(self._key(event))
        if kind in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            self._focus_changed(kind == QEvent.Type.FocusIn)
        return False

    @guarded
    def _focus_changed(self, focused: bool) -> None:
        if focused and self.position is None and self._plane() is not None:
            (x0, x1), (y0, y1) = self.plot.getPlotItem().vb.viewRange()
            self._place((x0 + x1) / 2, (y0 + y1) / 2)  # the middle of what the plot shows
        self._show()

    @guarded
    def _key(self, event) -> bool:
        """True when the key was the plot's (moved, added, chose); Tab and the rest go on as before."""
        key, shift = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if self._plane() is None or event.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier
                                                          | Qt.KeyboardModifier.KeypadModifier):
            return False  # no data yet, or Ctrl/Alt: the window's shortcuts
        if key in MOVES:
            self._move(*MOVES[key], BIG_STEPS if shift else STEPS)
            return True
        if key in ADD_KEYS and not shift:
            if not event.isAutoRepeat():  # a held Enter adds one point, not a stream of them
                self._add()
            return True
        if Qt.Key.Key_0 <= key <= Qt.Key.Key_9 and not shift:
            self._choose(key - Qt.Key.Key_0)
            return True
        return False

    def _move(self, dx: int, dy: int, steps: int) -> None:
        x0, x1, y0, y1 = self._plane()
        x, y = self.position if self.position is not None else ((x0 + x1) / 2, (y0 + y1) / 2)
        self._place(x + dx * (x1 - x0) / steps, y + dy * (y1 - y0) / steps)

    def _add(self) -> None:
        self._move(0, 0, STEPS)  # on the plane as it is now (new data may have moved it): where a click could add
        if not self._adds_points():
            announce(self.plot, "A regression's points come from its data: no point added")
            return
        x, y = self.position
        label = self.column.click_class
        self.column.clicked.emit(x, y, False)  # what a click at (x, y) emits
        announce(self.plot, f"Added a point of {self._class_text(label)} at ({x:.2f}, {y:.2f})")

    def _choose(self, label: int) -> None:
        picker = self.column.class_picker
        if not self._adds_points():
            return
        if label >= len(picker.classes):
            announce(self.plot, f"No class {label}: the classes are 0 to {len(picker.classes) - 1}")
            return
        picker.set_current(label)
        self._show()
        announce(self.plot, f"Adding points of {self._class_text(label)}")
