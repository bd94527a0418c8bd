"""The Learn panel in the main window, driven as a student and a teacher would: lessons step by step,
answers typed and checked, progress kept, every shipped lesson run, a bad lesson file refused, and
presentation mode."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QTextDocumentFragment
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSlider,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from playground.learn.highlight import Highlight
from playground.learn.model.lesson import load_lesson
from playground.shell.main_window import MainWindow

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def open_window(qtbot, settings) -> MainWindow:
    window = MainWindow(settings)
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    window.resize(1500, 900)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.fixture
def window(qtbot, settings):
    window = open_window(qtbot, settings)
    yield window
    window.presentation.set_on(False)  # the application's font is shared by every test
    window.training.pause()


def readable(text: str) -> str:
    """Text as a person reads it: without the invisible word joiners that keep a formula on one line."""
    return text.replace("\u2060", "").replace("\u00a0", " ")


def plain(label: QLabel) -> str:
    return readable(QTextDocumentFragment.fromHtml(label.text()).toPlainText())


def child(window, kind, name):
    found = window.findChild(kind, name)
    assert found is not None, name
    return found


def type_answer(qtbot, window, text: str) -> None:
    field = child(window, QLineEdit, "answerInput")
    field.clear()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def click(qtbot, window, name: str) -> None:
    qtbot.mouseClick(child(window, QPushButton, name), Qt.MouseButton.LeftButton)


def test_the_learn_panel_and_its_controls_are_named(window):
    for kind, name in ((QDockWidget, "learnDock"), (QWidget, "learnPanel"), (QListWidget, "lessonList"),
                       (QTextBrowser, "lessonText"), (QPushButton, "lessonNextButton"),
                       (QPushButton, "lessonBackButton"), (QLineEdit, "answerInput"), (QLabel, "answerFeedback"),
                       (QToolButton, "predictToggle"), (QComboBox, "pitfallCombo"), (QAction, "presentationAction"),
                       (QAction, "fullScreenAction"), (QAction, "actionOpenLesson")):
        found = child(window, kind, name)
        if isinstance(found, QWidget):  # named by what it is, never its objectName; a label by its text (issue 32)
            assert found.accessibleName() != name and (found.accessibleName() or isinstance(found, QLabel)), name
    assert child(window, QListWidget, "lessonList").count() == len(list(LESSONS.glob("*.lesson")))
    child(window, QAction, "actionLearnPanel").trigger()  # the first run shows it; the menu hides it
    assert not child(window, QDockWidget, "learnDock").isVisible()
    child(window, QAction, "actionLearnPanel").trigger()
    assert child(window, QDockWidget, "learnDock").isVisible()


def test_lesson_2_completed_through_the_ui_ends_with_a_grad_of_31(window, qtbot):
    window.learning.show_panel()
    lessons = child(window, QListWidget, "lessonList")
    qtbot.mouseClick(lessons.viewport(), Qt.MouseButton.LeftButton,
                     pos=lessons.visualItemRect(lessons.item(1)).center())
    panel = window.learning.panel
    assert panel.lesson.id == "02-chain-rule" and window.document_name == "The chain rule by hand (lesson)"
    assert sorted(window.document.names().values()) == ["L", "a", "b", "c", "d", "t1", "t2", "t3"]
    assert "with a = 2, b = 3, c = 4 and d = 5" in readable(child(window, QTextBrowser, "lessonText").toPlainText())
    click(qtbot, window, "lessonNextButton")
    assert window.tabs.currentWidget() is window.animator and window.animator.position == 0
    next_button = child(window, QPushButton, "lessonNextButton")
    for value in ("6", "10", "7", "70"):
        assert not next_button.isEnabled()
        type_answer(qtbot, window, value)
        assert plain(child(window, QLabel, "answerFeedback")).startswith("✓ Right")
    assert window.animator.position == 8  # the animator shows each value once it is answered
    click(qtbot, window, "lessonNextButton")
    click(qtbot, window, "lessonNextButton")
    assert panel.run.step.title == "Backward: every gradient"
    for grad in ("7", "10", "7", "7", "14"):
        type_answer(qtbot, window, grad)
    type_answer(qtbot, window, "31")
    assert plain(child(window, QLabel, "answerFeedback")) == "✓ Right."  # the worked answer: once, in the list
    assert plain(child(window, QLabel, "answeredList")).splitlines()[-1] == "✓ ∂L/∂a = 7 × 3 + 10 × 1 = 31"
    a = next(n.id for n in window.document.nodes if n.label == "a")
    assert window.animator.timeline.display[a].grad == 31.0  # the animator is at the step where a's is complete
    type_answer(qtbot, window, "10")
    click(qtbot, window, "lessonNextButton")
    assert panel.run.completed and window.animator.position == window.animator.frame_count
    assert "∂L/∂a = 31" in readable(child(window, QTextBrowser, "lessonText").toPlainText())
    assert lessons.item(1).text().endswith("✓")


def test_a_finished_lesson_resumed_after_another_shows_its_last_step_as_it_was(window, qtbot):
    """Lesson 2 finished, lesson 3 started, lesson 2 again: the animator came back at 0 of 17 though the
    step says "animator: end", and the panel said "You had changed the lesson's graph" though nobody had."""
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    click(qtbot, window, "lessonNextButton")
    for value in ("6", "10", "7", "70"):
        type_answer(qtbot, window, value)
    click(qtbot, window, "lessonNextButton")
    click(qtbot, window, "lessonNextButton")
    for grad in ("7", "10", "7", "7", "14", "31", "10"):
        type_answer(qtbot, window, grad)
    click(qtbot, window, "lessonNextButton")
    assert panel.run.completed and window.animator.position == window.animator.frame_count
    window.learning.start("03-used-twice")
    qtbot.wait(50)
    window.learning.start("02-chain-rule")
    qtbot.wait(50)
    assert panel.run.completed
    assert window.animator.position == window.animator.frame_count == 17
    notice = child(window, QLabel, "lessonNotice")
    assert not notice.isVisibleTo(panel), plain(notice)


def test_the_learn_dock_keeps_its_width_from_step_to_step(window, qtbot):
    """Its width followed each step's text (274 to 338 px in lessons 1 and 2): the editor beside it shifted."""
    window.resize(1400, 850)
    widths = set()
    for lesson_id in ("01-value-and-gradient", "02-chain-rule"):
        window.learning.start(lesson_id)
        run = window.learning.panel.run
        for index in range(len(run.lesson.steps)):
            run.go(index)
            window.learning.panel._show(perform=True)
            qtbot.wait(20)
            widths.add(window.learning.dock.width())
    assert len(widths) == 1, widths


