"""The backward animator panel, driven through its real widgets: the hand-traced example step by step,
random graphs against the engine, the training network at tensor level, and keys, buttons, sliders, the step
list and clicks on the graph. Following the editor, playing, exporting and Predict: `test_animator_use.py`."""

from __future__ import annotations

import math
from copy import deepcopy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageSequence
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QSplitter

from engine import Tensor
from playground.animator.colors import STATE_COLORS
from playground.animator.model.timeline import NodeState
from playground.animator.panel import START_TEXT
from playground.animator.player import SPEEDS
from playground.common.numbers import format_number
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from tests.playground.animator_driving import LEFT, chain, lines, node_id, snapshot, traced

# -- the hand-traced example ----------------------------------------------------------------


def test_load_starts_before_the_first_step_on_a_copy(panel):
    document = traced()
    assert panel.load(document)
    assert panel.document is not document
    assert panel.position == 0 and panel.frame_count == 17
    assert panel.steps.explanation.text() == START_TEXT
    assert panel.steps.step_list.count() == 17 and panel.steps.step_list.item(0).text().startswith("1.")
    assert panel.steps.step_list.currentRow() == -1
    for item in panel.scene.node_items():
        assert item.body_lines() == ["value —", "grad —"]
        assert item.highlight == QColor(STATE_COLORS[NodeState.NOT_REACHED])
    assert panel.view.objectName() == "animatorView" and panel.view.accessibleName() == "The animated graph"
    assert not panel.message.isVisible()


def test_contributions_21_and_10_add_up_to_31_at_a(loaded, qtbot):
    panel, a = loaded, node_id(loaded.document, "a")
    seen = []
    for _ in range(panel.frame_count):
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)
        seen.append((panel.position, panel.steps.explanation.text(), lines(panel, a),
                     panel.scene.node_item(a).highlight.name()))
    first = next(entry for entry in seen if "× 3 = 21" in entry[1])
    second = next(entry for entry in seen if "21 + 10 = 31" in entry[1] or "10 + 21 = 31" in entry[1])
    assert first[0] < second[0]
    assert first[2] == ["value 2", "grad 21"]
    assert first[3] == QColor(STATE_COLORS[NodeState.RECEIVING]).name()  # one of a's two contributions
    assert "× 1 = 10" in second[1]
    assert second[2] == ["value 2", "grad 31"]
    assert second[3] == QColor(STATE_COLORS[NodeState.READY]).name()
    # the wire the 21 travelled along is the accent wire at that step and carries 21
    panel.seek(first[0])
    edge = panel.timeline.current.edge
    assert edge.source == a
    wire = panel.scene.wire_item(edge)
    assert wire.label_visible and wire.grad == 21 and panel.sync.wire_highlights[edge] is not None
    assert sum(1 for colour in panel.sync.wire_highlights.values() if colour) == 1


def test_final_gradients_are_the_engines(loaded, qtbot):
    panel = loaded
    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    expected = {"a": 31, "b": 14, "c": 7, "d": 10, "L": 1}
    for label, grad in expected.items():
        assert lines(panel, node_id(panel.document, label))[1] == f"grad {grad}"
    results = evaluate(panel.document).results
    for item in panel.scene.node_items():
        assert item.body_lines() == [f"value {format_number(results[item.node_id].value)}",
                                     f"grad {format_number(results[item.node_id].grad)}"]
    assert all(item.highlight == QColor(STATE_COLORS[NodeState.DONE]) for item in panel.scene.node_items())
    assert "Finished" in panel.steps.explanation.text()


def test_stepping_back_restores_every_display(loaded, qtbot):
    panel = loaded
    forward = [snapshot(panel)]
    for _ in range(panel.frame_count):
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)
        forward.append(snapshot(panel))
    assert forward[0] != forward[-1]
    qtbot.keyClick(panel.view, Qt.Key.Key_Right)  # at the end: nothing happens
    assert snapshot(panel) == forward[-1]
    for position in range(panel.frame_count, 0, -1):
        qtbot.keyClick(panel.view, Qt.Key.Key_Left)
        assert panel.position == position - 1
        assert snapshot(panel) == forward[position - 1], f"position {position - 1} differs on the way back"


