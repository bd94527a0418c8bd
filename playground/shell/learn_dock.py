"""The Learn panel in the main window: a dock beside every tab, File > Open lesson…, View > Learn panel,
Help > Lessons. On the very first run (no saved settings) the dock is shown with the first lesson selected,
so a new student finds it. Kept here so that the main window only calls `install_learning`."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QDockWidget, QMessageBox
from shiboken6 import isValid

from ..learn.driver import LessonDriver
from ..learn.model.goals import RepeatState, RunState
from ..learn.model.lesson import Lesson
from ..learn.panel import LearnPanel
from ..widgets.errors import guarded
from .panel_tabs import PanelScroll


class LearnScroll(PanelScroll):
    """The Learn panel in its dock: it scrolls as one only where even its least does not fit (a 1024 x 768
    screen at 200%), so nothing in it is squeezed over anything else; before that, its lesson list gives
    up rows to the step's text and questions. Its width is the dock's: a hint appearing never widens it."""

    _least_width = 0

    def fit_panel(self) -> None:
        panel = self.widget()
        if panel is not None:
            room = self.maximumViewportSize()
            panel.fit_rows(room.height(), room.width())
        super().fit_panel()
        least = self.minimumSizeHint().width()
        if least != self._least_width:  # the panel's least width changed (the nudge readout came): the dock hears it
            self._least_width = least
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As narrow as the panel can be, with room for the bar it scrolls up and down with: never sideways (the
        nudge readout's table at 150% on a 1024-pixel screen, where the dock's share is 307 px)."""
        panel = self.widget()
        least = super().minimumSizeHint()
        if panel is None:
            return least
        panel_least = panel.minimumSizeHint()
        scrolls = panel_least.height() > self.maximumViewportSize().height()
        bar = self.verticalScrollBar().sizeHint().width() if scrolls else 0
        return QSize(max(least.width(), panel_least.width() + bar + 2 * self.frameWidth()), least.height())


class LearnDock(QDockWidget):
    """The Learn panel's dock, its close button said as what it closes. Qt names that button "Close" again whenever
    it updates the dock's buttons: on a style change (a theme, presentation mode), a new parent, a layout direction,
    its features or its floating; named again at once after each."""

    RENAMED_AFTER = (QEvent.Type.StyleChange, QEvent.Type.ParentChange, QEvent.Type.LayoutDirectionChange,
                     QEvent.Type.ApplicationLayoutDirectionChange)

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() in self.RENAMED_AFTER:
            self.name_close_button()
        return handled

    @guarded
    def name_close_button(self, *_) -> None:
        close = self.findChild(QAbstractButton, "qt_dockwidget_closebutton")
        if close is not None:
            close.setAccessibleName("Close the Learn panel")


