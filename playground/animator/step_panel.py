"""The animator's step panel: the current step's heading and arithmetic, and the list of every step.

The list's rows wrap: a long step ("Linear 1 = X · W1ᵀ + b1  [200×16]") is shown whole on two
lines rather than clipped at the list's edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QSignalBlocker, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QIcon,
    QPainter,
    QPalette,
    QPixmap,
    QPolygonF,
)
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListView, QListWidget, QScrollArea, QVBoxLayout, QWidget

from ..widgets.focus_frame import FocusFrame
from .model.timeline import Frame

EXPLANATION_LINES = 8  # the step box's height, in lines of its text
MARK_COLOR = "#fbd3cf"  # a flagged row: where a mistaken replay parts from the correct one
MARK_TEXT_COLOR = "#1f2328"  # its words, dark on the pale red in every theme (12:1; a dark theme's white was 1.3:1)


# Each pass's mark as well as its colour (WCAG 1.4.1): forward points right, the backward pass left, the
# seed between them is a diamond. The rows' icons take these shapes; the key over the list, these glyphs.
PHASE_SHAPES = {"forward": ((0.0, 0.0), (1.0, 0.5), (0.0, 1.0)),
                "seed": ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)),
                "backward": ((1.0, 0.0), (0.0, 0.5), (1.0, 1.0))}
PHASE_GLYPHS = {"forward": "▶", "seed": "◆", "backward": "◀"}


def phase_icon(phase: str, color: str, size: int = 12) -> QIcon:
    """A step row's icon: its pass's shape (`PHASE_SHAPES`) in its colour."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(color))
    inner = size - 3
    painter.drawPolygon(QPolygonF([QPointF(1.5 + x * inner, 1.5 + y * inner) for x, y in PHASE_SHAPES[phase]]))
    painter.end()
    return QIcon(pixmap)