def test_only_changed_nodes_are_redrawn_on_a_step(panel, monkeypatch):
    document = chain(300)
    assert panel.load(document)
    calls = []
    for item in panel.scene.node_items():
        original = item.set_body_lines
        monkeypatch.setattr(item, "set_body_lines",
                            lambda lines, _id=item.node_id, _f=original: (calls.append(_id), _f(lines))[1])
    panel.seek(150)
    calls.clear()
    touched = panel.seek(151)
    assert calls and set(calls) <= touched and len(calls) <= 2
    calls.clear()
    panel.seek(400)  # a jump redraws only what the frames passed over changed
    assert calls and len(set(calls)) < 300
    calls.clear()
    panel.seek(401)
    assert len(calls) <= 2


def test_big_graph_follows_the_step_and_drops_the_minimap_only_while_playing_fastest(panel, qtbot):
    assert panel.load(chain(120))
    assert panel.view.is_minimap_visible()
    panel.seek(100)  # forward frame of node n99, far right of a 120-node chain
    visible = panel.view.mapToScene(panel.view.viewport().rect()).boundingRect()
    assert visible.contains(panel.scene.node_item("n99").sceneBoundingRect())
    panel.set_speed_index(len(SPEEDS) - 1)
    panel.play()
    assert not panel.view.is_minimap_visible()
    panel.pause()
    assert panel.view.is_minimap_visible()


def test_a_view_too_small_for_the_graph_shows_the_current_step_when_it_is_fitted_again(loaded, qtbot):
    """A person opens the Steps panel mid-pass on a projector: the view narrows, the graph no longer fits
    whole, and the card the step is about stays in sight (it showed the inputs, the step off to the right)."""
    panel = loaded
    seed = next(i for i, frame in enumerate(panel.timeline.frames, 1) if frame.phase == "seed")
    panel.seek(seed)  # the output's card, at the far right of the graph
    panel.view.resize(260, 300)
    panel.fitting.fit()
    output = panel.scene.node_item(panel.timeline.current.node_id)
    visible = panel.view.mapToScene(panel.view.viewport().rect()).boundingRect()
    assert panel.view.zoom() >= panel.fitting.readable_zoom * 0.99  # too small to fit whole: readable zoom
    assert visible.intersects(output.sceneBoundingRect()) and visible.contains(output.sceneBoundingRect().center())


# -- random graphs: the last step shows the engine's gradients -----------------------------

UNARY, BINARY = ("tanh", "sigmoid", "exp", "sin"), ("add", "sub", "mul")


@st.composite
def random_documents(draw) -> GraphDocument:
    document = GraphDocument()
    ids = []
    for i in range(draw(st.integers(1, 4))):
        value = draw(st.floats(-2, 2, allow_nan=False))
        document.add_node(Node(f"x{i}", "input", 0, 110 * i, f"x{i}", value))
        ids.append(f"x{i}")
    for j in range(draw(st.integers(1, 9))):
        kind = draw(st.sampled_from(UNARY + BINARY + ("sum",)))
        ports = draw(st.integers(1, 3)) if kind == "sum" else 1 if kind in UNARY else 2
        new = f"op{j}"
        document.add_node(Node(new, kind, 180 * (j + 1), 60 * (j % 4), inputs=ports if kind == "sum" else 0))
        for port in range(ports):
            document.add_edge(Edge(draw(st.sampled_from(ids)), new, port))
        ids.append(new)
    document.set_output(ids[-1])
    return document


def same(a: float | None, b: float | None) -> bool:
    return a == b or (a is not None and b is not None and math.isnan(a) and math.isnan(b))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=random_documents())
def test_final_gradients_equal_the_engine_on_random_graphs(panel, qtbot, document):
    assert panel.load(document)
    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    assert panel.position == panel.frame_count
    results = evaluate(document).results
    for item in panel.scene.node_items():
        result = results[item.node_id]
        assert item.body_lines()[1] == f"grad {format_number(result.grad)}"
        shown = panel.timeline.display.get(item.node_id)
        if shown is not None:  # the output depends on it: exact numbers, not just their text
            assert same(shown.grad, result.grad) and same(shown.value, result.value)
            assert item.body_lines()[0] == f"value {format_number(result.value)}"
        else:
            assert result.grad is None
    qtbot.keyClick(panel.view, Qt.Key.Key_Home)
    assert all(item.body_lines() == ["value —", "grad —"] for item in panel.scene.node_items())


