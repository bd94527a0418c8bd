"""Probes for tests/real_screen.py: lessons 2 and 8 walked step by step on a real screen, the animator's current
card measured after every move (issue 29, item 3; see step_in_view.py)."""

from __future__ import annotations

from pathlib import Path

from tests.playground.step_in_view import walk_lesson


def walk_lessons(window, settle, lessons: tuple[str, ...], presentation: float | None = None,
                 screenshots: str | None = None) -> dict:
    """Each lesson of ``lessons`` from its start with the Learn dock open (presentation mode at ``presentation``,
    if given); ``screenshots``: a folder for a picture of the screen at step 6 of each lesson step (see
    `walk_lesson`)."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
    settle(0.8)

    def picture(label: str) -> None:
        window.screen().grabWindow(0).save(str(Path(screenshots) / f"{label}.png"))

    checked, failed = 0, []
    for lesson in lessons:
        walked = walk_lesson(window, lesson, lambda: settle(0.05), picture if screenshots else None)
        checked += walked["checked"]
        failed += walked["failed"]
    view = window.animator.view
    return {"checked": checked, "failed": failed, "view": [view.width(), view.height()],
            "zoom": view.zoom(), "dock": window.learning.dock.isVisible()}
