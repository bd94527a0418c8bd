"""A person's points from a CSV file, for the training tab: classes in its third column for a classification,
a real value for a regression. A file that cannot be used is refused with its reason and the data stays; a
file read after training asks first, as every change that throws the trained weights away does."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject

from .exports import unusable_file_message
from .model.points import load_points, load_values
from .model.settings import REGRESSION_LOSSES


class CsvLoading(QObject):
    def __init__(self, panel):
        """``panel``: the `TrainingPanel` the points are for (its settings, controls and requests)."""
        super().__init__(panel)
        self.panel = panel

    def load(self, path: str | Path) -> bool:
        """Read ``path``; False (and the reason on the status line) if it cannot be used. Its points replace the
        data at once, or once the person says so when steps were taken."""
        panel = self.panel
        try:
            if panel.settings.regression:
                X, y = load_values(path)
                classes = None
            else:
                X, y, classes = load_points(path)
        except (OSError, ValueError) as error:
            panel.show_message(unusable_file_message(path, error))
            return False
        was_playing = panel.is_playing
        panel.pause()
        panel.reset_confirmation.ask_to_change(f"The points of {Path(path).name}", panel.step,
                                               lambda: self._use(Path(path).name, X, y, classes),
                                               lambda: panel.play() if was_playing else None)
        return True

    def _use(self, name: str, X, y, classes) -> None:
        panel = self.panel
        regression = classes is None
        panel.data_controls.show_csv_name(name, regression=regression)
        if regression:
            loss = panel.settings.loss if panel.settings.loss in REGRESSION_LOSSES else "mse"
            panel.settings = replace(panel.settings, dataset="csv", loss=loss)
        else:  # the worker's session makes the same choice of loss (cross-entropy for more than two classes)
            panel.settings = replace(panel.settings, dataset="csv", classes=len(classes),
                                     loss=panel.form.fitting_loss(len(classes), panel.settings.loss))
        panel.form.show(panel.settings, panel._classes())
        panel.clear_message()
        if regression:
            panel.values_requested.emit(X, y, name)
        else:
            panel.points_requested.emit(X, y, name, classes)