# -- a network at tensor level -----------------------------------------------------------------


def card(panel, title):
    return next(item for item in panel.scene.node_items() if item.title() == title)


def test_a_network_is_animated_layer_by_layer_with_shapes_and_gradient_norms(panel, qtbot, network):
    reference = deepcopy(network.model)
    assert panel.load_network(network.model, network.loss_fn, network.X, network.y, network.description)
    assert panel.source == "network" and panel.source_combo.currentData() == "network"
    assert {item.title() for item in panel.scene.node_items()} >= {"X", "W1", "b1", "Linear 1", "Tanh 1", "loss"}
    assert card(panel, "Linear 1").kind_title() == "linear" and card(panel, "Linear 1").port_names() == ["x", "W", "b"]
    assert card(panel, "loss").body_lines() == ["shape scalar", "value —", "grad —"]
    assert card(panel, "X").body_lines() == ["shape 42×2", "value —", "grad not needed"]

    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    reference_loss = network.loss_fn(reference(Tensor(network.X)), network.y)
    reference_loss.backward()
    for title, parameter in (("W1", reference[0].weight), ("b2", reference[2].bias), ("W3", reference[4].weight)):
        assert card(panel, title).body_lines()[2] == f"‖grad‖ {format_number(float(np.linalg.norm(parameter.grad)))}"
        assert card(panel, title).highlight == QColor(STATE_COLORS[NodeState.DONE])
    assert card(panel, "b3").body_lines()[2] == f"grad {format_number(float(reference[4].bias.grad[0]))}"
    assert card(panel, "loss").body_lines()[1] == f"value {format_number(reference_loss.item())}"
    assert card(panel, "X").highlight == QColor(STATE_COLORS[NodeState.COMPUTED])  # needs no gradient


def test_only_the_current_tensor_wire_shows_its_gradient(panel, network):
    assert panel.load_network(network.model, network.loss_fn, network.X, network.y)
    w2 = card(panel, "W2").node_id
    position = next(i + 1 for i, f in enumerate(panel.timeline.frames) if f.edge and f.edge.source == w2)
    panel.seek(position)
    labelled = [wire for wire in panel.scene.wire_items() if wire.label_visible]
    assert [wire.edge for wire in labelled] == [panel.timeline.current.edge]
    assert labelled[0].label_text().startswith("‖g‖ ") and panel.sync.wire_highlights[labelled[0].edge]
    assert "contribution = gᵀ · Tanh 1" in panel.steps.explanation.text()
    panel.seek(position + 1)
    assert not panel.scene.wire_item(labelled[0].edge).label_visible


def test_a_network_and_the_editors_graph_take_turns(panel, qtbot, network):
    document = traced()
    panel.follow(document)
    requested = []
    panel.network_requested.connect(lambda: requested.append(
        panel.load_network(network.model, network.loss_fn, network.X, network.y)))
    combo = panel.source_combo
    combo.setCurrentIndex(combo.findData("network"))
    combo.activated.emit(combo.currentIndex())  # as a person's choice in the list does
    assert requested == [True] and panel.source == "network"
    document.move_node(node_id(document, "a"), 500.0, 500.0)  # the layout alone: the network stays
    qtbot.wait(20)
    assert panel.source == "network"
    document.set_value(node_id(document, "a"), 10.0)  # the maths: the editor's graph comes back
    qtbot.waitUntil(lambda: panel.source == "graph")
    assert combo.currentData() == "graph" and panel.frame_count == 17
    assert lines(panel, node_id(panel.document, "a")) == ["value —", "grad —"]


