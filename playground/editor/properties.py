"""The properties panel: the selected node's label, value (typed or scrubbed with a slider), a leaf's role
(input, parameter: trained, or constant) and what the training points feed an input, Sum inputs, output
choice, and its computed value and gradient in full precision.

It reads the document every time it refreshes and changes it only through undo commands.
"""

from __future__ import annotations

import html
import math

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..common.numbers import format_number, full_number
from ..graph import edits
from ..graph.arrays import format_array
from ..graph.catalog import kind
from ..graph.concealment import HIDDEN, NOTHING_CONCEALED, Concealment
from ..graph.document import GraphDocument
from ..graph.evaluate import Evaluation
from ..graph.feeding import feed_text
from ..graph.outline import spoken_number
from ..widgets.meaning_colours import PROBLEM, set_text_colour
from .commands import EditCommand
from .tensor_properties import TensorProperties

SLIDER_STEPS = 1000
ROLES = {"input": "Input: data, kept as it is", "parameter": "Parameter: trained", "constant": "Constant"}
FEED_CHOICES = {None: "By its name", "x1": "x₁ of each point", "x2": "x₂ of each point",
                "points": "The points (n × 2)", "none": "Nothing: it keeps its value"}


# What the panel says while no node is selected: how to get going, in the words of the canvas.
NOTHING_SELECTED = (
    "<b>No node selected.</b> Click a node to see its value and gradient, rename it, or change "
    "its value.<br><br>"
    "<b>Build</b>: drag a node from the list on the left, or press <b>Tab</b> over the canvas and "
    "type its name; drag from a node's output port (right) to an input port (left) to wire them; "
    "or type an expression in the box above.<br>"
    "<b>Change a value</b>: double-click an input, parameter or constant, or select it and drag "
    "its slider here.<br>"
    "<b>Output</b>: right-click a node to make it the node whose gradient is 1.<br>"
    "<b>Check gradients</b> below compares every leaf's gradient with finite differences."
)
SEVERAL_SELECTED = (
    "<b>{count} nodes selected.</b> Click one of them to see its value and gradient.<br><br>"
    "Drag one to move them all; <b>Delete</b> removes them, <b>Ctrl+C</b> copies them and <b>Ctrl+D</b> "
    "duplicates them (wires between them too)."
)


