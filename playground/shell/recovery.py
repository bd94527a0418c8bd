"""Recovery at the start, and the end on SIGTERM or SIGHUP.

At the start (`start_recovery`, from the command line's start-up): this instance's recovery set is opened
and locked, and the sets of instances that are no longer running (killed, crashed, a power cut, a logout) are
looked at, newest first. The first that reads whole is restored: the editor's graph (marked unsaved if it
was), the training tab's setup with its weights, optimizer state, step and curves (and the setup file it came
from), the lesson's place and answers, the animator's place, the window's layout. The status bar says so
("Restored the work of the session that ended at 14:32"), with Discard one click away. The set becomes this
instance's own in one rename, so its work is never without an owner. A set that cannot be read, or whose
restoring was begun twice without the app living on, is moved aside into ``recovery/damaged/`` with a message;
it never stops the start. Sets of instances still running are left alone; a second window started after two
were killed together takes the other set.

The start also removes what saves cut short by a kill left beside their files (`start_leftover_sweep`: in the
recent files' folders and the file dialogs' folder, on a thread; the recovery folder's go with its stray locks).

SIGTERM and SIGHUP (a logout, a shutdown, ``timeout``, a session manager) write the set at once and end the
app within `TERMINATE_S`, whatever dialog is open: the next start restores the work. A clean exit (the window
closed, its questions answered) takes the set away.
"""

from __future__ import annotations

import base64
import logging
import os
import shutil
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QStandardPaths, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ..files.disk import remove_leftovers_in
from ..files.recovery import (
    DAMAGED,
    RecoveryError,
    RecoverySet,
    candidate_sets,
    open_own_set,
    recovery_folder,
    remove_stray_locks,
)
from ..graph.document import maths_of
from ..training.model.settings import TrainingSettings
from ..training.model.setup_file import TrainingSetup
from ..widgets.file_dialogs import FILE_FOLDER
from .autosave import Autosave
from .recovery_set import MAX_ATTEMPTS, Snapshot, decode, path_or_none, with_attempt

log = logging.getLogger(__name__)

TERMINATE_S = 1.8  # after SIGTERM or SIGHUP the process is gone by then, whatever it was doing
STARTER_EXAMPLE = "neuron.json"


def data_folder() -> Path:
    """The app's data folder (QStandardPaths: ``~/.local/share/Autograd Playground/Autograd Playground`` on
    Linux, under ``$XDG_DATA_HOME`` when that is set)."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def when(moment: float) -> str:
    """``14:32`` today, ``2 Mar 14:32`` another day."""
    then = datetime.fromtimestamp(moment)
    return f"{then:%H:%M}" if then.date() == datetime.now().date() else f"{then.day} {then:%b %H:%M}"


class RecoveryNotice(QWidget):
    """The status bar's notice of a restore (with Discard) or of a set put aside; ✕ closes it."""

    discard_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryNotice")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setObjectName("recoveryNoticeText")
        self.label.setWordWrap(False)
        self.discard_button = QPushButton("Discard")
        self.discard_button.setObjectName("recoveryDiscardButton")
        self.discard_button.setToolTip("Put the recovered work away: the app as it starts without it")
        self.discard_button.clicked.connect(self.discard_clicked)
        self.close_button = QPushButton("✕")
        self.close_button.setObjectName("recoveryNoticeClose")
        self.close_button.setToolTip("Keep the recovered work and close this notice")
        self.close_button.setFlat(True)
        self.close_button.clicked.connect(self.hide)
        for widget in (self.label, self.discard_button, self.close_button):
            layout.addWidget(widget)
        self.hide()

    def say(self, text: str, discard: bool) -> None:
        self.label.setText(text)
        self.label.setToolTip(text)
        self.discard_button.setVisible(discard)
        self.show()

    @property
    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""


