"""Where the animator's current step is on screen (issue 29, item 3): the card of the node the step is about,
with its numbers and badge, wholly in the view and clear of the minimap. Shared by the offscreen test
(tests/playground/animator/test_step_in_view.py) and the real-screen probe (step_in_view_probes.py).

`walk_lesson` takes a lesson as a student does: each of its steps in turn (each question answered with
Show me, the animator then going to that question's step), and at each lesson step the animator through
every one of its own steps, Home then → to the last, End then ← to the first; at the end the lesson's last
graph is played from the start. The current card is measured after every move.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QRect

from playground.animator.panel import SPEEDS

SHOWN_STEP = 6  # lesson 2's t2, forward: under the minimap at 150% beside the Learn dock, before the fix
MARGIN = 2  # px: the card (its shadow and badge included) stays at least this far inside the view's edges


def card_on_screen(animator) -> QRect | None:
    """The current step's card (its whole painted area) in the animator view's viewport, or None."""
    item = animator.sync.current_item()
    if item is None:
        return None
    return animator.view.mapFromScene(item.sceneBoundingRect()).boundingRect()


def minimap_on_screen(view) -> QRect | None:
    """``view``'s minimap in its viewport's coordinates, while it is shown."""
    if not view.is_minimap_visible():
        return None
    return view.minimap.geometry().translated(-view.viewport().geometry().topLeft())


def card_misplaced(view, card: QRect, what: str) -> str | None:
    """What is wrong with where ``card`` (viewport coordinates; ``what``: "L's card") is in ``view``: None when
    it is wholly inside the viewport, `MARGIN` px in, and off the minimap."""
    area = view.viewport().rect().adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
    if not area.contains(card):
        return f"{what} {_text(card)} is not inside the view {_text(area)}"
    minimap = minimap_on_screen(view)
    if minimap is not None and minimap.intersects(card):
        return f"{what} {_text(card)} is under the minimap {_text(minimap)}"
    return None


def misplaced(animator) -> str | None:
    """What is wrong with where the current card is ("" is never returned): None when it is wholly in view
    and off the minimap, or when no card is current."""
    card = card_on_screen(animator)
    if card is None:
        return None
    return card_misplaced(animator.view, card, f"{animator.sync.current_item().display_name()}'s card")


def _text(rect: QRect) -> str:
    return f"({rect.x()}, {rect.y()}, {rect.width()}x{rect.height()})"


def walk_lesson(window, lesson_id: str, settle: Callable[[], None], screenshot=None) -> dict:
    """Take the lesson ``lesson_id`` from its start and measure the current card after every move (see the
    module docstring). Returns ``{"checked": n, "failed": [...]}``; ``screenshot(label)`` (optional) is called
    at a few chosen places."""
    learning = window.learning
    learning.show_panel()
    learning.start(lesson_id)
    panel, animator = learning.panel, window.animator
    checked, failed = 0, []

    def measure(label: str) -> None:
        nonlocal checked
        settle()
        if window.tabs.currentWidget() is not animator or animator.sync.current_item() is None:
            return
        checked += 1
        problem = misplaced(animator)
        if problem is not None:
            failed.append(f"{lesson_id}, {label} (animator at {animator.position}): {problem}")

    step = 1
    while True:
        measure(f"step {step}")
        while panel.run.question is not None:
            panel.reveal()  # Show me: the answer is given, the animator goes to its step
            measure(f"step {step}, an answer shown")
        window.tabs.setCurrentWidget(animator)  # the person looks at the animator and steps through it
        settle()
        animator.first()
        measure(f"step {step}, Home")
        while animator.step_forward():
            measure(f"step {step}, →")
        animator.last()
        measure(f"step {step}, End")
        while animator.step_back():
            measure(f"step {step}, ←")
        if screenshot is not None:  # at a step whose card lay under the minimap at 150% before it was followed
            animator.seek(min(SHOWN_STEP, animator.frame_count))
            settle()
            screenshot(f"{lesson_id}-step{step}")
        if not panel.next():
            break
        step += 1
    checked += _play(animator, lesson_id, failed, settle)
    return {"checked": checked, "failed": failed}


def _play(animator, lesson_id: str, failed: list[str], settle: Callable[[], None]) -> int:
    """Play from the start at 8 steps a second, measuring the card as each step is reached (the view has
    followed by then: the panel says a step is reached once it is drawn); returns how many were measured."""
    seen = []

    def on_step_reached(position: int) -> None:
        if animator.sync.current_item() is not None:
            seen.append(position)
            problem = misplaced(animator)
            if problem is not None:
                failed.append(f"{lesson_id}, playing (animator at {position}): {problem}")

    animator.set_speed_index(SPEEDS.index(8))
    animator.first()
    animator.step_reached.connect(on_step_reached)
    try:
        animator.play()
        deadline = time.monotonic() + animator.frame_count / 8 + 10
        while animator.is_playing and time.monotonic() < deadline:
            settle()
    finally:
        animator.step_reached.disconnect(on_step_reached)
    return len(seen)
