"""Compare optimizers: SGD, SGD + momentum and Adam race from the same initial weights on the same data.

Their loss curves share one plot; their decision boundaries stand side by side. The race runs
in its own worker thread (`RaceWorker`), like the panel's training.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..common.numbers import format_number
from ..widgets.screen_fit import fit_to_screen
from .boundary_view import BoundaryView
from .model.points import SplitData
from .model.session import TrainingSession
from .model.settings import TrainingSettings
from .number_boxes import IntBox, LogSpinBox
from .race_worker import RaceFrame, RaceProgress, RaceWorker
from .widgets import RACER_COLOURS, RACER_LINES, SquareHolder, named, style_plot
from .worker_threads import start_thread, stop_thread

RACERS = (("SGD", "sgd"), ("Momentum", "momentum"), ("Adam", "adam"))
# A fair race starts each optimizer at a learning rate it does well at on the Playground's data (lesson 7 teaches
# 0.1 for SGD; Adam's own steps are scaled, so it wants a smaller one); the panel's own optimizer at the panel's.
USUAL_RATES = {"sgd": 0.1, "momentum": 0.1, "adam": 0.01}


def starting_rates(settings: TrainingSettings) -> dict[str, float]:
    """Each racer's learning rate when the race opens: the panel's for its own optimizer, the usual one for the rest."""
    return {name: settings.learning_rate if kind == settings.optimizer else USUAL_RATES[kind] for name, kind in RACERS}


class CompareDialog(QDialog):
    """A race of optimizers on the panel's data and architecture; `start()` runs it, closing stops it."""

    start_requested = Signal()

    def __init__(self, settings: TrainingSettings, data: SplitData, parent: QWidget | None = None,
                 steps: int = 1000, graph=None):
        """``graph``: the graph document the tab trains, when it trains the editor's graph."""
        super().__init__(parent)
        named(self, "compareDialog")
        self.setWindowTitle("Compare optimizers")
        self.settings = settings
        self.data = data.copy()
        self.graph = graph.copy() if graph is not None else None
        self.worker: RaceWorker | None = None
        self.thread = None
        self.finished_race = False
        self._progress: RaceProgress | None = None
        self._frame: RaceFrame | None = None
        self._dirty = False
        self._history: dict[str, list[tuple[int, float]]] = {name: [] for name, _ in RACERS}

        layout = QVBoxLayout(self)
        network = "the editor's graph" if settings.trains_graph else (
            f"{settings.architecture()}, {settings.activation_words()}"
            + (f", {settings.dropout_words()}" if settings.dropout else ""))
        intro = QLabel(f"Same data ({data.name}), same network ({network}), same initial weights: only the "
                       "optimizer differs, each at a learning rate it does well at (the panel's for its own "
                       "optimizer).")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        # Two rows, so that the dialog stays narrower than a 1280-wide projector in presentation mode.
        rate_row, run_row = QHBoxLayout(), QHBoxLayout()
        self.rate_inputs: dict[str, LogSpinBox] = {}
        rates = starting_rates(settings)
        for name, _ in RACERS:
            rate_row.addWidget(QLabel(f"{name} lr"))
            spin = named(LogSpinBox(value=rates[name], what=f"{name} learning rate"),
                         f"race{name}LearningRate", f"Learning rate of {name}")
            self.rate_inputs[name] = spin
            rate_row.addWidget(spin)
            rate_row.addSpacing(8)
        rate_row.addStretch(1)
        run_row.addWidget(QLabel("Steps"))
        self.steps_spin = named(IntBox("Steps", 10, 50_000), "raceStepsSpin", "How many steps each optimizer takes",
                                spoken="Steps each optimizer takes")
        self.steps_spin.setSingleStep(100)
        self.steps_spin.setValue(steps)
        run_row.addWidget(self.steps_spin)
        run_row.addStretch(1)
        self.race_button = named(QPushButton("Race again"), "raceButton", "Start the race over")
        self.race_button.clicked.connect(self.start)
        run_row.addWidget(self.race_button)
        layout.addLayout(rate_row)
        layout.addLayout(run_row)
        # What became of a number typed out of range (the boxes clamp it and say so here).
        self.message_label = named(QLabel(), "raceMessageLabel")
        self.message_label.setVisible(False)
        layout.addWidget(self.message_label)
        for box in (*self.rate_inputs.values(), self.steps_spin):
            box.clamped.connect(self._on_box_clamped)

        self.loss_plot = named(pg.PlotWidget(), "compareLossPlot", "Training loss of each optimizer",
                               spoken="Loss curves of the optimizers")
        style_plot(self.loss_plot, self.palette())
        item = self.loss_plot.getPlotItem()
        item.setLabel("left", "train loss")
        item.setLabel("bottom", "step")
        item.showGrid(True, True, alpha=0.25)
        item.setMouseEnabled(False, False)
        item.addLegend(offset=(-8, 8), labelTextColor=self.palette().color(self.palette().ColorRole.Text))
        item.setLogMode(y=True)
        self.curves = {name: item.plot(pen=pg.mkPen(colour, width=2, style=line), name=name)
                       for (name, _), colour, line in zip(RACERS, RACER_COLOURS, RACER_LINES)}
        layout.addWidget(self.loss_plot, 3)
        self.log_check = named(QCheckBox("Log scale"), "compareLogCheck", "Loss on a log scale")
        self.log_check.setChecked(True)
        self.log_check.toggled.connect(lambda on: item.setLogMode(y=on))
        layout.addWidget(self.log_check)

        boards = QGridLayout()
        self.titles: dict[str, QLabel] = {}
        self.views: dict[str, BoundaryView] = {}
        for column, ((name, _), colour) in enumerate(zip(RACERS, RACER_COLOURS)):
            title = QLabel(name)
            title.setAlignment(Qt.AlignmentFlag.AlignCenter)
            # Its text never widens the dialog past the screen: the figures go on a second line, and a longer
            # text (a failure's) is cut at the column's edge with the whole of it in the tooltip. (Word wrap
            # here set the grid's height-for-width and the square plots' sizes chasing each other for ever.)
            title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            title.setStyleSheet(f"QLabel {{ color: {colour}; font-weight: bold; }}")
            self.titles[name] = title
            boards.addWidget(title, 0, column)
            plot = named(pg.PlotWidget(), f"compareBoundaryPlot{name}", f"Decision boundary after {name}",
                         spoken=f"Decision boundary after {name}")
            style_plot(plot, self.palette())
            view = BoundaryView(plot, point_size=6)
            view.set_extent(self.data.extent)
            view.set_points(self.data.X_train, self.data.y_train, self.data.X_test, self.data.y_test)
            self.views[name] = view
            boards.addWidget(SquareHolder(plot, 220), 1, column)
        layout.addLayout(boards, 3)

        self._timer = QTimer(self)
        self._timer.setInterval(33)
        self._timer.timeout.connect(self._on_redraw_timer_timeout)
        self._timer.start()
        fit_to_screen(self, QSize(1100, 720))  # once laid out: never more than the screen has room for

    @Slot()
    def start(self) -> None:
        """(Re)start the race: three fresh networks with the seed's initial weights."""
        self._stop_worker()
        self.finished_race = False
        self._history = {name: [] for name, _ in RACERS}
        base = TrainingSession(self.settings, data=self.data, graph=self.graph)
        racers = {name: {"optimizer": kind, "learning_rate": self.rate_inputs[name].value()}
                  for name, kind in RACERS}
        self.worker = RaceWorker(base, racers, self.steps_spin.value(), steps_per_frame=20)
        self.worker.progressed.connect(self._on_worker_progressed)
        self.worker.boundary_updated.connect(self._on_worker_boundary_updated)
        self.worker.finished.connect(self._on_worker_finished)
        self.worker.failed.connect(self._on_worker_failed)
        self.thread = start_thread(self.worker, "raceWorkerThread")
        self.start_requested.connect(self.worker.start)
        self.start_requested.emit()
        self.start_requested.disconnect()

    def _stop_worker(self) -> None:
        if self.worker is not None:
            stop_thread(self.worker, self.thread)
            self.worker = None
            self.thread = None

    def shutdown(self) -> None:
        self._timer.stop()
        self._stop_worker()

    def closeEvent(self, event) -> None:
        self.shutdown()
        super().closeEvent(event)

    def reject(self) -> None:
        self.shutdown()
        super().reject()

    @Slot(object)
    def _on_worker_progressed(self, progress: RaceProgress) -> None:
        if self.sender() is not self.worker:
            return
        self._progress = progress
        for name, metrics in progress.metrics.items():
            history = self._history[name]
            if name not in progress.diverged and (not history or metrics.step > history[-1][0]):
                history.append((metrics.step, max(metrics.train_loss, 1e-12)))
        self._dirty = True

    @Slot(object)
    def _on_worker_boundary_updated(self, frame: RaceFrame) -> None:
        if self.sender() is not self.worker:
            return
        self._frame = frame
        self._dirty = True

    @Slot(str)
    def _on_box_clamped(self, message: str) -> None:
        self.message_label.setText(message)
        self.message_label.setVisible(True)

    @Slot()
    def _on_worker_finished(self) -> None:
        self.finished_race = True

    @Slot(str, str)
    def _on_worker_failed(self, summary: str, details: str) -> None:
        for title in self.titles.values():
            title.setText(f"Race stopped: {summary}")
            title.setToolTip(title.text())

    @Slot()
    def _on_redraw_timer_timeout(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        for name, history in self._history.items():
            if history:
                data = np.asarray(history)
                self.curves[name].setData(data[:, 0], data[:, 1])
            else:
                self.curves[name].setData([], [])
        if self._frame is not None:
            for name, view in self.views.items():
                view.set_probability(self._frame.probability[name], self._frame.extent, self._frame.contour[name])
        if self._progress is not None:
            for name, metrics in self._progress.metrics.items():
                if name in self._progress.diverged:
                    text = f"{name}: diverged"
                else:
                    text = (f"{name}: step {format_number(metrics.step)},\nloss {format_number(metrics.train_loss)}, "
                            f"test {format_number(100 * metrics.test_accuracy)}%")
                self.titles[name].setText(text)
                self.titles[name].setToolTip(text)