def test_a_wrong_answer_gets_a_hint_and_no_progress(window, qtbot):
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    panel.run.go(3)
    panel._show(perform=True)
    type_answer(qtbot, window, "8")
    feedback = child(window, QLabel, "answerFeedback")
    assert plain(feedback) == ("✗ Not 8. Hint: For a product, the gradient to one factor is the other factor "
                               "times the upstream gradient (here the one L hands on: ∂L/∂L = 1). More…")
    feedback.linkActivated.emit("more")  # the details, on demand
    assert plain(feedback).endswith("∂L/∂L = 1).\nHere: ∂L/∂t2 = ∂L/∂L × t3.")
    assert "Question 1 of 7" in plain(child(window, QLabel, "questionPrompt"))
    assert not child(window, QPushButton, "lessonNextButton").isEnabled()
    type_answer(qtbot, window, "seven")
    assert "Can't read that" in plain(child(window, QLabel, "answerFeedback"))
    click(qtbot, window, "answerRevealButton")  # stuck: the answer, and on to the next question
    assert "Question 2 of 7" in plain(child(window, QLabel, "questionPrompt"))
    assert plain(child(window, QLabel, "answeredList")) == "shown: ∂L/∂t2 = 10 × 1 = 7" or \
        "∂L/∂t2" in plain(child(window, QLabel, "answeredList"))


def test_progress_survives_a_restart(qtbot, settings):
    first = open_window(qtbot, settings)
    first.learning.start("02-chain-rule")
    panel = first.learning.panel
    assert panel.next()
    panel.answer("6")
    panel.answer("10")
    first.close()
    second = open_window(qtbot, settings)
    again = second.learning.panel
    assert again.progress("02-chain-rule") == {"step": 1, "answered": 2, "revealed": [False, False],
                                               "completed": False}
    assert "(2/5)" in again.lesson_list.item(1).text()
    again.resume()
    assert again.run.index == 1 and again.run.question.prompt == "$t3 = a + d$ = ?"
    second.close()