class PropertiesPanel(QWidget):
    status_message = Signal(str)

    def __init__(self, document: GraphDocument, undo_stack: QUndoStack, parent=None):
        super().__init__(parent)
        self.setObjectName("propertiesPanel")
        self.setAccessibleName("Properties of the selected node")
        self.document, self.undo_stack = document, undo_stack
        self.node_id: str | None = None
        self._selected = 0  # how many nodes are selected (several: the panel says so, and what can be done)
        self._evaluation: Evaluation | None = None
        self._concealment = NOTHING_CONCEALED
        self._slider_range: dict[str, tuple[float, float]] = {}  # per node, view state only
        self._drag = 0  # counts slider drags: the value edits of one drag are one undo step

        self.heading = QLabel("No node selected")
        self.heading.setObjectName("propertiesHeading")
        self.heading.setWordWrap(True)
        self.label_edit = self._named(QLineEdit(), "labelEdit", "Label")
        self.value_edit = self._named(QLineEdit(), "valueEdit", "Value")
        self.slider = self._named(QSlider(Qt.Orientation.Horizontal), "valueSlider", "Scrub value")
        self.slider.setRange(0, SLIDER_STEPS)
        self.low_spin = self._named(self._range_spin(), "sliderMinimum", "Slider minimum")
        self.high_spin = self._named(self._range_spin(), "sliderMaximum", "Slider maximum")
        self.role_combo = self._named(QComboBox(), "leafRoleCombo", "What this leaf is: an input, a parameter "
                                      "(training changes it) or a constant")
        for key, title in ROLES.items():
            self.role_combo.addItem(title, key)
        self.feed_combo = self._named(QComboBox(), "feedCombo", "What the training points feed this input when "
                                      "the graph is trained")
        for key, title in FEED_CHOICES.items():
            self.feed_combo.addItem(title, key)
        for combo in (self.role_combo, self.feed_combo):  # never wider than the panel: long items are elided
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        self.feed_label = self._named(QLabel(), "feedLabel", "What the training points feed this input")
        self.feed_label.setWordWrap(True)
        self.inputs_spin = self._named(QSpinBox(), "sumInputs", "Number of inputs")
        self.inputs_spin.setRange(1, 64)
        self.output_button = self._named(QPushButton("Make this the output"), "makeOutputButton", "Make output")
        self.computed_value = self._named(QLabel(), "computedValue", "Computed value")
        self.computed_grad = self._named(QLabel(), "computedGrad", "Computed gradient")
        self.problem = self._named(QLabel(), "nodeProblem", "Problem")
        set_text_colour(self.problem, PROBLEM)
        self.problem.setWordWrap(True)
        for label in (self.computed_value, self.computed_grad):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)  # an array's numbers

        range_row = QHBoxLayout()
        range_row.addWidget(self.low_spin)
        range_row.addWidget(QLabel("to"))
        range_row.addWidget(self.high_spin)
        self.form = QFormLayout()
        self.form.addRow("Label", self.label_edit)
        self.form.addRow("Value", self.value_edit)
        self.form.addRow("Scrub", self.slider)
        self.form.addRow("Range", range_row)
        self.form.addRow("Inputs", self.inputs_spin)
        self.form.addRow("Role", self.role_combo)
        self.form.addRow("Fed by", self.feed_combo)
        self.form.addRow("", self.feed_label)
        self.form.addRow("Computed", self.computed_value)
        self.form.addRow("Gradient", self.computed_grad)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.form)
        self.tensor_part = TensorProperties(self._push)  # a tensor leaf's array, a tensor node's parameters
        self.tensor_part.status_message.connect(self.status_message)
        layout.addWidget(self.tensor_part)
        layout.addWidget(self.output_button)
        layout.addWidget(self.problem)
        layout.addStretch(1)

        self.label_edit.editingFinished.connect(self._on_label_edited)
        self.value_edit.editingFinished.connect(self._on_value_edited)
        self.slider.valueChanged.connect(self._on_slider_moved)
        self.slider.sliderPressed.connect(self._on_slider_pressed)
        self.low_spin.valueChanged.connect(self._on_range_edited)
        self.high_spin.valueChanged.connect(self._on_range_edited)
        self.inputs_spin.valueChanged.connect(self._on_inputs_edited)
        self.role_combo.activated.connect(self._on_role_chosen)
        self.feed_combo.activated.connect(self._on_feed_chosen)
        self.output_button.clicked.connect(self._on_output_clicked)
        self.refresh()

    @staticmethod
    def _named(widget, name: str, accessible: str):
        """``accessible`` names a control; a label is read by its text (the value it shows), so there it is
        the description."""
        widget.setObjectName(name)
        if isinstance(widget, QLabel):
            widget.setAccessibleDescription(accessible)
        else:
            widget.setAccessibleName(accessible)
        return widget

    @staticmethod
    def _range_spin() -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(-1e6, 1e6)
        spin.setDecimals(3)
        return spin

    # -- following the model ---------------------------------------------------------------

    def show_node(self, node_id: str | None, selected: int | None = None) -> None:
        """Show ``node_id`` (None: none, or several: ``selected`` says how many are selected)."""
        self.node_id = node_id
        self._selected = selected if selected is not None else int(node_id is not None)
        self.refresh()

    def conceal(self, concealment: Concealment) -> None:
        """Show "?" for the computed value or gradient a quiz asks for."""
        self._concealment = concealment
        self.refresh()

    def set_evaluation(self, evaluation: Evaluation) -> None:
        self._evaluation = evaluation
        self.refresh()

    def refresh(self) -> None:
        """Show the selected node as the document has it now."""
        if self.node_id is not None and not self.document.has_node(self.node_id):
            self.node_id = None
        node = self.document.node(self.node_id) if self.node_id else None
        widgets = (self.label_edit, self.value_edit, self.slider, self.low_spin, self.high_spin, self.inputs_spin,
                   self.output_button, self.role_combo, self.feed_combo)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            self._fill(node)
        finally:
            for widget in widgets:
                widget.blockSignals(False)

    def _fill(self, node) -> None:
        editable = node is not None
        self.tensor_part.show_node(self.document, node.id if node is not None else None)
        is_array = editable and np.ndim(node.value) > 0
        is_leaf = editable and node.is_leaf and not is_array  # an array leaf: `tensor_part` edits it
        is_sum = editable and kind(node.kind).is_variadic
        # Show only the rows this node has: a value to edit for leaves, a port count for a Sum;
        # with nothing selected, the panel says what can be done instead of showing empty fields.
        self.form.setRowVisible(0, editable)  # Label
        self.output_button.setVisible(editable)
        for row in (1, 2, 3):  # Value, Scrub, Range
            self.form.setRowVisible(row, is_leaf)
        self.form.setRowVisible(4, is_sum)
        self.form.setRowVisible(5, editable and node.is_leaf)  # Role
        for row in (6, 7):  # Fed by, and what that means now
            self.form.setRowVisible(row, editable and node.kind == "input")
        for row in (8, 9):  # computed value and gradient
            self.form.setRowVisible(row, editable)
        self.output_button.setEnabled(editable and self.document.effective_output() != node.id)
        if node is None:
            self.heading.setText(SEVERAL_SELECTED.format(count=self._selected) if self._selected > 1
                                 else NOTHING_SELECTED)
            for edit in (self.label_edit, self.value_edit):
                edit.clear()
            self.computed_value.clear()
            self.computed_grad.clear()
            self.problem.clear()
            return
        node_kind = kind(node.kind)
        output = " (output)" if self.document.effective_output() == node.id else ""
        name = self.document.name(node.id)
        self.heading.setText(f"<b>{name}</b> — {node_kind.title}{output}<br>{self._what(node)}")
        if not self.label_edit.hasFocus():
            self.label_edit.setText(node.label)
        if is_leaf:
            if not self.value_edit.hasFocus():
                self.value_edit.setText(full_number(node.value))
            low, high = self._range_for(node.id, node.value)
            self.low_spin.setValue(low)
            self.high_spin.setValue(high)
            if math.isfinite(node.value) and high > low:
                position = round((min(max(node.value, low), high) - low) / (high - low) * SLIDER_STEPS)
                self.slider.setValue(position)
        if is_sum:
            self.inputs_spin.setValue(node.inputs)
        if node.is_leaf:
            self.role_combo.setCurrentIndex(self.role_combo.findData(node.kind))
        if node.kind == "input":
            self.feed_combo.setCurrentIndex(self.feed_combo.findData(node.feed))
            self.feed_label.setText(feed_text(self.document, node.id))
        result = self._evaluation.results.get(node.id) if self._evaluation else None
        # About four significant figures to read; every digit in the tooltip, for whoever asks.
        hidden = self._concealment
        shown = ((self.computed_value, result.value if result else None, node.id in hidden.values),
                 (self.computed_grad, result.grad if result else None, node.id in hidden.grads))
        for label, number, concealed in shown:
            if concealed:  # a quiz asks for it
                label.setText(HIDDEN)
                label.setToolTip("Hidden while the quiz asks for it")
                continue
            if number is not None and np.ndim(number) > 0 and result is not None and result.per_point:
                label.setText(spoken_number(number))  # a trained network's node: one number a training point
                label.setToolTip(f"For each of the {np.shape(number)[0]} training points, trained network at step "
                                 f"{format_number(result.trained_step)}")
                continue
            if number is not None and np.ndim(number) > 0:
                label.setText(format_array(number, limit=16))
                label.setToolTip(format_array(number, limit=64))
                continue
            label.setText(format_number(number))
            trained = (f"; trained network at step {format_number(result.trained_step)}"
                       if result is not None and result.trained_step is not None else "")
            label.setToolTip(f"Full precision: {full_number(number)}{trained}" if number is not None else "")
        self.problem.setText(result.problem or "" if result else "")

    def _what(self, node) -> str:
        """What the node computes, with its own operands' names (``L = t2 * t3``), or a leaf's description."""
        node_kind = kind(node.kind)
        if node_kind.is_leaf:
            return node_kind.description
        operands = []
        for port in range(node.port_count):
            edge = self.document.edge_at(node.id, port)
            operands.append(self.document.name(edge.source) if edge else f"? ({node_kind.port_name(port)})")
        return html.escape(f"{self.document.name(node.id)} = {node_kind.formula(operands)}")

    def _range_for(self, node_id: str, value: float) -> tuple[float, float]:
        if node_id not in self._slider_range:
            centre = value if math.isfinite(value) else 0.0
            span = max(5.0, abs(centre))
            self._slider_range[node_id] = (round(centre - span, 3), round(centre + span, 3))
        return self._slider_range[node_id]

    # -- edits -----------------------------------------------------------------------------

    def edit_array(self, node_id: str) -> None:
        """Show ``node_id`` with the keyboard in its value table (an array leaf's card was double-clicked)."""
        self.show_node(node_id)
        self.tensor_part.focus_table()

    def _push(self, edit, gesture: int | None = None) -> None:
        if edit.actions:
            self.undo_stack.push(EditCommand(self.document, edit, gesture))

    def _on_label_edited(self) -> None:
        if self.node_id and self.label_edit.text() != self.document.node(self.node_id).label:
            self._push(edits.set_label(self.document, self.node_id, self.label_edit.text()))

    def _on_value_edited(self) -> None:
        if not self.node_id:
            return
        text = self.value_edit.text().strip()
        try:
            value = float(text)
        except ValueError:
            old = self.document.node(self.node_id).value
            self.status_message.emit(f"'{text}' is not a number; the value stays {format_number(old)}")
            self.refresh()
            return
        if value != self.document.node(self.node_id).value:
            self._push(edits.set_value(self.document, self.node_id, value))

    def _on_slider_moved(self, position: int) -> None:
        if not self.node_id:
            return
        low, high = self._slider_range[self.node_id]
        value = round(low + (high - low) * position / SLIDER_STEPS, 6)
        if value != self.document.node(self.node_id).value:
            # one drag, one undo step; a click or a key on the slider is a step of its own
            gesture = self._drag if self.slider.isSliderDown() else None
            self._push(edits.set_value(self.document, self.node_id, value), gesture)

    def _on_slider_pressed(self) -> None:
        self._drag += 1

    def _on_range_edited(self) -> None:
        if self.node_id:
            self._slider_range[self.node_id] = (self.low_spin.value(), self.high_spin.value())
            self.refresh()

    def _on_inputs_edited(self, count: int) -> None:
        if self.node_id and count != self.document.node(self.node_id).inputs:
            self._push(edits.set_inputs(self.document, self.node_id, count))

    def _on_role_chosen(self, index: int) -> None:
        kind_name = self.role_combo.itemData(index)
        if self.node_id and kind_name != self.document.node(self.node_id).kind:
            self._push(edits.set_role(self.document, self.node_id, kind_name))

    def _on_feed_chosen(self, index: int) -> None:
        feed = self.feed_combo.itemData(index)
        if self.node_id and feed != self.document.node(self.node_id).feed:
            self._push(edits.set_feed(self.document, self.node_id, feed))

    def _on_output_clicked(self) -> None:
        if self.node_id:
            self._push(edits.set_output(self.document, self.node_id))
