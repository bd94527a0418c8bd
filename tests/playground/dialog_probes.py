"""Probes for tests/real_screen.py: the app's own dialogs as they open on a real screen (issue 29, item 8)."""

from __future__ import annotations

import time


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def _measure(dialog, settle, screenshot: str | None = None) -> dict:
    deadline = time.monotonic() + 10  # openbox frames and places it
    while dialog.frameGeometry() == dialog.geometry() and time.monotonic() < deadline:
        settle(0.05)
    settle(0.5)
    hint = dialog.minimumSizeHint()
    seen = {"frame": _rect(dialog.frameGeometry()), "available": _rect(dialog.screen().availableGeometry()),
            "size": [dialog.width(), dialog.height()], "smallest": [hint.width(), hint.height()]}
    if screenshot:  # to look at
        settle(3)
        dialog.screen().grabWindow(0).save(screenshot)
    dialog.close()
    settle(0.2)
    return seen


def dialogs_on_screen(window, settle, presentation: float | None = None, screenshot: str | None = None) -> dict:
    """Where Compare optimizers… and Keyboard shortcuts open, against the screen's available area."""
    from playground.shell.help_menu import show_shortcuts
    from playground.training.compare import CompareDialog

    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
        settle(0.5)
    window.tabs.setCurrentWidget(window.training)
    button = window.training.toolbar.compare_button
    deadline = time.monotonic() + 20
    while not button.isEnabled() and time.monotonic() < deadline:
        settle(0.1)
    button.click()
    compare = window.training.findChild(CompareDialog, "compareDialog")
    seen = {"compare": _measure(compare, settle, screenshot)}
    window.training.toolbar.repeat_button.click()
    seen["repeat"] = _measure(window.training.dialogs.repeat, settle)
    seen["shortcuts"] = _measure(show_shortcuts(window), settle)
    return seen