class Learning(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        first_run = not window.settings.allKeys()  # read before anything is written
        self.panel = LearnPanel(window.settings)
        self.panel.check_lesson = self._check
        self.dock = LearnDock("Learn", window)
        self.dock.setObjectName("learnDock")
        self.dock.setAccessibleName("Learn panel")  # a reader says it; its title "Learn" alone says less
        self.dock.setWidget(LearnScroll(self.panel))
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                              | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.dock.name_close_button()
        self.dock.featuresChanged.connect(self.dock.name_close_button)
        self.dock.topLevelChanged.connect(self.dock.name_close_button)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        if first_run:  # a new student: the lessons are the way in
            window.settings.setValue("learn/visible", True)
            self.panel.invite()
        self.dock.setVisible(window.settings.value("learn/visible", False, type=bool))
        self.driver = LessonDriver(window)

        self.panel.set_document(window.document)
        self.panel.run_state = self.run_state
        self.panel.step_shown.connect(self._on_panel_step_shown)
        self.panel.step_answered.connect(self._on_panel_step_answered)
        self.panel.graph_restore_requested.connect(self._on_panel_graph_restore_requested)
        self.panel.lesson_closed.connect(self._on_panel_lesson_closed)
        self.panel.lesson_refused.connect(self._on_panel_lesson_refused)
        self.panel.status_message.connect(self._on_status_message)
        self.driver.status_message.connect(self._on_status_message)
        self.dock.visibilityChanged.connect(self._on_dock_visibility_changed)
        window.editor.evaluated.connect(self._on_editor_evaluated)
        self._build_menus()
        if self.panel.library.problems:  # a lesson opened before that cannot be read any more (said once the
            text = "Not listed: " + "; ".join(self.panel.library.problems)  # window is up, after its "Ready")
            QTimer.singleShot(0, self, lambda: self._on_status_message(text))

    def run_state(self) -> RunState | None:
        """The training tab as a lesson's goal reads it (`learn.model.goals`), or None before its first report."""
        training = self.window.training
        metrics = training.metrics
        if metrics is None:
            return None
        repeat, done = None, training.dialogs.repeat_done()
        if done is not None and done[2] is not None:
            runs, epochs, spread, settings = done
            repeat = RepeatState(runs, epochs, spread.lowest, spread.median, spread.highest, settings)
        return RunState(training.settings, metrics.step, metrics.epoch, metrics.train_loss, metrics.test_loss,
                        metrics.test_accuracy, repeat)


    def _build_menus(self) -> None:
        window = self.window
        self.open_action = QAction("Open &lesson…", window)
        self.open_action.setObjectName("actionOpenLesson")
        self.open_action.triggered.connect(self._on_open_lesson_triggered)
        window.file_menu.insertAction(window.recent_menu.menuAction(), self.open_action)
        self.learn_action = self.dock.toggleViewAction()
        self.learn_action.setText("&Learn panel (lessons)")
        self.learn_action.setObjectName("actionLearnPanel")
        self.learn_action.setShortcut(QKeySequence("Ctrl+Shift+L"))
        self.learn_action.triggered.connect(self._on_learn_action_triggered)
        view = window.view_menu
        view.addSeparator()
        view.addAction(self.learn_action)
        self.help_action = QAction("&Lessons", window)
        self.help_action.setObjectName("actionHelpLessons")
        self.help_action.setToolTip("Guided lessons on backpropagation, with exercises the app checks")
        self.help_action.triggered.connect(self._on_help_action_triggered)
        help_menu = window.help_menu
        help_menu.insertAction(help_menu.actions()[0] if help_menu.actions() else None, self.help_action)

    def _on_learn_action_triggered(self, checked: bool) -> None:
        """Opened by its key (or menu item), the panel takes the keyboard, on its last control or else the lesson
        list, as Graph outline does: without a mouse, the student would Tab through a whole tab to get there.
        Closed again, the keyboard goes back where it was (Qt left it on the tab bar)."""
        if checked:
            self._focus_before = QApplication.focusWidget()
            (self.panel.focusWidget() or self.panel.lesson_list).setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        before, self._focus_before = getattr(self, "_focus_before", None), None
        if before is not None and isValid(before) and before.isVisible() and not self.panel.isAncestorOf(before):
            before.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_panel(self) -> None:
        self.dock.setVisible(True)
        self.dock.raise_()

    def show_lessons(self) -> None:
        """Help > Lessons: the Learn panel, on the lesson running or else the one to take next."""
        self.show_panel()
        if self.panel.run is None:
            self.panel.invite()

    def start(self, lesson: Lesson | str) -> None:
        """Show the Learn panel on ``lesson`` (a shipped lesson's id, or a lesson)."""
        self.show_panel()
        self.panel.start(lesson)

    def open_lesson(self, path: str | Path | Lesson) -> Lesson:
        """Open a lesson file, or a lesson read from one (raises `LessonFormatError` with its line and
        reason; nothing changes then)."""
        lesson = self.panel.open_lesson(path) if isinstance(path, Lesson) else self.panel.open_file(path)
        self.show_panel()
        return lesson

    def _check(self, lesson: Lesson) -> None:
        self.driver.check(lesson)

    @guarded
    def _on_open_lesson_triggered(self, _checked: bool = False) -> None:
        self.show_panel()
        self.panel.ask_and_open()

    @guarded
    def _on_help_action_triggered(self, _checked: bool = False) -> None:
        self.show_lessons()

    @guarded
    def _on_panel_step_shown(self, run) -> None:
        self.driver.lesson_title = run.lesson.title
        self.panel.show_notice(self.driver.perform(run))
        self.window.files.show_lesson(run.lesson.title)

    @guarded
    def _on_panel_step_answered(self, run, question) -> None:
        self.driver.show_answer(run, question)

    @guarded
    def _on_panel_lesson_closed(self) -> None:
        self.driver.hide_answers(None)
        self.window.files.show_lesson(None)

    @guarded
    def _on_panel_graph_restore_requested(self, run) -> None:
        self.driver.restore_graph(run)

    @guarded
    def _on_editor_evaluated(self, _evaluation) -> None:
        # A graph the student builds (a 'build:' step) may become the very graph later questions ask about:
        # from that edit on, its cards hide those answers as the lesson's own copy would.
        # The node count first: comparing a graph's maths writes out every array, too slow for each edit of a
        # big graph that cannot be the lesson's anyway.
        self.panel.graph_edited()
        run = self.panel.run
        graph = run.step.graph if run is not None else None
        if (graph is not None and run.revealed_up_to is not None and self.dock.isVisible()
                and len(graph.nodes) == len(self.window.document.nodes)):
            self.driver.hide_answers(run)

    def _on_panel_lesson_refused(self, message: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, "The lesson could not be opened", message,
                          QMessageBox.StandardButton.Ok, self.window)
        box.setObjectName("errorDialog")
        box.open()

    def _on_dock_visibility_changed(self, visible: bool) -> None:
        try:
            if self.window.isVisible() and not self.window.isMinimized():  # not as the window closes
                self.window.settings.setValue("learn/visible", self.dock.isVisible())
                # With the panel closed, nothing asks: the animator shows every number again (and hides
                # them again when the panel comes back to its questions).
                self.driver.hide_answers(self.panel.run if self.dock.isVisible() else None)
        except RuntimeError:  # the window is being destroyed
            pass

    def _on_status_message(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 6000)

    def _recover(self, error: Exception) -> None:
        self._on_status_message(f"Learn: something went wrong ({type(error).__name__}: {error})")


def install_learning(window) -> Learning:
    return Learning(window)

