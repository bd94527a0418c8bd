"""Probes for tests/real_screen.py: what the app looks like on a real screen, measured in its own process."""

from __future__ import annotations


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def window_on_screen(window, settle) -> dict:
    """The screen's available area and the window's frame on it, as the window manager placed it."""
    screen = window.screen()
    return {"screen": _rect(screen.geometry()), "available": _rect(screen.availableGeometry()),
            "frame": _rect(window.frameGeometry()), "window": _rect(window.geometry())}
