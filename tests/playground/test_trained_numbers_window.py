"""While the graph you drew trains, the editor says the trained network's numbers (issue 39, item 1), through the
window as a person does it: the starter neuron trained, then its cards, wire labels, tooltips, outline and status
say the trained w1, w2, b (as the training tab's own cards do) and that they are trained; "Back to the drawn
values" is one undo step, and Reset brings the drawn values back."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt

from playground.common.numbers import format_number
from playground.graph.evaluate import evaluate
from playground.graph.outline import outline
from playground.graph.trained import trained_evaluation, trained_numbers
from playground.training.model.session import TrainingSession, TrainingSettings

WAIT = 60_000
PARAMETERS = ("w1", "w2", "b")


def _node(window, name: str) -> str:
    return next(node_id for node_id, shown in window.document.names().items() if shown == name)


def _train_the_starter_neuron(qtbot, window, steps: int) -> None:
    editor, training = window.editor, window.training
    window.tabs.setCurrentWidget(editor)
    qtbot.waitUntil(editor.train_button.isEnabled, timeout=5000)
    qtbot.mouseClick(editor.train_button, Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is training
    training.set_settings(replace(training.settings, steps_per_second=None, stop_when="epochs", stop_at=float(steps)))
    qtbot.mouseClick(training.toolbar.play_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not training.is_playing and training.step == steps, timeout=WAIT)


def test_the_editor_shows_the_trained_network_and_the_drawn_values_come_back_by_choice(qtbot, window):
    drawn = {name: window.document.node(_node(window, name)).value for name in PARAMETERS}
    _train_the_starter_neuron(qtbot, window, 300)
    training, editor = window.training, window.editor
    tab_cards = {name: training.graph_view.scene.node_item(_node(window, name)) for name in PARAMETERS}
    qtbot.waitUntil(lambda: all(card.result is not None and card.result.value == float(training.weights()[name])
                                for name, card in tab_cards.items()), timeout=5000)  # the last frame's, once paused
    window.tabs.setCurrentWidget(editor)
    qtbot.waitUntil(lambda: editor.trained_view.active and editor.trained_view.numbers.step == 300, timeout=5000)
    bar = editor.trained_view.bar
    assert bar.isVisible() and "Trained network, step 300" in bar.label.text()
    for name in PARAMETERS:
        card, tab_card = editor.scene.node_item(_node(window, name)), tab_cards[name]
        # The trained number, as the training tab's card writes it, and the gradient of the training loss.
        assert format_number(card.result.value) == format_number(tab_card.result.value)
        assert format_number(card.result.grad) == format_number(tab_card.result.grad)
        assert card.result.value != pytest.approx(drawn[name])
        assert card.title() == f"{name} = {format_number(tab_card.result.value)}" and card.kind_title() == "trained"
        assert card.body_lines() == [f"value {format_number(tab_card.result.value)}",
                                     f"grad {format_number(tab_card.result.grad)}"]
        assert "trained at step 300" in card.tooltip_text() and "gradient of the training loss" in card.tooltip_text()
        assert "drawn as " in card.tooltip_text()
    # A wire from a parameter carries that parameter's gradient; one from a node computed per point, their sum.
    w1 = _node(window, "w1")
    w1_wire = next(wire for edge, wire in editor.scene._wires.items() if edge.source == w1)
    assert w1_wire.label_text() == f"grad {format_number(tab_cards['w1'].result.grad, 2)}"
    x1_wire = next(wire for edge, wire in editor.scene._wires.items() if edge.source == _node(window, "x1"))
    assert x1_wire.label_text().startswith("Σ ") and "for each of the 140 training points" in x1_wire.toolTip()
    # The outline (what a screen reader reads) and the status bar say the same.
    rows = {line.node_id: line.text for line in outline(window.document, editor.shown_evaluation)}
    trained_w1 = format_number(tab_cards["w1"].result.value)
    assert rows[w1].startswith(f"w1, parameter, trained network at step 300, value {trained_w1}")
    assert "for each of the 140 training points" in rows[_node(window, "o")]
    assert editor.summary().startswith("Trained network at step 300: training loss")
    assert editor.scene.node_item(_node(window, "o")).map_count == 1

    # Back to the drawn values: one undo step, and the file is no more changed than it was.
    title = window.windowTitle()
    qtbot.mouseClick(bar.button, Qt.MouseButton.LeftButton)
    card = editor.scene.node_item(w1)
    assert card.result.value == drawn["w1"] and card.result.trained_step is None and card.kind_title() == ""
    assert editor.scene.node_item(_node(window, "o")).map_count == 0
    assert "Drawn values" in bar.label.text() and window.windowTitle() == title
    assert editor.summary() == evaluate(window.document).summary()
    window.undo_stack.undo()
    assert editor.scene.node_item(w1).result.trained_step == 300 and window.windowTitle() == title
    window.undo_stack.redo()
    assert editor.scene.node_item(w1).result.value == drawn["w1"]
    window.undo_stack.undo()

    # Reset on the training tab: the network goes back to its drawn values, and the editor with it.
    window.tabs.setCurrentWidget(training)
    training.reset_confirmation.set_asks(False)
    qtbot.mouseClick(training.toolbar.reset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: training.step == 0, timeout=WAIT)
    window.tabs.setCurrentWidget(editor)
    qtbot.waitUntil(lambda: editor.trained_view.numbers is not None and editor.trained_view.numbers.step == 0,
                    timeout=5000)
    for name in PARAMETERS:
        assert editor.scene.node_item(_node(window, name)).result.value == pytest.approx(drawn[name])
    assert "step 0" in bar.label.text() and editor.scene.node_item(w1).kind_title() == ""


def test_the_editor_follows_the_run_a_few_times_a_second_and_at_once_when_it_pauses(qtbot, window):
    _train_the_starter_neuron(qtbot, window, 20)
    training, editor = window.training, window.editor
    training.set_settings(replace(training.settings, steps_per_second=500, stop_when="never"))
    window.tabs.setCurrentWidget(editor)
    steps_seen = set()
    training.play()
    for _ in range(20):  # two seconds
        qtbot.wait(100)
        if editor.trained_view.numbers is not None:
            steps_seen.add(editor.trained_view.numbers.step)
    training.pause()
    assert len(steps_seen) >= 6  # three or more a second
    qtbot.waitUntil(lambda: editor.trained_view.numbers.step == training.step, timeout=5000)
    w1 = editor.scene.node_item(_node(window, "w1"))
    assert w1.result.value == pytest.approx(float(training.weights()["w1"]))


# -- the numbers themselves, without Qt --------------------------------------------------------------------------


def test_trained_numbers_are_the_engine_s_for_the_network_and_its_training_loss(neuron_document):
    session = TrainingSession(TrainingSettings(network="graph"), graph=neuron_document)
    session.train_steps(40)
    numbers = trained_numbers(session.model, session.loss_fn, session.F_train, session.data.y_train, session.step)
    assert numbers.step == 40 and numbers.points == len(session.data.y_train)
    # The parameters' gradients are those the training tab shows (`session.gradients`), by name.
    names = session.model.plan.parameter_names
    gradients = session.gradients()
    for node_id, name in names.items():
        assert numbers.grads[node_id] == pytest.approx(gradients[name], rel=1e-12)
        assert numbers.values[node_id] == pytest.approx(float(session.state_dict()[name]))
    # Each per-point node's values are the network's, a row a training point; a wire from a parameter used once
    # carries its whole gradient; the loss is the training tab's train loss.
    values = session.model.node_values(__import__("engine").Tensor(session.F_train))
    for node_id in session.model.plan.per_point:
        assert np.allclose(numbers.values[node_id], values[node_id])
    for (source, _target, _port), grad in numbers.wires.items():
        if source in names:
            assert grad == pytest.approx(numbers.grads[source], rel=1e-12)
    assert numbers.loss == pytest.approx(session.evaluate().train_loss, rel=1e-12)
    # The chain rule over the points: b enters n with a derivative of 1, so its gradient is n's summed over them.
    doc = neuron_document
    b, n = (next(i for i, shown in doc.names().items() if shown == name) for name in ("b", "n"))
    assert float(numbers.grads[b]) == pytest.approx(float(np.sum(numbers.grads[n])), rel=1e-9)
    evaluation = trained_evaluation(doc, numbers)
    assert evaluation.results[b].trained_step == 40 and not evaluation.results[b].per_point
    assert evaluation.results[n].per_point and np.shape(evaluation.results[n].value) == (numbers.points,)


@pytest.fixture
def neuron_document():
    from pathlib import Path

    from playground.graph.file_io import load_document

    return load_document(Path(__file__).resolve().parents[2] / "resources" / "examples" / "neuron.json")
