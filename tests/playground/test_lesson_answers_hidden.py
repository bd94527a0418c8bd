"""Every shipped lesson, walked step by step in the real window: from the first step that shows a graph
until a question about it is answered, no surface prints that question's answer. Read here as a
student reads it: the text of the editor's cards, their tooltips, the wire labels, the side panel, the
status bar, the Check gradients table and the animator's cards, against the engine's numbers written
the way the app writes them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from playground.animator.model.forward_timeline import dotted, pretty
from playground.animator.model.tensor_timeline import describe
from playground.common.numbers import format_number, full_number
from playground.graph.arrays import format_array
from playground.graph.document import maths_of
from playground.graph.why_gradient import readable
from playground.learn.model.facts import GraphFacts
from playground.learn.model.lesson import load_lesson

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"
SHIPPED = sorted(LESSONS.glob("*.lesson"))


UNNUMBERED = ("build", "health", "trained", "goal")


def asked_number(facts, what: str, node: str):
    """The engine's number a question about ``node`` waits for; a gradient's shape is read off the gradient's
    numbers, so it waits for the whole gradient to stay hidden."""
    if what == "value":
        return facts.value(node)
    return facts.grad(node)


def pending(panel, document) -> list[tuple[str, str, float, str | None]]:
    """(what, node name, the engine's answer, a tangent's input) of every question not answered yet about the
    graph ``document`` holds: the waiting ones of this step and every one of the later steps."""
    run, lesson = panel.run, panel.lesson
    maths = maths_of(document)
    waiting = []
    if isinstance(run.step.facts, GraphFacts) and maths_of(run.step.facts.document) == maths:
        facts = run.step.facts
        waiting = [(q.what, q.node if q.what in UNNUMBERED else facts.name(q.node),
                    asked_number(facts, q.what, q.node) if q.what == "shape" else q.expected,
                    facts.name(ask.along) if ask.along else None)
                   for q, ask in zip(run.questions, run.step.asks)][len(run.answered):]
    for later in lesson.steps[run.index + 1:]:
        facts = later.facts
        if isinstance(facts, GraphFacts) and maths_of(facts.document) == maths:
            waiting += [(ask.what, facts.name(ask.node), facts.tangent(facts.name(ask.node), facts.name(ask.along))
                         if ask.what == "tangent" else asked_number(facts, ask.what, ask.node),
                         facts.name(ask.along) if ask.along else None)
                        for ask in later.asks if ask.what not in UNNUMBERED]
    # A graph to build is no number (nor a health question, read off the training tab); inputs are given.
    return [("grad" if what == "shape" else what, name, number, along) for what, name, number, along in waiting
            if what not in UNNUMBERED and not (what == "value" and document.node(id_of(document, name)).is_leaf)]


def id_of(document, name: str) -> str:
    return next(node_id for node_id, other in document.names().items() if other == name)


def leaks(window, where: str) -> list[str]:
    """What the window shows now of the answers still asked for, surface by surface."""
    panel, editor, animator = window.learning.panel, window.editor, window.animator
    found: list[str] = []
    document = window.document
    asked = pending(panel, document)
    if not asked:
        return found
    output = document.effective_output()
    editor.run_gradient_check()  # what a student pressing Check gradients would read
    table = editor.gradcheck_table
    checked = {table.item(r, 0).text(): [table.item(r, c).text() for c in (1, 2)] for r in range(table.rowCount())}
    selected = editor.properties.node_id
    status = [window.statusBar().currentMessage(), window.status.evaluation_label.text(), editor.summary()]
    for what, name, number, along in asked:
        node = id_of(document, name)
        if isinstance(number, np.ndarray):  # a tensor graph's gradient: its cards, wires and replay are other
            found += tensor_leaks(window, where, name, node, number, checked, status)
            continue
        short, full = format_number(number), full_number(number)
        if what == "tangent":  # forward mode is the one place that shows a tangent
            if animator.source == "forward" and animator.forward.input_combo.currentText() == along:
                found += forward_leaks(animator, node, name, short, full, where)
            continue
        card = editor.scene.node_item(node)
        line = card.body_lines()[0 if what == "value" else 1]
        if line != f"{what} ?":
            found.append(f"{where}: editor card of {name} reads '{line}'")
        tip = card.tooltip_text()
        shown = tip.split(", grad = ")[0 if what == "value" else 1].split("\n")[0]
        if not shown.endswith("?"):
            found.append(f"{where}: the tooltip of {name} reads '{tip}'")
        if what == "grad":
            for wire in editor.scene.wire_items():
                if wire.edge.source == node and wire.label_text() not in ("", "grad ?"):
                    found.append(f"{where}: the wire out of {name} reads '{wire.label_text()}'")
                if wire.edge.source == node and f"= {full}" in wire.toolTip():
                    found.append(f"{where}: the wire out of {name}'s tooltip reads '{wire.toolTip()}'")
            if name in checked and short in checked[name]:
                found.append(f"{where}: Check gradients shows {name}: {checked[name]}")
        if selected == node:
            label = editor.properties.computed_value if what == "value" else editor.properties.computed_grad
            if label.text() != "?":
                found.append(f"{where}: the side panel shows {name}'s {what} as '{label.text()}'")
        if what == "value" and node == output and any(f"= {short}" in text for text in status):
            found.append(f"{where}: the status bar reads {status}")
        found += [f"{where}: {surface} reads '{text}'" for surface, text in said(window)
                  if states(text, what, name, short, full)]
        if animator.source == "graph" and maths_of(animator.document) == maths_of(document):
            item = animator.scene.node_item(node)
            if item is not None:
                line = item.body_lines()[0 if what == "value" else 1]
                if line.split()[-1] == short:
                    found.append(f"{where}: the animator's card of {name} reads '{line}'")
    # what a path list hides it does not state beside it ("L.grad = ? (the output: ∂L/∂L = 1, ...)")
    found += [f"{where}: {surface} hides and states a number: '{text}'" for surface, text in said(window)
              if "path list" in surface and "= ?" in text and re.search(r"=\s*-?\d", text)]
    return found


def said(window) -> list[tuple[str, str]]:
    """The lines of text around the graphs, where an answer could be written out in words: the path lists
    (the editor's side panel and the animator's step panel), the caption under the animator's graph, the
    Learn panel's notice above the step and the status bar."""
    editor, animator = window.editor, window.animator
    surfaces = [("the editor's path list", editor.paths), ("the animator's path list", animator.paths.box)]
    texts = []
    for surface, box in surfaces:
        texts += [(surface, box.heading.text())] + [(surface, row) for row in box.rows()]
    texts += [("the caption under the animator's graph", animator.caption.text()),
              ("the Learn panel's notice", window.learning.panel.notice.text()),
              ("the status bar", window.statusBar().currentMessage())]
    return [(surface, text) for surface, text in texts if text]


