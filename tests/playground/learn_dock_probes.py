"""Probes for tests/real_screen.py: the Learn dock in a classroom (issue 29, items 5 and 7). One child app walks
every step of every shipped lesson in presentation mode with the dock open and measures what a class sees: the
lesson text's lines in sight, the lesson list's rows, a hint beside the answer box, the dock's width as the
hint appears, whether what a step points at is in sight, and how large the pitfall replays' card text is."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget

from playground.learn.highlight import shown_part

CARD_TEXT_PX = 11  # the cards' body text at zoom 1 (`canvas.cards`): on screen it is this times the view's zoom
WRONG = "12345"  # an answer no lesson expects: it brings a hint


def in_sight(widget: QWidget) -> bool:
    """Shown whole (or, when taller than its view, as much as the view holds), and on top where it is: the
    widget under its middle is itself or one of its own."""
    if not widget.isVisible():
        return False
    shown = shown_part(widget)
    if shown.isEmpty():
        return False
    whole = shown.size() == widget.size()
    if not whole and shown.height() < min(widget.height(), 200) and shown.width() < min(widget.width(), 200):
        return False
    window = widget.window()
    on_top = window.childAt(shown.center())
    return on_top is not None and (on_top is widget or widget.isAncestorOf(on_top))


def text_lines(panel) -> float:
    """How many lines of the lesson's text are in sight: the part of its viewport the dock shows, in lines."""
    viewport = panel.text.viewport()
    return shown_part(viewport).height() / panel.text.fontMetrics().lineSpacing()


def cut_rows(panel) -> list[str]:
    """The lesson list's rows shown only in part (a row out of sight altogether is not cut: it scrolls)."""
    listing = panel.lesson_list
    if not listing.isVisible():
        return []
    view = listing.viewport().rect()
    seen = shown_part(listing.viewport())
    cut = []
    for row in range(listing.count()):
        rect = listing.visualItemRect(listing.item(row))
        on = rect.intersected(view)
        if on.isEmpty():
            continue
        if on != rect:
            cut.append(listing.item(row).text())
            continue
        window_rect = QRect(listing.viewport().mapTo(listing.window(), rect.topLeft()), rect.size())
        if seen.intersected(window_rect) != window_rect:
            cut.append(listing.item(row).text())
    return cut


def hint_problems(panel) -> list[str]:
    """What is wrong with the hint (the feedback) as shown: cut short, overlapping the answer row, out of sight."""
    feedback = panel.feedback
    if not feedback.isVisible() or not feedback.text():
        return []
    problems = []
    wanted = feedback.heightForWidth(feedback.width())
    if feedback.height() < wanted - 1:
        problems.append(f"cut: {feedback.height()} of {wanted} px tall")
    window = feedback.window()
    mine = QRect(feedback.mapTo(window, QPoint(0, 0)), feedback.size())
    for other in (panel.answer_input, panel.check_button, panel.reveal_button, panel.answered_list, panel.prompt):
        if other.isVisible():
            theirs = QRect(other.mapTo(window, QPoint(0, 0)), other.size())
            if mine.intersects(theirs):
                problems.append(f"overlaps {other.objectName()}")
    # Its first lines in sight: a long hint may scroll in the room under the answer row, never hide there.
    first_lines = min(feedback.height(), 3 * feedback.fontMetrics().lineSpacing())
    if shown_part(feedback).height() < first_lines - 1 or shown_part(feedback).y() > mine.y():
        problems.append(f"its first lines out of sight ({shown_part(feedback).height()} px of {first_lines} shown)")
    return problems


def _answer_wrong(panel) -> bool:
    """Give the waiting question a wrong answer, as a student would; True if one was waiting."""
    run = panel.run
    if run is None or run.question is None:
        return False
    if run.question.what == "build":
        panel.check_button.click()  # the editor's graph is not built yet: Check my graph says what is missing
    else:
        panel.answer_input.setText(WRONG)
        panel.check_button.click()
    return True


def settled(settle, measure, *, least: float, most: float = 5.0, step: float = 0.1):
    """Settle ``least`` seconds, then on in steps of ``step`` until ``measure()`` reads the same twice in a row
    (at most ``most`` seconds): on a busy machine (the suite's workers side by side) the dock's layout may
    still be moving when a fixed wait ends, and a measure of it half-way is no measure of what a class sees."""
    settle(least)
    before, waited = measure(), 0.0
    while waited < most:
        settle(step)
        waited += step
        now = measure()
        if now == before:
            return now
        before = now
    return before


