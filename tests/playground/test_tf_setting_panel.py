"""The TF Playground setting through the training tab's controls (issue 40, item 1): ticked, the tab takes its
data, loss, SGD and initial weights, shows its figures as it shows them, its Reset draws other initial weights, and
unticked it gives the tab back as it was."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

import engine.tf_playground as tp

WAIT = 30_000


def tick(qtbot, panel, on: bool = True) -> None:
    check = panel.findChild(object, "tfPlaygroundCheck")
    if check.isChecked() != on:
        qtbot.mouseClick(check, Qt.MouseButton.LeftButton)
    panel.reset_confirmation.box and panel.reset_confirmation.box.findChild(object, "resetConfirmButton").click()
    qtbot.waitUntil(lambda: panel.data is not None and (panel.data.extent == (-6.0, 6.0, -6.0, 6.0)) == on,
                    timeout=WAIT)


def test_ticked_the_tab_takes_the_tf_playgrounds_data_loss_sgd_and_start_and_gives_them_back_unticked(qtbot, panel):
    before = panel.settings
    assert panel.findChild(object, "tfPlaygroundCheck").accessibleName() == "Data and loss as in the TF Playground"
    tick(qtbot, panel)
    s = panel.settings
    assert (s.tf_playground, s.loss, s.optimizer, s.init, s.points, s.dataset) == (
        True, "tf_square", "sgd", "tf_playground", 500, "circles")
    assert s.batch_size == 10 and len(panel.data.y_train) == 350  # 70% of its 500 points train
    assert not panel.findChild(object, "lossCombo").isEnabled()
    assert not panel.findChild(object, "pointsSpin").isEnabled()
    datasets = panel.findChild(object, "datasetCombo")
    offered = [datasets.itemData(i) for i in range(datasets.count()) if datasets.model().item(i).isEnabled()]
    assert offered == ["circles", "xor", "spiral", "blobs"]  # what it has of ours: no moons
    noise = panel.findChild(object, "noiseSlider")
    assert noise.maximum() == 80  # its slider's 50, and a URL's 80
    noise.setValue(35)
    qtbot.waitUntil(lambda: panel.settings.noise == 0.35, timeout=WAIT)
    assert panel.data_controls.noise_value.text() == "35"
    tick(qtbot, panel, False)
    assert (panel.settings.loss, panel.settings.optimizer, panel.settings.init, panel.settings.points) == (
        before.loss, before.optimizer, before.init, before.points)
    assert panel.findChild(object, "lossCombo").isEnabled() and noise.maximum() == 50


def test_its_figures_are_its_own_and_its_reset_draws_other_initial_weights(qtbot, panel):
    tick(qtbot, panel)
    panel.set_settings(replace(panel.settings, dataset="xor", noise=0.35, test_fraction=0.5, hidden=(3,),
                               activation="relu", learning_rate=0.01, steps_per_second=None, stop_when="epochs",
                               stop_at=4.0))
    qtbot.waitUntil(lambda: panel.settings.dataset == "xor" and len(panel.data.y_train) == 250, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights() is not None and 3 in panel.weights()["0.weight"].shape,
                    timeout=WAIT)  # the new network's first frame (a layer of 3)
    first = panel.weights()["0.weight"].copy()
    panel.play()
    qtbot.waitUntil(lambda: not panel.is_playing and panel.step == 100, timeout=WAIT)  # 4 epochs of 25 batches
    assert panel.toolbar.step_label.text() == "Epoch 4" and panel.toolbar.epoch_label.text().startswith("step 100")
    test_loss = panel.curves.figure_labels["test_loss"].text()
    assert re.fullmatch(r"\d\.\d{3}", test_loss)  # three decimals, as its toFixed(3)
    assert test_loss == tp.format_loss(panel._progress.metrics.test_loss)
    panel.reset_confirmation.set_asks(False)
    qtbot.mouseClick(panel.toolbar.reset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.step == 0 and panel.settings.init_seed == 1, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.weights() is not None and not (panel.weights()["0.weight"] == first).all(),
                    timeout=WAIT)
    assert len(panel.data.y_train) == 250  # the same points
    qtbot.mouseClick(panel.toolbar.reset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.settings.init_seed == 2, timeout=WAIT)


@pytest.mark.parametrize("field", ["tf_playground"])
def test_a_setup_keeps_the_setting(qtbot, panel, field):
    from playground.training.model.setup_file import from_text, to_text

    tick(qtbot, panel)
    setup = from_text(to_text(panel.current_setup()))
    assert getattr(setup.settings, field) is True and setup.settings.loss == "tf_square"


def test_repeat_counts_its_epochs(qtbot, panel):
    tick(qtbot, panel)
    panel.set_settings(replace(panel.settings, dataset="xor", test_fraction=0.5, hidden=(3,), activation="relu"))
    qtbot.waitUntil(lambda: len(panel.data.y_train) == 250, timeout=WAIT)
    dialog = panel.dialogs.open_repeat(runs=2)
    assert dialog.steps_spin.value() == 500 and dialog.steps == 500 * 25  # the worksheet's 500, in its epochs
    dialog.steps_spin.setValue(4)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.progress is not None and dialog.progress.done, timeout=WAIT)
    dialog._on_redraw_timer_timeout()
    assert dialog.runs.steps == 100 and "2 runs of 4 epochs" in dialog.status_label.text()
    item = dialog.loss_plot.getPlotItem()
    assert item.getAxis("bottom").labelText == "epoch" and dialog.curves[0].getData()[0][-1] == 4  # as the tab counts
    dialog.close()


def test_a_pages_own_seed_typed_gives_its_points_and_regenerate_a_new_seed(qtbot, panel):
    tick(qtbot, panel)
    seed = panel.findChild(object, "tfSeedInput")
    assert seed.isVisible() and seed.accessibleName() == "TF Playground seed"
    panel.set_settings(replace(panel.settings, dataset="xor", noise=0.35, test_fraction=0.5))
    qtbot.keyClicks(seed, "0.50819")
    qtbot.keyClick(seed, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.settings.tf_seed == "0.50819", timeout=WAIT)
    page = tp.make_dataset("xor", 35, 50, seed="0.50819")
    qtbot.waitUntil(lambda: (panel.data.X_train == page.X_train).all() if len(panel.data.X_train) == 250 else False,
                    timeout=WAIT)
    panel.reset_confirmation.set_asks(False)
    qtbot.mouseClick(panel.findChild(object, "regenerateButton"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.settings.tf_seed == "" and panel.settings.seed == 1, timeout=WAIT)
