"""Training setups in the app: saved mid-training and opened in another window, pasted, refused when broken
(the tab stays as it was), and exported as a script that prints the losses the tab showed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from playground.shell.main_window import MainWindow
from playground.training.model.settings import TrainingSettings

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20_000


@pytest.fixture
def make_window(qtbot, tmp_path):
    windows = []

    def make():
        settings = QSettings(str(tmp_path / f"settings{len(windows)}.ini"), QSettings.Format.IniFormat)
        settings.setValue("learn/visible", False)
        window = MainWindow(settings)
        window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
        qtbot.addWidget(window)
        window.show()
        panel = window.training
        qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.training.shutdown()


def take_steps(qtbot, panel, count: int) -> list[float]:
    """Press Step ``count`` times; the train loss the tab showed after each."""
    losses = []
    for _ in range(count):
        target = panel.step + 1
        panel.step_requested.emit()
        qtbot.waitUntil(lambda target=target: panel.step == target, timeout=WAIT)
        losses.append(panel._progress.metrics.train_loss)
    qtbot.waitUntil(lambda: panel.weights_step == panel.step, timeout=WAIT)  # the weights drawn are this step's
    return losses


def test_a_setup_saved_mid_training_opens_with_the_same_weights_and_next_losses(make_window, qtbot, tmp_path):
    first = make_window()
    first.training.set_settings(replace(first.training.settings, batch_size=32, hidden=(6, 5)))
    take_steps(qtbot, first.training, 12)
    path = tmp_path / "mid-run.json"
    assert first.training_setups.save(path)
    second = make_window()
    assert second.open_path(path)
    qtbot.waitUntil(lambda: second.training.step == 12 and second.training.weights_step == 12, timeout=WAIT)
    assert second.tabs.currentWidget() is second.training
    assert second.training.settings == first.training.settings
    for name, weights in first.training.weights().items():
        assert np.array_equal(second.training.weights()[name], weights)
    assert take_steps(qtbot, second.training, 3) == take_steps(qtbot, first.training, 3)


def test_copy_and_paste_carry_a_setup_between_windows(make_window, qtbot):
    first = make_window()
    first.training.set_settings(replace(first.training.settings, dataset="spiral", classes=3,
                                        loss="cross_entropy", hidden=(8,)))
    take_steps(qtbot, first.training, 4)
    text = first.training_setups.copy_setup()
    assert QGuiApplication.clipboard().text() == text and text.startswith("agp-setup:")
    second = make_window()
    assert second.training_setups.paste_setup()
    qtbot.waitUntil(lambda: second.training.step == 4, timeout=WAIT)
    assert second.training.settings.classes == 3


@pytest.mark.parametrize("damage", ["truncate", "newer", "wrong type", "huge"])
def test_a_broken_setup_is_refused_and_the_tab_stays_as_it_was(make_window, qtbot, tmp_path, damage):
    window = make_window()
    panel = window.training
    take_steps(qtbot, panel, 2)
    path = tmp_path / "setup.json"
    assert window.training_setups.save(path)
    data = json.loads(path.read_text())
    if damage == "truncate":
        path.write_text(path.read_text()[:300])
    elif damage == "newer":
        path.write_text(json.dumps({**data, "version": 7}))
    elif damage == "wrong type":
        data["settings"]["hidden"] = "sixteen"
        path.write_text(json.dumps(data))
    else:
        data["data"] = {"x_train": [[0.0, 0.0]] * 200_000, "y_train": [0] * 200_000, "x_test": [], "y_test": []}
        path.write_text(json.dumps(data))
    settings, weights = panel.settings, panel.weights()
    assert not window.open_path(path)
    dialog = window.findChild(QMessageBox, "errorDialog")
    assert dialog is not None and dialog.text()
    dialog.close()
    qtbot.wait(100)
    assert panel.settings == settings and panel.step == 2
    assert all(np.array_equal(panel.weights()[name], w) for name, w in weights.items())


def test_pasting_junk_says_so_and_changes_nothing(make_window):
    window = make_window()
    QGuiApplication.clipboard().setText("agp-setup:not really")
    before = window.training.settings
    assert not window.training_setups.paste_setup()
    assert "damaged" in window.findChild(QMessageBox, "errorDialog").text()
    assert window.training.settings == before


@pytest.mark.parametrize("settings", [
    TrainingSettings(),
    TrainingSettings(batch_size=20, optimizer="momentum", learning_rate=0.05, schedule="step", schedule_steps=20,
                     features=("x1", "x2", "x1*x2"), loss="hinge"),
    TrainingSettings(regularization="l1", regularization_rate=0.01),  # Adam's own scale for the soft threshold
    TrainingSettings(regularization="l1", regularization_rate=0.03, optimizer="sgd", learning_rate=0.1),
    TrainingSettings(regularization="l2", regularization_rate=0.1, optimizer="momentum", learning_rate=0.03),
    TrainingSettings(activation="linear", hidden=(4, 4)),
])
def test_the_exported_script_prints_the_losses_the_tab_showed(make_window, qtbot, tmp_path, settings):
    window = make_window()
    window.training.set_settings(settings)
    qtbot.waitUntil(lambda: window.training.last_change is not None or settings == TrainingSettings(), timeout=WAIT)
    script = tmp_path / "training.py"
    assert window.training_setups.export_script(script, use_torch=True)
    shown = take_steps(qtbot, window.training, 50)
    done = subprocess.run([sys.executable, str(script), "50", "1"], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    printed = [float(m.group(1)) for m in re.finditer(r"train loss (\S+)", done.stdout)]
    assert printed == shown  # exactly what the curve showed, step by step
    torch_worst = float(done.stdout.strip().splitlines()[-1].split()[-1])
    assert torch_worst < 1e-12


def test_a_regression_setup_pasted_opens_on_the_tab_exactly(make_window, qtbot):
    from playground.training.model.session import TrainingSession
    from playground.training.model.setup_file import capture, to_text

    window = make_window()
    regression = TrainingSession(TrainingSettings(problem="regression", dataset="gaussians", loss="huber",
                                                  regularization="l1", regularization_rate=0.003))
    regression.train_steps(25)
    QGuiApplication.clipboard().setText(to_text(capture(regression)))
    assert window.training_setups.paste_setup()
    panel = window.training
    assert panel.settings == regression.settings
    assert panel.findChild(object, "problemCombo").currentData() == "regression"
    assert panel.findChild(object, "lossCombo").currentData() == "huber"
    qtbot.waitUntil(lambda: panel.worker.session.step == 25, timeout=WAIT)
    assert all(np.array_equal(value, panel.worker.session.state_dict()[name])
               for name, value in regression.state_dict().items())
    assert panel.worker.session.settings == regression.settings
    qtbot.waitUntil(lambda: panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
