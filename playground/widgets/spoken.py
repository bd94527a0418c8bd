"""Text that reaches assistive technology, not only the screen (WCAG 4.1.2 and 4.1.3).

A screen reader names a label by its accessible name when it has one, else by its text. A read-out (a
step, a loss, an accuracy) named by an identifier ("trainLossLabel") would be read as that, and its bare
number ("0.2746") says nothing without the title beside it: a `ReadOutLabel` is named by what it shows and
its value ("train loss 0.2746"), kept in step with every `setText`, so a student moving through the panel
with a screen reader hears the number with its meaning.

A message that matters (the run paused, learned, diverged; a refusal) is also `announce`d: Qt sends it to
the screen reader as an announcement event, which it speaks at once, wherever the focus is.
"""

from __future__ import annotations

import re
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QTextDocumentFragment
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

SAME_WORDS_S = 0.5  # the same words announced again within this time are not said again
_last: tuple[str, float] = ("", 0.0)  # the words last announced, and when

# What a button's text shows but a reader should not say: the glyphs around the words ("▶  Play", "Next ▶",
# "▶▶ Fastest") and the "…" that means "asks more" on screen.
_AROUND_WORDS = re.compile(r"^[^\w(]+|[^\w)%]+$")


def plain_words(text: str) -> str:
    """A control's text as a name to say: "&Save as…" -> "Save as", "▶  Play" -> "Play"."""
    text = text.replace("&&", "\0").replace("&", "").replace("\0", "&").replace("…", "")
    return " ".join(_AROUND_WORDS.sub("", text).split())


def own_words(widget: QWidget) -> str:
    """What ``widget`` says of itself: a number box's `what` ("Batch size"), a button's plain text; "" if
    nothing."""
    what = getattr(widget, "what", None)
    if isinstance(what, str):
        return what
    if isinstance(widget, QAbstractButton):
        return plain_words(widget.text())
    return ""


def named_for_reader(widget, name: str, accessible: str | None = None):
    """An objectName for tests and lessons; ``accessible`` is what a screen reader says of a control, and of a
    label what it is (its description: the label is read by its text, the question or the feedback it shows)."""
    widget.setObjectName(name)
    if accessible and isinstance(widget, QLabel):
        widget.setAccessibleDescription(accessible)
    elif accessible:
        widget.setAccessibleName(accessible)
    return widget


def announce(widget: QWidget, text: str) -> None:
    """Have a screen reader speak ``text`` (politely: after what it is saying now), from ``widget``. The same
    words announced again at once are said once: a training pause is announced by the training tab's message
    line and by the status bar that shows it too."""
    global _last
    now = time.monotonic()
    if not text or (text == _last[0] and now - _last[1] <= SAME_WORDS_S):
        return
    _last = (text, now)
    _send(QAccessibleAnnouncementEvent(widget, text))


def _send(event) -> None:
    """The one door to the accessibility bridge (a test watches it here)."""
    QAccessible.updateAccessibility(event)


class ReadOutLabel(QLabel):
    """A label that shows a value: its accessible name is what it shows and the value, "train loss 0.2746"
    (just the text when the text already says what it is: "Step 12")."""

    def __init__(self, text: str, what: str, name: str, tip: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        if tip:
            self.setToolTip(tip)
        self._what = what
        self.setText(text)

    @property
    def what(self) -> str:
        return self._what

    def set_what(self, what: str) -> None:
        """Another meaning for the same place ("train R²" where a classification has "train accuracy")."""
        self._what = what
        self._rename()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._rename()

    def _rename(self) -> None:
        text = self.text()
        spoken = text if text.lower().startswith(self._what.lower()) else f"{self._what} {text}"
        if text in ("", "–"):
            spoken = f"{self._what}: none yet"
        if spoken != self.accessibleName():
            self.setAccessibleName(spoken)


class VerdictLabel(QLabel):
    """Feedback on an answer: on screen a ✓ or ✗ and green or red, for a screen reader words ("Right.", "Not
    right: 5 is a + b ..."), and announced the moment the verdict comes (`say`), wherever the focus is."""

    def __init__(self, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self._right: bool | None = None

    def say(self, text: str, right: bool | None) -> None:
        """Show ``text`` (rich text may be) as right, not right, or neither (None), and announce it."""
        self._right = right
        self.setText(text)
        announce(self, self.accessibleName())

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        rich = self.textFormat() == Qt.TextFormat.RichText or (self.textFormat() == Qt.TextFormat.AutoText
                                                               and "<" in text)
        plain = QTextDocumentFragment.fromHtml(text).toPlainText() if rich else text
        plain = " ".join(plain.replace("✓", "").replace("✗", "").split())
        if plain and self._right is True and not plain.lower().startswith("right"):
            plain = f"Right: {plain}"
        elif plain and self._right is False and not plain.lower().startswith(("not ", "can't")):
            plain = f"Not right: {plain}"
        self.setAccessibleName(plain)

    def clear(self) -> None:
        self._right = None
        self.setText("")
