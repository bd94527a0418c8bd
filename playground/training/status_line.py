"""The training panel's status line: a hint, or in its place a warning to act on, with a button to
dismiss it. It is always there and always as tall, so a warning coming or going never moves the
controls under the mouse.

Two kinds of warning: a message about the run (it paused, diverged, goes nowhere), which Play, Step
and a new start clear (`clear_run_message`), and a note about a number typed out of range (`show_note`),
which stays while that number stands: until it is dismissed, another warning takes its place, or
the person edits a setting again (`settings_edited`)."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from ..widgets.spoken import announce
from .widgets import ElidedLabel, named

HINT = ("Press Play to train. Hover a neuron to see its map on the plot, a wire for its weight (click: type one); "
        "click the plot to add a point (Shift-click: the next class).")
# What the hint says, by whether training runs and what is trained (never "Press Play" while it plays).
HINTS = {
    (False, False): HINT,
    (True, False): ("Training: press Play again to pause. Hover a neuron to see its map on the plot, a wire for its "
                    "weight; click the plot to add a point (Shift-click: the next class)."),
    (False, True): ("Press Play to train the editor's graph. Hover a map on its cards to see it on the plot; click the "
                    "plot to add a point (Shift-click: the next class)."),
    (True, True): ("Training the editor's graph: press Play again to pause. Hover a map on its cards to see it on the "
                   "plot; click the plot to add a point."),
}


class StatusLine(QWidget):
    message_shown = Signal(str)

    def __init__(self, hint: str = HINT, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        # A narrow window shortens the hint to "…" (its tooltip has it whole) rather than widening the tab.
        self.hint_label = named(ElidedLabel(hint), "hintLabel", hint)
        self.hint_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.message_label = named(QLabel(), "messageLabel")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(
            "QLabel { background: #fef7e0; color: #3c2f00; border: 1px solid #f9ab00; border-radius: 4px; "
            "padding: 3px 8px; }")
        self.message_label.setVisible(False)
        self.dismiss_button = named(QToolButton(), "dismissMessageButton", "Dismiss this message",
                                    spoken="Dismiss this message")
        self.dismiss_button.setText("✕")
        self.dismiss_button.setAutoRaise(True)
        self.dismiss_button.clicked.connect(self.clear_message)
        self.dismiss_button.setVisible(False)
        row.addWidget(self.hint_label, 1)
        row.addWidget(self.message_label, 1)
        row.addWidget(self.dismiss_button)
        self.setMinimumHeight(self.message_label.fontMetrics().height() + 12)
        self._note = False      # the warning shown is a note about a typed number
        self._settling = False  # ... and the edit that number makes has not come through yet

    def show_message(self, text: str) -> None:
        self.message_label.setText(text)
        # Read as the message itself (not "messageLabel"), and spoken at once: it is why training stopped.
        self.message_label.setAccessibleName(text)
        self._show_warning_row(True)
        self._note = False
        announce(self.message_label, text)
        self.message_shown.emit(text)

    def show_note(self, text: str) -> None:
        """A number typed out of range and what became of it: it stays while that number stands."""
        self.show_message(text)
        self._note = self._settling = True
        # The box sets the corrected number right after saying so: that edit is the note's own.
        QTimer.singleShot(0, self._on_note_settled)

    def _on_note_settled(self) -> None:
        self._settling = False

    def settings_edited(self) -> None:
        """A setting changed: a note about an earlier typed number no longer stands."""
        if self._note and not self._settling:
            self.clear_message()

    def clear_run_message(self) -> None:
        """Play, Step, a new network: the message about the run that was goes; a note stays."""
        if not self._note:
            self.clear_message()

    def clear_message(self) -> None:
        self.message_label.clear()
        self._note = False
        self._show_warning_row(False)

    def show_state(self, playing: bool, trains_graph: bool) -> None:
        """The hint for the run as it is: training or not, the layer form's network or the editor's graph."""
        self.set_hint(HINTS[(bool(playing), bool(trains_graph))])

    def set_hint(self, text: str) -> None:
        self.hint_label.setText(text)
        self.hint_label.setToolTip(text)

    @property
    def message(self) -> str:
        return self.message_label.text() if self.message_label.isVisible() else ""

    def _show_warning_row(self, warning: bool) -> None:
        self.hint_label.setVisible(not warning)
        self.message_label.setVisible(warning)
        self.dismiss_button.setVisible(warning)
