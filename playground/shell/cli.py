"""The ``autograd-playground`` command (also ``python -m playground`` and ``make run``).

``autograd-playground [FILE ...]`` opens the app with each FILE where it belongs, judged by its
content: a graph in the editor, a training setup on the Training tab, a lesson in the Learn
panel (`file_kinds.read_any` tells them apart). Files
are read before any window opens, so a file that cannot be read stops the command with one clear
line on stderr and exit status 2, and nothing starts half-way.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from ..files.disk import FileFormatError, without_file_name
from . import qt_platform
from .file_kinds import read_any

DESCRIPTION = ("See backpropagation happen: build a computation graph and watch its gradients, step through "
               "the backward pass, train a small network.")
EPILOG = ("Each FILE opens where it belongs, told by its content, not its name: a graph (.json, as File > Save "
          "writes it) in the editor, a training setup (.json, as File > Save training setup writes it) on the "
          "Training tab, a lesson (.lesson) in the Learn panel. Qt's own options (e.g. -platform offscreen) are "
          "passed on to Qt.")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograd-playground", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("files", nargs="*", metavar="FILE", type=Path,
                        help="a file to open: a graph, a training setup or a lesson")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def parse(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    """Our arguments, and Qt's (single-dash options such as ``-platform offscreen`` and their values)."""
    parser = build_parser()
    ours, qt_args = [], []
    items = list(argv)
    while items:
        item = items.pop(0)
        if item.startswith("-") and not item.startswith("--") and len(item) > 2:  # -platform, -style, ...
            qt_args.append(item)
            if items and not items[0].startswith("-"):
                qt_args.append(items.pop(0))
        else:
            ours.append(item)
    return parser.parse_args(ours), qt_args


def main(argv: Sequence[str] | None = None, started=None) -> int:
    """Run the command; returns its exit status. ``started(window, recovery)``, if given, is called once the
    window is up, before the event loop runs (the tests that kill the app drive it so)."""
    argv = list(sys.argv if argv is None else argv)
    args, qt_args = parse(argv[1:])
    opened = []
    for path in args.files:
        try:
            opened.append(read_any(path))
        except (OSError, FileFormatError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            print(f"autograd-playground: {path}: {without_file_name(reason, Path(path).name)}", file=sys.stderr)
            return 2

    from PySide6.QtWidgets import QApplication  # only now: --help and --version need no Qt

    if QApplication.instance() is None:
        missing = qt_platform.problem()
        if missing:  # Qt would abort with a misleading hint: say what to install instead
            print(missing, file=sys.stderr)
            return 1
    from ..widgets.errors import ExceptionReporter, configure_logging
    from .gc_pauses import freeze_startup_objects
    from .main_window import MainWindow
    from .names import APP_NAME
    from .recovery import start_leftover_sweep, start_recovery

    app = QApplication.instance() or QApplication([argv[0], *qt_args])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    configure_logging()
    window = MainWindow()
    ExceptionReporter(window).install()
    recovery = start_recovery(window)  # the work of a session that was killed comes back; the autosave starts
    start_leftover_sweep(window)  # and the temporaries its cut-short saves left beside their files go
    close_on_termination_signals(window, recovery)
    window.show()
    open_files(window, recovery, opened)
    freeze_startup_objects()
    if started is not None:
        started(window, recovery)
    return app.exec()


def open_files(window, recovery, opened) -> None:
    """The command line's files, each in its place. A file recovered with unsaved changes keeps them (marked
    unsaved); another graph over recovered unsaved work asks first, as File > Open does."""
    for item in opened:
        if recovery is not None and item.kind == "graph" and recovery.keeps(item.path):
            window.statusBar().showMessage(f"{item.path.name}: its unsaved changes were restored", 8000)
            continue
        if recovery is not None and item.kind == "setup" and recovery.keeps_setup(item.path):
            continue
        if item.kind == "graph" and not window.files.confirm_discard():
            continue
        window.open_read_file(item)


def close_on_termination_signals(window, recovery=None) -> None:
    """Ctrl+C in the terminal closes the window as its close button would (its questions asked). SIGTERM and
    SIGHUP (a logout, a shutdown, ``timeout``) write the recovery set and end the app at once, whatever
    dialog is open (`recovery.Recovery.terminate`; without a recovery set, `recovery.end_app` alone)."""
    from PySide6.QtCore import QTimer

    from .recovery import end_app, start_watchdog

    def close(*_):
        window.close()

    def end(name: str) -> None:
        if recovery is not None:
            recovery.terminate(name)
        else:
            end_app(window, signal_name=name)

    def terminate(signal_number, _frame):
        # The handler runs between two bytecodes, perhaps in the middle of an edit: the set is written at the
        # event loop's next turn (a modal dialog's loop too), where the graph is whole. The watchdog ends the
        # process in time even if that turn never comes; the last autosave is then the set.
        name = signal.Signals(signal_number).name
        start_watchdog()
        QTimer.singleShot(0, lambda: end(name))

    signal.signal(signal.SIGINT, close)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), terminate)
    # Python runs signal handlers only between bytecodes: wake it regularly while Qt's loop waits.
    timer = QTimer(window, interval=200)
    timer.timeout.connect(lambda: None)
    timer.start()


if __name__ == "__main__":
    raise SystemExit(main())
