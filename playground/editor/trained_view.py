"""What the editor shows of its graph while the training tab trains it (issue 39): the trained network.

While the graph is the training tab's network, every number the editor shows is that network's at its step
(`graph.trained`): a parameter's trained value and the gradient of the training loss, each per-point node's
maps over the plane and its range over the training points, each wire's gradient. A bar over the canvas says
so ("Trained network, step 22,738") and offers the drawn values back; that choice, and back again, is one
undo step each (a view of the same document: the file's saved state is not touched, `changes_document`).
Nothing here changes the document.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ..common.numbers import format_number
from ..graph.evaluate import Evaluation
from ..graph.trained import TrainedNumbers, trained_evaluation
from ..widgets.spoken import announce


class ShowNumbersCommand(QUndoCommand):
    """Show the trained network's numbers, or the drawn graph's: the editor's view, not the document."""

    changes_document = False  # the title's "unsaved" mark looks past it (`document_files.is_clean`)

    def __init__(self, view: TrainedView, trained: bool):
        super().__init__("Show the trained values" if trained else "Back to the drawn values")
        self.view, self.trained = view, trained

    def redo(self) -> None:
        self.view.set_showing_trained(self.trained)

    def undo(self) -> None:
        self.view.set_showing_trained(not self.trained)


class TrainedBar(QWidget):
    """The line over the canvas while the graph is trained: what the cards show, and the way to the other."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("trainedBar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        self.label = QLabel()
        self.label.setObjectName("trainedBarLabel")
        self.label.setWordWrap(True)
        self.button = QPushButton()
        self.button.setObjectName("trainedValuesButton")
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        self.setStyleSheet("#trainedBar { background: palette(alternate-base); border: 1px solid palette(mid); "
                           "border-radius: 4px; }")

    def show_state(self, numbers: TrainedNumbers, trained: bool) -> None:
        step = format_number(numbers.step)
        if trained and numbers.step == 0:
            text = ("<b>The training tab's network, step 0</b>: the values as drawn, every gradient that of its "
                    f"training loss over the {format_number(numbers.points)} training points; a node computed for "
                    "each point shows its maps.")
            button, spoken = "Back to the drawn values", "Show the graph's own evaluation, as drawn"
        elif trained:
            text = (f"<b>Trained network, step {step}</b>: every value is the training tab's network as it is now, "
                    f"every gradient that of its training loss over the {format_number(numbers.points)} training "
                    "points; a node computed for each point shows its maps.")
            button, spoken = "Back to the drawn values", "Show the values the graph was drawn with"
        else:
            text = (f"<b>Drawn values</b>: the graph as you drew it. The training tab has trained it to step "
                    f"{step}.")
            button, spoken = "Show the trained values", "Show the trained network's values and gradients"
        self.label.setText(text)
        self.label.setAccessibleName(self.label.text().replace("<b>", "").replace("</b>", ""))
        self.button.setText(button)
        self.button.setAccessibleName(spoken)
        self.button.setToolTip(f"{spoken} (one undo step)")


class TrainedView(QObject):
    """Holds the trained network's latest numbers and maps, and whether the editor shows them."""

    changed = Signal()  # what the editor should show changed (new numbers, or the other choice)

    def __init__(self, undo_stack: QUndoStack, parent: QObject | None = None):
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.numbers: TrainedNumbers | None = None
        self.maps: dict | None = None
        self.totals: dict[str, int] | None = None
        self.showing_trained = True
        self.bar = TrainedBar()
        self.bar.hide()
        self.bar.button.clicked.connect(self._on_button_clicked)

    @property
    def active(self) -> bool:
        """The editor shows the trained network (there is one, and the drawn values were not chosen)."""
        return self.maps is not None and self.showing_trained

    def set_trained(self, maps: dict | None, totals: dict[str, int] | None, numbers: TrainedNumbers | None) -> None:
        """The trained network's latest maps and numbers; None: the graph is no longer trained (its drawn values
        again, and the next trained graph is shown trained)."""
        if maps is None:
            self.maps = self.totals = self.numbers = None
            self.showing_trained = True
            self.bar.hide()
            self.changed.emit()
            return
        new_numbers = numbers is not None and numbers is not self.numbers
        first = self.maps is None
        self.maps, self.totals = maps, totals
        if numbers is not None:
            self.numbers = numbers
        if self.numbers is not None:
            self.bar.show_state(self.numbers, self.showing_trained)
            self.bar.show()
        if first or new_numbers:
            self.changed.emit()

    def evaluation(self, document, drawn: Evaluation) -> Evaluation:
        """What the editor shows: the trained network's numbers, or ``drawn`` (the document's own)."""
        if self.active and self.numbers is not None:
            return trained_evaluation(document, self.numbers)
        return drawn

    def choose(self, trained: bool) -> None:
        """The person's choice, one undo step."""
        if trained != self.showing_trained:
            self.undo_stack.push(ShowNumbersCommand(self, trained))

    def set_showing_trained(self, trained: bool) -> None:
        self.showing_trained = trained
        if self.numbers is not None:
            self.bar.show_state(self.numbers, trained)
            announce(self.bar.label, self.bar.label.accessibleName())
        self.changed.emit()

    def _on_button_clicked(self) -> None:
        self.choose(not self.showing_trained)
