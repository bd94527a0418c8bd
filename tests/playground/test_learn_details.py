"""Small things a student meets around the lessons: the window's title and the save question follow what
was done (a graph built from an expression is a new, untitled graph), the Learn text names its button as
the button reads, and a lesson's graph is laid out with a above b as the expression names them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QMessageBox, QPushButton

from playground.graph.layout import count_crossings
from playground.learn.model.lesson import load_lesson
from playground.shell.main_window import MainWindow

LESSONS = Path(__file__).resolve().parents[2] / "resources" / "lessons"


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def asked():
    return []  # the names the save question named


def open_window(qtbot, settings, asked) -> MainWindow:
    window = MainWindow(settings)

    def ask() -> QMessageBox.StandardButton:
        asked.append(window.document_name)
        return QMessageBox.StandardButton.Discard

    window.ask_save_changes = ask
    qtbot.addWidget(window)
    window.resize(1500, 900)
    window.show()
    qtbot.waitExposed(window)
    return window


@pytest.fixture
def window(qtbot, settings, asked):
    return open_window(qtbot, settings, asked)


def test_a_graph_built_from_an_expression_is_a_new_untitled_graph(window, asked):
    assert window.files.open_example("neuron.json") and window.windowTitle().startswith("neuron (example)")
    assert window.editor.build_from_expression("a=2; b=3; L=a*b")
    assert window.windowTitle().startswith("Untitled[*]") and window.isWindowModified()
    assert window.current_path is None
    window.learning.start("02-chain-rule")  # the built graph is the student's own: asked about, by its name
    assert asked == ["Untitled"]
    assert window.document_name == "The chain rule by hand (lesson)"


def test_a_lesson_replacing_an_unchanged_example_asks_nothing(window, asked):
    assert window.files.open_example("neuron.json")
    window.learning.start("02-chain-rule")
    assert asked == [] and window.document_name.endswith("(lesson)")


def text_of(window) -> str:
    document = QTextDocument()
    document.setHtml(window.learning.panel.text.toHtml())
    return document.toPlainText()


def test_the_learn_text_names_its_button_as_it_reads(window, qtbot, settings, asked):
    button = window.findChild(QPushButton, "lessonNextButton")
    window.learning.show_lessons()
    assert button.text() == "Start ▶" and "Press Start below" in text_of(window)
    window.learning.start("01-value-and-gradient")
    window.learning.panel.next()
    window.close()
    again = open_window(qtbot, settings, asked)  # the place is kept: the button reads Continue
    again.learning.show_lessons()
    button = again.findChild(QPushButton, "lessonNextButton")
    assert button.text() == "Continue ▶"
    assert "Press Continue below" in text_of(again) and "Press Start" not in text_of(again)
    assert button.toolTip() == "Continue the lesson selected above"
    again.close()


def test_lesson_graphs_keep_their_inputs_in_the_order_they_are_named(window):
    """Lesson 2's graph had b above a, so the wires into a * b crossed at the card."""
    window.learning.start("02-chain-rule")
    document = window.document
    y = {document.name(node.id): node.y for node in document.nodes}
    assert y["a"] < y["b"] < y["d"]
    for path in sorted(LESSONS.glob("*.lesson")):
        for step in load_lesson(path).steps:
            graph = step.graph
            if graph is None:
                continue
            for node in graph.nodes:  # x1 * w1: x1 above w1, as written
                sources = [graph.node(edge.source) for edge in graph.edges if edge.target == node.id]
                ports = {edge.port: graph.node(edge.source) for edge in graph.edges if edge.target == node.id}
                if (len(sources) == 2 and all(s.is_leaf for s in sources) and ports[0].x == ports[1].x
                        and ports[0].id != ports[1].id):
                    assert ports[0].y < ports[1].y, (path.stem, step.title, graph.name(node.id))


def test_lesson_2s_graph_crosses_no_more_wires_than_it_must(window):
    window.learning.start("02-chain-rule")
    document = window.document
    positions = {node.id: (node.x, node.y) for node in document.nodes}
    assert count_crossings(document, positions) <= 1  # a feeds t1 and t3: one crossing cannot be helped


def test_the_title_follows_the_lesson_shown_not_the_graph_an_earlier_lesson_left(window):
    """Issue 29, item 9: "Why the order matters (lesson)" stayed in the title through lessons 6 and 7."""
    window.learning.start("05-order")
    assert window.windowTitle().startswith("Why the order matters (lesson)")
    for lesson, title in (("06-tensors", "From scalars to tensors"), ("07-training", "Training")):
        window.learning.start(lesson)
        assert window.windowTitle().startswith(f"{title} (lesson)"), window.windowTitle()
        assert window.document_name == "Why the order matters (lesson)"  # the editor's graph, named after it
    window.learning.panel.invite()  # back to the list, no lesson running: the title names the editor's graph alone
    assert window.windowTitle().startswith("Why the order matters (lesson)[*]")
