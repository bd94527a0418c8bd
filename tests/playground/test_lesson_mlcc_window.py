"""The MLCC neural-net worksheets as lessons (issue 40, item 2), in the real window as a teacher takes them: each
exercise opens on the training tab as its worksheet sets it in the TF Playground (its page's very points), the
student trains, and Check my run says what the run reached against the worksheet's goal; Repeat answers the
Initialization exercise's "how much does the converged test loss vary?"."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt

import engine.tf_playground as tp
from playground.learn.model.lesson import load_lesson

WAIT = 90_000


def click(qtbot, button) -> None:
    qtbot.waitUntil(button.isEnabled, timeout=5000)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def go_to(qtbot, window, title: str) -> None:
    panel = window.learning.panel
    while panel.run.step.title != title:
        if not panel.next_button.isEnabled() and panel.reveal_button.isVisible():  # a goal left for later
            assert panel.reveal_button.text() == "Skip the goal"
            click(qtbot, panel.reveal_button)
        click(qtbot, panel.next_button)


def check_my_run(qtbot, window) -> str:
    panel = window.learning.panel
    assert panel.check_button.text() == "Check my run" and not panel.answer_input.isVisible()
    click(qtbot, panel.check_button)
    return html.unescape(re.sub(r"<[^>]+>", " ", panel.feedback.text()))  # what it reads, without the markup


def play_until_paused(qtbot, training) -> None:
    click(qtbot, training.toolbar.play_button)
    qtbot.waitUntil(lambda: training.is_playing, timeout=5000)
    qtbot.waitUntil(lambda: not training.is_playing, timeout=WAIT)


def test_a_first_neural_network_as_the_worksheet_sets_it_and_its_goal_checked_on_the_run(qtbot, window):
    window.learning.start("12-mlcc-first-network")
    training = window.training
    qtbot.waitUntil(lambda: training.data is not None and len(training.data.y_train) == 250, timeout=WAIT)
    s = training.settings
    assert (s.tf_playground, s.tf_seed, s.dataset, s.noise, s.test_fraction, s.batch_size, s.learning_rate) == (
        True, "0.50819", "xor", 0.35, 0.5, 10, 0.01)
    assert (s.hidden, s.activation, s.features, s.stop_at) == ((1,), "linear", ("x1", "x2"), 500.0)
    page = tp.make_dataset("xor", 35, 50, seed="0.50819")  # the worksheet's page's very points
    assert np.array_equal(training.data.X_train, page.X_train)
    assert window.findChild(object, "tfPlaygroundCheck").isChecked()
    go_to(qtbot, window, "Task 1")
    panel = window.learning.panel
    assert check_my_run(qtbot, window).startswith("✗")  # nothing trained yet
    play_until_paused(qtbot, training)
    assert training.step == 500 * 25 and training.toolbar.step_label.text() == "Epoch 500"
    said = check_my_run(qtbot, window)
    assert said.startswith("✓ Reached.") and "1 hidden layer of 1 Linear neuron" in said and "after 500 epochs" in said
    # Task 4: a hidden layer of 3 ReLU neurons, Reset until a start finds XOR's three edges; checked on the run.
    go_to(qtbot, window, "Task 4")
    training.set_settings(replace(training.settings, hidden=(2,), activation="relu", stop_at=200.0))
    qtbot.waitUntil(lambda: training.step == 0, timeout=WAIT)
    play_until_paused(qtbot, training)
    said = check_my_run(qtbot, window)
    shown = tp.format_loss(training.metrics.test_loss)
    assert said.startswith("✗ Not yet.") and f"the test loss is {shown} (the goal: at most 0.177)" in said
    training.set_settings(replace(training.settings, hidden=(3,), init_seed=3, stop_at=500.0))  # a third Reset's
    qtbot.waitUntil(lambda: training.step == 0 and training.settings.init_seed == 3, timeout=WAIT)
    play_until_paused(qtbot, training)
    said = check_my_run(qtbot, window)
    assert float(tp.format_loss(training.metrics.test_loss)) <= 0.177
    assert said.startswith("✓ Reached.") and "1 hidden layer of 3 ReLU neurons" in said
    assert panel.run.questions_done
    # Another dataset is another exercise: a goal reached there is not this one's.
    training.set_settings(replace(training.settings, dataset="circles"))
    panel.run.go(panel.run.index)
    panel._show_exercise()
    qtbot.waitUntil(lambda: training.settings.dataset == "circles", timeout=WAIT)
    assert check_my_run(qtbot, window).startswith("✗ This run has another dataset")


def test_initialization_is_answered_by_repeat_s_spread(qtbot, window):
    window.learning.start("13-mlcc-initialization")
    training = window.training
    qtbot.waitUntil(lambda: training.data is not None and len(training.data.y_train) == 250, timeout=WAIT)
    go_to(qtbot, window, "Task 1")
    assert check_my_run(qtbot, window).startswith("✗")  # no Repeat yet
    click(qtbot, training.toolbar.repeat_button)
    dialog = training.dialogs.repeat
    assert dialog.steps_spin.value() == 500  # epochs, as the worksheet's "at least 500 steps"
    dialog.runs_spin.setValue(4)
    click(qtbot, dialog.repeat_button)
    qtbot.waitUntil(lambda: dialog.progress is not None and dialog.progress.done, timeout=WAIT)
    spread = dialog.progress.spreads[0]
    said = check_my_run(qtbot, window)
    assert said.startswith("✓ Reached.") and "Repeat's 4 runs of 1 hidden layer of 3 ReLU neurons" in said
    assert f"between {spread.lowest:.3f} and {spread.highest:.3f}" in said
    dialog.close()


def test_the_mlcc_lessons_point_at_controls_the_app_has(window):
    lessons = Path(__file__).resolve().parents[2] / "resources" / "lessons"
    for path in sorted(lessons.glob("1[234]-mlcc-*.lesson")):
        for step in load_lesson(path).steps:
            for action in step.actions:
                if action.kind == "highlight":
                    assert window.findChild(object, action.argument) is not None, (path.name, action.argument)
