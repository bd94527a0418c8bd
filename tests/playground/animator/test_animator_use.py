"""The backward animator panel in use, through its real widgets: following the editor's document, playing,
exporting a GIF and PNG frames, Predict mode and the pitfall replays. Its steps and controls: `test_animator.py`."""

from __future__ import annotations

import stat

from PIL import Image, ImageSequence
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QFileDialog, QLabel, QLineEdit, QPushButton, QToolButton

from playground.animator.colors import STATE_COLORS, WRONG_COLOR
from playground.animator.model.timeline import NodeState
from playground.animator.player import SPEEDS
from playground.common.numbers import format_number
from playground.files.disk import NEW_FILE_MODE
from playground.graph.document import Edge, GraphDocument, Node
from playground.graph.expression import parse_expression
from tests.playground.animator_driving import LEFT, lines, node_id, traced

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
