"""The backward animator panel, driven through its real widgets: keys, buttons, sliders, the step
list, clicks on the graph, following the editor's document, playing, and exporting a GIF."""

from __future__ import annotations

import math
import stat
from copy import deepcopy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageSequence
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QLineEdit, QPushButton, QSplitter, QToolButton

from engine import Tensor
from playground.animator.colors import STATE_COLORS, WRONG_COLOR
from playground.animator.model.timeline import NodeState
from playground.animator.panel import START_TEXT, AnimatorPanel
from playground.animator.player import SPEEDS
from playground.common.numbers import format_number
from playground.files.disk import NEW_FILE_MODE
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.evaluate import evaluate
from playground.graph.expression import parse_expression
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot

TRACED = "a=2; b=3; c=4; d=5; L=((a*b)+c)*(a+d)"
LEFT = Qt.MouseButton.LeftButton


def traced() -> GraphDocument:
    return parse_expression(TRACED)


def node_id(document: GraphDocument, label: str) -> str:
    return next(n.id for n in document.nodes if n.label == label)


def lines(panel: AnimatorPanel, node: str) -> list[str]:
    return panel.scene.node_item(node).body_lines()


def snapshot(panel: AnimatorPanel) -> dict:
    """Everything the graph shows: each node's lines and colour, each wire's label and colour."""
    nodes = {item.node_id: (tuple(item.body_lines()), item.highlight.name() if item.highlight else None)
             for item in panel.scene.node_items()}
    wires = {wire.edge: (wire.label_visible, wire.label_text() if wire.label_visible else "",
                         panel.sync.wire_highlights.get(wire.edge)) for wire in panel.scene.wire_items()}
    return {"nodes": nodes, "wires": wires, "text": panel.steps.explanation.text(),
            "row": panel.steps.step_list.currentRow()}


@pytest.fixture
def panel(qtbot):
    panel = AnimatorPanel()
    panel.resize(1200, 800)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    panel.view.setFocus()
    return panel


@pytest.fixture
def loaded(panel):
    assert panel.load(traced())
    return panel


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
    assert panel.view.objectName() == "animatorView" and panel.view.accessibleName() == "animatorView"
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


@pytest.fixture
def network():
    session = TrainingSession(TrainingSettings(points=60))
    session.train_steps(20)
    return network_snapshot(session.settings, session.state_dict(), session.step, session.data)


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
    assert "contribution = gᵀ · x" in panel.steps.explanation.text()
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
    for name in ("animPlayButton", "animStepForwardButton", "animStepBackButton", "animFirstButton",
                 "animLastButton", "animSpeedSlider", "animTimeline"):
        widget = panel.findChild(object, name)
        assert widget is not None and widget.accessibleName() == name
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


# -- following the editor's document ---------------------------------------------------------


def test_follow_resets_to_the_edited_graph(panel, qtbot):
    document = traced()
    a = node_id(document, "a")
    panel.follow(document)
    assert panel.timeline is not None and panel.frame_count == 17
    panel.seek(10)
    document.set_value(a, 10.0)
    qtbot.waitUntil(lambda: panel.position == 0 and panel.timeline.frames[0].title == "a = 10")
    panel.last()
    assert lines(panel, node_id(panel.document, "L"))[0] == "value 510"  # ((10*3)+4)*(10+5)

    panel.seek(5)
    document.move_node(a, 40.0, 40.0)  # no new maths: the step stays
    qtbot.waitUntil(lambda: panel.scene.node_item(a).pos().x() == 40.0)
    assert panel.position == 5

    document.remove_edge(document.edge_at(node_id(document, "L"), 1))  # L's second input now dangles
    qtbot.waitUntil(lambda: panel.message.isVisible())
    assert "not connected" in panel.message.text() and panel.timeline is None


def test_follow_waits_until_shown_and_lets_go_of_the_old_document(panel, qtbot):
    first, second = traced(), parse_expression("x=1; y=tanh(x)")
    panel.follow(first)
    panel.follow(second)
    assert panel.frame_count == 4  # x, y forward; seed; one backward step
    first.set_value(node_id(first, "a"), 9.0)
    qtbot.wait(20)
    assert not panel.is_stale and panel.frame_count == 4
    panel.hide()
    second.set_value(node_id(second, "x"), 0.5)
    qtbot.wait(20)
    assert panel.is_stale and panel.timeline.frames[0].title == "x = 1"
    panel.show()
    qtbot.waitUntil(lambda: not panel.is_stale)
    assert panel.timeline.frames[0].title == "x = 0.5" and panel.position == 0