def test_long_step_rows_wrap_instead_of_being_clipped(panel, qtbot, network):
    """Issue 13: rows such as "Linear 1 = X · W1ᵀ + b1  [42×16]" were cut at the list's edge ("[scal…")."""
    assert panel.load_network(network.model, network.loss_fn, network.X, network.y)
    steps = panel.steps.step_list
    font = steps.font()  # a big system font, or presentation mode, as on the screen where it was seen
    font.setPointSizeF(font.pointSizeF() * 1.5)
    steps.setFont(font)
    panel.findChild(QSplitter, "animatorSplitter").setSizes([900, 330])
    qtbot.waitUntil(lambda: steps.viewport().width() < 330)
    room = steps.viewport().width() - steps.iconSize().width() - 16  # the icon, its gap and the margins
    metrics, line = steps.fontMetrics(), steps.fontMetrics().lineSpacing()
    long_rows = [steps.item(i) for i in range(steps.count())
                 if metrics.horizontalAdvance(steps.item(i).text()) > room]
    assert long_rows, "the network's steps should include rows too long for one line"
    qtbot.waitUntil(lambda: all(steps.visualItemRect(item).height() >= 2 * line for item in long_rows))
    for item in long_rows:  # every word of the row is inside its rectangle, as wide as the list
        assert steps.visualItemRect(item).width() <= steps.viewport().width()


def test_a_network_animation_exports_one_gif_frame_per_step(panel, tmp_path, network):
    assert panel.load_network(network.model, network.loss_fn, network.X, network.y)
    path = tmp_path / "network.gif"
    assert panel.exporter.export_gif(path, max_size=500) == panel.frame_count
    with Image.open(path) as gif:
        assert sum(1 for _ in ImageSequence.Iterator(gif)) == panel.frame_count


# -- keys, buttons, sliders, the step list, clicks on nodes ---------------------------------


def test_keyboard_shortcuts(loaded, qtbot):
    panel = loaded
    for _ in range(3):
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)
    assert panel.position == 3
    qtbot.keyClick(panel.view, Qt.Key.Key_Left)
    assert panel.position == 2
    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    assert panel.position == 17
    qtbot.keyClick(panel.view, Qt.Key.Key_Home)
    assert panel.position == 0
    qtbot.keyClick(panel, Qt.Key.Key_Right)  # on the panel itself too
    assert panel.position == 1
    qtbot.keyClick(panel.view, Qt.Key.Key_Space)
    assert panel.is_playing and panel.controls.play_button.text() == "Pause"
    qtbot.keyClick(panel.view, Qt.Key.Key_Space)
    assert not panel.is_playing and panel.controls.play_button.text() == "Play"


def test_buttons_and_timeline_slider(loaded, qtbot):
    panel = loaded
    spoken = {"animPlayButton": "Play the animation", "animStepForwardButton": "Step forward",
              "animStepBackButton": "Step back", "animFirstButton": "Go to the first step",
              "animLastButton": "Go to the last step", "animSpeedSlider": "Playing speed: 1 step/s",
              "animTimeline": "Step of the animation"}
    for name, said in spoken.items():  # an icon button is said by its action (issue 32)
        widget = panel.findChild(object, name)
        assert widget is not None and widget.accessibleName() == said
    qtbot.mouseClick(panel.controls.forward_button, LEFT)
    qtbot.mouseClick(panel.controls.forward_button, LEFT)
    assert panel.position == 2 and panel.controls.timeline_slider.value() == 2
    qtbot.mouseClick(panel.controls.back_button, LEFT)
    assert panel.position == 1
    qtbot.mouseClick(panel.controls.last_button, LEFT)
    assert panel.position == 17 and not panel.controls.forward_button.isEnabled()
    qtbot.mouseClick(panel.controls.first_button, LEFT)
    assert panel.position == 0 and panel.steps.explanation.text() == START_TEXT
    assert panel.controls.timeline_slider.maximum() == 17
    panel.controls.timeline_slider.setValue(9)  # as a drag does, value by value
    assert panel.position == 9
    assert panel.steps.explanation.text() == panel.timeline.frames[8].explanation
    assert panel.steps.step_list.currentRow() == 8 and panel.controls.position_label.text() == "9 / 17"