def run_whole_lesson(window, lesson_id: str) -> list[str]:
    """Every step of a lesson through the panel (each question shown), with what each step did."""
    window.learning.start(lesson_id)
    panel = window.learning.panel
    seen = []
    while True:
        QApplication.processEvents()
        seen.append(f"{panel.run.step.title}: {window.tabs.currentWidget().objectName()}")
        while panel.run.question is not None:
            panel.reveal()
        if not panel.next():
            break
    return seen


@pytest.mark.parametrize("lesson_id", [path.stem for path in sorted(LESSONS.glob("*.lesson"))])
def test_every_shipped_lesson_runs_all_its_steps(window, lesson_id, caplog):
    window.learning.driver.check(load_lesson(LESSONS / f"{lesson_id}.lesson"))  # every control it points at exists
    with caplog.at_level(logging.ERROR):
        seen = run_whole_lesson(window, lesson_id)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    panel = window.learning.panel
    assert len(seen) == panel.run.step_count and panel.run.completed
    animator, training = window.animator, window.training
    if lesson_id.startswith("01"):
        assert window.document_name.endswith("(lesson)") and panel.run.step.graph is not None
    if lesson_id.startswith("03"):
        assert animator.pitfalls.key == "overwrite" and animator.pitfalls.isVisible()
    if lesson_id.startswith("05"):
        assert animator.pitfalls.key == "order" and animator.pitfalls.parting_position is not None
    if lesson_id.startswith("06"):
        assert animator.source == "network" and animator.position == animator.frame_count
    if lesson_id.startswith("07"):
        assert training.settings.optimizer == "adam" and training.settings.learning_rate == 0.01
        assert not training.is_playing and animator.pitfalls.key == "zero"


def test_lesson_7_drives_the_training_panel(window, qtbot):
    window.learning.start("07-training")
    training = window.training
    assert window.tabs.currentWidget() is training and training.is_playing
    assert training.settings.optimizer == "sgd" and training.settings.learning_rate == 0.1
    assert training.settings.hidden == (8, 8)
    qtbot.waitUntil(lambda: training.step > 0, timeout=10000)
    window.learning.panel.next()
    assert training.settings.learning_rate == 0.001
    highlight = window.learning.driver.highlight
    assert isinstance(highlight, Highlight) and highlight.target.objectName() == "learningRateInput"
    assert highlight.isVisible() and highlight.ring().contains(
        highlight.target.mapTo(window, highlight.target.rect().center()))
    training.pause()