def test_incomplete_or_empty_graph_shows_a_message(panel, qtbot):
    document = GraphDocument()
    document.add_node(Node("a", "input", 0, 0, "a", 2.0))
    document.add_node(Node("m", "mul", 200, 0))
    document.add_edge(Edge("a", "m", 0))
    assert panel.load(document) is False
    assert panel.message.isVisible() and "not connected" in panel.message.text()
    assert not panel.controls.play_button.isEnabled() and panel.steps.step_list.count() == 0
    qtbot.keyClick(panel.view, Qt.Key.Key_Right)
    qtbot.keyClick(panel.view, Qt.Key.Key_Space)
    assert panel.position == 0 and not panel.is_playing
    assert panel.load(GraphDocument()) is False and "empty" in panel.message.text()
    assert panel.load(traced()) and not panel.message.isVisible() and panel.controls.play_button.isEnabled()


# -- playing ---------------------------------------------------------------------------------


def test_play_advances_over_time_and_stops_at_the_end(loaded, qtbot):
    panel = loaded
    panel.controls.speed_slider.setValue(SPEEDS.index(8.0))
    qtbot.mouseClick(panel.controls.play_button, LEFT)
    assert panel.is_playing
    qtbot.waitUntil(lambda: panel.position >= 2, timeout=3000)
    assert panel.position < panel.frame_count
    qtbot.mouseClick(panel.controls.play_button, LEFT)
    stopped_at = panel.position
    qtbot.wait(300)
    assert panel.position == stopped_at

    panel.controls.speed_slider.setValue(len(SPEEDS) - 1)  # fastest
    qtbot.mouseClick(panel.controls.play_button, LEFT)
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=5000)
    assert panel.position == panel.frame_count and panel.controls.play_button.text() == "Play"
    qtbot.mouseClick(panel.controls.play_button, LEFT)  # at the end, Play starts again from the beginning
    assert panel.is_playing and panel.position <= 1
    panel.pause()


def test_an_exception_in_a_slot_is_reported_not_raised(loaded, qtbot, monkeypatch):
    panel = loaded

    def broken(position):
        raise RuntimeError("boom")

    monkeypatch.setattr(panel.timeline, "seek", broken)
    with qtbot.waitSignal(panel.status_message, check_params_cb=lambda text: "boom" in text):
        qtbot.mouseClick(panel.controls.forward_button, LEFT)
    assert not panel.is_playing


# -- export ----------------------------------------------------------------------------------


def test_gif_has_one_frame_per_step_and_position_is_restored(loaded, tmp_path):
    panel = loaded
    panel.seek(6)
    path = tmp_path / "backward.gif"
    count = panel.exporter.export_gif(path, frame_ms=100, max_size=400)
    assert count == panel.frame_count == 17
    with Image.open(path) as image:
        assert image.format == "GIF" and image.n_frames == 17
        assert sum(1 for _ in ImageSequence.Iterator(image)) == 17
        assert max(image.size) <= 400
    assert panel.position == 6
    assert panel.steps.explanation.text() == panel.timeline.frames[5].explanation
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file, then moved
    assert stat.S_IMODE(path.stat().st_mode) == NEW_FILE_MODE  # not private, as the temporary file was


def test_the_gif_plays_at_the_chosen_speed(loaded, tmp_path):
    panel = loaded
    panel.set_speed_index(SPEEDS.index(4.0))
    panel.exporter.export_gif(tmp_path / "fast.gif", max_size=300)
    with Image.open(tmp_path / "fast.gif") as image:
        assert image.info["duration"] == 250


def test_png_frames(loaded, tmp_path):
    panel = loaded
    count = loaded.exporter.export_png_frames(tmp_path / "frames", max_size=300)
    files = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert count == len(files) == 17 and files[0].name == "frame_0001.png"
    first, last = Image.open(files[0]), Image.open(files[-1])
    assert first.size == last.size and first.tobytes() != last.tobytes()
    assert panel.position == 0


