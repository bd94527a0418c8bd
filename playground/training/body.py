"""The training tab's body, under its toolbar and status line: the settings column (data and
network controls) on the left, then the three views (the network diagram, the decision boundary,
the output curves) side by side in a splitter whose handles a person drags.

On a small screen, or in presentation mode, the body gives way rather than push the window past
the screen: the settings column folds away by itself when the views would otherwise be squeezed
below the sizes they need (a person unfolds it with the arrow beside it, or folds it on a big
screen), and when even that is not enough, the body scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QScrollArea,
    QSplitter,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from .widgets import CompactToolButton, let_combos_narrow, named, scrolling_column

SETTINGS_WIDTH = 236   # the settings column at 100%, unless its widest control asks for more
VIEW_STRETCH = (5, 5, 3)  # how the views share the width the panel gets: network, boundary, output
SPACING = 8
FOLD_BUTTON = (14, 40)  # the fold button's width and height at 100%
MIN_COLUMN_HEIGHT = 120  # a scrolling column's smallest height


class ColumnScroller(QScrollArea):
    """A view's column that scrolls up and down when the screen is shorter than the column needs, and
    is never narrower than the column's widest line (so nothing is cut off on the right)."""

    def __init__(self, column: QWidget):
        super().__init__()
        self.setWidget(column)
        # Sized here, not by QScrollArea (`_fit`): a resizable widget whose layout has a height-for-width
        # item (the confusion matrices) is made as tall as it *prefers*, and the curve plots' preference
        # is larger than any screen.
        self.setWidgetResizable(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops at its controls, scrolled into sight, not at it
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # One surface with the panel around it (setWidget made the column paint a background of its own).
        self.viewport().setAutoFillBackground(False)
        column.setAutoFillBackground(False)
        column.installEventFilter(self)

    def _scroll_bar_width(self) -> int:
        return self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.widget().minimumSizeHint().width() + self._scroll_bar_width(), MIN_COLUMN_HEIGHT)

    def sizeHint(self) -> QSize:
        hint = self.widget().sizeHint()
        return QSize(hint.width() + self._scroll_bar_width(), hint.height())

    def _fit(self) -> None:
        """The column as wide as the viewport less a scroll bar, and as tall, or as tall as it must be at that
        width. The scroll bar's room is kept whether it shows or not: a column that took it back when the
        bar went would wrap its lines anew, need another height, and bring the bar back, again and again."""
        column, width = self.widget(), self.width() - self._scroll_bar_width()
        layout = column.layout()
        needed = column.minimumSizeHint().height()
        if layout is not None and layout.hasHeightForWidth():
            needed = max(needed, layout.minimumHeightForWidth(width))
        column.resize(width, max(self.viewport().height(), needed))

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._fit()
        return super().viewportEvent(event)

    def eventFilter(self, watched, event) -> bool:
        # The column's smallest size changed (presentation mode): the splitter asks again, and the column
        # is fitted once its layout has settled. A hidden tab lays itself out when shown, with no request.
        if watched is self.widget() and event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self.updateGeometry()
            QTimer.singleShot(0, self, self._fit)
        return super().eventFilter(watched, event)