def _layout(panel, learning) -> tuple:
    """What the dock's measures read, to see when it has come to rest."""
    feedback = panel.feedback
    return (round(text_lines(panel), 1), learning.dock.width(), panel.text.viewport().size(),
            feedback.isVisible(), feedback.size(), feedback.pos(), panel.lesson_list.viewport().size())


def walk_lessons(window, settle, zoom: float | None = 1.5, lessons: list[str] | None = None) -> dict:
    """Presentation mode at ``zoom``, the Learn dock open; every step of every lesson (or of ``lessons``, by id):
    what each step shows, keyed "lesson id / step number"."""
    if zoom is not None:  # None: presentation mode off
        window.presentation.set_zoom(zoom)
        window.presentation.set_on(True)
    learning = window.learning
    learning.dock.setVisible(True)
    settle(0.5)
    panel = learning.panel
    seen = {}
    for lesson in list(panel.lessons):
        if lessons is not None and lesson.id not in lessons:
            continue
        learning.start(lesson)  # at its first step: the child's settings are new
        index = 0
        while True:
            settled(settle, lambda: _layout(panel, learning), least=0.6)
            step = {"title": panel.run.step.title, "text_lines": round(text_lines(panel), 1),
                    "cut_rows": cut_rows(panel), "dock_width": learning.dock.width(),
                    "list_rows_shown": _rows_shown(panel), "asks": bool(panel.run.questions)}
            highlight = learning.driver.highlight
            pointed = [action.value for action in panel.run.step.actions if action.kind == "highlight"]
            if pointed:
                target = window.findChild(QWidget, pointed[0])
                step["target"] = pointed[0]
                step["target_in_sight"] = target is not None and in_sight(target)
                step["ring_over_other"] = _ring_over_other(highlight) if highlight is not None else None
            if panel.run.step.actions and any(a.kind == "pitfall" and a.value for a in panel.run.step.actions):
                animator = window.animator
                step["pitfall_text_px"] = round(animator.pitfalls.view.zoom() * CARD_TEXT_PX, 1)
                step["correct_text_px"] = round(animator.view.zoom() * CARD_TEXT_PX, 1)
                step["step_panel_open"] = animator.steps.isVisible()
            if _answer_wrong(panel):
                settled(settle, lambda: _layout(panel, learning), least=0.4)
                step["hint"] = panel.feedback.text()[:60]
                step["hint_problems"] = hint_problems(panel)
                step["dock_width_with_hint"] = learning.dock.width()
                step["text_lines_with_hint"] = round(text_lines(panel), 1)
                if "href='more'" in panel.feedback.text():  # the hint's details, as the link "More…" shows them
                    panel.feedback.linkActivated.emit("more")
                    settled(settle, lambda: _layout(panel, learning), least=0.3)
                    step["hint_problems"] += [f"with its details: {p}" for p in hint_problems(panel)]
                    step["dock_width_with_details"] = learning.dock.width()
                    step["text_lines_with_details"] = round(text_lines(panel), 1)
            while panel.run.question is not None:
                panel.reveal()
            settled(settle, lambda: _layout(panel, learning), least=0.2)
            step["text_lines_answered"] = round(text_lines(panel), 1)
            step["dock_width_answered"] = learning.dock.width()
            seen[f"{lesson.id} / {index + 1}"] = step
            following = lesson.steps[index + 1] if index + 1 < len(lesson.steps) else None
            if following is not None and any(a.kind == "pitfall" and a.value for a in following.actions):
                _open_step_panel(window, settle)  # as a teacher opens Steps to show the list: it gives way to both
            if not panel.next():
                break
            index += 1
    return seen


def _open_step_panel(window, settle) -> None:
    window.tabs.setCurrentWidget(window.animator)
    settle(0.3)
    if not window.animator.steps.isVisible():
        window.animator.steps_action.trigger()  # the Steps button's action, as a click on it
        settle(0.3)


def _rows_shown(panel) -> int:
    listing = panel.lesson_list
    if not listing.isVisible():
        return 0
    view = listing.viewport().rect()
    return sum(view.contains(listing.visualItemRect(listing.item(row))) for row in range(listing.count()))


def _ring_over_other(highlight) -> bool:
    """True when the ring, as drawn (clipped), lies more than its margin outside the part of its target in sight:
    over another pane, as it lay over the lesson list around a plot scrolled away."""
    try:
        drawn = highlight.ring().intersected(highlight.clip())
    except RuntimeError:  # its blinking is over: it is gone
        return False
    return not drawn.isEmpty() and not shown_part(highlight.target).adjusted(-6, -6, 6, 6).contains(drawn)