def states(text: str, what: str, name: str, short: str, full: str) -> bool:
    """Whether ``text`` sets ``name``'s value or gradient equal to the number (``a.grad = 31``,
    ``∂L/∂a = 31``, ``∂L/∂L = 1`` for the output's own, ``t1 = 6``), however the name is written."""
    number = "|".join(re.escape(written) for written in {short, full})
    names = "|".join(re.escape(written) for written in {name, readable(name)})
    quantity = rf"(?:(?:{names})\.grad|∂\S+/∂(?:{names}))" if what == "grad" else rf"(?<![\w.∂])(?:{names})"
    return re.search(rf"{quantity}\s*=\s*(?:{number})(?!\d|\.\d)", text) is not None


def tangent_lines(text: str) -> list[str]:
    """The lines of a step box (or a row's tooltip) that work out a tangent: "ṫ₂ = ∂t₂/∂t₁ · ṫ₁ = 1 × 3 = 3"."""
    return text.split("Tangent:\n", 1)[1].splitlines()[:1] if "Tangent:\n" in text else []


def forward_leaks(animator, node: str, name: str, short: str, full: str, where: str) -> list[str]:
    """What forward mode shows now of the tangent of ``node`` (named ``name``): its row, its card and tooltip,
    and, on the current step, any arithmetic that uses it, the caption under the graph and the path list."""
    found = []
    timeline, position = animator.timeline, animator.position
    step = next(p for p, frame in enumerate(timeline.frames, 1) if frame.node_id == node)
    symbol = dotted(pretty(name))
    row = animator.steps.step_list.item(step - 1)
    if row.text().split(",  ")[-1].endswith(f"= {short}"):
        found.append(f"{where}: forward mode's step row reads '{row.text()}'")
    if any(not line.endswith("?") for line in tangent_lines(row.toolTip()) if symbol in line):
        found.append(f"{where}: forward mode's step row's tooltip reads '{row.toolTip()}'")
    if position >= step:
        item = animator.scene.node_item(node)
        if item.body_lines()[1] != "tangent ?":
            found.append(f"{where}: the forward-mode card of {name} reads '{item.body_lines()[1]}'")
        if item.toolTip().endswith(f"= {full}"):
            found.append(f"{where}: the forward-mode tooltip of {name} reads '{item.toolTip()}'")
        current = timeline.current
        if not animator.document.node(current.node_id).is_leaf and "?" not in animator.paths.box.heading.text():
            found.append(f"{where}: the path list at step {position} reads '{animator.paths.box.heading.text()}'")
        explanation = animator.steps.explanation.text()
        for line in tangent_lines(explanation):
            if symbol in line and not line.endswith("?"):
                found.append(f"{where}: step {position}'s box reads '{line}'")
        for part in animator.caption.text().split("  ·  "):
            if symbol in part and not part.endswith("?"):
                found.append(f"{where}: the caption under the graph reads '{part}'")
    return found


