"""``playground.show(x)``: look at the graph behind an engine result in the app, from a script or a notebook.

From a plain script it starts the app and returns when the window is closed. Where a Qt event
loop already runs (IPython or Jupyter with ``%gui qt``, or a Qt program of your own) it opens a
window and returns at once, leaving the window live; in IPython it turns ``%gui qt`` on itself,
and where IPython cannot (``--simple-prompt``) it says so and runs the window as a script would.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engine import Tensor

from ..animator.model.tensor_timeline import graph_animation
from ..graph.from_engine import document_from_values
from ..graph.from_engine_tensors import document_from_tensors
from . import qt_platform

_open_windows: list = []  # windows opened without blocking: kept alive until they are closed
_own_app: QApplication | None = None  # made here where nobody else runs Qt's loop: show() runs it each time


def _ipython():
    """The running IPython shell, or None (IPython is never imported here if it is not in use)."""
    module = sys.modules.get("IPython")
    return module.get_ipython() if module is not None else None


def _qt_loop_turned_on(shell) -> bool:
    """Ask IPython to run Qt's event loop between inputs (``%gui qt``); whether that really took.

    It may not: started with ``--simple-prompt``, IPython prints "Cannot install event loop hook" and
    carries on, and a window opened then would never be drawn. IPython names its running loop in
    ``active_eventloop`` (a shell without that attribute is taken at its word).
    """
    try:
        shell.enable_gui("qt")  # the same as typing %gui qt
    except Exception:  # noqa: BLE001 - any failure means the same: no loop of IPython's runs Qt
        return False
    return getattr(shell, "active_eventloop", "qt") is not None


def _application(shell) -> tuple[QApplication, bool]:
    """The Qt application, and whether its event loop is left to someone else (IPython, the caller)."""
    global _own_app
    app = QApplication.instance()
    if app is not None:
        return app, app is not _own_app
    loop_elsewhere = False
    if shell is not None:
        loop_elsewhere = _qt_loop_turned_on(shell)
        if not loop_elsewhere:
            print("playground.show: IPython cannot run Qt's event loop here (e.g. with --simple-prompt): the window "
                  "runs until you close it, then show() returns", file=sys.stderr)
        elif QApplication.instance() is not None:
            return QApplication.instance(), True
    missing = qt_platform.problem()
    if missing:
        raise RuntimeError(missing)
    from .names import APP_NAME

    app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "autograd-playground"])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    if not loop_elsewhere:
        _own_app = app
    return app, loop_elsewhere


def show(x, title: str = "Graph from Python", *, inputs=(), parameters=(), constants=()):
    """Open the app on the graph behind ``x``.

    An `engine.Value` (or a list of them, the first being the output) opens in the editor: every op
    a node showing its value and gradient, leaves inputs or parameters by their labels (constants if
    unlabelled; w, b, weight... parameters), laid out left to right. A leaf Value listed in
    ``inputs``, ``parameters`` or ``constants`` is that kind whatever its label (an exported script
    ends with the call that brings its graph back exactly). An `engine.Tensor` (or a list of them) opens in
    the editor too, each card with its shape, value and gradient; a scalar one that requires grad (a loss) is
    also loaded in the backward animator, a tab away, at tensor level with the engine's backward replayed
    (and only there when the graph has an op the editor has no node for).
    Returns the window when a Qt event loop runs elsewhere (IPython, Jupyter), else runs the app and
    returns None once the window is closed.
    """
    result = None  # a scalar Tensor loss, replayed in the backward animator too
    if isinstance(x, Tensor) or (isinstance(x, (list, tuple)) and x and all(isinstance(t, Tensor) for t in x)):
        if any((inputs, parameters, constants)):
            raise TypeError("inputs=, parameters= and constants= name the leaves of a Value graph; "
                            "a Tensor graph's leaves are told apart by requires_grad")
        roots = list(x) if isinstance(x, (list, tuple)) else [x]
        if roots[0].shape == () and roots[0].requires_grad:
            graph_animation(roots[0])  # refuses what it cannot replay, with the reason, before any window opens
            result = roots[0]
        try:
            document = document_from_tensors(roots)
        except ValueError:
            if result is None:
                raise
            document = None  # an op the editor has no node for: the backward animator alone shows it
    else:
        document = document_from_values(list(x) if isinstance(x, (list, tuple)) else [x],
                                        inputs=inputs, parameters=parameters, constants=constants)
    app, loop_elsewhere = _application(_ipython())
    from ..widgets.errors import ExceptionReporter
    from .main_window import MainWindow

    window = MainWindow()
    if document is None:
        window.show_tensor_from_python(result)
    else:
        window.show_document_from_python(document, title, result)
    window.show()
    window.raise_()
    if loop_elsewhere:
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        _open_windows.append(window)
        window.destroyed.connect(lambda *_: _open_windows.remove(window) if window in _open_windows else None)
        return window
    ExceptionReporter(window).install()
    from .cli import close_on_termination_signals

    close_on_termination_signals(window)
    app.exec()
    return None
