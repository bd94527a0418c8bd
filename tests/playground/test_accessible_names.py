"""Issue 32, item 1 (WCAG 4.1.2): every control of the app has a name that says what it does, and its value
where it has one, as a screen reader finds them in the window's QAccessible tree: in every tab with its side
rooms open, with the Learn dock on a lesson's question and its feedback, in presentation mode, in the menus
and in each dialog the app opens. All offenders are reported at once, with their objectName and place."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFileDialog, QMenu, QMessageBox, QWidget

from playground.animator.model.pitfalls import PITFALLS
from playground.shell.help_menu import show_about, show_shortcuts
from playground.training.compare import CompareDialog
from tests.playground.accessible_tree import Role, elements, looks_like_identifier, menu_problems, window_problems
from tests.playground.app_window import open_window


@pytest.fixture
def window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, 1900, 1100)  # room for every side panel at once
    yield window
    window.presentation.set_on(False)
    window.training.pause()


def test_an_identifier_is_told_from_a_name():
    for identifier in ("playButton", "clickClass0Radio", "MainWindow", "neuronMap_1_2",
                       "animPathList: the paths from the output"):
        assert looks_like_identifier(identifier), identifier
    for name in ("Play", "OK", "Batch size", "PyTorch default", "Click adds points of class 1", "x1", "", "Tanh",
                 "Learning rate: 0.01"):
        assert not looks_like_identifier(name), name


def _editor(window, qtbot, place: str) -> list[str]:
    editor = window.editor
    window.tabs.setCurrentWidget(editor)
    for action in (editor.palette_action, editor.side_action):
        if not action.isChecked():
            action.trigger()
    editor.scene.select_nodes([editor.document.nodes[0].id])  # an input: its properties, its paths
    editor.run_gradient_check()
    qtbot.wait(50)
    said = window_problems(window, f"{place}, Graph editor")
    qtbot.keyClicks(editor.expression_input, "X = [[1, 2], [3, 4]]; L = sum(X, axis=0)")
    qtbot.keyClick(editor.expression_input, Qt.Key.Key_Return)
    for label in ("X", "L"):  # an array's properties: its shape, its table, its generator; a reduction's axis
        editor.scene.select_nodes([next(n.id for n in editor.document.nodes if n.label == label)])
        qtbot.wait(20)
        shown = "arrayShapeEdit" if label == "X" else "axisCombo"
        assert editor.findChild(QWidget, shown).isVisible(), shown
        said += window_problems(window, f"{place}, Graph editor, tensor {label} selected")
    return said


def _animator(window, qtbot, place: str) -> list[str]:
    animator = window.animator
    window.animate_backward()
    if not animator.steps_action.isChecked():
        animator.steps_action.trigger()
    for _ in range(4):
        animator.step_forward()
    said = window_problems(window, f"{place}, Backward animator")
    animator.set_predict(True)
    qtbot.wait(20)
    said += window_problems(window, f"{place}, Backward animator, predict mode")
    animator.set_predict(False)
    animator.set_pitfall(next(iter(PITFALLS)))
    qtbot.wait(20)
    said += window_problems(window, f"{place}, Backward animator, a pitfall")
    animator.set_pitfall(None)
    _choose(animator.source_combo, "forward")
    qtbot.wait(20)
    said += window_problems(window, f"{place}, Backward animator, forward mode")
    _choose(animator.source_combo, "graph")
    return said


def _choose(combo, data) -> None:
    """Choose the entry of ``combo`` whose data is ``data``, as a click in its list does."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def _training(window, qtbot, place: str) -> list[str]:
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.data is not None, timeout=20_000)
    said = window_problems(window, f"{place}, Training")
    window.training.reset_confirmation.set_asks(False)
    stop = window.findChild(QComboBox, "stopConditionCombo")
    for index in range(1, stop.count()):  # each condition's own box
        stop.setCurrentIndex(index)
        said += window_problems(window, f"{place}, Training, stop: {stop.currentText()}")
    _choose(window.findChild(QComboBox, "networkSourceCombo"), "graph")
    qtbot.wait(50)
    said += window_problems(window, f"{place}, Training, the editor's graph")
    return said


def test_every_control_in_every_tab_says_what_it_does(window, qtbot):
    said = _editor(window, qtbot, "normal") + _animator(window, qtbot, "normal") + _training(window, qtbot, "normal")
    said += menu_problems(window.menuBar().findChildren(QMenu), "menus")
    assert said == [], "\n".join(said)


