"""The app started as the command starts it (`cli.main`, its autosave and recovery, its signal handlers), then
driven through its window: run by ``tests/playground/test_recovery_app.py`` in a child process, never by
pytest, so that the test can kill it (SIGKILL, SIGTERM) and start it again on the same data folder.

Usage: ``python tests/playground/recovery_child.py MODE [FILE ...]`` with XDG_DATA_HOME and XDG_CONFIG_HOME set
to the test's folders. Prints lines ``CHILD <word> <json>`` on stdout:

- ``edit``: types an expression, changes a value, a training setting and takes training steps through the
  window's widgets, waits until they are done, prints ``CHILD edited`` with what it did, and runs on;
- ``edit_file``: changes a value of the graph opened from the command line, prints ``CHILD edited``;
- ``report``: prints ``CHILD state`` with what the window shows once it is up (and the worker has reported),
  then ends without a clean exit (its own set stays);
- ``idle``: prints ``CHILD ready`` and runs on;
- ``modal``: builds lesson 9's graph in the editor, then clicks lesson 2 in the list, which asks "Unsaved
  changes" in a modal box; prints ``CHILD modal`` while the box is open, and runs on;
- ``churn``: edits a value again and again (each edit autosaved), printing ``CHILD written <n>`` as the sets
  are written.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from playground.shell import cli  # noqa: E402

STEPS = 7
EXPRESSION = "a=2; b=-3; c=a*b; L=c+a"


def say(word: str, payload=None) -> None:
    print(f"CHILD {word} {json.dumps(payload)}", flush=True)


def wait_until(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        QApplication.processEvents()
        time.sleep(0.01)


def node_by_label(window, label: str):
    return next(node for node in window.document.nodes if node.label == label)


def graph_state(window) -> dict:
    return {"nodes": sorted((n.label, n.kind, repr(n.value)) for n in window.document.nodes),
            "name": window.files.name, "path": str(window.files.current_path) if window.files.current_path else None,
            "modified": window.isWindowModified(), "title": window.windowTitle()}


def training_state(window) -> dict:
    training = window.training
    setup = training.current_setup(True)
    weights = {name: value.tolist() for name, value in (setup.weights or {}).items()}
    return {"optimizer": setup.settings.optimizer, "step": setup.step, "weights": weights,
            "curve_points": int(training.curves.history.size)}


def edit(window, recovery) -> None:
    window.raise_()
    editor = window.editor
    editor.expression_input.clear()
    QTest.keyClicks(editor.expression_input, EXPRESSION)  # an expression typed
    QTest.keyClick(editor.expression_input, Qt.Key.Key_Return)
    wait_until(lambda: any(node.label == "c" for node in window.document.nodes))
    a = node_by_label(window, "a")
    editor.scene.select_nodes([a.id])
    properties = editor.properties
    wait_until(lambda: properties.node_id == a.id)
    properties.value_edit.selectAll()
    QTest.keyClicks(properties.value_edit, "4.5")  # a value changed
    QTest.keyClick(properties.value_edit, Qt.Key.Key_Return)
    wait_until(lambda: window.document.node(a.id).value == 4.5)

    training = window.training
    window.tabs.setCurrentWidget(training)
    wait_until(lambda: training.data is not None)
    combo = training.network_controls.optimizer_combo
    combo.setCurrentIndex(combo.findData("adam"))  # a setting changed
    wait_until(lambda: training.worker.setup_now(False).settings.optimizer == "adam")
    for _ in range(STEPS):  # some training steps
        QTest.mouseClick(training.toolbar.step_button, Qt.MouseButton.LeftButton)
    wait_until(lambda: training.step == STEPS)
    say("edited", {"graph": graph_state(window), "training": training_state(window)})


def edit_file(window, recovery) -> None:
    """A value of the graph opened from the command line changed: the file's unsaved changes."""
    x1 = node_by_label(window, "x1")
    window.editor.scene.select_nodes([x1.id])
    properties = window.editor.properties
    wait_until(lambda: properties.node_id == x1.id)
    properties.value_edit.selectAll()
    QTest.keyClicks(properties.value_edit, "-1.25")
    QTest.keyClick(properties.value_edit, Qt.Key.Key_Return)
    wait_until(lambda: window.document.node(x1.id).value == -1.25)
    say("edited", {"graph": graph_state(window)})


