"""Each hidden layer's activation and dropout on the training tab, as a person sets them (issue 40, item 4;
tensorflow/playground #50): a row per layer in the settings column, built again as layers come and go on the
diagram, the common activation setting every layer at once, the diagram saying each layer's activation, and a
run with dropout whose pictures and figures are the network's own."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractSpinBox, QWidget

from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings
from tests.playground.app_window import shown_panel

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    yield from shown_panel(qtbot, 1400, 860, network_drawn=True)


def control(panel, name: str) -> QWidget:
    widget = panel.findChild(QWidget, name)
    assert widget is not None, name
    return widget


def choose(combo, key: str) -> None:
    """Pick ``key`` the way a person does from the keyboard: focus the box, and step to it with the arrows."""
    combo.setFocus()
    target = combo.findData(key)
    while combo.currentIndex() != target:
        before = combo.currentIndex()
        QTest.keyClick(combo, Qt.Key.Key_Down if target > before else Qt.Key.Key_Up)
        assert combo.currentIndex() != before, key


def type_into(qtbot, box, text: str) -> None:
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def captions(panel) -> list[str]:
    """What each hidden column of the diagram says under its title."""
    headers = panel.network_view.canvas._headers[1:-1]
    return [" / ".join(line.text() for line in header.caption_lines if line.isVisibleTo(header)) for header in headers]


def test_each_layer_has_its_row_named_and_reachable_by_tab(panel):
    for layer in (1, 2):
        combo, spin = control(panel, f"layer{layer}ActivationCombo"), control(panel, f"layer{layer}DropoutSpin")
        assert combo.accessibleName() == f"Activation of hidden layer {layer}" and combo.toolTip()
        assert spin.accessibleName() == f"Dropout of hidden layer {layer}" and "training step" in spin.toolTip()
        assert combo.currentText() == "Tanh" and spin.text() == "no dropout"
    order, widget = [], control(panel, "removeLayerButton")
    for _ in range(8):  # Tab goes down the column: each layer's neurons, activation, dropout, then all layers'
        widget = widget.nextInFocusChain()
        while (not widget.focusPolicy() & Qt.FocusPolicy.TabFocus or not widget.isVisible()
               or isinstance(widget.parentWidget(), QAbstractSpinBox)):  # a number box's own line
            widget = widget.nextInFocusChain()
        order.append(widget.objectName())
    assert order == ["layer1Spin", "layer1ActivationCombo", "layer1DropoutSpin", "layer2Spin",
                     "layer2ActivationCombo", "layer2DropoutSpin", "activationCombo", "initCombo"]


def test_relu_for_layer_two_only_then_a_layer_added_takes_the_common_activation(qtbot, panel):
    choose(control(panel, "layer2ActivationCombo"), "relu")
    qtbot.waitUntil(lambda: panel.settings.layer_activations == ("tanh", "relu"), timeout=WAIT)
    common = control(panel, "activationCombo")
    assert common.currentIndex() == -1 and common.placeholderText() == "Per layer"  # the layers differ
    assert captions(panel) == ["Tanh", "ReLU"]
    qtbot.waitUntil(lambda: panel._frame is not None and panel._frame.settings == panel.settings,
                    timeout=WAIT)  # a new network, drawn
    assert "(ReLU)" in panel.network_view.canvas.neuron_text(panel.network_view.neuron(2, 0))

    control(panel, "networkAddLayer1Button").click()  # the diagram's + between layers 1 and 2
    qtbot.waitUntil(lambda: panel.settings.hidden == (16, 16, 16), timeout=WAIT)
    assert panel.settings.layer_activations == ("tanh", "tanh", "relu")  # the new layer 2: the common activation
    assert control(panel, "layer3ActivationCombo").currentText() == "ReLU"  # the old layer 2 moved along
    assert control(panel, "layer2ActivationCombo").currentText() == "Tanh"
    assert control(panel, "layer2DropoutSpin").text() == "no dropout"
    assert captions(panel) == ["Tanh", "Tanh", "ReLU"]

    control(panel, "addLayerButton").click()  # the column's + layer: a row appears with the common activation
    qtbot.waitUntil(lambda: len(panel.settings.hidden) == 4, timeout=WAIT)
    assert control(panel, "layer4ActivationCombo").currentText() == "Tanh"
    assert panel.settings.layer_activations == ("tanh", "tanh", "relu", "tanh")

    control(panel, "networkRemoveLayer3Button").click()  # the ReLU layer goes, and its row with it
    qtbot.waitUntil(lambda: len(panel.settings.hidden) == 3, timeout=WAIT)
    assert panel.settings.activations == () and panel.settings.activation == "tanh"
    assert panel.findChild(QWidget, "layer4ActivationCombo") is None
    assert common.currentText() == "Tanh"  # alike again: the common box says which


def test_the_common_activation_sets_every_layer_at_once(qtbot, panel):
    choose(control(panel, "layer1ActivationCombo"), "sigmoid")
    qtbot.waitUntil(lambda: panel.settings.activations == ("sigmoid", "tanh"), timeout=WAIT)
    choose(control(panel, "activationCombo"), "relu")
    qtbot.waitUntil(lambda: panel.settings.activation == "relu", timeout=WAIT)
    assert panel.settings.activations == () and panel.settings.layer_activations == ("relu", "relu")
    assert [control(panel, f"layer{n}ActivationCombo").currentText() for n in (1, 2)] == ["ReLU", "ReLU"]
    assert captions(panel) == ["ReLU", "ReLU"]


def test_dropout_changes_the_training_loss_but_not_the_figures_or_the_pictures(qtbot, panel):
    type_into(qtbot, control(panel, "layer1DropoutSpin"), "20")
    qtbot.waitUntil(lambda: panel.settings.dropout == (0.2, 0.0), timeout=WAIT)
    assert control(panel, "layer1DropoutSpin").text() == "20% dropout"
    assert captions(panel) == ["Tanh / drop 20%", "Tanh / "]  # a second line while some layer has dropout
    for step in range(1, 7):
        control(panel, "stepButton").click()
        qtbot.waitUntil(lambda step=step: panel.step == step and panel.weights_step == step, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.curves.history.trace_size == 6, timeout=WAIT)
    shown = panel.curves.history.trace_column(2)  # each step's own loss, drawn dotted: a batch's, with dropout
    settings = panel.settings
    with_dropout, without = TrainingSession(settings, resolution=20), TrainingSession(
        replace(settings, dropout=()), resolution=20)
    losses = [with_dropout.train_steps(1).losses.losses[0] for _ in range(6)]
    plain = [without.train_steps(1).losses.losses[0] for _ in range(6)]
    np.testing.assert_array_equal(shown, losses)  # the tab's steps dropped the units the seed says
    assert not np.allclose(shown, plain)
    # The test accuracy is the network's own: the tab's weights in a network without dropout give it.
    weights = panel.weights()
    assert all(np.array_equal(weights[k], v) for k, v in with_dropout.state_dict().items())
    twin = TrainingSession(replace(settings, dropout=()), resolution=20)
    twin.model.load_state_dict(weights)
    assert panel.test_accuracy == twin.evaluate().test_accuracy
    # The diagram and the boundary do not flicker with masks: the same weights drawn again are the same picture.
    frame = panel._frame
    probability, maps = frame.drawing.probability.copy(), [m.copy() for m in frame.drawing.maps]
    serial = panel.network_view.canvas.redraws
    panel.focus_requested.emit(1, 0)  # hover: the worker draws the plane again, with the same weights
    qtbot.waitUntil(lambda: panel._frame is not frame and panel._frame.focus is not None, timeout=WAIT)
    np.testing.assert_array_equal(panel._frame.drawing.probability, probability)
    for again, before in zip(panel._frame.drawing.maps, maps):
        np.testing.assert_array_equal(again, before)
    assert panel.network_view.canvas.redraws >= serial


def test_a_setup_pasted_with_layers_set_apart_shows_them_row_by_row(qtbot, panel):
    settings = TrainingSettings(hidden=(8, 8, 4), activations=("relu", "tanh", "leaky_relu"), dropout=(0.2, 0, 0.5))
    panel.set_settings(settings)
    qtbot.waitUntil(lambda: panel.settings == settings, timeout=WAIT)
    rows = [(control(panel, f"layer{n}ActivationCombo").currentText(), control(panel, f"layer{n}DropoutSpin").text())
            for n in (1, 2, 3)]
    assert rows == [("ReLU", "20% dropout"), ("Tanh", "no dropout"), ("Leaky ReLU", "50% dropout")]
    assert captions(panel) == ["ReLU / drop 20%", "Tanh / ", "Leaky ReLU / drop 50%"]
    assert control(panel, "activationCombo").currentIndex() == -1