def test_the_export_menu_writes_a_gif_or_png_frames(loaded, tmp_path, monkeypatch):
    panel = loaded
    messages = []
    panel.status_message.connect(messages.append)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args: (str(tmp_path / "lecture"), ""))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(tmp_path / "slides"))
    actions = {action.objectName(): action for action in panel.controls.export_button.menu().actions()}
    actions["animExportGifAction"].trigger()
    with Image.open(tmp_path / "lecture.gif") as gif:
        assert sum(1 for _ in ImageSequence.Iterator(gif)) == 17
    actions["animExportFramesAction"].trigger()
    assert len(list((tmp_path / "slides").glob("frame_*.png"))) == 17
    assert messages[-1] == f"Saved 17 frames to {tmp_path / 'slides'}"


# -- helpers ---------------------------------------------------------------------------------


def chain(n: int) -> GraphDocument:
    """x → tanh → tanh → ... (n nodes): every step changes one or two nodes."""
    document = GraphDocument()
    document.add_node(Node("n0", "input", 0, 0, "x", 0.5))
    for i in range(1, n):
        document.add_node(Node(f"n{i}", "tanh", 180 * i, 0))
        document.add_edge(Edge(f"n{i - 1}", f"n{i}", 0))
    return document


# -- Predict mode and the pitfall replays ------------------------------------------------------


def test_predict_mode_asks_before_each_backward_step_and_keeps_a_score(loaded, qtbot):
    panel = loaded
    toggle = panel.findChild(QToolButton, "predictToggle")
    qtbot.mouseClick(toggle, LEFT)
    assert toggle.isChecked() and panel.predict.isVisible()
    answer = panel.findChild(QLineEdit, "predictInput")
    feedback = panel.findChild(QLabel, "predictFeedback")
    forward_and_seed = sum(frame.phase != "backward" for frame in panel.timeline.frames)
    for _ in range(forward_and_seed + 1):
        qtbot.keyClick(panel.view, Qt.Key.Key_Right)
    assert panel.position == forward_and_seed  # the first backward step waits for a prediction
    assert panel.predict.pending == forward_and_seed + 1 and answer.isEnabled()
    step = panel.timeline.frames[forward_and_seed].step
    assert "What does it carry" in panel.findChild(QLabel, "predictQuestion").text()

    qtbot.keyClicks(answer, format_number(step.contribution))
    qtbot.keyClick(answer, Qt.Key.Key_Return)
    assert panel.position == forward_and_seed + 1 and feedback.text().startswith("✓ Right.")
    qtbot.keyClick(panel.view, Qt.Key.Key_Right)
    assert panel.position == forward_and_seed + 1  # the next one waits too
    qtbot.keyClicks(answer, "12345")
    qtbot.mouseClick(panel.findChild(QPushButton, "predictCheckButton"), LEFT)
    assert feedback.text().startswith("✗ Not quite: 12345.") and "contribution = upstream × local" in \
        feedback.text()
    assert panel.position == forward_and_seed + 2  # shown once answered, right or wrong
    assert panel.findChild(QLabel, "predictScore").text() == "Score: 1 of 2"

    qtbot.keyClicks(answer, "x")  # nothing pending: the field is off
    assert not answer.isEnabled()
    assert panel.load(traced())  # a new graph, a new score
    assert panel.findChild(QLabel, "predictScore").text() == "Score: 0 of 0 (8 steps to predict)"


def test_predict_pauses_playing_at_the_first_step_to_predict(loaded, qtbot):
    panel = loaded
    panel.set_predict(True)
    panel.set_speed_index(len(SPEEDS) - 1)
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing)
    assert panel.predict.pending == panel.position + 1 and panel.timeline.frames[panel.position].phase == "backward"


def test_predict_is_off_for_a_network(panel, network):
    assert panel.load_network(network.model, network.loss_fn, network.X, network.y)
    assert not panel.findChild(QToolButton, "predictToggle").isEnabled()