class Recovery(QObject):
    restored = Signal()

    def __init__(self, window, folder: Path, exit_process=os._exit) -> None:
        super().__init__(window)
        self.window, self.folder = window, Path(folder)
        self._exit = exit_process
        self.own = open_own_set(self.folder)
        self.autosave = Autosave(window, self.own)
        self.snapshot: Snapshot | None = None  # the set restored at the start, if one was
        self.messages: list[str] = []  # what the start said about the sets (restored, put aside)
        self.notice = RecoveryNotice()
        self.notice.discard_clicked.connect(self.discard)
        window.statusBar().addPermanentWidget(self.notice)
        window.closed_cleanly.connect(self._on_window_closed_cleanly)
        self._terminating = False

    # -- at the start --------------------------------------------------------------------------------------

    def recover(self) -> bool:
        """Restore the newest set of an instance no longer running, if any; True if one was restored."""
        remove_stray_locks(self.folder)
        aside = []
        for item in candidate_sets(self.folder, self.own):  # newest first; claimed one at a time, so that a
            if not item.claim():  # window started at the same moment takes the next one
                continue  # its window still runs, or another starting window took it
            if not item.exists():  # recovered by another window while we looked
                item.release()
                continue
            try:
                self._restore_set(item)
            except RecoveryError as error:
                where = error.args[1] if len(error.args) > 1 else item.move_aside()
                text = (f"A recovery set could not be restored ({error.args[0]}): it was moved to {where}"
                        if where else f"A recovery set could not be restored ({error.args[0]})")
                log.warning("recovery: %s: %s", item.path.name, error.args[0])
                aside.append(text)
                continue
            break  # one set a window: the others wait for the next window
        if aside:
            self.messages.extend(aside)
        if self.snapshot is not None:
            text = f"Restored the work of the session that ended at {when(self.snapshot.saved)}"
            if aside:
                text += f" ({len(aside)} other set{'s' if len(aside) > 1 else ''} moved aside)"
            self.messages.insert(0, text)
            self.notice.say(text, discard=True)
            self.autosave.save()  # the set, now this instance's, written as the window shows it
            self.restored.emit()
        elif aside:
            self.notice.say(aside[0] if len(aside) == 1 else f"{len(aside)} recovery sets could not be restored: "
                            f"they were moved to {self.folder / 'damaged'}", discard=False)
        for text in self.messages:
            log.info("recovery: %s", text)
        return self.snapshot is not None

    def _restore_set(self, item: RecoverySet) -> None:
        text = item.read_text()
        snapshot = decode(text)  # every part checked before anything changes
        if snapshot.attempts >= MAX_ATTEMPTS:
            raise RecoveryError(f"restoring it was begun {snapshot.attempts} times and the app did not live on: it "
                                "may be what stopped it")
        counted = with_attempt(text)
        self.own.write(counted if counted is not None else text, 0)  # ours now: never without an owner
        item.remove()
        try:
            self.apply(snapshot)
        except Exception as error:  # noqa: BLE001 - a start never fails on a set: it is kept aside instead
            log.exception("recovery: %s could not be put back", item.path.name)
            kept = self.folder / DAMAGED / item.path.name
            try:
                kept.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(self.own.path, kept)
            except OSError:
                kept = None
            raise RecoveryError(f"it could not be put back: {type(error).__name__}: {error}", kept) from None
        self.snapshot = snapshot

    def apply(self, snapshot: Snapshot) -> None:
        """Put the window in the state ``snapshot`` describes (its parts were all read and checked)."""
        window = self.window
        self.autosave.paused = True
        try:
            if snapshot.lesson is not None:
                self._restore_lesson(snapshot.lesson)
            if snapshot.editor is not None:
                editor = snapshot.editor
                window.files.set_document(editor.graph, path_or_none(editor.path), editor.name)
                if editor.modified:
                    window.files.mark_unsaved()
            if snapshot.training is not None:
                part = snapshot.training
                setups = window.training_setups
                setups._opening = True
                try:
                    window.training.apply_setup(part.setup)
                finally:
                    setups._opening = False
                setups.set_file(path_or_none(part.path), part.with_weights, part.modified)
                graph = part.setup.graph
                if (part.setup.settings.trains_graph and graph is not None
                        and maths_of(graph) != maths_of(window.document)):
                    window.graph_link._declined = True  # the run went on with the graph as it was, as before
            if snapshot.animator is not None and window.document.nodes:
                if window.animator.load(window.document):
                    window.animator.seek(min(snapshot.animator["position"], window.animator.frame_count))
            if snapshot.window is not None:
                self._restore_layout(snapshot.window)
            window.files.update_title()
        finally:
            self.autosave.paused = False

    def _restore_lesson(self, lesson: dict) -> None:
        panel = self.window.learning.panel
        found = panel.library.find(lesson["id"])
        if found is None:
            return  # a teacher's lesson whose file is away: its progress is kept in the settings
        panel.library.save_progress(found, lesson["state"])
        self.window.learning.start(found)

    def _restore_layout(self, layout: dict) -> None:
        window = self.window
        for key, restore in (("geometry", window.restoreGeometry), ("state", window.restoreState)):
            if layout.get(key):
                try:
                    restore(QByteArray(base64.b64decode(layout[key], validate=True)))
                except ValueError:
                    pass
        if 0 <= layout.get("tab", 0) < window.tabs.count():
            window.tabs.setCurrentIndex(layout["tab"])
        window.learning.dock.setVisible(bool(layout.get("learn_visible")))

    def keeps(self, path: Path) -> bool:
        """Whether a graph file named on the command line is the one recovered with its unsaved changes: those
        are kept (marked unsaved) rather than read again from the file."""
        return _unsaved_copy_of(self.snapshot.editor if self.snapshot is not None else None, path)

    def keeps_setup(self, path: Path) -> bool:
        """The same for a training setup file named on the command line."""
        return _unsaved_copy_of(self.snapshot.training if self.snapshot is not None else None, path)

    # -- Discard ---------------------------------------------------------------------------------------------

    def discard(self) -> None:
        """Put the recovered work away: the editor on the starter graph, the training tab afresh, no file."""
        window = self.window
        self.notice.hide()
        window.files.open_example(STARTER_EXAMPLE)
        setups = window.training_setups
        setups._opening = True
        try:
            window.training.apply_setup(TrainingSetup(TrainingSettings()))
        finally:
            setups._opening = False
        setups.set_file(None)
        window.animator.load(window.document)
        self.snapshot = None
        window.statusBar().showMessage("The recovered work was discarded", 6000)
        self.autosave.save()

    # -- the end ---------------------------------------------------------------------------------------------

    def _on_window_closed_cleanly(self) -> None:
        self.autosave.finish()

    def terminate(self, signal_name: str = "SIGTERM") -> None:
        """SIGTERM or SIGHUP: the set written at once, then the app ended (`end_app`), whatever dialog is open."""
        if self._terminating:
            return
        self._terminating = True

        def write() -> None:
            try:
                self.autosave.write_now(wait_for_training=0.6)
            finally:
                self.autosave.stop()

        end_app(self.window, write, self._exit, signal_name)