def stepped_through(window, where: str) -> list[str]:
    """A student pressing → to the end of the animation before answering: every surface at every step; then
    back where the lesson had the animator."""
    animator = window.animator
    if animator.timeline is None:
        return []
    found, start = [], animator.position
    while animator.step_forward():
        QApplication.processEvents()
        found += leaks(window, f"{where}, stepped to {animator.position}")
    animator.seek(start)
    return found


def tensor_leaks(window, where: str, name: str, node: str, grad: np.ndarray, checked: dict, status: list) -> list[str]:
    """Where the window shows the gradient ``grad`` of the tensor node ``node``: any element, or the whole."""
    editor, animator = window.editor, window.animator
    elements = {format_number(x) for x in grad.reshape(-1)} | {full_number(x) for x in grad.reshape(-1)}
    whole = {format_array(grad), describe(grad), describe(grad, limit=8)}
    found = []
    card = editor.scene.node_item(node)
    if card.shown_numbers("grad") is not None:
        found.append(f"{where}: the editor card of {name} writes its gradient {card.shown_numbers('grad')}")
    if any(text in card.tooltip_text() for text in whole):
        found.append(f"{where}: the tooltip of {name} reads '{card.tooltip_text()}'")
    for index in np.ndindex(grad.shape):
        if not card.element_text("grad", index).endswith("grad ?"):
            found.append(f"{where}: hovering {name}{list(index)} reads '{card.element_text('grad', index)}'")
    for wire in editor.scene.wire_items():
        if wire.edge.source == node and any(text in wire.toolTip() or text in wire.label_text() for text in whole):
            found.append(f"{where}: the wire out of {name} reads '{wire.label_text()}' / '{wire.toolTip()}'")
    for row_name, numbers in checked.items():  # Check gradients lists every element as name[i, j]
        if row_name.split("[")[0] == name and set(numbers) & elements:
            found.append(f"{where}: Check gradients shows {row_name}: {numbers}")
    if editor.properties.node_id == node and editor.properties.computed_grad.text() != "?":
        found.append(f"{where}: the side panel shows {name}'s gradient as '{editor.properties.computed_grad.text()}'")
    if any(text in line for text in whole for line in status):
        found.append(f"{where}: the status bar reads {status}")
    animation = animator.animation
    if animator.source == "graph" and animation is not None and hasattr(animation, "nodes"):
        replay = next((key for key, item in animation.nodes.items() if item.title == name), None)
        item = animator.scene.node_item(replay) if replay is not None else None
        if item is not None and not any(line.endswith(("?", "—")) for line in item.body_lines()
                                        if "grad" in line.split()[0]):
            found.append(f"{where}: the animator's card of {name} reads {item.body_lines()}")
        if item is not None and any(text in item.toolTip() for text in whole):
            found.append(f"{where}: the animator's tooltip of {name} reads '{item.toolTip()}'")
        steps = animator.steps
        # the rows that hand the node its gradient ("Z → XW: ..."); another node's row may carry the same
        # numbers (an add hands its gradient on unchanged), once that node's own question is answered
        rows = [steps.step_list.item(i).text() for i in range(steps.step_list.count())]
        rows = [row for row in rows if f"→ {name}:" in row]
        if any(text in row for text in whole for row in rows):
            found.append(f"{where}: the animator's step list shows {name}'s gradient")
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_no_surface_shows_an_answer_before_the_lesson_asks_for_it(window, path):
    window.learning.start(path.stem)
    panel = window.learning.panel
    found: list[str] = []
    steps = 0
    while True:
        QApplication.processEvents()
        steps += 1
        title = panel.run.step.title
        found += leaks(window, title)
        while panel.run.question is not None:
            found += stepped_through(window, title)
            question = panel.run.question
            if question.what == "build":  # built as a student builds it: typed in the expression box
                build = next(action for action in panel.run.step.actions if action.kind == "build")
                window.editor.expression_input.setText(build.argument)
                window.editor.build_button.click()
                QApplication.processEvents()  # the graph is evaluated at the next turn of the event loop
                found += leaks(window, f"{title}, the graph built")
                assert panel.check_build(), (title, panel.feedback.text())
                QApplication.processEvents()
                found += leaks(window, f"{title}, once the graph is checked")
                continue
            if question.what == "goal":  # a run reached on the training tab: none shown before, none to type
                panel.reveal()
                QApplication.processEvents()
                found += leaks(window, f"{title}, its goal left")
                continue
            typed = (str(question.expected) if question.what == "shape" else format_array(question.expected)
                     if isinstance(question.expected, np.ndarray) else full_number(question.expected))
            assert panel.answer(typed), (title, question.prompt)
            QApplication.processEvents()
            found += leaks(window, f"{title}, once {question.prompt} is answered")
        if not panel.next():
            break
    assert steps == len(load_lesson(path).steps)
    assert not found, "\n".join(found)
