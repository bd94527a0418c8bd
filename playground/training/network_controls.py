"""The network column: what is trained (the layer form's network or the editor's graph), the hidden layers
(each its neurons, its activation and its dropout rate: one row a layer, under it a line for the two), the
activation of every layer at once and the initialisation, and how the network trains (loss, optimizer,
learning rate and its schedule, momentum, regularisation, batch size)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from .model.settings import (
    ACTIVATIONS,
    BINARY_LOSSES,
    INITS,
    LOSSES,
    MAX_DROPOUT,
    MAX_LAYERS,
    MAX_NEURONS,
    MAX_REGULARIZATION_RATE,
    NETWORKS,
    OPTIMIZERS,
    REGRESSION_LOSSES,
    REGULARIZATIONS,
    SCHEDULES,
    TF_INITS,
    TrainingSettings,
)
from .number_boxes import FloatBox, IntBox, LogSpinBox, PercentBox
from .widgets import let_combos_narrow, named

DEFAULT_REGULARIZATION_RATE = 0.001  # what L1 or L2 starts from when the rate was 0
SLIDER_STEPS_PER_DECADE = 20  # the learning-rate slider: 10^(value / 20)


class NetworkControls(QWidget):
    """Edits the architecture and training fields of `TrainingSettings`; `edited` says one changed."""

    edited = Signal()
    input_clamped = Signal(str)  # a typed number was out of range: what became of it

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 4, 0)
        layout.addWidget(self._build_network_group())
        layout.addWidget(self._build_training_group())
        layout.addStretch(1)
        for box in (self.learning_rate_input, self.schedule_steps_spin, self.schedule_gamma_input,
                    self.momentum_input, self.regularization_rate_input, self.batch_size_spin):
            box.clamped.connect(self.input_clamped)

    def _build_network_group(self) -> QGroupBox:
        network = QGroupBox("NETWORK")
        outer = QVBoxLayout(network)
        source = QFormLayout()
        self.source_combo = named(QComboBox(), "networkSourceCombo",
                                  "What is trained: the network of the layers below, or the graph built in the "
                                  "graph editor (its output is the score of each point)", spoken="Network trained")
        for key, title in NETWORKS.items():
            self.source_combo.addItem(title, key)
        self.source_combo.currentIndexChanged.connect(self.edited)
        source.addRow("Train", self.source_combo)
        outer.addLayout(source)
        self.graph_label = named(QLabel(), "graphDescriptionLabel", "The graph the tab trains, as the editor drew it")
        self.graph_label.setWordWrap(True)
        outer.addWidget(self.graph_label)
        # The layer form's own controls: hidden while the editor's graph is trained (it has its own shape).
        self.layers_box = QWidget()
        box = QVBoxLayout(self.layers_box)
        box.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.layers_box)
        self.architecture_label = named(QLabel(), "architectureLabel", "Inputs → hidden neurons → output")
        font = QFont(self.architecture_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.architecture_label.setFont(font)
        self.architecture_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.architecture_label.setWordWrap(True)  # six hidden layers do not fit on one line
        box.addWidget(self.architecture_label)
        buttons = QHBoxLayout()
        self.add_layer_button = named(QPushButton("+ layer"), "addLayerButton", "Add a hidden layer",
                                      spoken="Add a hidden layer")
        self.add_layer_button.clicked.connect(self._on_add_layer_button_clicked)
        self.remove_layer_button = named(QPushButton("− layer"), "removeLayerButton", "Remove the last hidden layer",
                                         spoken="Remove the last hidden layer")
        self.remove_layer_button.clicked.connect(self._on_remove_layer_button_clicked)
        buttons.addWidget(self.add_layer_button)
        buttons.addWidget(self.remove_layer_button)
        box.addLayout(buttons)
        self.layers_form = QFormLayout()
        box.addLayout(self.layers_form)
        self.layer_spins: list[IntBox] = []
        self.layer_rows: list[LayerRow] = []  # under each layer's neurons: its activation and dropout
        self._common_activation = "tanh"  # every layer's, and a new layer's (`TrainingSettings.activation`)
        form = QFormLayout()
        self.activation_combo = named(QComboBox(), "activationCombo",
                                      "Every hidden layer's activation: choosing one sets all the layers (each "
                                      "layer's own is under its neurons; 'Per layer' while they differ)",
                                      spoken="Activation of every hidden layer")
        for key, title in ACTIVATIONS.items():
            self.activation_combo.addItem(title, key)
        self.activation_combo.setPlaceholderText("Per layer")  # shown while the layers differ (no item chosen)
        self.activation_combo.currentIndexChanged.connect(self._on_activation_combo_changed)
        form.addRow("Activation", self.activation_combo)
        self.init_combo = named(QComboBox(), "initCombo", "How the weights start (Zeros: see why that fails)",
                                spoken="Weight initialisation")
        tips = {
            "default": "PyTorch's Linear default: weights and biases uniform in ±1/√fan_in",
            "xavier": "Xavier/Glorot uniform, scaled for the activation (gain); biases zero",
            "kaiming": "He/Kaiming uniform for ReLU: variance 2/fan_in; biases zero",
            "zeros": "Every weight and bias zero: all neurons of a layer stay the same, so nothing learns",
            "tf_playground": "The TF Playground's: every weight uniform in [-0.5, 0.5), every bias 0.1",
        }
        for index, (key, title) in enumerate(INITS.items()):
            self.init_combo.addItem(title, key)
            self.init_combo.setItemData(index, tips[key], Qt.ItemDataRole.ToolTipRole)
        self.init_combo.currentIndexChanged.connect(self.edited)
        form.addRow("Initial weights", self.init_combo)
        box.addLayout(form)
        return network

    def _build_training_group(self) -> QGroupBox:
        training = QGroupBox("TRAINING")
        form = QFormLayout(training)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.loss_combo = named(QComboBox(), "lossCombo", "What the training minimises", spoken="Loss")
        for key, title in LOSSES.items():
            self.loss_combo.addItem(title, key)
        self.loss_combo.currentIndexChanged.connect(self.edited)
        form.addRow("Loss", self.loss_combo)
        self.optimizer_combo = named(QComboBox(), "optimizerCombo", "How the weights follow the gradient",
                                     spoken="Optimizer")
        for key, title in OPTIMIZERS.items():
            self.optimizer_combo.addItem(title, key)
        self.optimizer_combo.currentIndexChanged.connect(self.edited)
        form.addRow("Optimizer", self.optimizer_combo)
        self.learning_rate_input = named(LogSpinBox(), "learningRateInput",
                                         "Learning rate; the arrows step on a log scale (0.001, 0.003, 0.01, …)")
        self.learning_rate_input.valueChanged.connect(self._on_learning_rate_input_changed)
        form.addRow("Learning rate", self.learning_rate_input)
        self.learning_rate_slider = named(QSlider(Qt.Orientation.Horizontal), "learningRateSlider",
                                          "Learning rate on a log scale, 0.00001 to 10",
                                          spoken="Learning rate, on a log scale")
        self.learning_rate_slider.setRange(-5 * SLIDER_STEPS_PER_DECADE, SLIDER_STEPS_PER_DECADE)
        self.learning_rate_slider.valueChanged.connect(self._on_learning_rate_slider_changed)
        form.addRow("", self.learning_rate_slider)
        self.schedule_combo = named(QComboBox(), "scheduleCombo",
                                    "The learning rate over the steps: constant, halved every N steps (step decay), "
                                    "or down a half cosine to 0 over N steps (cosine)", spoken="Learning rate schedule")
        for key, title in SCHEDULES.items():
            self.schedule_combo.addItem(title, key)
        self.schedule_combo.currentIndexChanged.connect(self.edited)
        form.addRow("LR schedule", self.schedule_combo)
        self.schedule_steps_spin = named(IntBox("Schedule steps", 1, 1_000_000), "scheduleStepsSpin",
                                         "Step decay: steps between two decays; cosine: steps from the top to 0")
        self.schedule_steps_spin.setSingleStep(100)
        self.schedule_steps_spin.setSuffix(" steps")
        self.schedule_steps_spin.valueChanged.connect(self.edited)
        form.addRow("  every", self.schedule_steps_spin)
        self.schedule_gamma_input = named(FloatBox("Decay factor", 0.01, 1.0), "scheduleGammaInput",
                                          "Step decay: the learning rate is multiplied by this at each decay")
        self.schedule_gamma_input.setSingleStep(0.05)
        self.schedule_gamma_input.valueChanged.connect(self.edited)
        form.addRow("  times", self.schedule_gamma_input)
        self.momentum_input = named(FloatBox("Momentum", 0.0, 0.99), "momentumInput", "Momentum of SGD + momentum")
        self.momentum_input.setSingleStep(0.05)
        self.momentum_input.valueChanged.connect(self.edited)
        form.addRow("Momentum", self.momentum_input)
        self.regularization_combo = named(QComboBox(), "regularizationCombo",
                                          "Regularisation of the weights: none, L1 (drives weights to exactly zero) "
                                          "or L2 (pulls every weight towards zero)", spoken="Regularization")
        for key, title in REGULARIZATIONS.items():
            self.regularization_combo.addItem(title, key)
        self.regularization_combo.currentIndexChanged.connect(self._on_regularization_combo_changed)
        form.addRow("Regularization", self.regularization_combo)
        self.regularization_rate_input = named(
            LogSpinBox(0.0, MAX_REGULARIZATION_RATE, 0.0, what="Regularization rate"), "regularizationRateInput",
            "Regularisation rate; the arrows step on a log scale (0.001, 0.003, 0.01, …)")
        self.regularization_rate_input.valueChanged.connect(self.edited)
        form.addRow("  rate", self.regularization_rate_input)
        self.batch_size_spin = named(IntBox("Batch size", 0, 2000), "batchSizeSpin",
                                     "Points per step (Full batch: all of them)")
        self.batch_size_spin.setSpecialValueText("Full batch")
        self.batch_size_spin.valueChanged.connect(self.edited)
        form.addRow("Batch size", self.batch_size_spin)
        return training

    # -- settings <-> controls --

    def _controls(self) -> tuple[QWidget, ...]:
        return (self.source_combo, self.activation_combo, self.init_combo, self.loss_combo, self.optimizer_combo,
                self.learning_rate_input, self.learning_rate_slider, self.schedule_combo, self.schedule_steps_spin,
                self.schedule_gamma_input, self.momentum_input, self.regularization_combo,
                self.regularization_rate_input, self.batch_size_spin)

    def show_settings(self, s: TrainingSettings) -> None:
        """Put ``s`` into the controls without signalling."""
        controls = self._controls()
        for control in controls:
            control.blockSignals(True)
        try:
            self.source_combo.setCurrentIndex(self.source_combo.findData(s.network))
            self.activation_combo.setCurrentIndex(self.activation_combo.findData(s.activation))
            self.init_combo.setCurrentIndex(self.init_combo.findData(s.init))
            self.loss_combo.setCurrentIndex(self.loss_combo.findData(s.loss))
            self.optimizer_combo.setCurrentIndex(self.optimizer_combo.findData(s.optimizer))
            self.learning_rate_input.setValue(s.learning_rate)
            self.learning_rate_slider.setValue(round(SLIDER_STEPS_PER_DECADE * math.log10(s.learning_rate)))
            self._name_learning_rate_slider()
            self.schedule_combo.setCurrentIndex(self.schedule_combo.findData(s.schedule))
            self.schedule_steps_spin.setValue(s.schedule_steps)
            self.schedule_gamma_input.setValue(s.schedule_gamma)
            self.momentum_input.setValue(s.momentum)
            self.regularization_combo.setCurrentIndex(self.regularization_combo.findData(s.regularization))
            self.regularization_rate_input.setValue(s.regularization_rate)
            self.batch_size_spin.setValue(s.batch_size or 0)
            self._common_activation = s.activation
            self.show_layers(s.hidden)
            for row, activation, rate in zip(self.layer_rows, s.layer_activations, s.layer_dropout):
                row.show_kind(activation, rate)
            self._show_common_activation(s)
        finally:
            for control in controls:
                control.blockSignals(False)

    def show_layers(self, hidden: tuple[int, ...], origins: tuple[int | None, ...] | None = None) -> None:
        """One row per hidden layer, showing ``hidden`` (without signalling): its neurons, and under them its
        activation and dropout. With ``origins`` (new layer i was old layer ``origins[i]``, None: a new one,
        as `TrainingSettings.with_layers` takes them), each layer's activation and dropout go with it; a new
        layer takes the common activation and no dropout."""
        kinds = [(row.activation, row.dropout) for row in self.layer_rows]
        while len(self.layer_spins) > len(hidden):
            self.layers_form.removeRow(self.layers_form.rowCount() - 1)  # the layer's activation and dropout
            self.layers_form.removeRow(self.layers_form.rowCount() - 1)  # its neurons
            self.layer_spins.pop()
            self.layer_rows.pop()
        while len(self.layer_spins) < len(hidden):
            index = len(self.layer_spins)
            spin = named(IntBox(f"Layer {index + 1}", 1, MAX_NEURONS), f"layer{index + 1}Spin",
                         f"Neurons in hidden layer {index + 1}", spoken=f"Neurons in hidden layer {index + 1}")
            spin.setSuffix(" neurons")
            spin.setMinimumWidth(110)
            spin.valueChanged.connect(self.edited)
            spin.clamped.connect(self.input_clamped)
            self.layer_spins.append(spin)
            self.layers_form.addRow(f"Layer {index + 1}", spin)
            row = LayerRow(index + 1, self._common_activation)
            row.edited.connect(self.edited)
            row.dropout_spin.clamped.connect(self.input_clamped)
            self.layer_rows.append(row)
            self.layers_form.addRow(row)
        for spin, size in zip(self.layer_spins, hidden):
            spin.blockSignals(True)
            spin.setValue(size)
            spin.blockSignals(False)
        if origins is not None:
            for row, origin in zip(self.layer_rows, origins):
                row.show_kind(*(kinds[origin] if origin is not None else (self._common_activation, 0.0)))
        self._order_tabs()

    def _order_tabs(self) -> None:
        """Tab goes down the column as it reads: the layer buttons, each layer's neurons, activation and dropout,
        then the common activation (rows made after the column was built would otherwise come after the whole
        tab)."""
        previous = self.remove_layer_button
        for spin, row in zip(self.layer_spins, self.layer_rows):
            for widget in (spin, row.activation_combo, row.dropout_spin):
                QWidget.setTabOrder(previous, widget)
                previous = widget
        QWidget.setTabOrder(previous, self.activation_combo)

    def show_dependent(self, s: TrainingSettings) -> None:
        """What follows from the settings: which controls apply, and the architecture in words. The TF Playground
        setting trains with its own loss and SGD, and starts its weights its way or at zeros."""
        tf = s.tf_playground
        self.loss_combo.setEnabled(not tf)
        self.optimizer_combo.setEnabled(not tf)
        inits = self.init_combo.model()
        for index in range(self.init_combo.count()):
            inits.item(index).setEnabled(not tf or self.init_combo.itemData(index) in TF_INITS)
        self.momentum_input.setEnabled(s.optimizer == "momentum")
        self.schedule_steps_spin.setEnabled(s.schedule != "constant")
        self.schedule_gamma_input.setEnabled(s.schedule == "step")
        self.regularization_rate_input.setEnabled(s.regularization != "none")
        model = self.loss_combo.model()  # more than two classes: only cross-entropy has an output per class
        for index in range(self.loss_combo.count()):
            key = self.loss_combo.itemData(index)
            if s.regression:  # one real output: MSE or Huber (or the TF Playground's square)
                model.item(index).setEnabled(key in REGRESSION_LOSSES)
            else:
                model.item(index).setEnabled(key != "huber" and not (key in BINARY_LOSSES and s.classes > 2))
        self.add_layer_button.setEnabled(len(s.hidden) < MAX_LAYERS)
        self.remove_layer_button.setEnabled(len(s.hidden) > 0)
        self.activation_combo.setEnabled(len(s.hidden) > 0)  # no hidden layer, no activation
        self._show_common_activation(s)
        self.architecture_label.setText(s.architecture())
        self.layers_box.setVisible(not s.trains_graph)
        self.graph_label.setVisible(s.trains_graph)

    def show_graph(self, description: str) -> None:
        """What the editor's graph trained is: ``the editor's graph: 4 parameters (W1, b1, W2, b2), output out``."""
        self.graph_label.setText(description[0].upper() + description[1:] if description else "")

    def _show_common_activation(self, s: TrainingSettings) -> None:
        """The common activation, or 'Per layer' while the layers differ; ``s`` may be the canonical form of what
        the rows show (layers made all alike make theirs the common one)."""
        self._common_activation = s.activation
        self.activation_combo.blockSignals(True)
        self.activation_combo.setCurrentIndex(-1 if s.activations else self.activation_combo.findData(s.activation))
        self.activation_combo.blockSignals(False)

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(spin.value() for spin in self.layer_spins)

    def values(self) -> dict:
        """The fields of `TrainingSettings` this column edits, as the controls show them."""
        return dict(
            network=self.source_combo.currentData(),
            hidden=self.hidden,
            activation=self.activation_combo.currentData() or self._common_activation,
            activations=tuple(row.activation for row in self.layer_rows),
            dropout=tuple(row.dropout for row in self.layer_rows),
            init=self.init_combo.currentData(),
            loss=self.loss_combo.currentData(),
            optimizer=self.optimizer_combo.currentData(),
            learning_rate=self.learning_rate_input.value(),
            schedule=self.schedule_combo.currentData(),
            schedule_steps=self.schedule_steps_spin.value(),
            schedule_gamma=round(self.schedule_gamma_input.value(), 4),
            momentum=self.momentum_input.value(),
            regularization=self.regularization_combo.currentData(),
            regularization_rate=self.regularization_rate_input.value(),
            batch_size=self.batch_size_spin.value() or None,
        )

    # -- slots --

    @Slot(int)
    def _on_activation_combo_changed(self, index: int) -> None:
        """One activation for every layer: each row takes it."""
        if index < 0:
            return
        self._common_activation = self.activation_combo.currentData()
        for row in self.layer_rows:
            row.show_kind(self._common_activation, row.dropout)
        self.edited.emit()

    @Slot(float)
    def _on_learning_rate_input_changed(self, value: float) -> None:
        self.learning_rate_slider.blockSignals(True)
        self.learning_rate_slider.setValue(round(SLIDER_STEPS_PER_DECADE * math.log10(value)))
        self.learning_rate_slider.blockSignals(False)
        self._name_learning_rate_slider()
        self.edited.emit()

    @Slot(int)
    def _on_learning_rate_slider_changed(self, value: int) -> None:
        rate = float(f"{10 ** (value / SLIDER_STEPS_PER_DECADE):.3g}")
        self.learning_rate_input.blockSignals(True)
        self.learning_rate_input.setValue(rate)
        self.learning_rate_input.blockSignals(False)
        self._name_learning_rate_slider()
        self.edited.emit()

    def _name_learning_rate_slider(self) -> None:
        """The slider's own value is a step of its log scale (-40 for 0.01): its name says the rate."""
        self.learning_rate_slider.setAccessibleName(f"Learning rate, on a log scale: {self.learning_rate_input.text()}")

    @Slot(int)
    def _on_regularization_combo_changed(self, _index: int) -> None:
        """L1 or L2 chosen with a rate of 0 would do nothing: start from the TF Playground's smallest rate."""
        if self.regularization_combo.currentData() != "none" and self.regularization_rate_input.value() == 0:
            self.regularization_rate_input.blockSignals(True)
            self.regularization_rate_input.setValue(DEFAULT_REGULARIZATION_RATE)
            self.regularization_rate_input.blockSignals(False)
        self.edited.emit()

    @Slot()
    def _on_add_layer_button_clicked(self) -> None:
        hidden = self.hidden
        if len(hidden) < MAX_LAYERS:
            self.show_layers((*hidden, hidden[-1] if hidden else 4), (*range(len(hidden)), None))
            self.edited.emit()

    @Slot()
    def _on_remove_layer_button_clicked(self) -> None:
        if self.layer_spins:
            self.show_layers(self.hidden[:-1], tuple(range(len(self.hidden) - 1)))
            self.edited.emit()