def test_the_learn_dock_on_a_question_and_its_feedback_says_what_it_does(window, qtbot):
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    panel.next()  # the values exercise: a question, an answer box
    said = window_problems(window, "Learn dock, a question")
    assert "Close the Learn panel" in {e.name for e in elements(window)}  # Qt's own button, said as what it closes
    panel.answer_input.setText("5")
    panel.check_button.click()  # wrong: t1 = a * b = 6
    assert panel.feedback.isVisible()
    said += window_problems(window, "Learn dock, feedback")
    prompt, feedback = (next(e for e in elements(window) if e.object_name == name)
                        for name in ("questionPrompt", "answerFeedback"))
    assert said == [], "\n".join(said)
    # Read by what they say, not by what they are.
    assert prompt.name.startswith("Question 1 of 4: t") and prompt.name.endswith("= a · b = ?")
    assert feedback.name.startswith("Not right: 5 is a + b"), feedback.name  # words, where ✗ shows


def test_presentation_mode_names_every_control(window, qtbot):
    window.presentation.set_on(True)
    said = _editor(window, qtbot, "presentation") + _animator(window, qtbot, "presentation")
    said += _training(window, qtbot, "presentation")
    assert said == [], "\n".join(said)


def test_values_are_exposed_by_spin_boxes_sliders_and_combos(window, qtbot):
    window.tabs.setCurrentWidget(window.training)
    qtbot.waitUntil(lambda: window.training.data is not None, timeout=20_000)
    found = {e.object_name: e for e in elements(window)}
    assert found["batchSizeSpin"].value == "Full batch" and found["batchSizeSpin"].name == "Batch size"
    assert found["optimizerCombo"].value == "Adam" and found["optimizerCombo"].role == Role.ComboBox
    assert found["learningRateInput"].value == "0.01"
    assert found["noiseSlider"].value == "10"
    # A slider whose value is a step of its scale says what it stands for in its name.
    assert found["learningRateSlider"].value == "-40" and found["learningRateSlider"].name.endswith(": 0.01")
    window.tabs.setCurrentWidget(window.animator)
    speed = next(e for e in elements(window) if e.object_name == "animSpeedSlider")
    assert speed.value == "2" and speed.name == "Playing speed: 1 step/s"
    window.animator.set_speed_index(4)
    speed = next(e for e in elements(window) if e.object_name == "animSpeedSlider")
    assert speed.value == "4" and speed.name == "Playing speed: 4 steps/s"


def test_every_dialog_names_its_controls(window, qtbot, tmp_path, monkeypatch):
    window.tabs.setCurrentWidget(window.training)
    button = window.training.toolbar.compare_button
    qtbot.waitUntil(button.isEnabled, timeout=20_000)
    button.click()
    compare = window.training.findChild(CompareDialog, "compareDialog")
    qtbot.waitExposed(compare)
    said = window_problems(compare, "Compare optimizers")
    compare.close()
    window.training.toolbar.repeat_button.click()
    repeat = window.training.dialogs.repeat
    qtbot.waitExposed(repeat)
    qtbot.waitUntil(lambda: repeat.progress is not None and repeat._pictures is not None, timeout=20_000)
    said += window_problems(repeat, "Repeat")
    repeat.close()
    shortcuts = show_shortcuts(window)
    qtbot.waitExposed(shortcuts)
    said += window_problems(shortcuts, "Keyboard shortcuts")
    shortcuts.close()
    about = show_about(window)
    qtbot.waitExposed(about)
    said += window_problems(about, "About")
    about.close()
    window.show_error("Could not export", "the folder is read-only")
    error = window.findChild(QMessageBox, "errorDialog")
    qtbot.waitExposed(error)
    said += window_problems(error, "An error")
    error.close()
    window.training.toolbar.step_button.click()
    qtbot.waitUntil(lambda: window.training.step > 0, timeout=20_000)
    window.training.toolbar.reset_button.click()
    reset = window.training.findChild(QMessageBox, "resetConfirmationBox")
    qtbot.waitExposed(reset)
    said += window_problems(reset, "Reset a trained network")
    reset.reject()
    walked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", _qt_file_dialog(tmp_path, said, walked))
    window.tabs.setCurrentWidget(window.editor)
    window.exports.on_export_image_triggered("png")
    assert walked == ["Export image as PNG"]
    assert said == [], "\n".join(said)


def _qt_file_dialog(folder, said: list[str], walked: list[str]):
    """getSaveFileName's stand-in: Qt's own dialog (as Linux without a desktop's portal shows it), walked, then
    cancelled. Its "Look in" and "Files of type" combos are named by their choice by Qt, out of the app's reach."""

    def ask(parent, title, directory="", filters="", *args, **kwargs):
        dialog = QFileDialog(parent, title, str(folder), filters)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.show()
        said.extend(window_problems(dialog, title, combos_named=False))
        walked.append(title)
        dialog.reject()
        return "", ""

    return ask