def start_watchdog(exit_process=os._exit, seconds: float = TERMINATE_S) -> threading.Timer:
    """A timer thread that ends the process after ``seconds``, whatever the event loop is doing."""
    watchdog = threading.Timer(seconds, lambda: exit_process(0))
    watchdog.daemon = True
    watchdog.start()
    return watchdog


def end_app(window, write=None, exit_process=os._exit, signal_name: str = "SIGTERM") -> None:
    """End the app now, whatever it is doing or asking: ``write`` (the recovery set) first, then the training thread
    stopped, the settings kept, and the process ended. A watchdog ends it by `TERMINATE_S` if anything hangs."""
    started = time.monotonic()
    watchdog = start_watchdog(exit_process)
    log.info("%s: ending%s", signal_name, " (the recovery set written first)" if write is not None else "")
    if write is not None:
        try:
            write()
        except Exception:  # noqa: BLE001 - the app ends all the same
            log.exception("recovery: the set could not be written")
    try:
        window.training.shutdown()
    except Exception:  # noqa: BLE001
        log.exception("the training thread did not stop")
    try:
        window.settings.sync()
    except Exception:  # noqa: BLE001
        pass
    log.debug("ended in %.2f s", time.monotonic() - started)
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    try:
        exit_process(0)
    finally:  # reached only where ending the process is a stand-in (tests)
        watchdog.cancel()


def start_recovery(window, folder: Path | None = None, exit_process=os._exit) -> Recovery | None:
    """Autosave and recovery for ``window`` in ``folder`` (the data folder's ``recovery/``); None, with a
    message, when that folder cannot be written (the app runs on without them)."""
    folder = recovery_folder(data_folder()) if folder is None else Path(folder)
    try:
        recovery = Recovery(window, folder, exit_process)
    except OSError as error:
        reason = error.strerror or str(error)
        log.warning("recovery: no autosave: %s (%s)", folder, reason)
        window.statusBar().showMessage(f"No autosave: {folder} cannot be written ({reason})", 10_000)
        return None
    recovery.recover()
    return recovery


def start_leftover_sweep(window) -> threading.Thread:
    """Remove the temporary files that saves cut short by a kill left (`disk.remove_leftovers`: only names our
    writer makes, whose writer is gone) in the folders of the window's recent files and the one its file dialogs
    open in. On a thread of its own: a few folders' listings, but a network drive that hangs must not hold up
    the start. Returns the thread (tests wait for it)."""
    folders = window.recent.folders()  # read here: the settings are the GUI thread's

    def sweep() -> None:
        for path in remove_leftovers_in([*folders, FILE_FOLDER.folder()]):
            log.info("removed %s, the temporary of a save that a kill cut short", path)

    thread = threading.Thread(target=sweep, name="leftover temporaries", daemon=True)
    thread.start()
    return thread


def _unsaved_copy_of(part, path: Path) -> bool:
    """Whether ``part`` of a recovered set (the editor's or the training tab's) holds unsaved changes of ``path``."""
    if part is None or not part.modified or part.path is None:
        return False
    try:
        return Path(part.path).resolve() == Path(path).resolve()
    except OSError:
        return False
