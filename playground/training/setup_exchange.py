"""The training tab's setups going out and coming in: the tab as it stands, for a file, the clipboard or the
autosave (`current`, or `later` without waiting for a step to end), and a saved setup shown and gone on from
(`apply`), its curves put back once the worker has started the run over (`take_history`)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Slot

from .model.run_history import RunHistory
from .model.setup_file import TrainingSetup


class SetupExchange(QObject):
    def __init__(self, panel):
        """``panel``: the `TrainingPanel` whose setups these are (its worker, curves, controls and requests)."""
        super().__init__(panel)
        self.panel = panel
        self._history_to_restore: RunHistory | None = None  # the curves of a setup being opened

    def current(self, with_weights: bool = True) -> TrainingSetup:
        """The tab as it stands: data, network, every control, and with ``with_weights`` the trained weights, the
        optimizer's state, the step and the curves drawn for them."""
        setup = self.panel.worker.setup_now(with_weights)
        return self._with_curves(setup) if with_weights else setup

    def later(self, answer, with_weights: bool = True) -> None:
        """`current` without waiting: ``answer(setup)`` is called in the GUI thread once the worker's thread has
        taken it. Never called after the panel's shutdown."""
        if not self.panel.is_shut_down:
            self.panel.worker.setup_later(answer, with_weights)

    @Slot(object)
    def _on_worker_setup_answered(self, request) -> None:
        if self.panel.is_shut_down or request.setup is None:
            return
        request.answer(self._with_curves(request.setup) if request.with_weights else request.setup)

    def _with_curves(self, setup: TrainingSetup) -> TrainingSetup:
        """The curves go with the weights they were drawn for."""
        history = self.panel.curves.history
        return replace(setup, history=RunHistory.from_dict(history.to_dict())) if history.size else setup

    def apply(self, setup: TrainingSetup) -> None:
        """Show a saved setup and go on from it (paused): its data, controls and, if it has them, weights."""
        panel = self.panel
        panel.pause()
        if setup.settings.dataset == "csv":
            panel.data_controls.show_csv_name(setup.data.name, regression=setup.settings.regression)
        panel.settings = setup.settings
        self._history_to_restore = setup.history  # once the worker has started the run over (`take_history`)
        panel.graph_training.adopt(setup.graph)
        panel.form.show(setup.settings, panel._classes())
        panel.clear_message()
        panel.setup_requested.emit(setup)

    def take_history(self) -> RunHistory | None:
        """The curves of the setup being opened, once: the worker has started its run over."""
        history, self._history_to_restore = self._history_to_restore, None
        return history
