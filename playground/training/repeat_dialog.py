"""Repeat: the training tab's setup trained 2 to 10 times, each run from initial weights of its own, on the same
points (`model.repeat`), and optionally a second setup beside it (another activation, other initial weights,
another learning rate) over as many seeds. Every run's test-loss curve on one plot, what their ends spread over
in words ("lowest 0.171, median 0.224, highest 0.350: 2.0 times"), and each run's boundary as a small picture; a
picture pressed makes that run the tab's own (its weights, step and optimizer state; paused there). The runs train
in a process of their own (`model.repeat_process`; where it cannot start, in a thread, `RepeatWorker`): the
window never waits for them.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QIcon, QImage, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..common.numbers import format_number
from ..widgets.screen_fit import fit_to_screen
from ..widgets.spoken import announce
from .axes import LossAxis
from .model.points import SplitData
from .model.repeat import MAX_RUNS, MIN_RUNS, RepeatRuns, Spread, groups_for, thumbnail_words
from .model.repeat_process import RepeatDone, RepeatJob, RepeatLink, RepeatPictures, RepeatProgress
from .model.settings import ACTIVATIONS, INITS, TrainingSettings
from .model.setup_file import TrainingSetup
from .number_boxes import IntBox, LogSpinBox
from .repeat_worker import RepeatWorker
from .widgets import RACER_COLOURS, named, style_plot
from .worker_threads import start_thread, stop_thread

THUMBNAIL_PX = 72
# Each group in its own colour and line style (told apart without the colour); the chosen run's line is thicker.
GROUP_STYLES = ((RACER_COLOURS[2], Qt.PenStyle.SolidLine), (RACER_COLOURS[0], Qt.PenStyle.DashLine))
COMPARE_CHOICES = (("", "Nothing else"), ("activation", "Another activation"), ("init", "Other initial weights"),
                   ("learning_rate", "Another learning rate"))


def steps_per_epoch(settings: TrainingSettings, data: SplitData) -> int:
    """The steps of one pass over the training points: one with a full batch, else as many as its batches."""
    points = max(len(data.y_train), 1)
    return max(1, points // settings.batch_size) if settings.batch_size else 1


def spread_words(name: str, spread: Spread | None, runs: int) -> str:
    """"This setup, 5 runs: converged test loss lowest 0.171, median 0.224, highest 0.350 (2.05 times)"."""
    if spread is None:
        return f"{name}: no run has converged yet" if runs else name
    text = (f"{name}, {spread.runs} run{'s' if spread.runs != 1 else ''}: test loss at the end lowest "
            f"{spread.lowest:.3f}, median {spread.median:.3f}, highest {spread.highest:.3f}")
    if spread.runs > 1 and np.isfinite(spread.ratio):
        text += f" ({format_number(spread.ratio, 3)} times the lowest)"
    if spread.diverged:
        text += f"; {spread.diverged} diverged"
    return text


class RepeatDialog(QDialog):
    """See the module docstring; `start()` trains the runs, `run_chosen` hands a run's setup to the tab."""

    run_chosen = Signal(object)   # TrainingSetup of the run pressed
    start_requested = Signal()

    def __init__(self, settings: TrainingSettings, data: SplitData, parent: QWidget | None = None,
                 runs: int = 5, steps: int = 1000, graph=None):
        """``graph``: the graph document the tab trains, when it trains the editor's graph."""
        super().__init__(parent)
        named(self, "repeatDialog")
        self.setWindowTitle("Repeat")
        self.settings, self.data = settings, data.copy()
        self.graph = graph.copy() if graph is not None else None
        self.worker: RepeatWorker | None = None
        self.thread = None
        self.use_process = True  # the runs in a process of their own (else, or where it fails, in a thread)
        self.link: RepeatLink | None = None
        self._setups: tuple[TrainingSetup, ...] | None = None  # each run, once the process has finished them
        self.runs: RepeatRuns | None = None
        self.progress: RepeatProgress | None = None
        self._pictures: RepeatPictures | None = None
        self._new_pictures = False  # pictures come three times a second: their icons are made only then
        self._dirty = False
        self.chosen: int | None = None  # the run last made the tab's

        layout = QVBoxLayout(self)
        intro = QLabel(f"This setup ({settings.architecture()}, {ACTIVATIONS[settings.activation]}, "
                       f"{INITS[settings.init]}) trained several times on the same points ({data.name}), each run "
                       "from initial weights of its own: how much does the result depend on them?")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        row = QHBoxLayout()
        row.addWidget(QLabel("Runs"))
        self.runs_spin = named(IntBox("Runs", MIN_RUNS, MAX_RUNS), "repeatRunsSpin",
                               "How many runs, each from its own initial weights", spoken="Runs of each setup")
        self.runs_spin.setValue(runs)
        row.addWidget(self.runs_spin)
        row.addSpacing(8)
        # The TF Playground setting counts in its epochs, a pass over the training points (its "steps").
        self.steps_per_epoch = steps_per_epoch(settings, data)
        unit = "Epochs" if settings.tf_playground else "Steps"
        row.addWidget(QLabel(unit))
        self.steps_spin = named(IntBox(unit, 1 if settings.tf_playground else 10, 200_000), "repeatStepsSpin",
                                f"How many {unit.lower()} each run takes", spoken=f"{unit} each run takes")
        self.steps_spin.setSingleStep(100)
        self.steps_spin.setValue(max(1, round(steps / self.steps_per_epoch)) if settings.tf_playground else steps)
        row.addWidget(self.steps_spin)
        row.addSpacing(8)
        row.addWidget(QLabel("Beside it"))
        self.compare_combo = named(QComboBox(), "repeatCompareCombo",
                                   "A second setup trained over as many seeds, this setup with one setting changed",
                                   spoken="Second setup to compare")
        for key, title in COMPARE_CHOICES:
            self.compare_combo.addItem(title, key)
        row.addWidget(self.compare_combo)
        self.value_stack = QStackedWidget()
        self.activation_combo = named(QComboBox(), "repeatActivationCombo", "The second setup's activation",
                                      spoken="Second setup's activation")
        for key, title in ACTIVATIONS.items():
            if key != settings.activation:
                self.activation_combo.addItem(title, key)
        self.init_combo = named(QComboBox(), "repeatInitCombo", "The second setup's initial weights",
                                spoken="Second setup's initial weights")
        for key, title in INITS.items():
            if key != settings.init:
                self.init_combo.addItem(title, key)
        rate = settings.learning_rate * (10 if settings.learning_rate < 1 else 0.1)
        self.rate_spin = named(LogSpinBox(value=rate, what="Second learning rate"), "repeatLearningRateSpin",
                               "The second setup's learning rate", spoken="Second setup's learning rate")
        for widget in (QWidget(), self.activation_combo, self.init_combo, self.rate_spin):
            self.value_stack.addWidget(widget)
        self.compare_combo.currentIndexChanged.connect(self.value_stack.setCurrentIndex)
        row.addWidget(self.value_stack)
        row.addStretch(1)
        self.repeat_button = named(QPushButton("Repeat"), "repeatAgainButton", "Train the runs again, from the start")
        self.repeat_button.clicked.connect(self.start)
        row.addWidget(self.repeat_button)
        layout.addLayout(row)
        if settings.trains_graph:  # a drawn graph starts from its drawn values: its runs would all be alike
            for widget in (self.runs_spin, self.repeat_button):
                widget.setEnabled(False)

        self.status_label = named(QLabel(), "repeatStatusLabel", spoken="Repeat's runs")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.spread_labels = [named(QLabel(), f"repeatSpreadLabel{index}") for index in range(2)]
        for label in self.spread_labels:
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)

        self.loss_plot = named(pg.PlotWidget(axisItems={"left": LossAxis(orientation="left")}), "repeatLossPlot",
                               "Test loss of every run", spoken="Test-loss curves of the runs")
        style_plot(self.loss_plot, self.palette())
        item = self.loss_plot.getPlotItem()
        item.setLabel("left", "test loss")
        item.setLabel("bottom", "epoch" if settings.tf_playground else "step")  # as the tab counts them
        item.showGrid(True, True, alpha=0.25)
        item.setMouseEnabled(False, False)
        item.setLogMode(y=True)
        self.legend = item.addLegend(offset=(-8, 8), labelTextColor=self.palette().color(self.palette().ColorRole.Text))
        self.curves: list[pg.PlotDataItem] = []
        layout.addWidget(self.loss_plot, 2)

        self.thumbnails_holder = QWidget()
        self.thumbnail_grid = QGridLayout(self.thumbnails_holder)
        self.thumbnail_grid.setContentsMargins(0, 0, 0, 0)
        self.thumbnails: list[QToolButton] = []
        self._group_labels: list[QLabel] = []
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.thumbnails_holder)
        scroll.setMinimumHeight(THUMBNAIL_PX + 56)
        layout.addWidget(scroll, 2)

        self._timer = QTimer(self)
        self._timer.setInterval(50)
        self._timer.timeout.connect(self._on_redraw_timer_timeout)
        self._timer.start()
        fit_to_screen(self, QSize(1000, 700))

    # -- the runs --

    def second_setup(self) -> tuple[str, object] | None:
        """(setting, value) of the second setup, or None."""
        key = self.compare_combo.currentData()
        if not key:
            return None
        value = {"activation": self.activation_combo.currentData(), "init": self.init_combo.currentData(),
                 "learning_rate": self.rate_spin.value()}[key]
        return (key, value) if value != getattr(self.settings, key) else None

    @Slot()
    def start(self) -> None:
        """Train the runs from the start (again)."""
        self._stop_worker()
        try:
            groups = groups_for(self.settings, self.second_setup())
            runs = RepeatRuns(groups, self.data, self.runs_spin.value(), self.steps, graph=self.graph)
        except ValueError as error:  # (a graph the runs cannot train is a GraphProblem, a ValueError)
            self.status_label.setText(f"Cannot repeat: {error}")
            return
        self.runs = runs
        self.progress, self._pictures, self.chosen, self._setups = None, None, None, None
        self._lay_out_runs()
        if self.use_process:  # trained in a process of their own: the window never waits for them
            self.link = RepeatLink(RepeatJob(tuple(groups), self.data, self.runs.runs, self.steps, self.graph))
            if not self.link.broken:
                return
            self.link = None
        self._start_thread()

    def _start_thread(self) -> None:
        """The runs trained in a thread of the app (where their process cannot run)."""
        self.worker = RepeatWorker(self.runs)
        self.worker.progressed.connect(self._on_worker_progressed)
        self.worker.pictured.connect(self._on_worker_pictured)
        self.worker.finished.connect(self._on_worker_finished)
        self.worker.failed.connect(self._on_worker_failed)
        self.thread = start_thread(self.worker, "repeatWorkerThread")
        self.start_requested.connect(self.worker.start)
        self.start_requested.emit()
        self.start_requested.disconnect()

    @property
    def steps(self) -> int:
        """Each run's length in steps (the box's epochs, with the TF Playground setting, times the steps of one)."""
        return self.steps_spin.value() * self._steps_a_unit

    @property
    def epochs(self) -> float:
        """Each run's length in epochs (passes over the training points)."""
        return self.steps / self.steps_per_epoch

    @property
    def _steps_a_unit(self) -> int:
        """Steps in one unit of the box and of the curves' x: an epoch under the TF setting (its counter), else one."""
        return self.steps_per_epoch if self.settings.tf_playground else 1

    @property
    def is_running(self) -> bool:
        if self.link is not None:
            return self._setups is None
        return self.worker is not None and (self.progress is None or not self.progress.done)

    def _lay_out_runs(self) -> None:
        """A curve and a picture per run, named by its setup and seed."""
        item = self.loss_plot.getPlotItem()
        for curve in self.curves:
            item.removeItem(curve)
        self.legend.clear()
        self.curves = []
        for button in self.thumbnails:
            button.deleteLater()
        self.thumbnails = []
        for label in self._group_labels:
            label.deleteLater()
        self._group_labels = []
        runs = self.runs
        across = max(5, runs.runs)
        rows_a_group = -(-runs.runs // across)
        for group_index, group in enumerate(runs.groups):  # each setup's row says which it is, and how it is drawn
            line = "━━" if GROUP_STYLES[group_index][1] == Qt.PenStyle.SolidLine else "╍╍"
            label = QLabel(f"<span style='color:{GROUP_STYLES[group_index][0]}'>{line}</span><br>{group.name}")
            label.setAccessibleName(f"{group.name}: the runs on this row")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._group_labels.append(label)
            self.thumbnail_grid.addWidget(label, group_index * rows_a_group, 0, rows_a_group, 1)
        for column in range(self.thumbnail_grid.columnCount()):
            self.thumbnail_grid.setColumnStretch(column, 0)
        self.thumbnail_grid.setColumnStretch(across + 1, 1)  # the pictures keep to the left, beside their names
        for index, curve in enumerate(runs.curves):
            colour, style = GROUP_STYLES[curve.group]
            first_of_group = index == curve.group * runs.runs
            plotted = item.plot(pen=pg.mkPen(colour, width=1.5, style=style),
                                name=runs.groups[curve.group].name if first_of_group else None)
            self.curves.append(plotted)
            button = QToolButton()
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
            button.setIconSize(QSize(THUMBNAIL_PX, THUMBNAIL_PX))
            button.setCheckable(True)
            button.setObjectName(f"repeatRun{index}")
            button.clicked.connect(lambda _=False, run=index: self.choose(run))
            self.thumbnails.append(button)
            place = index - curve.group * runs.runs
            self.thumbnail_grid.addWidget(button, curve.group * rows_a_group + place // across, 1 + place % across)
        self._show_thumbnail_texts()

    def choose(self, run: int) -> None:
        """Make run ``run`` the training tab's: its weights, step and optimizer state, paused there."""
        if self.runs is None or self.is_running:
            self._show_thumbnail_texts()
            self.status_label.setText("The runs are still training: a run can be taken on once they are done")
            return
        self.chosen = run
        setup: TrainingSetup = self._setups[run] if self._setups is not None else self.runs.setup_of(run)
        self._show_thumbnail_texts()
        self._draw_curves()
        curve = self.runs.curves[run]
        where = (f"epoch {format_number(round(setup.step / self.steps_per_epoch, 1))} (step {setup.step:,})"
                 if self.settings.tf_playground else f"step {setup.step:,}")
        text = (f"The training tab now has run {run + 1} ({self.runs.groups[curve.group].name}, seed {curve.seed}) "
                f"at {where}: press Play there to go on")
        self.status_label.setText(text)
        announce(self.status_label, text)
        self.run_chosen.emit(setup)

    def _stop_worker(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
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

    # -- what the worker sends --

    @Slot(object)
    def _on_worker_progressed(self, progress: RepeatProgress) -> None:
        if self.sender() is self.worker:
            self.progress, self._dirty = progress, True

    @Slot(object)
    def _on_worker_pictured(self, pictures: RepeatPictures) -> None:
        if self.sender() is self.worker:
            self._pictures, self._dirty, self._new_pictures = pictures, True, True

    @Slot()
    def _on_worker_finished(self) -> None:
        self._dirty = True
        self._on_redraw_timer_timeout()
        announce(self.status_label, self.status_label.text())

    @Slot(str, str)
    def _on_worker_failed(self, summary: str, _details: str) -> None:
        self.status_label.setText(f"Repeat stopped: {summary}")

    # -- painting --

    def _take_from_process(self) -> None:
        """What the runs' process has sent (`repeat_process`): curves, pictures, and at the end the runs as setups.
        A process that died leaves its runs to a thread, from the start."""
        link = self.link
        if link is None:
            return
        for message in link.take():
            if isinstance(message, RepeatProgress):
                self.progress, self._dirty = message, True
            elif isinstance(message, RepeatPictures):
                self._pictures, self._dirty, self._new_pictures = message, True, True
            elif isinstance(message, RepeatDone):
                self._setups = message.setups
                self._on_worker_finished()
        if link.broken and self._setups is None:
            self.link = None
            self._start_thread()

    @Slot()
    def _on_redraw_timer_timeout(self) -> None:
        self._take_from_process()
        if not self._dirty or self.progress is None or self.runs is None:
            return
        self._dirty = False
        progress = self.progress
        self._draw_curves()
        total = self.runs.steps
        tf, per_epoch = self.settings.tf_playground, self.steps_per_epoch
        epochs = format_number(round(total / per_epoch, 1))
        length = f"{epochs} epochs" if tf else f"{total:,} steps"
        where = (f"epoch {format_number(round(progress.step / per_epoch, 1))} of {epochs}" if tf
                 else f"step {progress.step:,} of {total:,}")
        if self.chosen is not None:
            pass  # the status says which run the tab has now
        elif progress.done:
            self.status_label.setText(f"Done: {len(progress.curves)} runs of {length} in {progress.seconds:.1f} s. "
                                      "Press a run's picture to make it the training tab's run.")
        else:
            self.status_label.setText(f"Training the runs: {where} ({progress.seconds:.1f} s)")
        for index, label in enumerate(self.spread_labels):
            if index < len(self.runs.groups):
                label.setText(spread_words(self.runs.groups[index].name, progress.spreads[index], self.runs.runs))
                label.setAccessibleName(label.text())
                label.show()
            else:
                label.hide()
        self._show_thumbnail_texts()

    def _draw_curves(self) -> None:
        if self.progress is None:
            return
        for index, (plotted, curve) in enumerate(zip(self.curves, self.progress.curves)):
            colour, style = GROUP_STYLES[curve.group]
            plotted.setPen(pg.mkPen(colour, width=3.5 if index == self.chosen else 1.5, style=style))
            losses = np.maximum(np.asarray(curve.test_losses, dtype=np.float64), 1e-12)
            plotted.setData(np.asarray(curve.steps, dtype=np.float64) / self._steps_a_unit, losses)

    def _show_thumbnail_texts(self) -> None:
        runs, progress, pictures = self.runs, self.progress, self._pictures
        dark = self.palette().color(self.palette().ColorRole.Window).lightness() < 128
        for index, button in enumerate(self.thumbnails):
            curve = progress.curves[index] if progress is not None else runs.curves[index]
            group = runs.groups[curve.group].name
            end = "diverged" if curve.diverged else (f"{curve.test_losses[-1]:.3f}" if curve.test_losses else "–")
            text = f"seed {curve.seed}\n{end}"
            if button.text() != text:  # (a new text lays the grid out again)
                button.setText(text)
                spoken = (f"Run {index + 1}, {group}, seed {curve.seed}: test loss {end}. "
                          "Press to make it the training tab's run")
                button.setAccessibleName(spoken)
                button.setToolTip(curve.diverged or spoken)
            button.setChecked(index == self.chosen)
            if self._new_pictures and pictures is not None and index < len(pictures.boundaries):
                words = thumbnail_words(pictures.boundaries[index], not runs.groups[0].settings.regression, dark)
                image = QImage(words.data, words.shape[1], words.shape[0], 4 * words.shape[1],
                               QImage.Format.Format_RGB32).copy()
                button.setIcon(QIcon(QPixmap.fromImage(image)))
        self._new_pictures = False