class StepPanel(QWidget):
    """Heading, explanation box and step list; `step_clicked` says which step a click chose."""

    step_clicked = Signal(int)  # the position after the clicked step (1 for the first row)
    text_shown = Signal(str, str)  # the heading and explanation now shown (the caption under the graph repeats them)

    def __init__(self, phase_colors: dict[str, str], parent: QWidget | None = None):
        super().__init__(parent)
        self._icons = {phase: phase_icon(phase, color) for phase, color in phase_colors.items()}
        self._position = 0
        self._marked: int | None = None  # the flagged row (`mark_row`), its own text and its note
        self._marked_text = ""
        self._marked_note = ""

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(max(mono.pointSizeF(), 10.5))
        self.heading = QLabel()
        self.heading.setObjectName("stepHeading")
        heading_font = QFont(self.heading.font())
        heading_font.setBold(True)
        heading_font.setPointSizeF(heading_font.pointSizeF() * 1.15)
        self.heading.setFont(heading_font)
        self.heading.setWordWrap(True)
        self.explanation = QLabel()
        self.explanation.setObjectName("stepExplanation")
        self.explanation.setFont(mono)
        self.explanation.setTextFormat(Qt.TextFormat.PlainText)
        self.explanation.setWordWrap(True)
        self.explanation.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation.setContentsMargins(10, 8, 10, 8)
        self.explanation.setAutoFillBackground(True)  # the theme's base colour, following theme changes
        self.explanation.setBackgroundRole(QPalette.ColorRole.Base)
        # A box of fixed height (scrolling when a step says more): the step list below does not jump.
        self.explanation_box = QScrollArea()
        self.explanation_box.setObjectName("stepExplanationBox")
        self.explanation_box.setWidget(self.explanation)
        self.explanation_box.setWidgetResizable(True)
        self.explanation_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        FocusFrame(self.explanation_box)  # a Tab stop (↑ ↓ scroll it) whose style shows no focus of its own
        self._line_height = QFontMetricsF(mono).lineSpacing()
        self.set_explanation_lines(EXPLANATION_LINES)

        self.step_list = QListWidget()
        self.step_list.setObjectName("stepList")
        self.step_list.setAccessibleName("Steps of the pass")
        self.step_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.step_list.setToolTip("Every step of the animation; click one to go there")
        self.step_list.setSpacing(1)
        # Long rows wrap instead of being cut short ("[scal…"): each row is as tall as its text needs,
        # laid out in batches so that a few thousand steps still load at once.
        self.step_list.setWordWrap(True)
        self.step_list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.step_list.setResizeMode(QListView.ResizeMode.Adjust)
        self.step_list.setLayoutMode(QListView.LayoutMode.Batched)
        self.step_list.setBatchSize(200)
        self.step_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Clicks only: a list taking the focus would make its first row current, which is a step.
        self.step_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        # The rows' marks say which pass a step is in (not a node's state, as the colours under the graph do).
        key = "&nbsp;&nbsp;".join(f"<span style='color:{color}'>{PHASE_GLYPHS[phase]}</span>&nbsp;{phase}"
                                  for phase, color in phase_colors.items())
        steps_title = QLabel(f"All steps&nbsp;&nbsp;&nbsp;<span style='font-weight:normal'>{key}</span>")
        steps_title.setObjectName("stepListTitle")
        steps_title.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        steps_font = QFont(steps_title.font())
        steps_font.setBold(True)
        steps_title.setFont(steps_font)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.heading)
        layout.addWidget(self.explanation_box)
        self.extra = QVBoxLayout()  # room for what the panel adds under the explanation (the quiz)
        self.extra.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.extra)
        layout.addWidget(steps_title)
        layout.addWidget(self.step_list, 1)
        self.setMinimumWidth(330)

        self.step_list.currentRowChanged.connect(self._on_step_list_row_changed)
        self.step_list.itemClicked.connect(self._on_step_list_item_clicked)

    def show_frames(self, frames: Sequence[Frame]) -> None:
        """One row per frame: "12.  t3 → a: 10 x 1 = 10", with the phase's colour and the arithmetic as tooltip."""
        self._marked = None
        with QSignalBlocker(self.step_list):
            self.step_list.clear()
            self.step_list.addItems([f"{i}.  {frame.title}" for i, frame in enumerate(frames, start=1)])
            for i, frame in enumerate(frames):
                item = self.step_list.item(i)
                item.setIcon(self._icons[frame.phase])
                item.setToolTip(frame.explanation)
        self._position = 0

    def set_row(self, position: int, title: str, tooltip: str) -> None:
        """Write the row of the step at ``position`` again (a quiz hides or reveals its numbers)."""
        if not 1 <= position <= self.step_list.count():
            return
        item = self.step_list.item(position - 1)
        text = f"{position}.  {title}"
        if self._marked == position - 1:
            self._marked_text = text
            text = f"{text}   ⚑ {self._marked_note}"
        item.setText(text)
        item.setToolTip(tooltip)

    def set_explanation_lines(self, lines: int) -> None:
        """The step box's fixed height, in lines (more when a pitfall replay explains both passes)."""
        self.explanation_box.setFixedHeight(round(self._line_height * lines) + 20)

    def mark_row(self, position: int | None, note: str) -> None:
        """Flag the row of the step at ``position`` with ``note`` (None: no row flagged)."""
        if self._marked is not None and self._marked < self.step_list.count():
            item = self.step_list.item(self._marked)
            item.setText(self._marked_text)
            item.setBackground(QBrush())
            item.setForeground(QBrush())
        self._marked = None
        if position is not None and 1 <= position <= self.step_list.count():
            item = self.step_list.item(position - 1)
            self._marked, self._marked_text, self._marked_note = position - 1, item.text(), note
            item.setText(f"{item.text()}   ⚑ {note}")
            item.setBackground(QColor(MARK_COLOR))
            item.setForeground(QColor(MARK_TEXT_COLOR))

    def clear_frames(self) -> None:
        self._marked = None
        self.step_list.clear()
        self._position = 0

    def show_text(self, heading: str, explanation: str) -> None:
        self.heading.setText(heading)
        self.explanation.setText(explanation)
        self.text_shown.emit(heading, explanation)

    def show_position(self, position: int) -> None:
        """The row of the step at ``position`` is the current row, scrolled into view; none before the first."""
        self._position = position
        row = position - 1
        if self.step_list.currentRow() != row:
            with QSignalBlocker(self.step_list):
                if row < 0:
                    self.step_list.setCurrentRow(-1)
                    self.step_list.clearSelection()
                else:
                    self.step_list.setCurrentRow(row)
                    self.step_list.scrollToItem(self.step_list.item(row))

    def _on_step_list_row_changed(self, row: int) -> None:
        """Only a click moves in time (`_on_step_list_item_clicked`): a row made current any other way,
        such as by the list taking the focus, goes back to the current step."""
        if row != self._position - 1:
            self.show_position(self._position)

    def _on_step_list_item_clicked(self, item) -> None:
        self.step_clicked.emit(self.step_list.row(item) + 1)