def test_the_overwrite_pitfall_replays_beside_the_correct_pass_and_marks_where_they_part(loaded, qtbot):
    panel = loaded
    combo = panel.findChild(QComboBox, "pitfallCombo")
    combo.setCurrentIndex(combo.findData("overwrite"))
    combo.activated.emit(combo.currentIndex())  # as a person's choice does
    mistaken = panel.pitfalls
    assert mistaken.isVisible() and panel.pitfalls.correct_caption.text() == "Correct: parent.grad += contribution"
    assert panel.findChild(QLabel, "pitfallCaption").text() == "With the mistake: parent.grad = contribution"
    part = mistaken.parting_position
    summary = panel.findChild(QLabel, "pitfallSummary").text()
    assert f"step {part}" in summary and "31" in summary and "10" in summary
    assert panel.steps.step_list.item(part - 1).text().endswith("⚑ the replays part here")

    qtbot.mouseClick(panel.findChild(QPushButton, "pitfallPartButton"), LEFT)
    assert panel.position == part
    assert "With the mistake  ⚑ the replays part here:" in panel.steps.explanation.text()
    assert "overwrote 21 instead of adding" in panel.steps.explanation.text()
    qtbot.keyClick(panel.view, Qt.Key.Key_End)
    a = node_id(panel.document, "a")
    assert lines(panel, a) == ["value 2", "grad 31"]
    assert mistaken.scene.node_item(a).body_lines() == ["value 2", "grad 10", "✗ right: 31"]
    assert mistaken.scene.node_item(a).highlight == QColor(WRONG_COLOR)  # the final gradients that differ, marked
    assert panel.scene.node_item(a).highlight == QColor(STATE_COLORS[NodeState.DONE])
    assert mistaken.scene.node_item(node_id(panel.document, "b")).body_lines() == ["value 3", "grad 14"]

    combo.setCurrentIndex(0)  # no mistake
    combo.activated.emit(0)
    assert not mistaken.isVisible() and panel.steps.step_list.item(part - 1).text().endswith("= 10")


def test_forgetting_to_zero_replays_two_passes_on_both_sides(loaded, qtbot):
    panel = loaded
    assert panel.set_pitfall("zero")
    assert panel.frame_count == 17 + 1 + 8  # a second seed and a second pass of eight steps
    panel.last()
    a = node_id(panel.document, "a")
    assert lines(panel, a) == ["value 2", "grad 31"]  # zero_grad() first: the same gradients again
    assert panel.pitfalls.scene.node_item(a).body_lines() == ["value 2", "grad 62", "✗ right: 31"]
    panel.set_pitfall("order")  # lesson 2's graph: the order cannot go wrong here
    assert panel.pitfalls.parting_position is None and "never part" in panel.pitfalls.summary.text()
    assert not panel.findChild(QPushButton, "pitfallPartButton").isEnabled()


def test_a_wrong_order_summary_says_what_each_pass_does_where_they_part(panel):
    """The order pitfall's passes take different wires at the parting step: the summary said "b → a gives
    a.grad = 48 where the correct pass has b.grad = 21", comparing two different gradients."""
    assert panel.load(parse_expression("a=3; b=a*2; c=b*b; d=b+c; L=d*a"))
    assert panel.set_pitfall("order")
    part = panel.pitfalls.parting_position
    flagged = panel.steps.step_list.item(part - 1).text()  # the correct pass's step: "12.  c → b (a): ..."
    summary = panel.pitfalls.summary.text()
    assert "the correct pass hands c's gradient to b" in summary and flagged.split()[1:4] == ["c", "→", "b"]
    assert "the mistaken pass hands b's on to a" in summary
    assert "b's own gradient is still 3, not yet its 39" in summary


def test_the_step_runs_under_the_graph_while_the_step_panel_is_closed(loaded, qtbot):
    """On a projector the step panel gives way; the chain-rule product a class must read stays on screen."""
    panel = loaded
    position = next(i for i, frame in enumerate(panel.timeline.frames, 1) if frame.phase == "backward")
    panel.seek(position)
    assert not panel.caption.isVisible() and panel.legend.isVisible()  # the panel is open: the text is there
    panel.steps_action.trigger()  # closed, as the button would
    assert panel.steps.isHidden() and panel.caption.isVisible() and not panel.legend.isVisible()
    caption = panel.caption.text()
    assert caption.startswith(f"Step {position} of {len(panel.timeline)}")
    assert "contribution = " in caption and "\n" not in caption
    panel.seek(position + 1)
    assert panel.caption.text().startswith(f"Step {position + 1} of")
    panel.steps_action.trigger()
    assert not panel.caption.isVisible() and panel.legend.isVisible()
