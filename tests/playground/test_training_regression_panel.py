"""Regression on the Training tab: problemCombo switches to the plane with one linear output and MSE, the
run reaches a test R² of 0.95 at Fastest, and the figures, curves and status say R² and MAE where a
classification says accuracy; back to classification, the moons return."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QWheelEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from playground.widgets import spoken

WAIT = 20_000


def test_regression_on_the_plane_reaches_a_test_r2_of_095_within_10_seconds_at_fastest(qtbot, panel):
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": this test is about what the change does
    problem = panel.findChild(object, "problemCombo")
    assert problem.accessibleName() and [problem.itemText(i) for i in range(problem.count())] == \
        ["Classification", "Regression"]
    datasets = panel.findChild(object, "datasetCombo")
    assert not datasets.model().item(datasets.findData("plane")).isEnabled()  # a classification's list
    problem.setCurrentIndex(problem.findData("regression"))
    s = panel.settings
    assert (s.problem, s.dataset, s.loss, s.layer_sizes) == ("regression", "plane", "mse", (2, 16, 16, 1))
    assert datasets.model().item(datasets.findData("gaussians")).isEnabled()
    assert not datasets.model().item(datasets.findData("moons")).isEnabled()
    losses = panel.findChild(object, "lossCombo")
    assert losses.model().item(losses.findData("huber")).isEnabled()
    assert not losses.model().item(losses.findData("bce")).isEnabled()
    qtbot.waitUntil(lambda: panel.worker.session.settings.problem == "regression", timeout=WAIT)
    qtbot.waitUntil(lambda: panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
    panel.set_settings(replace(panel.settings, steps_per_second=None, stop_when="never"))
    start = time.perf_counter()
    panel.play()
    reached = []

    def good() -> bool:
        progress = panel._progress
        if progress is not None and progress.metrics.test_r2 is not None and progress.metrics.test_r2 >= 0.95:
            reached.append((progress.metrics.step, time.perf_counter() - start))
            return True
        return False

    qtbot.waitUntil(good, timeout=10_000)
    panel.pause()
    step, seconds = reached[0]
    print(f"test R² ≥ 0.95 at step {step}, {seconds:.2f} s after Play at Fastest")
    qtbot.wait(200)
    accuracy = panel.findChild(object, "accuracyLabel").text()
    assert accuracy.startswith("Test R² ") and float(accuracy.split()[-1].replace("−", "-")) >= 0.9
    assert panel.findChild(object, "testMaeLabel").isVisible()
    assert not panel.curves.confusion.isVisible()
    assert panel.curves.history.size > 0 and np.nanmax(panel.curves.history.column(4)) >= 0.95
    assert "R²" in panel.summary and "MAE" in panel.summary
    assert panel.boundary.regression and panel.boundary.levels[1] > 1.0

    problem.setCurrentIndex(problem.findData("classification"))
    s = panel.settings
    assert (s.problem, s.dataset, s.loss) == ("classification", "moons", "bce")
    qtbot.waitUntil(lambda: not panel.findChild(object, "valueColourBar").isVisible(), timeout=WAIT)
    assert panel.curves.confusion.isVisibleTo(panel.curves) and problem.currentIndex() == 0


# -- Stop at speaks the problem's words (issue 39, item 3) ----------------------------------------------------


@pytest.fixture
def said(monkeypatch):
    """What the screen reader is told: (the widget it comes from, the words)."""
    sent = []
    monkeypatch.setattr(spoken, "_send", lambda event: sent.append((event.object(), event.message())))
    monkeypatch.setattr(spoken, "_last", ("", 0.0))
    return sent


def choose_problem(qtbot, panel, problem: str) -> None:
    """Pick ``problem`` in problemCombo from the keyboard, as a person does, and wait for the worker to have it."""
    combo = panel.findChild(object, "problemCombo")
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down if problem == "regression" else Qt.Key.Key_Up)
    assert combo.currentData() == problem
    qtbot.waitUntil(lambda: panel.worker.session.settings.problem == problem, timeout=WAIT)


def type_into(qtbot, box, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key.Key_Return)


def wheel(combo, up: bool) -> None:
    centre = QPointF(combo.width() / 2, combo.height() / 2)
    event = QWheelEvent(centre, QPointF(combo.mapToGlobal(QPoint(combo.width() // 2, combo.height() // 2))),
                        QPoint(0, 0), QPoint(0, 120 if up else -120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(combo, event)


def test_a_regression_offers_only_its_own_stop_conditions_and_no_key_or_wheel_reaches_an_accuracy(qtbot, panel):
    combo = panel.findChild(object, "stopConditionCombo")
    spoken_name = combo.accessibleName()
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_End)
    assert combo.currentData() == "epochs"
    choose_problem(qtbot, panel, "regression")
    assert combo.currentData() == "epochs" and panel.settings.stop_when == "epochs"  # both have it: kept, and
    assert panel.message == ""  # nothing to say
    keys = [combo.itemData(i) for i in range(combo.count())]
    assert keys == ["learned", "never", "test_r2", "train_loss", "epochs"]  # the classification's order, less one
    assert combo.findData("test_accuracy") == -1 and "Test accuracy ≥" not in [combo.itemText(i) for i in
                                                                                 range(combo.count())]
    assert combo.accessibleName() == spoken_name and spoken_name
    reached = set()
    combo.setFocus()
    for key in [Qt.Key.Key_Home] + [Qt.Key.Key_Down] * 7 + [Qt.Key.Key_End] + [Qt.Key.Key_Up] * 7:
        qtbot.keyClick(combo, key)
        reached.add(combo.currentData())
        assert panel.settings.stop_when != "test_accuracy"
    for up in [True] * 6 + [False] * 6:
        wheel(combo, up)
        reached.add(combo.currentData())
        assert panel.settings.stop_when != "test_accuracy"
    assert reached == set(keys)  # every key and the wheel went through all of them, and to nothing else
    choose_problem(qtbot, panel, "classification")
    assert [combo.itemData(i) for i in range(combo.count())] == ["learned", "never", "test_accuracy", "train_loss",
                                                                 "epochs"]


def test_a_test_accuracy_becomes_the_test_r2_visibly_and_comes_back_with_the_classification(qtbot, panel, said):
    panel.reset_confirmation.set_asks(False)
    combo = panel.findChild(object, "stopConditionCombo")
    accuracy, r2 = panel.findChild(object, "stopAccuracyInput"), panel.findChild(object, "stopR2Input")
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == "Test accuracy ≥"
    type_into(qtbot, accuracy, "97")
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_accuracy", 0.97)

    choose_problem(qtbot, panel, "regression")
    note = "Stop at: a regression has no test accuracy; now 'Test R² ≥ 0.95'"
    assert combo.currentData() == "test_r2" and combo.currentText() == "Test R² ≥"
    assert r2.isVisible() and r2.value() == 0.95 and not accuracy.isVisible()
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_r2", 0.95)
    assert panel.worker.session.settings.stop_when == "test_r2"
    line = panel.findChild(object, "messageLabel")
    assert panel.message == note and line.accessibleName() == note and (line, note) in said
    qtbot.wait(300)  # the new data's reset and first frames: a note stays through them
    assert panel.message == note
    type_into(qtbot, r2, "0.9")  # the person's own R², kept for the regression
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_r2", 0.9)
    assert panel.message == ""  # a setting edited again: the note no longer stands

    choose_problem(qtbot, panel, "classification")
    assert combo.currentData() == "test_accuracy" and accuracy.isVisible() and accuracy.value() == 97.0
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_accuracy", 0.97)
    assert panel.message == "Stop at: a classification has no test R²; now 'Test accuracy ≥ 97%'"
    choose_problem(qtbot, panel, "regression")
    assert (panel.settings.stop_when, panel.settings.stop_at) == ("test_r2", 0.9)  # their R² came back
    assert panel.message == "Stop at: a regression has no test accuracy; now 'Test R² ≥ 0.9'"


def test_a_trained_run_kept_keeps_its_test_accuracy_and_hears_of_no_conversion(qtbot, panel):
    combo = panel.findChild(object, "stopConditionCombo")
    panel.set_settings(replace(panel.settings, stop_when="test_accuracy", stop_at=0.97))
    panel.step_requested.emit()
    qtbot.waitUntil(lambda: panel.step == 1, timeout=WAIT)
    problem = panel.findChild(object, "problemCombo")
    problem.setCurrentIndex(problem.findData("regression"))  # "Another problem starts over": asked first
    qtbot.waitUntil(lambda: panel.reset_confirmation.box is not None, timeout=WAIT)
    panel.reset_confirmation.box.findChild(object, "resetCancelButton").click()
    qtbot.waitUntil(lambda: panel.reset_confirmation.box is None, timeout=WAIT)
    assert problem.currentData() == "classification" and panel.step == 1
    assert combo.currentData() == "test_accuracy" and combo.findData("test_r2") == -1
    assert panel.settings.stop_when == "test_accuracy" and "Stop at" not in panel.message
    problem.setCurrentIndex(problem.findData("regression"))
    qtbot.waitUntil(lambda: panel.reset_confirmation.box is not None, timeout=WAIT)
    panel.reset_confirmation.box.findChild(object, "resetConfirmButton").click()
    qtbot.waitUntil(lambda: panel.worker.session.settings.problem == "regression", timeout=WAIT)
    assert combo.currentData() == "test_r2"
    assert panel.message == "Stop at: a regression has no test accuracy; now 'Test R² ≥ 0.95'"

def regression_setup(stop_when: str) -> dict:
    return {"format": "autograd-playground-training-setup", "version": 1,
            "settings": {"problem": "regression", "dataset": "plane", "points": 600, "noise": 0.0, "loss": "mse",
                         "stop_when": stop_when, "stop_at": 0.97}}


def test_a_setup_that_stops_a_regression_at_a_test_accuracy_is_refused_naming_stop_when(qtbot, window, tmp_path):
    panel = window.training
    window.tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.data is not None, timeout=WAIT)
    before = panel.settings
    path = tmp_path / "regression.json"
    path.write_text(json.dumps(regression_setup("test_accuracy")))
    assert not window.open_path(path)
    dialog = window.findChild(QMessageBox, "errorDialog")
    assert "settings.stop_when: 'test_accuracy' is not for a regression" in dialog.text()
    dialog.close()
    QGuiApplication.clipboard().setText(json.dumps(regression_setup("test_accuracy")))  # pasted as text: the same
    assert not window.training_setups.paste_setup()
    assert "settings.stop_when: 'test_accuracy' is not for a regression" in \
        window.findChild(QMessageBox, "errorDialog").text()
    assert panel.settings == before and panel.worker.session.settings == before  # nothing changed
    path.write_text(json.dumps(regression_setup("test_r2")))  # its own figure opens
    assert window.open_path(path)
    assert (panel.settings.problem, panel.settings.stop_when, panel.settings.stop_at) == ("regression", "test_r2", 0.97)
    assert panel.findChild(object, "stopConditionCombo").currentText() == "Test R² ≥" and panel.message == ""