def test_lesson_1_shows_the_predicted_and_the_measured_change_side_by_side(window, qtbot):
    window.learning.start("01-value-and-gradient")
    panel = window.learning.panel
    panel.next()
    panel.next()
    assert panel.run.step.title == "Nudge it yourself" and panel.nudge.isVisible()
    a = next(n for n in window.document.nodes if n.label == "a")
    assert window.editor.scene.selected_node_ids() == [a.id]
    slider = child(window, QSlider, "valueSlider")  # the editor's own scrub slider, as a student drags it
    slider.setValue(slider.value() + slider.maximum() // 20)
    qtbot.waitUntil(lambda: panel.nudge.predicted not in (None, 0.0))
    h = window.document.node(a.id).value - 2.0
    assert panel.nudge.predicted == pytest.approx(-3 * h) and panel.nudge.actual == pytest.approx(-3 * h)
    assert "measured" in plain(panel.nudge) and "Predicted by the gradient" in plain(panel.nudge)
    panel.next()  # tanh: the prediction holds only near x
    x = next(n for n in window.document.nodes if n.label == "x")
    window.document.set_value(x.id, 1.5)
    qtbot.waitUntil(lambda: panel.nudge.actual is not None and panel.nudge.actual != 0)
    assert panel.nudge.actual < panel.nudge.predicted  # the curve falls behind its tangent


def test_a_broken_lesson_file_is_refused_with_its_line_and_nothing_changes(window, qtbot, tmp_path, monkeypatch):
    window.learning.start("02-chain-rule")
    panel = window.learning.panel
    panel.next()
    panel.answer("6")
    before = (panel.lesson.id, panel.run.index, len(panel.run.answered), window.document.to_dict(),
              panel.progress("02-chain-rule"), panel.lesson_list.count())
    broken = tmp_path / "broken.lesson"
    broken.write_text((LESSONS / "02-chain-rule.lesson").read_text(encoding="utf-8").replace(
        "select: L", "select: Q"), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(broken), ""))
    shown = []
    monkeypatch.setattr(QMessageBox, "open", lambda box: shown.append(box.text()))
    child(window, QAction, "actionOpenLesson").trigger()
    assert shown == ["broken.lesson, line 8: the graph has no node named 'Q' (it has a, b, c, d, t1, t2, t3, L)"]
    assert (panel.lesson.id, panel.run.index, len(panel.run.answered), window.document.to_dict(),
            panel.progress("02-chain-rule"), panel.lesson_list.count()) == before

    unknown_control = tmp_path / "unknown.lesson"
    unknown_control.write_text((LESSONS / "02-chain-rule.lesson").read_text(encoding="utf-8").replace(
        "select: L", "highlight: noSuchButton"), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(unknown_control), ""))
    child(window, QAction, "actionOpenLesson").trigger()
    assert shown[-1] == "unknown.lesson, line 8: the app has no control named 'noSuchButton' to point at"
    assert panel.lesson.id == "02-chain-rule"


