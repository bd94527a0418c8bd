"""Graph files at the door: every bad file refused with one message naming its field, never a crash;
every good one opens, evaluates and saves back the same. Fuzzed from the shipped examples."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from playground.files.disk import FileFormatError
from playground.graph.document import GraphDocument
from playground.graph.evaluate import evaluate
from playground.graph.file_io import save_document
from playground.graph.graph_file import MAX_NODES, MAX_SUM_INPUTS
from playground.shell.file_kinds import read_any
from tests.json_damage import damaged

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "resources" / "examples").glob("*.json") if p.name != "index.json")
CORPUS = ROOT / "tests" / "corpus"
BAD_GRAPHS = sorted((CORPUS / "graphs").iterdir())


def test_the_corpus_is_there():
    assert len(BAD_GRAPHS) >= 15 and len(EXAMPLES) >= 6


@pytest.mark.parametrize("path", BAD_GRAPHS, ids=lambda p: p.name)
def test_each_nasty_graph_file_is_refused_with_one_line(path):
    with pytest.raises(FileFormatError) as refused:
        read_any(path)
    message = str(refused.value)
    assert message.startswith(path.name) and "\n" not in message
    assert "Error:" not in message  # a checked refusal, not the catch-all for a loader's slip


@pytest.mark.parametrize("name, words", [
    ("version-1.0.json", "version: expected a whole number ≥ 1, got 1.0"),
    ("misspelt-format.json", "format 'autograd-playground-grahp' is none that Autograd Playground opens: "
                             "expected 'autograd-playground-graph' (a graph) or"),
    ("sum-with-a-billion-inputs.json", f"nodes[0].inputs: expected a number ≤ {MAX_SUM_INPUTS}"),
    ("leaf-without-value.json", "nodes[0]: a input needs its 'value'"),
    ("node-without-position.json", "nodes[3].x: missing"),
    ("non-ascii-digits-as-port.json", "edges[0].port: expected a whole number, got '²'"),
    ("deep-nesting.json", "nested too deeply"),
    ("integer-past-python-digit-limit.json", "integer string conversion"),
    ("huge-integer-value.json", "nodes[0].value: expected a number, got a number of about 400 digits"),
    ("not-utf8.json", "is not a text file"),
    ("no-nodes.json", "nodes: missing"),
])
def test_the_message_names_the_field_and_what_was_expected(name, words):
    with pytest.raises(FileFormatError, match=".") as refused:
        read_any(CORPUS / "graphs" / name)
    assert words in str(refused.value)


def test_a_byte_order_mark_before_a_good_graph_is_no_reason_to_refuse_it():
    item = read_any(CORPUS / "graph-with-byte-order-mark.json")
    assert item.kind == "graph" and len(item.content.nodes) == 10


def _chain(n: int) -> dict:
    """A graph of ``n`` nodes: an input and a chain of alternating tanh and add-itself."""
    nodes = [{"id": "n0", "kind": "input", "x": 0.0, "y": 0.0, "label": "x", "value": 0.5}]
    edges = []
    for i in range(1, n):
        nodes.append({"id": f"n{i}", "kind": "tanh", "x": 180.0 * i, "y": 0.0, "label": ""})
        edges.append({"from": f"n{i - 1}", "to": f"n{i}", "port": 0})
    return {"format": "autograd-playground-graph", "version": 1, "nodes": nodes, "edges": edges, "output": None}


def test_a_graph_at_the_node_limit_reads_and_evaluates_one_past_it_is_refused(tmp_path):
    path = tmp_path / "limit.json"
    path.write_text(json.dumps(_chain(MAX_NODES)))
    start = time.perf_counter()
    document = read_any(path).content
    result = evaluate(document)
    print(f"\n{MAX_NODES} nodes read and evaluated in {time.perf_counter() - start:.2f} s")
    assert math.isfinite(result.results[document.effective_output()].value)
    path.write_text(json.dumps(_chain(MAX_NODES + 1)))
    with pytest.raises(FileFormatError, match=f"at most {MAX_NODES:,} nodes are allowed in a graph file"):
        read_any(path)


# -- fuzzing: random damage to the shipped examples -------------------------------------------

@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged([json.loads(p.read_text()) for p in EXAMPLES]))
def test_a_damaged_example_opens_whole_or_is_refused_with_its_message(tmp_path, text):
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8")
    try:
        item = read_any(path)
    except FileFormatError as refused:
        assert "\n" not in str(refused) and "Error:" not in str(refused), str(refused)
        return
    document = item.content
    assert isinstance(document, GraphDocument)
    evaluate(document)  # whatever the numbers, evaluation ends (nan and inf are shown, not raised)
    save_document(path, document)
    again = read_any(path).content
    assert again.to_dict() == document.to_dict() or _same_with_nan(again.to_dict(), document.to_dict())


def _same_with_nan(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


# -- all or nothing: a refused file leaves the window as it was --------------------------------

def _window_state(window) -> dict:
    return {"document": json.dumps(window.document.to_dict(), sort_keys=True), "title": window.windowTitle(),
            "tab": window.tabs.currentIndex(), "undo": window.undo_stack.count(),
            "path": str(window.current_path), "training": repr(window.training.settings)}


def test_file_open_of_each_bad_graph_shows_its_message_and_changes_nothing(qtbot, tmp_path):
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    shown = []
    window.show_error = lambda title, message: shown.append((title, message))
    before = _window_state(window)
    for path in BAD_GRAPHS:
        assert window.open_path(path) is False
        assert _window_state(window) == before, path.name
    assert [title for title, _ in shown] == [f"{p.name} could not be opened" for p in BAD_GRAPHS]
    assert all(message and "\n" not in message for _, message in shown)


def test_a_graph_past_the_limit_is_not_saved_to_a_file_that_would_not_open(tmp_path):
    from playground.graph.document import DocumentFormatError, Node

    document = GraphDocument()
    for i in range(MAX_NODES + 1):
        document.add_node(Node(f"n{i}", "constant", value=1.0))
    path = tmp_path / "big.json"
    with pytest.raises(DocumentFormatError, match=f"at most {MAX_NODES:,} nodes"):
        save_document(path, document)
    assert not path.exists()


def test_pasting_nested_junk_as_graph_nodes_says_so_and_changes_nothing(qtbot):
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QGuiApplication, QUndoStack

    from playground.editor.panel import CLIPBOARD_MIME, EditorPanel

    document = GraphDocument.from_dict(json.loads(EXAMPLES[0].read_text()))
    before = document.to_dict()
    panel = EditorPanel(document, QUndoStack())
    qtbot.addWidget(panel)
    messages = []
    panel.status_message.connect(messages.append)
    mime = QMimeData()
    mime.setData(CLIPBOARD_MIME, b"[" * 50_000)
    QGuiApplication.clipboard().setMimeData(mime)
    panel.paste()
    assert messages and messages[-1].startswith("Cannot paste: not a file of this app: its JSON is nested too deeply")
    assert document.to_dict() == before


def test_a_tensor_graph_opens_in_the_editor_and_its_cards_show_the_arrays(qtbot, tmp_path):
    """An expression with arrays is built, evaluated and drawn: each card shows its shape and numbers, each
    wire the shape it carries; a version-2 file opens too."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from playground.shell.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.ask_save_changes = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(window)
    assert window.editor.build_from_expression("X = [[1, 2], [3, 4]]; W = ones(2, 2); L = sum(X @ W)") is True
    window.editor.refresh()
    document = window.document
    scene = window.editor.scene
    ids = {document.name(node.id): node.id for node in document.nodes}
    w_card = scene.node_item(ids["W"])
    assert w_card.title() == "W (2, 2)"
    assert w_card.shown_numbers("value") == [["1", "1"], ["1", "1"]]
    assert w_card.shown_numbers("grad") == [["4", "4"], ["6", "6"]]  # X^T @ ones((2, 2))
    product = next(edge for edge in document.edges if edge.source == ids["X"])
    assert scene.wire_item(product).label_text() == "(2, 2)"
    assert "grad [[1, 1], [1, 1]]" in scene.wire_item(next(e for e in document.edges if e.target == ids["L"])).toolTip()
    output = scene.node_item(ids["L"])
    assert not output.is_array_card and output.body_lines()[0] == "value 20"
    assert "shape (2, 2)" in w_card.toolTip() and "grad [[4, 4], [6, 6]]" in w_card.toolTip()

    path = tmp_path / "tensor.json"
    save_document(path, GraphDocument.from_dict(json.loads(json.dumps(_tensor_file()))))
    assert window.open_path(path) is True
    window.editor.refresh()
    document = window.document
    ids = {document.name(node.id): node.id for node in document.nodes}
    b_card = window.editor.scene.node_item(ids["b"])
    assert b_card.title() == "b (2,)" and b_card.shown_numbers("grad") == [["2", "2"]]  # summed over axis 0
    into_add = next(edge for edge in document.edges if edge.source == ids["b"])
    assert "b was broadcast over axis 0 of (2, 2)" in window.editor.scene.wire_item(into_add).toolTip()


def _tensor_file() -> dict:
    from playground.graph.expression import parse_expression

    return parse_expression("X = [[1, 2], [3, 4]]; b = zeros(2); L = sum(X + b)").to_dict()
