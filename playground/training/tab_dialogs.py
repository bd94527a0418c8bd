"""The training tab's two dialogs beside it, one of each at a time: Compare optimizers (`compare`) and Repeat
(`repeat_dialog`). Each opens on the tab's setup and points, pauses the tab's run, and is shut down with the tab."""

from __future__ import annotations

from PySide6.QtCore import QObject


class TabDialogs(QObject):
    def __init__(self, panel):
        """``panel``: the `TrainingPanel` the dialogs belong to (its settings, points, graph and setups)."""
        super().__init__(panel)
        self.panel = panel
        self.compare = None
        self.repeat = None

    def open_compare(self):
        """The optimizer race on the tab's setup, started; returns the dialog (None before the points come)."""
        from .compare import CompareDialog

        panel = self.panel
        if panel.data is None:
            return None
        panel.pause()
        self._close(self.compare)
        self.compare = CompareDialog(panel.settings, panel.data, panel, graph=panel.graph_training.graph)
        self.compare.show()
        self.compare.start()
        return self.compare

    def open_repeat(self, runs: int = 5, steps: int | None = None):
        """Repeat on the tab's setup (``runs`` runs of ``steps`` steps, by default at least as many as the tab's run
        has taken), started; returns the dialog (None before the points come). A run pressed there becomes the tab's."""
        from .repeat_dialog import RepeatDialog, steps_per_epoch

        panel = self.panel
        if panel.data is None:
            return None
        panel.pause()
        self._close(self.repeat)
        # The MLCC worksheet's "at least 500 steps" are the TF Playground's epochs.
        least = 500 * steps_per_epoch(panel.settings, panel.data) if panel.settings.tf_playground else 1000
        self.repeat = RepeatDialog(panel.settings, panel.data, panel, runs=runs, steps=steps or max(least, panel.step),
                                   graph=panel.graph_training.graph)
        self.repeat.run_chosen.connect(panel.apply_setup)
        self.repeat.show()
        self.repeat.start()
        return self.repeat

    def repeat_done(self):
        """What Repeat last finished: (runs of its first setup, epochs each, the spread of their ends, its settings),
        or None while it has not finished any."""
        dialog = self.repeat
        if dialog is None or dialog.progress is None or not dialog.progress.done or dialog.runs is None:
            return None
        return dialog.runs.runs, dialog.epochs, dialog.progress.spreads[0], dialog.settings

    def shutdown(self) -> None:
        for dialog in (self.compare, self.repeat):
            if dialog is not None:
                dialog.shutdown()

    @staticmethod
    def _close(dialog) -> None:
        if dialog is not None:
            dialog.shutdown()
            dialog.deleteLater()
