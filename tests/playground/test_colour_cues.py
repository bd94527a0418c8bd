"""Issue 32, item 3: never by colour alone (WCAG 1.4.1). Wherever colour carries a meaning, a second cue
carries it too; each test here finds that cue without looking at any colour."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel, QRadioButton

from playground.common.class_marks import class_glyph
from playground.training.model.wires import DASH_OFF, DASH_ON, render_wires, rgba
from tests.playground.app_window import shown_panel

WAIT = 20_000
ORANGE, BLUE = (230, 159, 0), (0, 114, 178)


def drawn_columns(image: np.ndarray, row: int) -> np.ndarray:
    """Which pixel columns of ``row`` have any ink (alpha), whatever its colour."""
    return image[row - 1:row + 2, :, 3].max(axis=0) > 0


def test_a_negative_weight_s_wire_is_dashed_and_a_positive_one_solid():
    def wire(weight):
        return rgba(render_wires([(10.0, 90.0, np.array([20.0]), np.array([20.0]), np.array([weight]))],
                                 100, 40, ORANGE, BLUE, thickest=4.0))

    solid, dashed = drawn_columns(wire(2.0), 20)[11:89], drawn_columns(wire(-2.0), 20)[11:89]
    assert solid.all()
    assert not dashed.all() and dashed.any()
    # Dashes and gaps alternate at their set lengths along the wire, starting with a dash.
    runs = np.diff(np.flatnonzero(np.diff(dashed.astype(int))))
    assert set(runs.tolist()) <= {DASH_ON, DASH_OFF} and len(runs) >= 6
    # The same whichever two colours the theme gives the signs: the dash is the sign, not the hue.
    same = rgba(render_wires([(10.0, 90.0, np.array([20.0]), np.array([20.0]), np.array([-2.0]))],
                             100, 40, BLUE, BLUE, thickest=4.0))
    assert np.array_equal(drawn_columns(same, 20)[11:89], dashed)


def along(image: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """Whether each pixel column of the middle third of the line (x0, y0)-(x1, y1) has ink on the line."""
    columns = np.arange(int(x0 + (x1 - x0) / 3), int(x0 + 2 * (x1 - x0) / 3))
    rows = np.round(y0 + (columns + 0.5 - x0) * (y1 - y0) / (x1 - x0)).astype(int)
    return np.array([image[r - 1:r + 2, c, 3].max() > 0 for r, c in zip(rows, columns)])


@pytest.fixture
def panel(qtbot):
    yield from shown_panel(qtbot, 1280, 720, network_drawn=True)


def test_the_training_diagram_draws_its_negative_weights_dashed_and_says_so(panel):
    canvas = panel.network_view.canvas
    layout = canvas.wire_layout  # where the real diagram's wires run, as the worker draws them
    weights = [np.zeros_like(w) for w in canvas.picture.weights]
    weights[0][0, 0] = -1.5  # input x1 -> layer 1 neuron 1, alone
    negative = rgba(layout.render(weights))
    weights[0][0, 0] = 1.5
    positive = rgba(layout.render(weights))
    x0, y0, x1, y1 = canvas._wires[0][0]
    assert along(positive, x0, y0, x1, y1).all()
    assert not along(negative, x0, y0, x1, y1).all() and along(negative, x0, y0, x1, y1).any()
    assert "dashed orange negative" in panel.network_view.hint.text()


# -- classes: a shape each, filled for training points and hollow for test points ----------------------------


def test_every_class_has_its_own_shape_on_the_plot_in_the_legend_and_the_picker(qtbot):
    from playground.training.boundary_plot import BoundaryColumn
    from playground.training.model.points import COLOUR_NAMES

    column = BoundaryColumn()
    qtbot.addWidget(column)
    classes = COLOUR_NAMES[:3]
    column.show_classes(classes)
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    y = np.array([0, 1, 2])
    column.show_points(X, y, X, y)
    view = column.view
    train_shapes = [view.train[label].opts["symbol"] for label in range(3)]
    assert len(set(train_shapes)) == 3  # three classes, three shapes
    for label in range(3):
        train, test = view.train[label], view.test[label]
        assert test.opts["symbol"] == train.opts["symbol"]  # a class keeps its shape in the test set
        assert train.opts["brush"].style() != Qt.BrushStyle.NoBrush  # training points filled
        assert test.opts["brush"].style() == Qt.BrushStyle.NoBrush  # test points hollow
        assert test.opts["pen"].widthF() >= 2  # drawn by their outline, thick enough to see
    legend = column.legend.text()
    for label, name in enumerate(classes):
        assert f"{class_glyph(label)}</span> {name}" in legend
        radio = column.findChild(QRadioButton, f"clickClass{label}Radio")
        assert radio.text() == f"{class_glyph(label)} {name}"
    assert len({class_glyph(label) for label in range(3)}) == 3
    assert "filled" in legend and "hollow" in legend
    view.set_theme(True)  # the dark theme changes the colours, never the shapes
    assert [view.train[label].opts["symbol"] for label in range(3)] == train_shapes
    assert view.test[0].opts["brush"].style() == Qt.BrushStyle.NoBrush


def test_the_confusion_matrix_marks_each_class_with_its_shape_and_names_it(qtbot):
    from playground.training.confusion import ConfusionView

    view = ConfusionView()
    qtbot.addWidget(view)
    view.set_classes(("orange", "blue", "green"))
    view.set_matrices(np.eye(3, dtype=int) * 4, np.eye(3, dtype=int))
    view.resize(600, view.heightForWidth(600))
    view.show()
    qtbot.waitExposed(view)
    view.grab()  # paints: the marks are placed
    texts = [view.cell_text(rect.center()) for rect, _text in view._marks]
    assert "true class blue (■)" in texts and "predicted class green (◆)" in texts
    # The mark drawn is the glyph, not a dot of colour: blank out the colours and the shapes still differ.
    shapes = [mark_pixels(view, rect) for rect, text in view._marks if text.startswith("true")][:3]
    assert not np.array_equal(shapes[0], shapes[1]) and not np.array_equal(shapes[1], shapes[2])


def mark_pixels(view, rect) -> np.ndarray:
    """Where a mark has ink, as a True/False picture: its shape, whatever its colour."""
    image = view.grab(rect.toRect()).toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    pixels = pixels.reshape(image.height(), image.bytesPerLine())[:, :image.width()]
    return pixels != pixels[0, 0]


# -- the animator: each node's state as a badge beside its colour -------------------------------------------


@pytest.fixture
def animator(qtbot):
    from playground.animator.panel import AnimatorPanel
    from tests.playground.animator_driving import traced

    panel = AnimatorPanel()
    panel.resize(1280, 720)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.load(traced())
    return panel


def test_every_animator_node_shows_its_state_as_a_badge_and_the_legend_keys_them(animator):
    from playground.animator.colors import STATE_MARKS
    from playground.animator.model.timeline import NodeState

    assert len(set(STATE_MARKS.values())) == len(NodeState)  # one mark per state, none shared
    timeline = animator.animation.timeline
    processing = next(i for i, frame in enumerate(timeline.frames, start=1)
                      if frame.phase == "backward" and frame.node_id is not None
                      and timeline_state_after(animator, i, frame.node_id) is NodeState.PROCESSING)
    animator.seek(processing)
    current = animator.animation.timeline.current.node_id
    assert animator.scene.node_item(current).badge == "▶"  # the node being processed, not only orange-red
    for item in animator.scene.node_items():
        assert item.badge == STATE_MARKS[animator.animation.timeline.display[item.node_id].state]
    animator.last()
    assert {item.badge for item in animator.scene.node_items()} == {"✔"}
    animator.first()
    assert {item.badge for item in animator.scene.node_items()} == {"…"}
    legend = animator.legend.text()
    for state, mark in STATE_MARKS.items():
        assert f"<b>{mark}</b>&nbsp;{state.value.replace(' ', '&nbsp;')}" in legend


def timeline_state_after(animator, position, node_id):
    animator.seek(position)
    return animator.animation.timeline.display[node_id].state


def test_a_card_s_badge_is_painted_on_its_corner(animator):
    item = next(iter(animator.scene.node_items()))
    item.set_badge(None)
    plain = card_picture(item)
    item.set_badge("✔")
    marked = card_picture(item)
    assert item.boundingRect().top() < -6  # room for the ring over the corner
    assert plain.shape == marked.shape and not np.array_equal(plain, marked)
    corner = (slice(0, 20), slice(-24, None))  # the top-right corner, where the ring stands
    assert not np.array_equal(plain[corner], marked[corner])


def card_picture(item) -> np.ndarray:
    """The card painted alone at 1:1 into a fixed image (grayscale)."""
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    image = QImage(200, 140, QImage.Format.Format_Grayscale8)
    image.fill(255)
    painter = QPainter(image)
    painter.translate(20, 20)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    pixels = pixels.reshape(140, image.bytesPerLine())[:, :200]
    left = 20 + int(item.width) - 24
    return pixels[:, :left + 48].copy()


# -- Compare optimizers: each racer a line style, each board's classes their shapes --------------------------


def test_the_racers_curves_differ_by_line_style_and_their_boards_by_class_shape(qtbot):
    from playground.training.compare import CompareDialog
    from playground.training.model.points import make_dataset, split
    from playground.training.model.session import TrainingSettings

    X, y = make_dataset("moons", 60, 0.1, 1)
    dialog = CompareDialog(TrainingSettings(points=60), split(X, y, 0.5, 1, "moons"))
    qtbot.addWidget(dialog)  # never started: its curves and boards are drawn all the same
    styles = [dialog.curves[name].opts["pen"].style() for name in dialog.curves]
    assert len(set(styles)) == len(styles) == 3
    legend = dialog.loss_plot.getPlotItem().legend
    assert [label.text for _sample, label in legend.items] == list(dialog.curves)  # named beside their lines
    for view in dialog.views.values():
        assert view.train[0].opts["symbol"] != view.train[1].opts["symbol"]
        assert view.test[0].opts["brush"].style() == Qt.BrushStyle.NoBrush
    dialog.shutdown()


def test_the_step_list_marks_each_pass_by_its_shape(animator):
    from playground.animator.step_panel import PHASE_GLYPHS

    steps = animator.steps.step_list
    phases = [frame.phase for frame in animator.animation.timeline.frames]
    assert {"forward", "seed", "backward"} <= set(phases)
    first_row = {phase: phases.index(phase) for phase in ("forward", "seed", "backward")}
    shapes = {phase: icon_shape(steps.item(row).icon()) for phase, row in first_row.items()}
    assert not np.array_equal(shapes["forward"], shapes["backward"])  # the icons differ in shape, not only hue
    assert not np.array_equal(shapes["forward"], shapes["seed"])
    assert shapes["forward"][:, :4].sum() > shapes["forward"][:, -4:].sum()  # ▶: wide at the left, a point right
    assert shapes["backward"][:, -4:].sum() > shapes["backward"][:, :4].sum()  # ◀
    key = animator.findChild(QLabel, "stepListTitle").text()
    for phase, glyph in PHASE_GLYPHS.items():
        assert f"{glyph}</span>&nbsp;{phase}" in key


def icon_shape(icon) -> np.ndarray:
    """Where an icon has paint (alpha), whatever its colour."""
    image = icon.pixmap(12, 12).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return pixels.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width(), 3] > 64


# -- issue 32, item 1: the training tab's read-outs and messages reach a screen reader ------------------------


def accessible_name(widget) -> str:
    """What a screen reader reads as ``widget``'s name, through Qt's accessibility interface."""
    from PySide6.QtGui import QAccessible

    return QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Name)


def test_the_training_read_outs_are_read_with_their_meaning_and_value(qtbot, panel):
    panel.findChild(object, "stepButton").click()
    qtbot.waitUntil(lambda: panel.step >= 1 and panel.findChild(object, "trainLossLabel").text() != "–",
                    timeout=WAIT)
    step = panel.findChild(object, "stepLabel")
    loss = panel.findChild(object, "trainLossLabel")
    accuracy = panel.findChild(object, "accuracyLabel")
    assert accessible_name(step) == step.text() and step.text().startswith("Step ")
    assert accessible_name(loss) == f"train loss {loss.text()}"  # the number with what it is
    assert accessible_name(accuracy) == accuracy.text() and accuracy.text().endswith("%")
    assert accessible_name(panel.findChild(object, "learningRateLabel")).startswith("learning rate 0.01")
    assert "Label" not in accessible_name(panel.findChild(object, "epochLabel"))
    panel.curves.show_figures(None)  # as for a network not yet run: a dash on screen
    assert loss.text() == "–" and accessible_name(loss) == "train loss: none yet"


def test_a_pause_message_is_announced_and_read_as_itself(qtbot, panel, monkeypatch):
    from playground.widgets import spoken

    sent = []
    monkeypatch.setattr(spoken, "_send", lambda event: sent.append((event.object(), event.message())))
    status = panel.findChild(object, "messageLabel")
    panel.show_message("Paused: the loss went to nan; the weights are back at step 40")
    assert sent == [(status, "Paused: the loss went to nan; the weights are back at step 40")]
    assert accessible_name(status) == "Paused: the loss went to nan; the weights are back at step 40"
