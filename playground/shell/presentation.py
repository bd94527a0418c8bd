"""View > Presentation mode: the whole window readable from the back of a classroom.

Every piece of text grows by the chosen zoom (125% to 200%): the application's font, and every
widget that set a font of its own (headings, the step box's monospace); the editor's canvas is
zoomed by as much, and the animator fits its graph no smaller than its readable zoom times the
same factor. The choice is remembered (QSettings); F11 toggles full screen.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QFont, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMenu, QWidget

ZOOMS = (1.25, 1.5, 1.75, 2.0)
DEFAULT_ZOOM = 1.5
BASE_SIZE = "presentationBasePointSize"  # a widget's own font size at 100%, kept on the widget
APP_BASE_SIZE, APP_FACTOR = "presentationAppPointSize", "presentationFactor"  # kept on the QApplication


class Presentation(QObject):
    changed = Signal(float)  # the factor now in effect: 1.0 when presentation mode is off

    def __init__(self, window: QMainWindow, settings: QSettings):
        super().__init__(window)
        self.window, self.settings = window, settings
        # The application's font size at 100% and the zoom it has now belong to the application, which
        # may outlive a window (or see several): kept on it, not on this window.
        app = QApplication.instance()
        if app.property(APP_BASE_SIZE) is None:
            app.setProperty(APP_BASE_SIZE, app.font().pointSizeF())
            app.setProperty(APP_FACTOR, 1.0)
        on = settings.value("presentation/on", False, type=bool)
        try:
            zoom = float(settings.value("presentation/zoom", DEFAULT_ZOOM))
        except (TypeError, ValueError):
            zoom = DEFAULT_ZOOM
        self._zoom = zoom if zoom in ZOOMS else DEFAULT_ZOOM

        self.action = QAction("&Presentation mode", window)
        self.action.setObjectName("presentationAction")
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+P"))
        self.action.setToolTip("Larger text and node cards for a classroom")
        self.zoom_menu = QMenu("Presentation &zoom", window)
        self.zoom_menu.setObjectName("presentationZoomMenu")
        group = QActionGroup(self)
        self.zoom_actions: dict[float, QAction] = {}
        for factor in ZOOMS:
            action = self.zoom_menu.addAction(f"{round(factor * 100)}%")
            action.setObjectName(f"presentationZoom{round(factor * 100)}")
            action.setCheckable(True)
            action.setChecked(factor == self._zoom)
            action.triggered.connect(lambda _checked=False, f=factor: self.set_zoom(f))
            group.addAction(action)
            self.zoom_actions[factor] = action
        self.full_screen_action = QAction("&Full screen", window)
        self.full_screen_action.setObjectName("fullScreenAction")
        self.full_screen_action.setCheckable(True)
        self.full_screen_action.setShortcut(QKeySequence(Qt.Key.Key_F11))
        window.addAction(self.full_screen_action)  # F11 works in full screen too, where the menu bar may hide

        self.action.toggled.connect(self.set_on)
        self.full_screen_action.toggled.connect(self.set_full_screen)
        self.action.setChecked(on)

    @property
    def is_on(self) -> bool:
        return self.action.isChecked()

    @property
    def zoom(self) -> float:
        """The zoom presentation mode uses (remembered while it is off)."""
        return self._zoom

    @property
    def factor(self) -> float:
        """The zoom in effect now: 1.0 when presentation mode is off."""
        return float(QApplication.instance().property(APP_FACTOR))

    def set_on(self, on: bool) -> None:
        if self.action.isChecked() != bool(on):
            self.action.setChecked(bool(on))  # comes back here through `toggled`
            return
        self.settings.setValue("presentation/on", bool(on))
        self._apply(self._zoom if on else 1.0)

    def set_zoom(self, zoom: float) -> None:
        if zoom not in ZOOMS:
            raise ValueError(f"presentation zoom is one of {', '.join(f'{z:g}' for z in ZOOMS)}, not {zoom!r}")
        self._zoom = zoom
        self.zoom_actions[zoom].setChecked(True)
        self.settings.setValue("presentation/zoom", zoom)
        if self.is_on:
            self._apply(zoom)

    def set_full_screen(self, on: bool) -> None:
        if self.full_screen_action.isChecked() != bool(on):
            self.full_screen_action.setChecked(bool(on))
            return
        self.window.showFullScreen() if on else self.window.showNormal()

    def _apply(self, factor: float) -> None:
        app = QApplication.instance()
        old = self.factor
        if factor == old:
            self.window.animator.set_text_scale(factor)
            return
        app.setProperty(APP_FACTOR, factor)
        # Widgets with a font of their own do not follow the application's: their size at 100% is
        # read before anything changes (or kept from the last time), and set again for the new factor.
        own = []
        # This window's widgets (its dialogs and docks are its children), not every widget of the
        # application: another window's may be half-way through being deleted.
        for widget in [self.window, *self.window.findChildren(QWidget)]:
            if (widget.testAttribute(Qt.WidgetAttribute.WA_SetFont) and widget.font().pointSizeF() > 0
                    and not isinstance(widget, QDockWidget)):  # a dock's font is set below
                base = widget.property(BASE_SIZE)
                own.append((widget, float(base) if base is not None else widget.font().pointSizeF() / old))
        font = app.font()
        font.setPointSizeF(float(app.property(APP_BASE_SIZE)) * factor)
        app.setFont(font)
        for widget, base in own:
            widget.setProperty(BASE_SIZE, base)
            sized = widget.font()
            sized.setPointSizeF(base * factor)
            widget.setFont(sized)
        for dock in self.window.findChildren(QDockWidget):
            dock.setFont(_dock_font(app.font()) if factor != 1.0 else QFont())
        for widget in self.window.findChildren(QWidget):
            if widget.styleSheet() and not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
                # A widget with a style sheet of its own keeps the font it was polished with: the
                # application's new one reaches it only when its sheet is applied again.
                widget.setStyleSheet(widget.styleSheet())
        self.window.editor.set_text_scale(factor)
        self.window.animator.set_text_scale(factor)
        self.window.training.set_text_scale(factor)
        self.changed.emit(factor)


def _dock_font(font: QFont) -> QFont:
    """The application's ``font`` for a dock's title. Qt draws the title in the platform's small title
    font, fixed when the dock was made, whenever the dock's font equals the application's; a font that
    differs only in a detail nobody sees (its style strategy) makes Qt draw the title in it."""
    title = QFont(font)
    title.setStyleStrategy(QFont.StyleStrategy.PreferQuality)
    return title