class LayerRow(QWidget):
    """Under a hidden layer's neurons: its activation and its dropout rate; `edited` says one changed."""

    edited = Signal()

    def __init__(self, layer: int, activation: str, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, f"layer{layer}Row")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)  # the column's width, whole
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 0, 0)  # set in under the layer's name: the line is that layer's
        row.setSpacing(4)
        self.activation_combo = named(QComboBox(), f"layer{layer}ActivationCombo",
                                      f"The activation of hidden layer {layer}",
                                      spoken=f"Activation of hidden layer {layer}")
        for key, title in ACTIVATIONS.items():
            self.activation_combo.addItem(title, key)
        self.activation_combo.setCurrentIndex(self.activation_combo.findData(activation))
        self.activation_combo.currentIndexChanged.connect(self.edited)
        row.addWidget(self.activation_combo, 1)
        self.dropout_spin = named(
            PercentBox(f"Dropout of layer {layer}", 0.0, 100 * MAX_DROPOUT), f"layer{layer}DropoutSpin",
            f"Dropout: the share of layer {layer}'s units dropped at random in each training step (the others "
            "count for more), so that none can lean on another; none when the network is evaluated",
            spoken=f"Dropout of hidden layer {layer}")
        # The box says what it is ("20% dropout", "no dropout"): a word beside it took the activation's room.
        self.dropout_spin.setSuffix("% dropout")
        self.dropout_spin.setSpecialValueText("no dropout")
        self.dropout_spin.valueChanged.connect(self.edited)
        row.addWidget(self.dropout_spin)
        let_combos_narrow(self, 5)  # "Leaky ReLU" whole where the column has room (it does at 100%)

    @property
    def activation(self) -> str:
        return self.activation_combo.currentData()

    @property
    def dropout(self) -> float:
        return self.dropout_spin.share

    def show_kind(self, activation: str, rate: float) -> None:
        """``activation`` and ``rate`` (a share) in the row, without signalling."""
        for control in (self.activation_combo, self.dropout_spin):
            control.blockSignals(True)
        self.activation_combo.setCurrentIndex(self.activation_combo.findData(activation))
        self.dropout_spin.setValue(100 * rate)
        for control in (self.activation_combo, self.dropout_spin):
            control.blockSignals(False)
