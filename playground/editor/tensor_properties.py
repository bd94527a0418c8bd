"""The properties panel's part for tensors: a leaf's array in a small table (its shape changeable) or filled
by a generator, and a tensor node's parameters (axis, keepdims, reshape's shape).

Each change is one undoable edit through `edits` (`set_value`, `generate`, `set_params`), pushed by the
panel's ``push``; a refused one (a shape the nodes downstream cannot take) is said in the status bar and
changes nothing.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..common.numbers import full_number
from ..graph import edits
from ..graph.arrays import GENERATORS, RANDOM_GENERATORS, Generator, shape_text
from ..graph.catalog import kind
from ..widgets.errors import guarded

MAX_SIDE = 64  # the table editor's largest side


def parse_shape(text: str) -> tuple[int, ...]:
    """``"2, 3"`` or ``"(2, 3)"`` → (2, 3); ``"4"`` → (4,); raises ValueError for anything else."""
    inner = text.strip().strip("()[]").strip()
    if not inner:
        raise ValueError("give a shape such as 3 or 2, 3")
    parts = [p.strip() for p in inner.split(",") if p.strip()]
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"'{text}' is not a shape: sizes are whole numbers, such as 2, 3") from None
    if not 1 <= len(shape) <= 2:
        raise ValueError("a table holds a vector or a matrix: give 1 or 2 sizes")
    if any(not 1 <= n <= MAX_SIDE for n in shape):
        raise ValueError(f"each size is from 1 to {MAX_SIDE}")
    return shape


def _named(widget, name: str, accessible: str):
    widget.setObjectName(name)
    widget.setAccessibleName(accessible)
    return widget


class TensorProperties(QWidget):
    """The tensor rows of the properties panel for one node (`show_node`); hidden for a scalar graph's nodes."""

    status_message = Signal(str)

    def __init__(self, push, parent=None):
        super().__init__(parent)
        self.setObjectName("tensorProperties")
        self.setAccessibleName("Tensor properties")
        self._push = push  # the panel's: one edit, one undo step
        self.document = None
        self.node_id: str | None = None

        self.shape_edit = _named(QLineEdit(), "arrayShapeEdit", "Array shape")
        self.shape_edit.setToolTip("The shape, such as 3 or 2, 3 (at most 64 per side); Enter resizes the table")
        self.table = _named(QTableWidget(), "arrayTable", "Array values")
        self.table.setToolTip("The array's values: edit a cell, then press Set values")
        self.table.horizontalHeader().setDefaultSectionSize(72)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setMinimumHeight(90)
        self.set_values_button = _named(QPushButton("Set values"), "setArrayValuesButton", "Set array values")
        self.generator_combo = _named(QComboBox(), "generatorCombo", "Generator")
        self.generator_combo.addItems(list(GENERATORS))
        self.seed_spin = _named(QSpinBox(), "generatorSeed", "Seed")
        self.seed_spin.setRange(0, 2**31 - 1)
        self.seed_spin.setPrefix("seed ")
        self.fill_button = _named(QPushButton("Fill"), "fillArrayButton", "Fill with the generator")
        self.axis_combo = _named(QComboBox(), "axisCombo", "Axis")
        self.keepdims_check = _named(QCheckBox("keep dims"), "keepdimsCheck", "Keep dims")
        self.reshape_edit = _named(QLineEdit(), "reshapeEdit", "Reshape to")
        self.reshape_edit.setToolTip("The new shape, such as 6 or 2, 3 (-1: as many as fit)")

        generator_row = QHBoxLayout()
        for widget in (self.generator_combo, self.seed_spin, self.fill_button):
            generator_row.addWidget(widget)
        self.form = QFormLayout()
        self.form.addRow("Shape", self.shape_edit)
        self.form.addRow("Values", self.table)
        self.form.addRow("", self.set_values_button)
        self.form.addRow("Fill", generator_row)
        self.form.addRow("Axis", self.axis_combo)
        self.form.addRow("", self.keepdims_check)
        self.form.addRow("Reshape", self.reshape_edit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)

        self.shape_edit.editingFinished.connect(self._on_shape_edited)
        self.set_values_button.clicked.connect(self._on_set_values)
        self.fill_button.clicked.connect(self._on_fill)
        self.generator_combo.currentTextChanged.connect(self._on_generator_changed)
        self.axis_combo.activated.connect(self._on_params_edited)
        self.keepdims_check.toggled.connect(self._on_params_edited)
        self.reshape_edit.editingFinished.connect(self._on_params_edited)
        self.setVisible(False)

    # -- following the model ---------------------------------------------------------------

    def show_node(self, document, node_id: str | None) -> None:
        """Show the tensor rows of ``node_id`` (hidden: none, or a node with nothing tensor to edit)."""
        self.document, self.node_id = document, node_id
        node = document.node(node_id) if node_id is not None and document.has_node(node_id) else None
        params = kind(node.kind).default_params if node is not None else {}
        is_leaf = node is not None and node.is_leaf
        shows = node is not None and ((is_leaf and (document.is_tensor_graph or np.ndim(node.value) > 0))
                                      or bool(params))
        self.setVisible(shows)
        if not shows:
            return
        for row in range(4):  # shape, values, set values, fill
            self.form.setRowVisible(row, is_leaf)
        self.form.setRowVisible(4, "axis" in params)
        self.form.setRowVisible(5, "keepdims" in params)
        self.form.setRowVisible(6, "shape" in params)
        widgets = (self.axis_combo, self.keepdims_check, self.reshape_edit, self.generator_combo)
        for widget in widgets:
            widget.blockSignals(True)
        try:
            if is_leaf:
                self._fill_leaf(node)
            else:
                self._fill_params(node, params)
        finally:
            for widget in widgets:
                widget.blockSignals(False)

    def _fill_leaf(self, node) -> None:
        array = np.atleast_1d(np.asarray(node.value, dtype=np.float64))
        if not self.shape_edit.hasFocus():
            self.shape_edit.setText(", ".join(str(n) for n in array.shape))
        self._fill_table(array.reshape(array.shape[0], -1) if array.ndim == 2 else array.reshape(1, -1))
        if node.generator is not None:
            self.generator_combo.setCurrentText(node.generator.name)
            if node.generator.seed is not None:
                self.seed_spin.setValue(node.generator.seed)
        self.seed_spin.setEnabled(self.generator_combo.currentText() in RANDOM_GENERATORS)

    def _fill_table(self, grid: np.ndarray) -> None:
        self.table.blockSignals(True)
        try:
            self.table.setRowCount(grid.shape[0])
            self.table.setColumnCount(grid.shape[1])
            for row in range(grid.shape[0]):
                for column in range(grid.shape[1]):
                    self.table.setItem(row, column, QTableWidgetItem(full_number(grid[row, column])))
        finally:
            self.table.blockSignals(False)

    def _fill_params(self, node, params: dict) -> None:
        if "axis" in params:
            self.axis_combo.clear()
            if params["axis"] is None:
                self.axis_combo.addItem("all", None)
            for axis in (-1, 0, 1):
                self.axis_combo.addItem(str(axis), axis)
            self.axis_combo.setCurrentIndex(max(0, self.axis_combo.findData(node.params["axis"])))
        if "keepdims" in params:
            self.keepdims_check.setChecked(bool(node.params["keepdims"]))
        if "shape" in params and not self.reshape_edit.hasFocus():
            self.reshape_edit.setText(", ".join(str(n) for n in node.params["shape"]))

    def focus_table(self) -> None:
        """Put the keyboard in the value table (a double-click on an array leaf's card asks for it)."""
        if self.isVisible() and self.table.isVisible():
            self.table.setFocus()
            self.table.setCurrentCell(0, 0)

    def _recover(self, error: Exception) -> None:
        if self.document is not None:
            self.show_node(self.document, self.node_id)

    # -- edits -----------------------------------------------------------------------------

    def table_array(self, shape: tuple[int, ...]) -> np.ndarray:
        """The table's numbers in ``shape``; raises ValueError naming a cell that is not a number."""
        rows, columns = (1, shape[0]) if len(shape) == 1 else shape
        grid = np.zeros((rows, columns))
        for row in range(rows):
            for column in range(columns):
                item = self.table.item(row, column)
                text = item.text().strip().replace("−", "-") if item is not None else "0"
                try:
                    grid[row, column] = float(text or "0")
                except ValueError:
                    raise ValueError(f"row {row + 1}, column {column + 1}: '{text}' is not a number") from None
        return grid.reshape(shape)

    def _apply(self, make_edit) -> None:
        try:
            edit = make_edit()
        except ValueError as error:
            self.status_message.emit(f"Not changed: {error}")
            self.show_node(self.document, self.node_id)
            return
        self._push(edit)
        self.status_message.emit(edit.text)

    @guarded
    def _on_shape_edited(self) -> None:
        """Resize the table to the new shape (keeping the numbers that still fit); Set values applies it."""
        if self.node_id is None:
            return
        try:
            shape = parse_shape(self.shape_edit.text())
        except ValueError as error:
            self.status_message.emit(f"Not resized: {error}")
            return
        rows, columns = (1, shape[0]) if len(shape) == 1 else shape
        old = np.zeros((rows, columns))
        for row in range(min(rows, self.table.rowCount())):
            for column in range(min(columns, self.table.columnCount())):
                item = self.table.item(row, column)
                try:
                    old[row, column] = float(item.text()) if item is not None else 0.0
                except ValueError:
                    old[row, column] = 0.0
        self._fill_table(old)
        self.status_message.emit(f"The table is now {shape_text(shape)}: press Set values to apply it")

    @guarded
    def _on_set_values(self) -> None:
        if self.node_id is None:
            return

        def make():
            shape = parse_shape(self.shape_edit.text())
            return edits.set_value(self.document, self.node_id, self.table_array(shape))

        self._apply(make)

    @guarded
    def _on_fill(self) -> None:
        if self.node_id is None:
            return
        name = self.generator_combo.currentText()

        def make():
            shape = parse_shape(self.shape_edit.text())
            seed = self.seed_spin.value() if name in RANDOM_GENERATORS else None
            return edits.generate(self.document, self.node_id, Generator(name, shape, seed))

        self._apply(make)

    @guarded
    def _on_generator_changed(self, name: str) -> None:
        self.seed_spin.setEnabled(name in RANDOM_GENERATORS)

    @guarded
    def _on_params_edited(self, *_args) -> None:
        if self.node_id is None or not self.document.has_node(self.node_id):
            return
        node = self.document.node(self.node_id)
        params = kind(node.kind).default_params
        new = {}
        if "axis" in params:
            new["axis"] = self.axis_combo.currentData()
        if "keepdims" in params:
            new["keepdims"] = self.keepdims_check.isChecked()
        if "shape" in params:
            text = self.reshape_edit.text().strip().strip("()[]")
            try:
                new["shape"] = tuple(int(p) for p in text.split(",") if p.strip())
            except ValueError:
                self.status_message.emit(f"Not changed: '{self.reshape_edit.text()}' is not a shape")
                return
        if new == {name: node.params[name] for name in new}:
            return
        self._apply(lambda: edits.set_params(self.document, self.node_id, new))