def test_speed_slider(loaded):
    panel = loaded
    labels = []
    for index in range(len(SPEEDS)):
        panel.controls.speed_slider.setValue(index)
        labels.append(panel.controls.speed_label.text())
    assert labels == ["0.25 steps/s", "0.5 steps/s", "1 step/s", "2 steps/s", "4 steps/s", "8 steps/s", "fastest"]
    assert panel.speed is None and panel.player.interval == 0
    panel.controls.speed_slider.setValue(0)
    assert panel.player.interval == 4000


def test_clicking_a_step_in_the_list_seeks(loaded, qtbot):
    panel = loaded
    list_widget = panel.steps.step_list
    rect = list_widget.visualItemRect(list_widget.item(12))
    qtbot.mouseClick(list_widget.viewport(), LEFT, pos=rect.center())
    assert panel.position == 13
    assert panel.steps.explanation.text() == panel.timeline.frames[12].explanation
    assert panel.controls.timeline_slider.value() == 13


def test_the_step_list_never_takes_a_step_by_itself(loaded, qtbot):
    panel = loaded
    panel.steps.step_list.setFocus()  # as a menu closing or a tab coming back may do
    qtbot.wait(10)
    assert panel.position == 0 and panel.steps.step_list.focusPolicy() == Qt.FocusPolicy.NoFocus


def test_the_last_step_says_which_values_are_nan(panel, qtbot):
    assert panel.load(parse_expression("x=-2; y=3; L=log(x)*y"))
    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    text = panel.steps.explanation.text()
    assert "Finished" in text and "log of a negative number is undefined (nan)" in text
    log = next(n.id for n in panel.document.nodes if n.kind == "log")
    assert "⚠ log of a negative number" in panel.scene.node_item(log).toolTip()


def test_the_animated_graph_cannot_be_edited(loaded, qtbot):
    panel = loaded
    before = panel.document.to_dict()
    item = panel.scene.node_items()[0]
    start = item.pos()
    centre = panel.view.mapFromScene(item.sceneBoundingRect().center())
    qtbot.mousePress(panel.view.viewport(), LEFT, pos=centre)
    qtbot.mouseMove(panel.view.viewport(), centre + QPoint(60, 40))
    qtbot.mouseRelease(panel.view.viewport(), LEFT, pos=centre + QPoint(60, 40))
    assert item.pos() == start
    panel.view.open_quick_search()  # Tab's quick search adds nodes: not here
    assert not panel.view.quick_search.isVisible()
    assert panel.document.to_dict() == before


def test_clicking_a_node_goes_to_its_step(loaded, qtbot):
    panel = loaded
    mul = next(n.id for n in panel.document.nodes if n.kind == "mul" and not n.label)
    item = panel.scene.node_item(mul)
    qtbot.mouseClick(panel.view.viewport(), LEFT, pos=panel.view.mapFromScene(item.sceneBoundingRect().center()))
    assert panel.position == panel.timeline.frame_of_node(mul) == 14
    assert panel.timeline.current.node_id == mul and panel.timeline.current.phase == "backward"


@pytest.mark.parametrize("width, point_size", [(1200, None), (640, None), (900, 18)])
def test_the_animate_combo_is_as_wide_as_its_longest_entry(panel, qtbot, width, point_size):
    """Issue 29, item 9: its text was cut ("Forward mode (the tra…"), in a narrow panel and presentation mode's
    larger font alike."""
    if point_size:
        font = panel.font()
        font.setPointSize(point_size)
        panel.setFont(font)
    combo = panel.source_combo
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert "Forward mode (the training network)" in texts
    longest = max(combo.fontMetrics().horizontalAdvance(text) for text in texts)
    assert combo.sizeHint().width() >= longest + 16  # what it asks for: the text and the arrow
    panel.resize(max(width, panel.minimumSizeHint().width()), 800)
    qtbot.wait(200)
    if combo.parentWidget().width() < combo.parentWidget().sizeHint().width():  # no room: it gives way, no further
        assert combo.width() >= combo.minimumWidth()
        return
    qtbot.waitUntil(lambda: combo.width() >= longest + 16, timeout=2000)  # once the layout has taken the font
    assert combo.isVisible()
