"""The settings the controls describe, and the controls showing settings: the data column, the network
column, the toolbar's pace and stop condition, and the diagram's shape, read and written as one form.

Reading the form also makes the choices one control implies for another: a regression keeps a
regression loss; a stop condition of the other problem becomes this one's figure, and the Stop at box
says so (`StopControls.values`); more than two classes take cross-entropy, and the binary loss chosen
before comes back when they go (`fitting_loss`).
"""

from __future__ import annotations

from dataclasses import replace

from .data_controls import DataControls
from .graph_view import NetworkSlot
from .model.settings import (
    MAX_TF_NOISE,
    REGRESSION_LOSSES,
    TF_DATASETS,
    TF_INITS,
    TrainingSettings,
    fitting_loss,
)
from .network_controls import NetworkControls
from .network_headers import layer_captions
from .picture import names_of_inputs, names_of_outputs
from .toolbar import TrainingToolbar

# What turning the TF Playground setting on replaces (its loss, SGD, start, points and batches), put back when it is
# turned off.
TF_REPLACES = ("loss", "optimizer", "init", "points", "batch_size")


class SettingsForm:
    def __init__(self, data_controls: DataControls, network_controls: NetworkControls, toolbar: TrainingToolbar,
                 network_slot: NetworkSlot):
        self.data_controls, self.network_controls, self.toolbar, self.network_slot = (
            data_controls, network_controls, toolbar, network_slot)
        self._binary_loss: str | None = None  # the loss to go back to when more classes made it cross-entropy
        # What the TF Playground setting replaced, for when it is turned off again.
        self._before_tf = {name: getattr(TrainingSettings(), name) for name in TF_REPLACES}

    def show(self, s: TrainingSettings, classes: tuple[str, ...] = ()) -> None:
        """Put ``s`` into the controls without sending anything."""
        self.data_controls.show_settings(s)
        self.network_controls.show_settings(s)
        self.toolbar.show_steps_per_second(s.steps_per_second)
        self.toolbar.stop_controls.show_settings(s)
        self.show_dependent(s, classes)

    def show_dependent(self, s: TrainingSettings, classes: tuple[str, ...] = ()) -> None:
        """What follows from ``s`` without being one of its controls: enabled boxes, the diagram's shape."""
        self.data_controls.show_dependent(s)
        self.network_controls.show_dependent(s)
        self.toolbar.stop_controls.show_dependent(s)
        self.toolbar.set_tf_playground(s.tf_playground)
        # The diagram takes the new shape at once (its maps follow with the worker's next frame), so that
        # its +/- buttons always edit the architecture the controls show; a graph trained is shown instead.
        self.network_slot.show_network(s.trains_graph)
        self.network_slot.show_architecture(s.layer_sizes, names_of_inputs(s), names_of_outputs(s, classes),
                                            layer_captions(s))

    def shows_loss(self, loss: str) -> bool:
        return self.network_controls.values()["loss"] == loss

    def read(self, current: TrainingSettings) -> TrainingSettings:
        """``current`` with every control's value, and the loss and stop condition those values need."""
        values = {**self.data_controls.values(), **self.network_controls.values(),
                  "steps_per_second": self.toolbar.steps_per_second}
        values.update(self.toolbar.stop_controls.values(values["problem"]))
        if values["tf_playground"]:
            return replace(current, **self._tf_playground(current, values))
        if current.tf_playground:  # the setting unticked: the tab's own loss, optimizer, start and data again
            values.update(self._before_tf)
        if values["dataset"] == "csv":
            values["classes"] = current.classes  # the file's
        if values["problem"] == "regression":  # one real output: MSE unless Huber was chosen
            values["loss"] = values["loss"] if values["loss"] in REGRESSION_LOSSES else "mse"
            return replace(current, **values)
        if current.regression or values["loss"] == "huber":  # back to a classification: its first loss
            values["loss"] = "bce"
        values["loss"] = self.fitting_loss(values["classes"], values["loss"])
        return replace(current, **values)

    def _tf_playground(self, current: TrainingSettings, values: dict) -> dict:
        """The TF Playground setting's values: its loss and SGD; on turning it on, its own start (its data for
        data it does not have, its batches of 10, its initial weights), what it replaced kept for turning it off."""
        if not current.tf_playground:
            self._before_tf = {name: getattr(current, name) for name in TF_REPLACES}
            regression = values["problem"] == "regression"
            if values["dataset"] not in TF_DATASETS:
                values["dataset"] = "plane" if regression else "circles"  # its first datasets
            values.update(classes=2, init="tf_playground", batch_size=values["batch_size"] or 10,
                          noise=min(values["noise"], MAX_TF_NOISE),
                          test_fraction=min(max(values["test_fraction"], 0.1), 0.9))
        values.update(loss="tf_square", optimizer="sgd")
        if values["init"] not in TF_INITS:
            values["init"] = "tf_playground"
        return values

    def fitting_loss(self, classes: int, loss: str) -> str:
        """The loss for ``classes`` classes when ``loss`` was chosen (remembering a binary one put aside)."""
        loss, self._binary_loss = fitting_loss(classes, loss, self._binary_loss)
        return loss
