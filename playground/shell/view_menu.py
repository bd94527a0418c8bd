"""The main window's View menu: Fit and Zoom act on the graph of the tab on show (the editor's or the
animator's; greyed out on the Training tab, which has no graph view), Auto-layout on the editor's, the
panels beside the graphs (open or closed by hand; they also give way by themselves), the minimap, the theme.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication

from ..canvas.view import ZOOM_STEP
from ..widgets.errors import report_handled
from .actions import add_action
from .theme import THEME_TITLES


class ViewMenu(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.menu = menu = window.menuBar().addMenu("&View")
        def action(*args):
            return add_action(window, *args)

        self.fit_action = action(menu, "&Fit", self._on_fit_triggered, "F", "actionFit")
        self.zoom_in_action = action(menu, "Zoom &in", lambda: self._zoom(ZOOM_STEP), QKeySequence.StandardKey.ZoomIn,
                                     "actionZoomIn")
        self.zoom_out_action = action(menu, "Zoom &out", lambda: self._zoom(1 / ZOOM_STEP),
                                      QKeySequence.StandardKey.ZoomOut, "actionZoomOut")
        self.graph_actions = [self.fit_action, self.zoom_in_action, self.zoom_out_action]
        self.auto_layout_action = action(menu, "Auto-&layout", window.editor.auto_layout, "Ctrl+L")
        menu.addSeparator()
        menu.addActions([window.editor.palette_action, window.editor.side_action, window.editor.outline_action,
                         window.animator.steps_action, window.animator.outline.action])
        self.minimap_action = action(menu, "&Minimap", window.set_minimap_visible, "M", "actionMinimap")
        self.minimap_action.setCheckable(True)
        menu.addSeparator()
        # Ctrl+PageDown and Ctrl+PageUp go round the tabs from anywhere, a text box or the canvas included.
        self.next_tab_action = action(menu, "Next tab", lambda: self._step_tab(1), "Ctrl+PgDown", "actionNextTab")
        self.previous_tab_action = action(menu, "Previous tab", lambda: self._step_tab(-1), "Ctrl+PgUp",
                                          "actionPreviousTab")
        theme_menu = menu.addMenu("&Theme")
        self.theme_group = QActionGroup(self)
        for theme, title in THEME_TITLES.items():
            choice = action(theme_menu, title, lambda _=False, t=theme: window.set_theme(t), None,
                            f"actionTheme{title.title().replace(' ', '')}")
            choice.setCheckable(True)
            choice.setData(theme)
            self.theme_group.addAction(choice)

    def follow_tab(self, panel) -> None:
        """Fit and Zoom for the tab now on show."""
        for graph_action in self.graph_actions:
            graph_action.setEnabled(panel is self.window.editor or panel is self.window.animator)

    def _on_fit_triggered(self, _checked: bool = False) -> None:
        try:
            if self.window.tabs.currentWidget() is self.window.animator:
                self.window.animator.fitting.fit_by_person()
            else:
                self.window.editor.view.fit_whole()
        except Exception as error:  # a slot: the app goes on
            report_handled(error, "fitting the graph")

    def _step_tab(self, step: int) -> None:
        tabs = self.window.tabs
        tabs.setCurrentIndex((tabs.currentIndex() + step) % tabs.count())
        # The page's switch moved the focus (to Play, the Animate box...) with no keyboard reason, and Qt took the
        # focus ring away with it: a key brought the student here, so the control wears its ring, as after Tab.
        self.window.setAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange, True)
        focused = QApplication.focusWidget()
        if focused is not None:
            focused.update()

    def _zoom(self, factor: float) -> None:
        try:
            if self.window.tabs.currentWidget() is self.window.animator:
                self.window.animator.fitting.zoom_by_person(factor)
            else:
                self.window.editor.view.zoom_by(factor)
        except Exception as error:  # a slot: the app goes on
            report_handled(error, "zooming the graph")
