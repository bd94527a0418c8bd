"""The app never dies from an exception in a slot: it is logged and shown, and the app goes on."""

from __future__ import annotations

import functools
import logging
import sys
import traceback

from PySide6.QtCore import QObject, QStandardPaths, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

log = logging.getLogger("autograd_playground")
_installed: ExceptionReporter | None = None  # the app's reporter, once it is installed


class ExceptionReporter(QObject):
    """Installed as ``sys.excepthook`` (PySide6 hands it every exception raised in a slot)."""

    exception_reported = Signal(str, str)  # summary, details

    def __init__(self, parent_widget: QWidget | None = None):
        super().__init__()
        self.parent_widget = parent_widget
        self._dialog: QMessageBox | None = None
        self._previous_hook = None

    def install(self) -> None:
        global _installed
        self._previous_hook = sys.excepthook
        sys.excepthook = self.report
        _installed = self

    def uninstall(self) -> None:
        global _installed
        if self._previous_hook is not None:
            sys.excepthook = self._previous_hook
            self._previous_hook = None
        if _installed is self:
            _installed = None

    def report(self, exc_type, exc_value, exc_traceback) -> None:
        details = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        summary = f"{exc_type.__name__}: {exc_value}"
        log.error("Unhandled exception in the app:\n%s", details)
        self.exception_reported.emit(summary, details)
        if self._dialog is not None and self._dialog.isVisible():
            return  # one dialog at a time; the log has every exception
        dialog = QMessageBox(QMessageBox.Icon.Warning, "Something went wrong",
                             "An action failed; the app goes on and your graph is unchanged by the failed step.\n\n"
                             + summary, QMessageBox.StandardButton.Ok, self.parent_widget)
        dialog.setObjectName("exceptionDialog")
        dialog.setDetailedText(details)
        dialog.open()  # not exec(): never block in a nested event loop from an exception handler
        self._dialog = dialog


def report_handled(error: BaseException, where: str) -> None:
    """An exception a handler caught and recovered from: shown like any other (a dialog with the
    details) once the app's reporter is installed, and logged in any case."""
    if _installed is not None:
        _installed.report(type(error), error, error.__traceback__)
    else:
        log.error("error in %s", where, exc_info=error)


def guarded(method):
    """For a slot or an event handler: an exception is reported (`report_handled`), then
    ``self._recover(error)`` puts the widget right, and the app goes on."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as error:  # the app must survive a bug in one handler
            report_handled(error, method.__qualname__)
            try:
                self._recover(error)
            except Exception as second:
                log.error("error while recovering from an error in %s", method.__qualname__, exc_info=second)
            return None

    return wrapper


def configure_logging() -> str:
    """Log to a file in the app's data folder (and stderr); returns the log file's path."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    path = ""
    try:
        from pathlib import Path

        Path(folder).mkdir(parents=True, exist_ok=True)
        path = str(Path(folder) / "autograd-playground.log")
        handlers.append(logging.FileHandler(path, encoding="utf-8"))
    except OSError:
        pass
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        handlers=handlers)
    return path
