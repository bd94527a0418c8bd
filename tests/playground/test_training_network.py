"""Issue 10 in the training panel, as a person uses it: the network diagram (a map per neuron, live,
hovered onto the big plot, wires hovered and typed into, layers and neurons added on the diagram),
more than two classes (a three-arm spiral, a CSV of named labels, the class picker, the confusion
matrices), initialisation and schedule choices, and the boundary's toggles."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from playground.common.numbers import full_number
from playground.training.model.points import load_points
from playground.training.network_view import SQUARE_MIN
from tests.playground.app_window import shown_panel

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    yield from shown_panel(qtbot, 1400, 860, network_drawn=True)


def neuron_pixels(panel, layer, index) -> np.ndarray:
    return panel.network_view.canvas.map_pixels(layer, index).copy()


def wait_for_frame(qtbot, panel, condition=lambda frame: True):
    """Until the panel has painted a frame of the worker that meets ``condition``."""
    qtbot.waitUntil(lambda: panel._frame is not None and not panel._frame_dirty and condition(panel._frame),
                    timeout=WAIT)


def test_every_named_control_is_there_with_its_accessible_name(panel):
    names = ["networkView", "classCountSpin", "classPicker", "confusionMatrix", "initCombo", "scheduleCombo",
             "discretizeCheck", "showTestCheck", "neuronMap_0_0", "neuronMap_0_1", "neuronMap_1_15",
             "neuronMap_2_0", "neuronMap_3_0", "networkAddNeuron1Button", "networkRemoveLayer2Button",
             "networkAddLayer0Button", "undoWeightButton"]
    for name in names:
        widget = panel.findChild(object, name)
        assert widget is not None, name
        assert widget.accessibleName() and widget.accessibleName() != name  # said by what it is (issue 32)
    assert panel.findChild(object, "initCombo").currentText() == "PyTorch default"
    assert panel.findChild(object, "scheduleCombo").currentText() == "Constant"
    assert not panel.findChild(object, "classCountSpin").isEnabled()  # two moons have two classes


def test_the_diagram_has_one_map_per_neuron_and_they_change_while_training(qtbot, panel):
    canvas = panel.network_view.canvas
    assert [len(column) for column in canvas.neurons] == [2, 16, 16, 1]
    assert all(canvas.map_pixels(layer, i) is not None for layer, n in enumerate(canvas.sizes) for i in range(n))
    first = neuron_pixels(panel, 1, 0)
    redraws = canvas.redraws
    panel.play()
    qtbot.waitUntil(lambda: canvas.redraws >= redraws + 10 and panel.step > 100, timeout=WAIT)
    panel.pause()
    assert not np.array_equal(first, neuron_pixels(panel, 1, 0))
    assert canvas.wire_redraws > 0 and canvas._wire_image is not None  # the worker drew the wires
    # The map shows what the worker computed, neuron by neuron.
    maps = panel._frame.drawing.maps
    assert len(maps) == 4 and maps[1].shape[0] == 16 and maps[1].shape[1] >= 24


def test_hovering_a_neuron_shows_its_map_on_the_big_plot(qtbot, panel):
    neuron = panel.network_view.neuron(1, 3)
    QTest.mouseMove(neuron, QPoint(neuron.width() // 2, neuron.height() // 2))
    qtbot.waitUntil(lambda: panel.boundary.focus is not None, timeout=WAIT)
    focus = panel.boundary.focus
    assert (focus.layer, focus.index) == (1, 3)
    assert np.array_equal(panel.boundary.image.image, focus.image)  # the neuron's values, not P(blue)
    assert "layer 1 neuron 4" in panel.findChild(object, "focusLabel").text()
    assert neuron.hovered and "bias" in neuron.toolTip()
    QTest.mouseMove(panel.findChild(object, "stepButton"))  # away from the diagram
    qtbot.waitUntil(lambda: panel.boundary.focus is None, timeout=WAIT)
    assert panel.findChild(object, "focusLabel").text() == ""
    assert np.array_equal(panel.boundary.image.image, panel._frame.probability)


def wire_middle(panel, layer, out, inp) -> QPoint:
    canvas = panel.network_view.canvas
    x0, y0, x1, y1 = canvas._wires[layer - 1][out * canvas.sizes[layer - 1] + inp]
    # A point a third of the way along, away from where wires bunch at the neurons.
    return QPointF(x0 + (x1 - x0) / 3, y0 + (y1 - y0) / 3).toPoint()


def test_typing_a_weight_changes_the_model_and_the_next_frame_and_undoes(qtbot, panel):
    canvas = panel.network_view.canvas
    point = wire_middle(panel, 3, 0, 7)  # layer 2 neuron 8 -> the output
    wire = canvas.wire_at(QPointF(point))
    assert wire is not None
    layer, out, inp = wire
    name = f"{2 * (layer - 1)}.weight"
    old = float(panel.weights()[name][out, inp])
    assert full_number(old) in canvas.wire_text(wire) and "gradient" in canvas.wire_text(wire)
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    editor = panel.findChild(object, "weightEditor")
    assert editor.isVisible() and float(editor.text()) == old
    editor.selectAll()
    QTest.keyClicks(editor, "2.5")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    assert not editor.isVisible()
    wait_for_frame(qtbot, panel, lambda frame: frame.state[name][out, inp] == 2.5)
    assert panel.worker.session.state_dict()[name][out, inp] == 2.5
    assert canvas.picture.weights[layer - 1][out, inp] == 2.5  # the diagram shows the next frame
    assert panel.undo_stack.count() == 1 and panel.undo_stack.undoText().startswith("set ")
    panel.undo_stack.undo()
    wait_for_frame(qtbot, panel, lambda frame: frame.state[name][out, inp] == old)
    panel.undo_stack.redo()
    wait_for_frame(qtbot, panel, lambda frame: frame.state[name][out, inp] == 2.5)
    panel.play()  # training goes on from the typed weight
    qtbot.waitUntil(lambda: panel.step > 20, timeout=WAIT)
    panel.pause()


def test_clicking_a_neuron_types_its_bias(qtbot, panel):
    neuron = panel.network_view.neuron(2, 0)
    QTest.mouseClick(neuron, Qt.MouseButton.LeftButton)
    editor = panel.findChild(object, "weightEditor")
    assert editor.isVisible()
    editor.setText("-0.75")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    wait_for_frame(qtbot, panel, lambda frame: frame.state["2.bias"][0] == -0.75)


def test_zeros_initialisation_draws_every_hidden_neuron_the_same(qtbot, panel):
    combo = panel.findChild(object, "initCombo")
    combo.setCurrentIndex(combo.findData("zeros"))
    qtbot.waitUntil(lambda: panel.worker.session.settings.init == "zeros", timeout=WAIT)
    panel.play()
    qtbot.waitUntil(lambda: panel.step > 100, timeout=WAIT)
    panel.pause()
    wait_for_frame(qtbot, panel, lambda frame: frame.settings.init == "zeros" and frame.step > 100)
    for layer in (1, 2):
        first = neuron_pixels(panel, layer, 0)
        assert all(np.array_equal(first, neuron_pixels(panel, layer, i)) for i in range(16))
    assert all(np.all(w == 0) for name, w in panel.weights().items() if name in ("0.weight", "2.weight"))


def test_layers_and_neurons_are_added_and_removed_on_the_diagram(qtbot, panel):
    panel.findChild(object, "networkAddNeuron1Button").click()
    assert panel.settings.hidden == (17, 16) and panel.findChild(object, "layer1Spin").value() == 17
    qtbot.waitUntil(lambda: len(panel.network_view.canvas.neurons[1]) == 17, timeout=WAIT)
    panel.findChild(object, "networkAddLayer0Button").click()  # a layer right after the inputs
    assert panel.settings.hidden == (17, 17, 16)
    qtbot.waitUntil(lambda: panel.findChild(object, "networkRemoveLayer3Button") is not None, timeout=WAIT)
    panel.findChild(object, "networkRemoveLayer2Button").click()
    assert panel.settings.hidden == (17, 16)
    panel.findChild(object, "networkRemoveNeuron2Button").click()
    assert panel.settings.hidden == (17, 15)
    assert panel.findChild(object, "architectureLabel").text() == "2 → 17 → 15 → 1"
    qtbot.waitUntil(lambda: panel.weights() is not None and panel.weights()["2.weight"].shape == (15, 17), timeout=WAIT)


def test_six_layers_of_64_never_overlap(qtbot, panel):
    panel.set_settings(replace(panel.settings, hidden=(64,) * 6))
    canvas = panel.network_view.canvas
    qtbot.waitUntil(lambda: len(canvas.neurons) == 8 and canvas.picture is not None
                    and len(canvas.picture.sizes) == 8, timeout=WAIT)
    for column in canvas.neurons:
        rects = [n.geometry() for n in column]
        assert all(r.width() >= SQUARE_MIN for r in rects)
        assert all(a.bottom() < b.top() for a, b in zip(rects, rects[1:]))  # one below the other, apart
    columns = [n[0].geometry() for n in canvas.neurons]
    assert all(a.right() < b.left() for a, b in zip(columns, columns[1:]))
    viewport = panel.network_view.scroll.viewport()
    assert canvas.height() > viewport.height()  # the column scrolls rather than squeeze the squares further
    assert sum(len(c) for c in canvas.neurons) == 2 + 6 * 64 + 1


def test_a_three_arm_spiral_trains_in_the_panel_with_its_own_colours(qtbot, panel):
    panel.reset_confirmation.set_asks(False)  # as after "Don't ask again": this test is about what the change does
    panel.findChild(object, "datasetCombo").setCurrentIndex(panel.findChild(object, "datasetCombo").findData("spiral"))
    spin = panel.findChild(object, "classCountSpin")
    assert spin.isEnabled() and spin.maximum() == 5
    panel.set_settings(replace(panel.settings, noise=0.05, points=300))
    spin.setValue(3)
    assert panel.settings.classes == 3 and panel.settings.loss == "cross_entropy"
    assert panel.findChild(object, "lossCombo").currentData() == "cross_entropy"
    assert panel.findChild(object, "architectureLabel").text() == "2 → 16 → 16 → 3"
    qtbot.waitUntil(lambda: panel.data is not None and panel.data.n_classes == 3, timeout=WAIT)
    picker = panel.findChild(object, "classPicker")
    assert [b.text() for b in picker.group.buttons()] == ["● orange", "■ blue", "◆ green"]  # a shape each
    panel.play()
    qtbot.waitUntil(lambda: (panel.test_accuracy or 0) >= 0.9, timeout=60_000)
    panel.pause()
    wait_for_frame(qtbot, panel, lambda frame: frame.probability.ndim == 3)
    image = panel.boundary.image.image
    # RGB, the data's square 150 pixels a side and the plane around it as far as the plot reaches
    assert image.shape[2] == 3 and min(image.shape[:2]) == 150 and len(np.unique(image.reshape(-1, 3), axis=0)) > 3
    assert len(panel.boundary.contour.getData()[0]) > 20  # the lines between the classes
    matrix = panel.findChild(object, "confusionMatrix")
    assert matrix.matrices["test"].shape == (3, 3) and "green" in matrix.classes
    assert len(panel.network_view.canvas.neurons[3]) == 3
    # Clicks add the picked class; Shift-clicks the next one.
    count = len(panel.data.X_train)
    panel.findChild(object, "clickClass2Radio").setChecked(True)
    panel.add_point(0.1, 0.1)
    panel.add_point(0.2, 0.2, shift=True)
    qtbot.waitUntil(lambda: len(panel.data.X_train) == count + 2, timeout=WAIT)
    assert panel.data.y_train[-2:].tolist() == [2, 0]
    # Back to two classes: the binary loss it had comes back.
    panel.findChild(object, "datasetCombo").setCurrentIndex(panel.findChild(object, "datasetCombo").findData("moons"))
    assert panel.settings.classes == 2 and panel.settings.loss == "bce"


def test_a_csv_with_three_label_strings_loads_as_three_classes(qtbot, panel, tmp_path):
    rng = np.random.default_rng(1)
    names = ("setosa", "versicolor", "virginica")
    centres = np.array([[-2.0, 0.0], [2.0, 0.0], [0.0, 2.5]])
    rows = [f"{x:.3f},{y:.3f},{names[c]}" for c in range(3) for x, y in centres[c] + rng.normal(0, 0.4, (20, 2))]
    path = tmp_path / "iris-ish.csv"
    path.write_text("x1,x2,species\n" + "\n".join(rows) + "\n")
    assert panel.load_csv(path)
    qtbot.waitUntil(lambda: panel.data is not None and panel.data.classes == names, timeout=WAIT)
    assert panel.settings.classes == 3 and panel.settings.loss == "cross_entropy"
    assert panel.findChild(object, "classCountSpin").value() == 3
    assert not panel.findChild(object, "classCountSpin").isEnabled()
    legend = panel.boundary_column.legend.text()
    assert all(name in legend for name in names)
    picked = [b.text() for b in panel.findChild(object, "classPicker").group.buttons()]
    assert picked == [f"{mark} {n}" for mark, n in zip("●■◆", names)]
    canvas = panel.network_view.canvas
    qtbot.waitUntil(lambda: canvas.picture is not None and canvas.picture.output_names == names, timeout=WAIT)
    panel.play()
    qtbot.waitUntil(lambda: (panel.test_accuracy or 0) >= 0.9, timeout=WAIT)
    panel.pause()
    panel.export_plot("boundary", tmp_path / "three.png")  # the class regions export like the rest
    assert QImage(str(tmp_path / "three.png")).width() >= 1200


def test_discretise_and_show_test_data(qtbot, panel):
    discretize = panel.findChild(object, "discretizeCheck")
    discretize.setChecked(True)
    assert set(np.unique(panel.boundary.image.image)) <= {0.0, 1.0}
    discretize.setChecked(False)
    assert len(np.unique(panel.boundary.image.image)) > 2
    show_test = panel.findChild(object, "showTestCheck")
    with_points = [scatter for scatter in panel.boundary.test if len(scatter.data)]
    assert len(with_points) == 2  # one per class; the scatters of classes the data lacks are hidden, not painted
    assert all(scatter.isVisible() == (scatter in with_points) for scatter in panel.boundary.test)
    show_test.setChecked(False)
    assert not any(scatter.isVisible() for scatter in panel.boundary.test)
    assert any(len(scatter.data) for scatter in panel.boundary.train)
    show_test.setChecked(True)
    assert all(scatter.isVisible() == (scatter in with_points) for scatter in panel.boundary.test)


def test_a_step_decay_schedule_shows_the_rate_it_has_come_to(qtbot, panel):
    panel.set_settings(replace(panel.settings, schedule="step", schedule_steps=10, schedule_gamma=0.5))
    assert panel.findChild(object, "scheduleCombo").currentData() == "step"
    assert panel.findChild(object, "scheduleGammaInput").isEnabled()
    for _ in range(20):
        panel.step_requested.emit()
    qtbot.waitUntil(lambda: panel.step == 20, timeout=WAIT)
    assert panel.worker.session.optimizer.lr == pytest.approx(0.0025)
    qtbot.waitUntil(lambda: panel.findChild(object, "learningRateLabel").text() == "0.0025", timeout=WAIT)
    assert panel.findChild(object, "learningRateInput").value() == pytest.approx(0.01)  # the setting stays


def test_without_room_for_both_confusion_matrices_a_click_shows_the_other(qtbot):
    from playground.training.confusion import ConfusionView

    view = ConfusionView()
    qtbot.addWidget(view)
    view.set_classes(tuple("abcdef"))
    view.set_matrices(np.eye(6, dtype=int) * 3, np.eye(6, dtype=int))
    view.resize(260, view.heightForWidth(260))
    view.show()
    qtbot.waitExposed(view)
    view.grab()  # paints: the titles and cells are placed
    assert view.shown == "test" and [which for _rect, which in view._titles] == ["train", "test"]
    title = next(rect for rect, which in view._titles if which == "train")
    QTest.mouseClick(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, title.center().toPoint())
    assert view.shown == "train"
    view.grab()
    cell = view._cells[0][0]
    assert view.cell_text(cell.center()) == "train: 3 of the 3 a points predicted a"
    view.resize(900, view.heightForWidth(900))
    view.grab()
    assert view._titles == [] and {text.split(":")[0] for _rect, text in view._cells} == {"train", "test"}


def test_the_export_menu_s_choices_write_the_files_or_say_why_not(qtbot, panel, tmp_path):
    panel.toolbar.export_chosen.emit("weights", str(tmp_path / "w.json"))
    panel.toolbar.export_chosen.emit("dataset", str(tmp_path / "d.csv"))
    panel.toolbar.export_chosen.emit("loss", str(tmp_path / "loss.svg"))
    assert all((tmp_path / name).exists() for name in ("w.json", "d.csv", "loss.svg")) and panel.message == ""
    # The points' CSV says which were test points, and reads back as a CSV of points.
    rows = [line for line in (tmp_path / "d.csv").read_text().splitlines() if not line.startswith("#")]
    assert rows[0] == "x1,x2,label,split"
    splits = [row.rsplit(",", 1)[1] for row in rows[1:]]
    assert splits.count("test") == len(panel.data.X_test) and splits.count("train") == len(panel.data.X_train)
    assert len(load_points(tmp_path / "d.csv")[0]) == len(splits)
    panel.toolbar.export_chosen.emit("boundary", str(tmp_path / "no-such-folder" / "b.png"))
    assert panel.message.startswith("Could not export to b.png")