class TrainingBody(QScrollArea):
    """Lays out rooms made elsewhere; the panel keeps wiring them."""

    settings_folded = Signal(bool)  # the settings column was folded away (True) or shown again

    def __init__(self, controls: tuple[QWidget, ...], views: tuple[QWidget, QWidget, QWidget],
                 parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "trainingBody")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops at its controls, scrolled into sight, not at it
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.content = QWidget()
        self.setWidget(self.content)
        self.viewport().setAutoFillBackground(False)  # one surface with the panel around it
        self.content.setAutoFillBackground(False)

        self.settings_column = QWidget()
        stack = QVBoxLayout(self.settings_column)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.setSpacing(0)
        for control in controls:
            stack.addWidget(control)
        let_combos_narrow(self.settings_column)
        self.settings_scroll = scrolling_column(self.settings_column, SETTINGS_WIDTH)
        self.fold_button = named(CompactToolButton(), "settingsFoldButton", spoken="Fold or unfold the settings")
        self._size_fold_button(1.0)
        self.fold_button.clicked.connect(self._on_fold_button_clicked)
        strip = QVBoxLayout()
        strip.setContentsMargins(0, 0, 0, 0)
        strip.addWidget(self.fold_button)
        strip.addStretch(1)

        row = QHBoxLayout(self.content)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(SPACING)
        row.addWidget(self.settings_scroll)
        row.addLayout(strip)
        # The three views share the rest, as a person likes: drag the handles between them.
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        # The network diagram scrolls by itself; the plots' columns scroll up and down on their own when
        # the screen is short, so that one column's height never makes the whole tab scroll.
        network, boundary, output = views
        self.boundary_scroll, self.output_scroll = ColumnScroller(boundary), ColumnScroller(output)
        for index, (view, stretch) in enumerate(zip((network, self.boundary_scroll, self.output_scroll),
                                                    VIEW_STRETCH)):
            self.splitter.addWidget(view)
            self.splitter.setStretchFactor(index, stretch)
        self.splitter.setSizes([5000, 4600, 3400])  # shares of whatever width the panel gets
        row.addWidget(self.splitter, 1)

        self._folded = False
        self._chosen: bool | None = None  # folded or not by a person's click; None: by the room there is
        self._room_was_enough: bool | None = None
        self._show_fold_button()
        # Sizes change with fonts (presentation mode) after a resize: look again once they have settled.
        self._refit_timer = QTimer(self)
        self._refit_timer.setSingleShot(True)
        self._refit_timer.timeout.connect(self._fit_to_room)
        # A view's smallest width grows after the fact too (the plot's tick labels, the class names):
        # the splitter asks for its new room, and the room is measured again.
        self.splitter.installEventFilter(self)

    # -- folding the settings column --

    @property
    def settings_shown(self) -> bool:
        return not self._folded

    def set_settings_folded(self, folded: bool) -> None:
        """Fold the settings column away (or show it), as a person's choice: it holds until the room
        there is changes between enough and too little."""
        self._chosen = bool(folded)
        self._fold(bool(folded))

    def reveal(self, control) -> bool:
        """Show the settings column again if ``control`` is in it and it is folded away (a lesson points at the
        learning rate), as if the person unfolded it; True if it was folded."""
        if not self._folded or not self.settings_scroll.isAncestorOf(control):
            return False
        self.set_settings_folded(False)
        return True

    def room_for_settings(self) -> bool:
        """Whether the views keep the width they need with the settings column beside them, the network
        diagram every column in sight (with less, the diagram scrolled sideways beside the settings on a
        projector in presentation mode)."""
        needed = self.settings_scroll.width() + SPACING + self.fold_button.sizeHint().width() + SPACING
        network = self.splitter.widget(0)
        needed += self.splitter.minimumSizeHint().width() + max(0, self._network_wants() -
                                                                network.minimumSizeHint().width())
        return self.width() >= needed

    def _network_wants(self) -> int:
        """The network view's width with its every column in sight (its smallest when it cannot say)."""
        network = self.splitter.widget(0)
        whole = getattr(network, "whole_width", None)
        return max(network.minimumSizeHint().width(), whole() if whole is not None else 0)

    def _fit_to_room(self) -> None:
        enough = self.room_for_settings()
        if enough != self._room_was_enough:
            self._room_was_enough = enough
            self._chosen = None  # a new situation: the room decides again
        self._fold(self._chosen if self._chosen is not None else not enough)
        self._give_views_their_smallest()

    def _give_views_their_smallest(self) -> None:
        """A view whose smallest width grew after the splitter placed it (its plot's tick labels, presentation
        mode) gets it, from the views with room to spare: QSplitter keeps the sizes it gave until resized.
        So does the network diagram its every column, when the others' smallest widths leave room."""
        sizes = self.splitter.sizes()
        smallest = [self.splitter.widget(i).minimumSizeHint().width() for i in range(len(sizes))]
        # The diagram all in sight when the other views' smallest widths leave room for it (when they do
        # not, it scrolls anyway, and the plots keep what the splitter gave them).
        if self._network_wants() <= sum(sizes) - sum(smallest[1:]):
            smallest[0] = max(smallest[0], self._network_wants())
        short = sum(max(0, low - size) for size, low in zip(sizes, smallest))
        if not short or not any(sizes) or sum(smallest) > sum(sizes):
            return  # nothing to do, or nothing to take it from (the body scrolls sideways until it is wider)
        sizes = [max(size, low) for size, low in zip(sizes, smallest)]
        for index in sorted(range(len(sizes)), key=lambda i: smallest[i] - sizes[i]):  # most to spare first
            given = min(short, sizes[index] - smallest[index])
            sizes[index] -= given
            short -= given
        self.splitter.setSizes(sizes)

    def _fold(self, folded: bool) -> None:
        if folded == self._folded:
            return
        self._folded = folded
        self.settings_scroll.setVisible(not folded)
        self._show_fold_button()
        self.settings_folded.emit(folded)

    def _show_fold_button(self) -> None:
        folded = self._folded
        self.fold_button.setArrowType(Qt.ArrowType.RightArrow if folded else Qt.ArrowType.LeftArrow)
        tip = ("Show the data and network settings" if folded
               else "Fold the data and network settings away: more room for the network and the plots")
        self.fold_button.setToolTip(tip)
        self.fold_button.setAccessibleDescription(tip)

    @Slot()
    def _on_fold_button_clicked(self) -> None:
        self.set_settings_folded(not self._folded)

    # -- events --

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: the views' smallest sizes grew or shrank, so the room is measured again."""
        self._size_fold_button(factor)
        self._room_was_enough = None
        self._refit_timer.start(0)

    def _size_fold_button(self, factor: float) -> None:
        """A tall narrow tab at the column's top edge: easy to hit, and no line of its own."""
        self.fold_button.setFixedSize(round(FOLD_BUTTON[0] * factor), round(FOLD_BUTTON[1] * factor))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_to_room()
        self._refit_timer.start(0)

    def eventFilter(self, watched, event) -> bool:
        # QScrollArea watches its content too, from before the splitter exists.
        if watched is getattr(self, "splitter", None) and event.type() == QEvent.Type.LayoutRequest:
            self._refit_timer.start(0)
        return super().eventFilter(watched, event)
