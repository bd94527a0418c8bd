"""Probes for tests/real_screen.py: the card a lesson's question asks about, in sight when the question is asked
(issue 39: lesson 2's fourth value asked for L while L lay past the animator view's edge at 150%). One child app
takes every shipped lesson from its start with the Learn dock open; at every question about a node's card that
waits for its answer it measures that card (its whole painted area) in the tab the question is asked in, then
gives the answer with Show answer, as a student may, and goes on. The same walk runs offscreen in
test_asked_card.py.

The card is found by the name the lesson gives the node (the lesson graph's name for the question's node), among
the cards of the view shown, by their titles: not through the app's own mapping of a lesson's node to a card
(a tensor graph's replay has node ids of its own). In sight is what the animator already promises of its current
step's card: wholly inside the view's viewport (a margin of `step_in_view.MARGIN` px) and off the minimap while
the minimap is shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect

from tests.playground.step_in_view import card_misplaced

CARD_QUESTIONS = ("value", "grad", "tangent", "shape")  # a question about one node's card
PICTURED = "02-chain-rule / Forward: every value / 4"  # the question issue 39 found L out of sight at


def shown_view(window):
    """The graph view of the tab shown (the animator's or the editor's), or None: the tab shows no graph."""
    shown = window.tabs.currentWidget()
    return next((panel.view for panel in (window.animator, window.editor) if shown is panel), None)


def card_on_screen(view, name: str) -> QRect | None:
    """The card titled ``name`` (its whole painted area) in ``view``'s viewport, or None (no such card)."""
    item = next((item for item in view.scene().node_items() if item.display_name() == name), None)
    if item is None:
        return None
    return view.mapFromScene(item.sceneBoundingRect()).boundingRect()


def asked_card_misplaced(window, name: str) -> str | None:
    """What is wrong with where the card named ``name`` a question asks about is, in the tab shown (None: in
    sight, off the minimap)."""
    view = shown_view(window)
    if view is None:
        return f"asked with the {type(window.tabs.currentWidget()).__name__} shown, which shows no graph"
    card = card_on_screen(view, name)
    if card is None:
        return f"the {view.objectName() or 'view'} shown has no card named {name}"
    return card_misplaced(view, card, "the card")


def walk_questions(window, settle, presentation: float | None = None, lessons: list[str] | None = None,
                   zoom_by_person: float | None = None, screenshots: str | None = None,
                   pictured: list[str] | None = None) -> dict:
    """Every question of every lesson (or of ``lessons``, by id), presentation mode at ``presentation`` if given:
    ``{"asked": n, "failed": ["lesson / step title / question n (name): what is wrong", ...], "view": [w, h],
    "zooms": {question: the view's zoom}, "dock": shown, "window": [w, h]}``. ``zoom_by_person``: once the first
    question of a step is measured, the person zooms the animator by this factor (the zoom menu's way) before
    answering it; the step's next questions must find their cards at that zoom, which following them keeps.
    ``screenshots``: a folder for a picture of the screen at each question named in ``pictured`` (default: the
    one issue 39 names)."""
    if presentation is not None:
        window.presentation.set_zoom(presentation)
        window.presentation.set_on(True)
    learning = window.learning
    learning.show_panel()
    settle(0.8)
    panel, animator = learning.panel, window.animator
    asked, failed, zooms = 0, [], {}
    for lesson in list(panel.lessons):
        if lessons is not None and lesson.id not in lessons:
            continue
        learning.start(lesson)
        while True:
            settle(0.3 if panel.run.question is not None else 0.05)  # a step without questions is only passed
            persons_zoom = None  # the zoom the person chose at this step
            while panel.run.question is not None:
                question = panel.run.question
                key = f"{lesson.id} / {panel.run.step.title} / {len(panel.run.answered) + 1}"
                if question.what in CARD_QUESTIONS:
                    settle(0.15)
                    asked += 1
                    view = shown_view(window)
                    zooms[key] = round(view.zoom(), 3) if view is not None else None
                    name = panel.run.step.facts.document.name(question.node)  # the lesson's name for it
                    problem = asked_card_misplaced(window, name)
                    if problem is not None:
                        failed.append(f"{key} ({name}): {problem}")
                    if persons_zoom is not None and abs(animator.view.zoom() - persons_zoom) > 1e-6:
                        failed.append(f"{key} ({name}): the person's zoom {persons_zoom:.3f} became "
                                      f"{animator.view.zoom():.3f}")
                    if zoom_by_person is not None and persons_zoom is None:
                        animator.fitting.zoom_by_person(zoom_by_person)
                        persons_zoom = animator.view.zoom()
                    if screenshots and key in (pictured or (PICTURED,)):
                        picture = key.replace(" / ", "-").replace(" ", "_").replace(":", "")
                        window.screen().grabWindow(0).save(str(Path(screenshots) / f"{picture}.png"))
                panel.reveal()  # Show answer: the animator goes to its step, the next question is asked
                settle(0.1)
            if not panel.next():
                break
    view = animator.view
    return {"asked": asked, "failed": failed, "view": [view.viewport().width(), view.viewport().height()],
            "zooms": zooms, "dock": learning.dock.isVisible(), "window": [window.width(), window.height()]}
