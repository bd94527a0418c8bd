"""A teacher with the MLCC spiral worksheet and a fresh app (issue 40, Tests): every setting the worksheet names set
on the training tab by clicks and typing, as a person does (no lesson), then Play to the 500 epochs Stop at asks
for; the tab then shows the TF Playground's own test loss at that page's seed, 0.533 at epoch 0 and 0.523 at 500.
Then the spiral lesson sets the very same tab, and its Task 2 adds sin(X1) and sin(X2)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSlider, QWidget

WAIT = 90_000


def find(window, name: str, kind=QWidget):
    widget = window.findChild(kind, name)
    assert widget is not None, name
    return widget


def confirm_if_asked(qtbot, panel) -> None:
    box = panel.reset_confirmation.box
    if box is not None and box.isVisible():
        qtbot.mouseClick(box.findChild(QWidget, "resetConfirmButton"), Qt.MouseButton.LeftButton)


def click(qtbot, panel, widget) -> None:
    qtbot.waitUntil(widget.isEnabled, timeout=5000)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    confirm_if_asked(qtbot, panel)


def type_into(qtbot, panel, widget, text: str) -> None:
    """Select what the box holds, type ``text``, press Return: as a person changes a number."""
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key.Key_Return)
    confirm_if_asked(qtbot, panel)


def choose(qtbot, panel, combo: QComboBox, data) -> None:
    """The entry whose data is ``data``, as a click in the combo's list chooses it."""
    index = combo.findData(data)
    assert index >= 0 and combo.model().item(index).isEnabled(), data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    confirm_if_asked(qtbot, panel)


def slide(qtbot, panel, slider: QSlider, value: int) -> None:
    """The slider moved by its keys: Home, then Page Up and the arrows to ``value``."""
    slider.setFocus()
    qtbot.keyClick(slider, Qt.Key.Key_Home)
    while slider.value() + slider.pageStep() <= value:
        qtbot.keyClick(slider, Qt.Key.Key_PageUp)
    while slider.value() < value:
        qtbot.keyClick(slider, Qt.Key.Key_Right)
    confirm_if_asked(qtbot, panel)


def test_the_spiral_worksheet_set_by_hand_gives_the_tf_playground_s_numbers(qtbot, window):
    training = window.training
    window.tabs.setCurrentWidget(training)
    qtbot.waitUntil(lambda: training.data is not None, timeout=WAIT)
    # The worksheet's page: "Data and loss as in the TF Playground", spiral, noise 80, train 50 %, its seed.
    click(qtbot, training, find(window, "tfPlaygroundCheck", QCheckBox))
    choose(qtbot, training, find(window, "datasetCombo", QComboBox), "spiral")
    slide(qtbot, training, find(window, "noiseSlider", QSlider), 80)
    slide(qtbot, training, find(window, "testFractionSlider", QSlider), 50)  # half of the points kept to test
    type_into(qtbot, training, find(window, "tfSeedInput"), "0.38953")
    # X1 and X2 only; hidden layers of 3 and 2 ReLU neurons; learning rate 0.1, batches of 10.
    for name in ("featureX1SquaredCheck", "featureX2SquaredCheck", "featureX1X2Check", "featureSinX1Check",
                 "featureSinX2Check"):
        check = find(window, name, QCheckBox)
        if check.isChecked():
            click(qtbot, training, check)
    for name in ("featureX1Check", "featureX2Check"):
        check = window.findChild(QCheckBox, name)
        if check is not None and not check.isChecked():
            click(qtbot, training, check)
    type_into(qtbot, training, find(window, "layer1Spin"), "3")
    type_into(qtbot, training, find(window, "layer2Spin"), "2")
    choose(qtbot, training, find(window, "activationCombo", QComboBox), "relu")
    type_into(qtbot, training, find(window, "learningRateInput"), "0.1")
    type_into(qtbot, training, find(window, "batchSizeSpin"), "10")
    # Stop at 500 epochs, at the fastest pace.
    choose(qtbot, training, find(window, "stopConditionCombo", QComboBox), "epochs")
    type_into(qtbot, training, find(window, "stopEpochsInput"), "500")
    click(qtbot, training, find(window, "fastestButton"))

    s = training.settings
    assert (s.tf_playground, s.tf_seed, s.dataset, s.noise, s.test_fraction, s.features) == (
        True, "0.38953", "spiral", 0.8, 0.5, ("x1", "x2"))
    assert (s.hidden, s.activation, s.learning_rate, s.batch_size, s.loss, s.optimizer, s.init) == (
        (3, 2), "relu", 0.1, 10, "tf_square", "sgd", "tf_playground")
    qtbot.waitUntil(lambda: len(training.data.y_train) == 250 and training.metrics is not None, timeout=WAIT)
    test_loss = training.curves.figure_labels["test_loss"]
    qtbot.waitUntil(lambda: test_loss.text() == "0.533", timeout=WAIT)  # the TF Playground's, at epoch 0
    click(qtbot, training, find(window, "playButton"))
    qtbot.waitUntil(lambda: not training.is_playing and training.step == 500 * 25, timeout=WAIT)
    assert training.toolbar.step_label.text() == "Epoch 500"
    qtbot.waitUntil(lambda: test_loss.text() == "0.523", timeout=WAIT)  # and at epoch 500
    by_hand = training.settings

    # The spiral lesson sets the same page (and Never for Stop at: the worksheet says to pause near the best).
    window.learning.start("14-mlcc-spiral")
    qtbot.waitUntil(lambda: training.step == 0 and training.settings.stop_when == "never", timeout=WAIT)
    lesson = training.settings
    for field in ("tf_playground", "tf_seed", "dataset", "noise", "test_fraction", "features", "hidden",
                  "activation", "learning_rate", "batch_size", "loss", "optimizer", "init"):
        assert getattr(lesson, field) == getattr(by_hand, field), field
    panel = window.learning.panel
    while panel.run.step.title != "Task 2":
        if not panel.next_button.isEnabled() and panel.reveal_button.isVisible():  # Task 1's goal, left
            qtbot.mouseClick(panel.reveal_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: training.settings.features == ("x1", "x2", "sin x1", "sin x2"), timeout=WAIT)
    assert find(window, "featureSinX1Check", QCheckBox).isChecked()
    assert find(window, "featureSinX2Check", QCheckBox).isChecked()