def report(window, recovery) -> None:
    training = window.training
    wait_until(lambda: training.data is not None and (recovery is None or recovery.snapshot is None
                                                        or recovery.snapshot.training is None
                                                        or training.step == recovery.snapshot.training.setup.step))
    snapshot = recovery.snapshot if recovery is not None else None
    say("state", {"graph": graph_state(window), "training": training_state(window),
                  "restored": snapshot is not None, "notice": recovery.notice.text if recovery else "",
                  "messages": recovery.messages if recovery else [],
                  "lesson": (window.learning.panel.run.lesson.id, window.learning.panel.run.index)
                  if window.learning.panel.run is not None else None,
                  "tab": window.tabs.currentIndex(),
                  "setup_file": str(window.training_setups.path) if window.training_setups.path else None,
                  "setup_modified": window.training_setups.modified})
    os._exit(0)


def idle(window, recovery) -> None:
    say("ready", {"pid": os.getpid(), "set": str(recovery.own.path) if recovery else None})


def modal(window, recovery) -> None:
    learning = window.learning
    learning.start("09-tensor-layer")  # the lesson whose step asks for a graph built by hand
    # The learner builds lesson 9's graph in the editor: work of their own, not saved.
    window.editor.expression_input.setText("X = [[1, 2], [0, -1], [2, 0], [-1, 1]]; W = randn(2, 3, seed=0); "
                                           "b = [0.1, -0.2, 0.3]; XW = X @ W; Z = XW + b; H = tanh(Z); L = sum(H)")
    window.editor.expression_input.returnPressed.emit()
    wait_until(lambda: not window.undo_stack.isClean() or window.files.name == "Untitled")
    wait_until(lambda: recovery.autosave.written_generation > 0 and recovery.autosave.idle(), 10)
    items = learning.panel.lesson_list
    target = next(items.item(i) for i in range(items.count())
                  if items.item(i).data(Qt.ItemDataRole.UserRole) == "02-chain-rule")

    def announce() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            say("modal", {"title": box.windowTitle(), "graph": graph_state(window)})
        else:
            QTimer.singleShot(50, announce)

    QTimer.singleShot(50, announce)
    learning.panel._on_lesson_list_item_clicked(target)  # a click on lesson 2 in the list: the question opens


def churn(window, recovery) -> None:
    """Edit a value, have it autosaved, and again as soon as it is written: sets written back to back."""
    leaf = next(node for node in window.document.nodes if node.kind in ("input", "parameter"))
    window.editor.scene.select_nodes([leaf.id])
    properties, autosave = window.editor.properties, recovery.autosave
    count = {"n": 0}

    values = {}  # generation -> the value it holds

    def next_edit() -> None:
        count["n"] += 1
        properties.value_edit.setText(str(count["n"]))
        properties.value_edit.editingFinished.emit()
        autosave.save()
        values[autosave.generation] = count["n"]

    def written(generation: int) -> None:
        if generation in values:
            say("written", {"generation": generation, "value": values[generation]})
        QTimer.singleShot(0, next_edit)

    autosave.written.connect(written)
    next_edit()


MODES = {"edit": edit, "edit_file": edit_file, "report": report, "idle": idle, "modal": modal, "churn": churn}


def main() -> int:
    mode, files = sys.argv[1], sys.argv[2:]
    action = MODES[mode]

    def started(window, recovery) -> None:
        QTimer.singleShot(0, lambda: action(window, recovery))

    return cli.main([sys.argv[0], *files, "-platform", "offscreen"], started=started)


if __name__ == "__main__":
    raise SystemExit(main())