def test_a_teachers_lesson_file_opens_from_the_menu(window, tmp_path, monkeypatch):
    mine = tmp_path / "my-lesson.lesson"
    mine.write_text("autograd-playground-lesson 1\ntitle: Mine\n\n## Square\ngraph: x=4; y=x*x\ntab: animator\n"
                    "animator: grad x\n\nThe gradient of $y = x^2$ at x = {x} is {x.grad}.\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(mine), ""))
    child(window, QAction, "actionOpenLesson").trigger()
    panel = window.learning.panel
    assert panel.lesson.title == "Mine" and "at x = 4 is 8." in readable(panel.text.toPlainText())
    assert window.tabs.currentWidget() is window.animator and window.animator.position == window.animator.frame_count
    shipped = len(list(LESSONS.glob("*.lesson")))
    assert panel.lesson_list.item(panel.lesson_list.count() - 1).text() == f"{shipped + 1}. Mine"


def test_presentation_mode_zooms_the_whole_ui_and_is_remembered(qtbot, settings):
    window = open_window(qtbot, settings)
    app_size = QApplication.font().pointSizeF()
    heading = window.animator.steps.heading
    heading_size = heading.font().pointSizeF()
    editor_zoom = window.editor.view.zoom()
    presentation = window.presentation
    child(window, QAction, "presentationZoom150").trigger()
    child(window, QAction, "presentationAction").trigger()
    try:
        assert presentation.factor == 1.5
        assert QApplication.font().pointSizeF() == pytest.approx(app_size * 1.5)
        assert heading.font().pointSizeF() == pytest.approx(heading_size * 1.5)  # a font of its own grows too
        assert window.editor.view.zoom() == pytest.approx(editor_zoom * 1.5)
        assert window.animator.fitting.readable_zoom == pytest.approx(0.85 * 1.5)
        window.close()
        again = open_window(qtbot, settings)  # remembered
        assert again.presentation.is_on and again.presentation.factor == 1.5
        child(again, QAction, "presentationAction").trigger()
        assert QApplication.font().pointSizeF() == pytest.approx(app_size)
        assert heading.font().pointSizeF() == pytest.approx(heading_size) or not heading.isVisible()
        assert settings.value("presentation/on", type=bool) is False
        again.close()
    finally:
        presentation.set_on(False)


def test_presentation_mode_reaches_what_fonts_do_not(qtbot, settings):
    """Cards in the animator, plot labels and legends, confusion cells, the diagram's buttons and the
    fixed-size figures grow with the zoom; nothing a fixed size was measured for is cut off."""
    window = open_window(qtbot, settings)
    window.resize(1920, 1080)
    training = window.training
    curves = training.curves
    axis_label = curves.loss_plot.getPlotItem().getAxis("left").label
    label_size = axis_label.font().pointSizeF()
    legend = curves.loss_plot.getPlotItem().titleLabel
    confusion_height = curves.confusion.sizeHint().height()
    window.tabs.setCurrentWidget(window.animator)
    qtbot.waitUntil(lambda: window.animator.view.zoom() > 0.5)
    child(window, QAction, "presentationZoom200").trigger()
    child(window, QAction, "presentationAction").trigger()
    try:
        # The animator's fit was capped at 1.25x: its cards hardly grew. Now at least the readable zoom times 2.
        qtbot.waitUntil(lambda: window.animator.view.zoom() >= 0.85 * 2 - 1e-9)
        window.tabs.setCurrentWidget(training)
        assert axis_label.font().pointSizeF() == pytest.approx(label_size * 2)
        assert "16pt" in legend.item.toHtml() or "16pt" in str(legend.opts.get("size"))
        assert curves.confusion.sizeHint().height() >= 1.9 * confusion_height
        for button in training.network_view.findChildren(QToolButton):
            if button.objectName().startswith("network"):
                assert button.width() == 38
        qtbot.wait(50)  # the data column refits at the next turn of the event loop
        for label in (curves.accuracy_label, training.toolbar.epoch_label):
            label.setText("Test accuracy 100.0%" if label is curves.accuracy_label else "epoch 99999.9 · batch 9999")
            assert label.fontMetrics().horizontalAdvance(label.text()) <= label.width()
        for area in training.findChildren(QScrollArea):
            if area.widget() is not None and area.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff:
                assert area.width() >= area.widget().minimumSizeHint().width()
    finally:
        child(window, QAction, "presentationAction").trigger()
    assert axis_label.font().pointSizeF() == pytest.approx(label_size)
    window.close()


def test_presentation_mode_reaches_styled_labels_the_dock_title_and_the_editors_columns(qtbot, settings):
    """Labels with a style sheet of their own (the pitfall captions, the Learn banner) kept their font, the
    Learn dock's title stayed in the platform's small title font, the palette's names were cut off."""
    window = open_window(qtbot, settings)
    caption = window.animator.pitfalls.caption
    size = caption.font().pointSizeF()
    palette_width = window.editor.splitter.sizes()[0]
    child(window, QAction, "presentationZoom200").trigger()
    child(window, QAction, "presentationAction").trigger()
    try:
        assert caption.styleSheet() and caption.font().pointSizeF() == pytest.approx(size * 2)
        dock = window.learning.dock
        assert dock.font() != QApplication.font("QDockWidget")  # else Qt paints the title in its own small font
        assert dock.font().pointSizeF() == pytest.approx(QApplication.font().pointSizeF())
        assert window.editor.splitter.sizes()[0] >= 1.9 * palette_width
        assert window.editor.side_room.minimumWidth() >= 2 * 290
    finally:
        child(window, QAction, "presentationAction").trigger()
    assert caption.font().pointSizeF() == pytest.approx(size)
    assert window.learning.dock.font() == QApplication.font("QDockWidget")
    window.close()


def test_f11_toggles_full_screen(window, qtbot):
    action = child(window, QAction, "fullScreenAction")
    assert action.shortcut().toString() == "F11"
    action.trigger()
    assert window.windowState() & Qt.WindowState.WindowFullScreen
    action.trigger()
    assert not window.windowState() & Qt.WindowState.WindowFullScreen


def test_presentation_mode_survives_the_editors_refit_on_resize(qtbot, settings):
    from playground.canvas.view import READABLE_ZOOM

    window = open_window(qtbot, settings)
    child(window, QAction, "presentationZoom150").trigger()
    child(window, QAction, "presentationAction").trigger()
    try:
        window.resize(1300, 800)  # the editor fits its graph again: still at presentation size
        qtbot.waitUntil(lambda: window.editor.view.is_kept_fitted)
        qtbot.wait(50)
        assert window.editor.view.zoom() >= READABLE_ZOOM * 1.5 - 1e-9
    finally:
        child(window, QAction, "presentationAction").trigger()
        window.close()
