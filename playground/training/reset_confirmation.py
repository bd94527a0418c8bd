"""Reset asks first when it would throw training away, and so does every change that starts over (another
activation, other data, another network: `ask_to_change`).

Reset starts the network over from its initial weights: the trained weights, the optimizer's state, the
step count and the curves are gone. It is not an undoable edit on the tab's `QUndoStack`: the stack holds
typed weights tied to one network (a run), every other rebuild (new data, a new architecture) clears it,
and bringing a run back from a saved state would not bring its curves, its stop condition or its stall
watch with it. So it asks, only when there is something to lose (a step taken), and a person who finds
the question a bother ticks "Don't ask again", which is remembered (`QSettings`, when the main window
hands its settings over; for the tab's lifetime otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, Signal, Slot
from PySide6.QtWidgets import QCheckBox, QMessageBox, QWidget

from ..common.numbers import format_number
from .widgets import named

ASK_KEY = "training/confirmReset"


class ResetConfirmation(QObject):
    """Asks "Reset the network?" in a window-modal box (the event loop goes on, training threads too)."""

    asks_changed = Signal(bool)  # whether Reset asks first, now (the main window's Edit menu shows it)

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self._parent = parent
        self._settings: QSettings | None = None
        self._asks = True
        self.box: QMessageBox | None = None  # the question on show, if any

    def remember_in(self, settings: QSettings) -> None:
        """Keep the "Don't ask again" choice in ``settings`` (and take the one kept there)."""
        self._settings = settings
        self._asks = settings.value(ASK_KEY, True, type=bool)

    @property
    def asks(self) -> bool:
        return self._asks

    def set_asks(self, asks: bool) -> None:
        changed = bool(asks) != self._asks
        self._asks = bool(asks)
        if self._settings is not None:
            self._settings.setValue(ASK_KEY, self._asks)
        if changed:
            self.asks_changed.emit(self._asks)

    def ask(self, step: int, on_reset: Callable[[], None], on_cancel: Callable[[], None] | None = None) -> None:
        """Call ``on_reset`` once the reset is confirmed: at once when nothing would be lost (``step`` 0) or
        the person said not to ask; else after the box's answer (``on_cancel`` if it is no)."""
        self._ask(step, on_reset, on_cancel, "Reset the network?", "Reset starts over", "Reset")

    def ask_to_change(self, what: str, step: int, on_change: Callable[[], None],
                      on_cancel: Callable[[], None] | None = None) -> None:
        """As `ask`, for a change of the settings that starts over (``what``: "Another activation")."""
        self._ask(step, on_change, on_cancel, "Start over?", f"{what} starts over", "Start over")

    def _ask(self, step: int, on_reset: Callable[[], None], on_cancel: Callable[[], None] | None, title: str,
             starts_over: str, confirm: str) -> None:
        if step <= 0 or not self._asks:
            on_reset()
            return
        if self.box is not None:  # asked already: that box answers
            return
        box = QMessageBox(QMessageBox.Icon.Question, title,
                          f"{starts_over} from the initial weights: the weights trained over "
                          f"{format_number(step)} step{'s' if step != 1 else ''}, the optimizer's state and the "
                          "curves are lost.\n\nFile > Save training setup… keeps them.", parent=self._parent)
        box.setObjectName("resetConfirmationBox")
        reset = named(box.addButton(confirm, QMessageBox.ButtonRole.DestructiveRole), "resetConfirmButton",
                      "Start over from the initial weights")
        cancel = named(box.addButton(QMessageBox.StandardButton.Cancel), "resetCancelButton",
                       "Keep the trained network")
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        # Made with the box as its parent, so that the box owns it (setCheckBox alone does not tell PySide).
        dont_ask = named(QCheckBox("Don't ask again", box), "resetDontAskCheck",
                         "Reset at once from now on, without this question (Edit > Ask before resetting a "
                         "trained network brings it back)")
        box.setCheckBox(dont_ask)

        @Slot(int)
        def answered(_result: int) -> None:
            self.box = None
            if box.clickedButton() is reset:
                if dont_ask.isChecked():
                    self.set_asks(False)
                on_reset()
            elif on_cancel is not None:
                on_cancel()
            box.deleteLater()

        box.finished.connect(answered)
        self.box = box
        box.open()
