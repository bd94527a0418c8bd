"""The training panel: TF Playground on the desktop, on our engine, with the training off the GUI thread.

The panel only composes its rooms and wires them to the worker: the toolbar (`toolbar`, with the
pace and the stop condition), the status line (`status_line`), the settings column
(`data_controls` and `network_controls`), the network diagram (`network_view`), the decision
boundary (`boundary_plot`) and the output column with its curves and confusion matrices
(`curves`), laid out under the toolbar by `body`. The controls describe a `TrainingSettings`, read and
written as one form (`settings_form`); each edit sends the new settings to the `TrainingWorker`
(wired to the panel by `worker_link`), which resets only what the change needs.
Whatever the worker sends is kept, and a ~60 Hz timer paints the latest of it (`painting`), with a
summary for the main window's status bar (`summary_changed`). A weight typed on the diagram is one undoable edit
(`edits.ParameterEdit` on `undo_stack`); files go through `exports`, setups through `setup_exchange`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ..files.disk import failure_reason
from ..widgets.themes import theme_of_palette
from .body import TrainingBody
from .boundary_plot import BoundaryColumn
from .boundary_view import BoundaryView
from .csv_loading import CsvLoading
from .curves import CurvesColumn
from .data_controls import DataControls
from .edits import ParameterEdit
from .exports import write_dataset, write_weights
from .graph_training import GraphTraining
from .graph_view import NetworkSlot, TrainedGraphView
from .model.network import NetworkSnapshot, network_snapshot
from .model.run_history import RunHistory
from .model.settings import Change, TrainingSettings, classify_change, starts_over_words
from .model.setup_file import TrainingSetup
from .network_controls import NetworkControls
from .network_view import NetworkView
from .painting import PaintedNotice, Painter
from .reset_confirmation import ResetConfirmation
from .settings_form import SettingsForm
from .setup_exchange import SetupExchange
from .status_line import StatusLine
from .tab_dialogs import TabDialogs
from .toolbar import TrainingToolbar
from .widgets import export_plot, named
from .worker import BoundaryFrame, DataFrame, Progress
from .worker_link import link_worker, unlink_requests
from .worker_threads import stop_thread

REDRAW_MS = 16          # the paint timer: ~60 Hz, paints only what changed since the last tick


class TrainingPanel(QWidget):
    """The "Training" tab. Call `shutdown()` before the window goes away (closeEvent does it too)."""

    # Requests to the worker: queued, they run in its thread between chunks of steps.
    publish_requested = Signal()
    start_requested = Signal()
    pause_requested = Signal()
    step_requested = Signal()
    reset_requested = Signal()
    settings_requested = Signal(object)
    points_requested = Signal(object, object, str, object)
    values_requested = Signal(object, object, str)  # a regression's CSV: X, real values, the file's name
    point_requested = Signal(float, float, int)
    focus_requested = Signal(int, int)
    wire_layout_requested = Signal(object)
    parameter_requested = Signal(int, str, object, float)
    setup_requested = Signal(object)
    theme_requested = Signal(bool)  # dark: the worker colours the diagram's maps for it
    graph_requested = Signal(object)  # a graph document to train (`graph_training`): the worker's own copy
    graph_focus_requested = Signal(str, int)  # a graph's node and column drawn at full resolution ("": none)
    graph_wanted = Signal()  # "The editor's graph" chosen: the main window hands it to `train_graph`
    # A trained graph's node maps just painted (colours, column counts) and its numbers (`graph.trained`).
    graph_maps_shown = Signal(object, object, object)
    # What happened, for the main window (status bar) and tests.
    message_shown = Signal(str)
    playing_changed = Signal(bool)
    summary_changed = Signal(str)  # "Step 1234 · epoch 9 · test accuracy 98.33%", with the toolbar's step count
    animate_backward_requested = Signal()  # the main window opens the animator on `network_snapshot()`

    def __init__(self, parent: QWidget | None = None, settings: TrainingSettings | None = None):
        super().__init__(parent)
        named(self, "trainingPanel")
        self.settings = settings or TrainingSettings()
        self._playing = False
        self._shut_down = False
        self._run = 0
        self._data: DataFrame | None = None
        self._frame: BoundaryFrame | None = None
        self._frame_dirty = False
        self._progress: Progress | None = None
        self._progress_dirty = False
        self.dialogs = TabDialogs(self)  # Compare optimizers and Repeat
        self._hovered: tuple[int, int] | None = None  # the neuron under the mouse: its map is on the plot
        self.last_change = None
        self.undo_stack = QUndoStack(self)  # typed weights; the main window may add it to its undo group
        self.reset_confirmation = ResetConfirmation(self)  # the main window hands it its QSettings

        self.graph_training = GraphTraining(self)
        self.csv_loading = CsvLoading(self)
        self.setups = SetupExchange(self)
        self._build_ui()
        self.painter = Painter(self.toolbar, self.boundary_column, self.network_view, self.curves, self.graph_view)
        self._follow_theme()  # the app's theme may be dark already
        self._show_settings(self.settings)

        self.worker, self.worker_thread = link_worker(self)
        self.painted_notice = PaintedNotice(self.worker.painted, self.painter.paint_next_pass, self)
        self.worker.paint_handshake = True  # its frames are painted here: it waits for each (briefly)

        self._redraw_timer = QTimer(self)
        self._redraw_timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._redraw_timer.setInterval(REDRAW_MS)
        self._redraw_timer.timeout.connect(self._on_redraw_timer_timeout)
        self._redraw_timer.start()
        self.publish_requested.emit()

    # -- the rooms -----------------------------------------------------------------------------------

    def _build_ui(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(8, 8, 8, 8)
        root.setSpacing(6)

        self.toolbar = TrainingToolbar()
        self.toolbar.play_toggled.connect(self._on_play_button_toggled)
        self.toolbar.step_clicked.connect(self._on_step_button_clicked)
        self.toolbar.reset_clicked.connect(self._on_reset_button_clicked)
        self.toolbar.speed_changed.connect(self._on_control_edited)
        self.toolbar.animate_clicked.connect(self.animate_backward_requested)
        self.toolbar.compare_clicked.connect(self.dialogs.open_compare)
        self.toolbar.repeat_clicked.connect(self.dialogs.open_repeat)
        self.toolbar.export_chosen.connect(self._on_toolbar_export_chosen)
        root.addWidget(self.toolbar)

        self.status = StatusLine()
        self.status.message_shown.connect(self.message_shown)
        self.toolbar.stop_controls.input_clamped.connect(self.status.show_note)
        self.toolbar.stop_controls.condition_converted.connect(self.status.show_note)
        root.addWidget(self.status)

        self.data_controls = DataControls()
        self.data_controls.edited.connect(self._on_control_edited)
        self.data_controls.edit_refused.connect(self.show_message)
        self.data_controls.input_clamped.connect(self.status.show_note)
        self.data_controls.csv_chosen.connect(self.load_csv)
        self.network_controls = NetworkControls()
        self.network_controls.edited.connect(self._on_control_edited)
        self.network_controls.input_clamped.connect(self.status.show_note)
        self.network_view = NetworkView()
        self.network_view.neuron_hovered.connect(self._on_network_view_neuron_hovered)
        self.network_view.parameter_edited.connect(self._on_network_view_parameter_edited)
        self.network_view.architecture_edited.connect(self._on_network_view_architecture_edited)
        self.network_view.wire_layout_changed.connect(self.wire_layout_requested)
        self.network_view.set_undo_actions(self.undo_stack.createUndoAction(self, "Undo"),
                                           self.undo_stack.createRedoAction(self, "Redo"))
        self.graph_view = TrainedGraphView()
        self.graph_view.map_hovered.connect(self.graph_training.on_map_hovered)
        self.network_slot = NetworkSlot(self.network_view, self.graph_view)
        self.boundary_column = BoundaryColumn()
        self.boundary_column.clicked.connect(self._on_boundary_clicked)
        self.curves = CurvesColumn(self.settings.loss)

        self.body = TrainingBody((self.data_controls, self.network_controls),
                                 (self.network_slot, self.boundary_column, self.curves))
        self.splitter = self.body.splitter
        root.addWidget(self.body, 1)
        self.form = SettingsForm(self.data_controls, self.network_controls, self.toolbar, self.network_slot)

    @property
    def boundary(self) -> BoundaryView:
        return self.boundary_column.view

    @property
    def boundary_plot(self):
        return self.boundary_column.plot

    @property
    def loss_plot(self):
        return self.curves.loss_plot

    @property
    def accuracy_plot(self):
        return self.curves.accuracy_plot

    # -- settings <-> controls -----------------------------------------------------------------------

    def _show_settings(self, s: TrainingSettings) -> None:
        """Put ``s`` into the controls without sending anything."""
        self.form.show(s, self._classes())

    def _show_dependent(self, s: TrainingSettings) -> None:
        self.form.show_dependent(s, self._classes())
        self.curves.set_tf_playground(s.tf_playground)  # its losses with three decimals, as it shows them

    def _classes(self) -> tuple[str, ...]:
        return self._data.data.classes if self._data is not None else ()

    def set_settings(self, settings: TrainingSettings) -> None:
        """Show ``settings`` in the controls and send them to the worker."""
        if settings.dataset == "csv" and not self.data_controls.has_csv:
            raise ValueError("load a CSV before choosing the 'csv' dataset")
        self._show_settings(settings)
        self._request_settings(settings)

    def _request_settings(self, settings: TrainingSettings) -> None:
        if not self.form.shows_loss(settings.loss):
            self._show_settings(settings)  # a loss the panel chose to fit the classes
        self._show_dependent(settings)
        if settings == self.settings:
            return
        if classify_change(self.settings, settings) >= Change.OPTIMIZER:
            self.status.clear_run_message()  # it spoke of the run under the settings that are gone
        self.settings = settings
        self.status.show_state(self._playing, settings.trains_graph)
        self.settings_requested.emit(settings)

    @Slot()
    def _on_control_edited(self, *_) -> None:
        self.status.settings_edited()
        settings = self.form.read(self.settings)
        if settings.trains_graph and not self.settings.trains_graph:  # a graph is trained once it is given
            self.graph_training.wanted()
            return
        if classify_change(self.settings, settings).resets_weights and self.step > 0:
            # A change that throws the trained weights away asks first, as Reset does ("Don't ask again" too).
            was_playing = self._playing
            self.pause()
            self.reset_confirmation.ask_to_change(
                starts_over_words(self.settings, settings), self.step, lambda: self._request_settings(settings),
                lambda: self._keep_settings(was_playing))
            return
        self._request_settings(settings)

    def _keep_settings(self, play: bool) -> None:
        """The person kept the trained network: the controls show its settings again (and it plays on)."""
        self._show_settings(self.settings)
        if play:
            self.play()

    def train_graph(self, document) -> str | None:
        """Train the graph ``document`` from its drawn values (`graph_training`); returns why it cannot be
        trained (nothing changed then), or None."""
        return self.graph_training.train(document)

    # -- the toolbar and the plot --------------------------------------------------------------------

    @Slot(bool)
    def _on_play_button_toggled(self, checked: bool) -> None:
        if checked:
            self.play()
        else:
            self.pause()

    @Slot()
    def _on_step_button_clicked(self) -> None:
        self.pause()
        self.status.clear_run_message()
        self.step_requested.emit()

    @Slot()
    def _on_reset_button_clicked(self) -> None:
        """Asks first when steps were taken (`reset_confirmation`); a "no" lets a run that was playing go on."""
        was_playing = self._playing
        self.pause()
        self.status.clear_run_message()
        self.reset_confirmation.ask(self.step, self._reset, self.play if was_playing else None)

    def _reset(self) -> None:
        """Start over. With the TF Playground setting, as its Reset does: other initial weights at each press (its
        random stream goes on; here the next initial-weights seed), on the same points."""
        s = self.settings
        if s.tf_playground and not s.trains_graph:
            seed = (s.seed if s.init_seed is None else s.init_seed) + 1
            self.set_settings(replace(s, init_seed=seed % 2**32))
        else:
            self.reset_requested.emit()

    @Slot(float, float, bool)
    def _on_boundary_clicked(self, x1: float, x2: float, shift: bool) -> None:
        if self._data is not None and not self.settings.regression:  # a regression's points come with values
            self.add_point(x1, x2, shift=shift)

    def add_point(self, x1: float, x2: float, shift: bool = False) -> None:
        """Add a training point of the class chosen in the picker (with ``shift`` the next class: with two,
        the other one) at (x1, x2)."""
        label = self.boundary_column.click_class
        if shift:
            label = (label + 1) % self.settings.classes
        self.point_requested.emit(float(x1), float(x2), int(label))

    # -- the diagram ---------------------------------------------------------------------------------

    @Slot(int, int)
    def _on_network_view_neuron_hovered(self, layer: int, index: int) -> None:
        """The hovered neuron's map goes on the big plot (the worker draws it at full resolution)."""
        self._hovered = (layer, index) if layer >= 0 else None
        self.focus_requested.emit(layer, index)
        self.painter.show_focus(self._frame, self._hovered)

    @Slot(str, object, float, float)
    def _on_network_view_parameter_edited(self, name: str, index: tuple, old: float, new: float) -> None:
        self.undo_stack.push(ParameterEdit(self.parameter_requested.emit, self._run, name, index, old, new))

    @Slot(object, object)
    def _on_network_view_architecture_edited(self, hidden: tuple[int, ...], origins: tuple[int | None, ...]) -> None:
        self.network_controls.show_layers(hidden, origins)  # each layer's activation and dropout go with it
        self._on_control_edited()

    # -- public actions ------------------------------------------------------------------------------

    @property
    def is_playing(self) -> bool:
        return self._playing

    def play(self) -> None:
        if self._shut_down or self._playing:
            self.toolbar.show_playing(self._playing)
            return
        self._playing = True
        self.painted_notice.expect()
        self.status.clear_run_message()
        self.status.show_state(True, self.settings.trains_graph)
        self.toolbar.show_playing(True)
        self.start_requested.emit()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        if not self._playing:
            self.toolbar.show_playing(False)
            return
        self._playing = False
        self.worker.request_stop()  # takes effect before the worker's next step
        self.status.show_state(False, self.settings.trains_graph)
        self.toolbar.show_playing(False)
        self.pause_requested.emit()
        self.playing_changed.emit(False)

    def _stopped(self) -> None:
        """The worker stopped by itself (divergence, failure): the Play button says so."""
        if self._playing:
            self._playing = False
            self.status.show_state(False, self.settings.trains_graph)
            self.toolbar.show_playing(False)
            self.playing_changed.emit(False)

    def load_csv(self, path: str | Path) -> bool:
        """Train on the points in a CSV file (`csv_loading`); a file that cannot be used is refused with a
        message and the current data stays. False if it was refused."""
        return self.csv_loading.load(path)

    def current_setup(self, with_weights: bool = True) -> TrainingSetup:
        """The tab as it stands, for a file or the clipboard (`setup_exchange`)."""
        return self.setups.current(with_weights)

    def setup_later(self, answer, with_weights: bool = True) -> None:
        """`current_setup` without waiting (the autosave's way: the event loop never waits for a step to end)."""
        self.setups.later(answer, with_weights)

    def apply_setup(self, setup: TrainingSetup) -> None:
        """Show a saved setup and go on from it, paused (`setup_exchange`)."""
        self.setups.apply(setup)

    def show_message(self, text: str) -> None:
        self.status.show_message(text)

    def clear_message(self) -> None:
        self.status.clear_message()

    @property
    def message(self) -> str:
        return self.status.message

    @property
    def summary(self) -> str:
        """The summary last sent to the status bar."""
        return self.painter.summary

    @property
    def step(self) -> int:
        return self._progress.metrics.step if self._progress else 0

    @property
    def metrics(self):
        """The figures of the last report (`Metrics`), or None before the first."""
        return self._progress.metrics if self._progress else None

    @property
    def test_accuracy(self) -> float | None:
        return self._progress.metrics.test_accuracy if self._progress else None

    @property
    def data(self):
        """The points the worker last reported (`SplitData`), or None before the first report."""
        return self._data.data if self._data else None

    @property
    def boundary_redraws(self) -> int:
        return self.boundary.redraws

    def weights(self) -> dict[str, np.ndarray] | None:
        """The weights of the boundary last received (a copy made in the worker)."""
        return self._frame.state if self._frame else None

    @property
    def weights_step(self) -> int | None:
        """The step of those weights (the boundary follows the step count by up to one frame)."""
        return self._frame.step if self._frame else None

    def network_snapshot(self) -> NetworkSnapshot | None:
        """A copy of the network with the weights last drawn, and the batch it trains on; None before
        the first drawing."""
        if self._frame is None or self._data is None:
            return None
        return network_snapshot(self._frame.settings, self._frame.state, self._frame.step, self._data.data,
                                self.graph_training.graph)

    # -- exports -------------------------------------------------------------------------------------

    def export_plot(self, which: str, path: str | Path) -> None:
        """``which`` is 'boundary', 'loss' or 'accuracy'; PNG or SVG by the extension."""
        plots = {"boundary": self.boundary_plot, "loss": self.loss_plot, "accuracy": self.accuracy_plot}
        self._redraw(force=True)
        export_plot(plots[which], path)

    def export_weights(self, path: str | Path) -> None:
        write_weights(self._frame, path)

    def export_dataset(self, path: str | Path) -> None:
        write_dataset(self.data, path)

    @Slot(str, str)
    def _on_toolbar_export_chosen(self, what: str, path: str) -> None:
        """``what``: a plot's name, "weights" or "dataset"."""
        try:
            if what == "weights":
                self.export_weights(path)
            elif what == "dataset":
                self.export_dataset(path)
            else:
                self.export_plot(what, path)
        except OSError as error:
            self.show_message(f"Could not export to {Path(path).name}: {failure_reason(error, path)}")
        except (ValueError, RuntimeError) as error:
            self.show_message(f"Could not export to {Path(path).name}: {error}")

    # -- what the worker reports ---------------------------------------------------------------------

    @Slot(object)
    def _on_worker_progressed(self, progress: Progress) -> None:
        if progress.run < self._run:
            return
        self._progress = progress
        self.curves.add(progress.metrics, progress.losses)
        self._progress_dirty = True

    @Slot(object)
    def _on_worker_boundary_updated(self, frame: BoundaryFrame) -> None:
        if frame.run < self._run:
            return
        waiting = self._frame if self._frame_dirty else None
        if frame.wires is None and waiting is not None and waiting.wires is not None:
            frame = replace(frame, wires=waiting.wires)  # the wires of a frame not painted are not lost
        self._frame = frame
        self._frame_dirty = True
        if self.worker.paint_handshake and frame.run == self._run:  # the worker waits for it: painted at once,
            self._redraw()  # not at the paint timer's next tick (8 ms later on average)

    @Slot(object)
    def _on_worker_data_changed(self, frame: DataFrame) -> None:
        self._data = frame
        self.toolbar.enable_compare()
        d = frame.data
        if frame.settings.dataset == "csv":  # the box says how many points the file has
            self.data_controls.show_point_count(len(d.X_train) + len(d.X_test))
        self.boundary_column.fit_to(d.extent, np.concatenate([d.X_train, d.X_test]))
        self.curves.set_problem(frame.settings.regression)
        if frame.settings.regression:  # values on a colour bar's scale, no classes
            self.boundary_column.show_values(d.X_train, d.y_train, d.X_test, d.y_test)
            return
        self.boundary_column.show_points(d.X_train, d.y_train, d.X_test, d.y_test)
        self.boundary_column.show_classes(d.classes)
        self.curves.confusion.set_classes(d.classes)

    @Slot(int, str)
    def _on_worker_model_reset(self, run: int, why: str) -> None:
        self._run = run
        self.status.clear_run_message()  # "paused at step 103": of the network that is gone
        self.undo_stack.clear()  # typed weights belong to the network that is gone
        self.curves.start_over()
        history = self.setups.take_history()
        if why == "setup" and history is not None:  # a setup opened: its curves as they were
            self.curves.history = RunHistory.from_dict(history.to_dict())
        self._progress = None
        self._frame = None
        self._progress_dirty = True

    @Slot(object, object)
    def _on_worker_settings_applied(self, settings: TrainingSettings, change) -> None:
        self.curves.set_loss(settings.loss)
        self.last_change = change

    @Slot(str)
    def _on_worker_paused_itself(self, message: str) -> None:
        """Diverged, or the stop condition met: the Play button and the status line say so."""
        self._stopped()
        self.show_message(message)

    @Slot(str, str)
    def _on_worker_failed(self, summary: str, details: str) -> None:
        self._stopped()
        self.show_message(f"Training stopped: {summary}")

    # -- painting ------------------------------------------------------------------------------------

    @Slot()
    def _on_redraw_timer_timeout(self) -> None:
        self._redraw()

    def _redraw(self, force: bool = False) -> None:
        """Paint what changed since the last tick (`painting.Painter`; ``force``: every curve plot too)."""
        drew_boundary = self._frame_dirty and self._frame is not None
        if drew_boundary:
            self._frame_dirty = False
            self.painter.paint_frame(self._frame, self._hovered, graph_later=self._frames_flowing() and not force)
            self.painted_notice.post()
            if self._frame.node_images is not None:
                self.graph_maps_shown.emit(self._frame.node_images, self.graph_view.map_totals(), self._frame.trained)
        if self._progress_dirty:
            self._progress_dirty = False
            # While frames flow, the gradient health lines are drawn with the next frame, in its second
            # pass (the worker waits): drawn between frames, they were drawn twice as slowly beside training.
            running = self._progress is not None and self._progress.running
            lines_later = drew_boundary or (running and self._frames_flowing())
            self.painter.offer_progress(self._progress, lines_later=lines_later)
        summary = self.painter.paint_progress(force)
        if summary is not None:
            self.summary_changed.emit(summary)
        if force or not self._frames_flowing():
            self.painter.paint_curves(drew_boundary, force)

    def _frames_flowing(self) -> bool:
        """Training runs and sends a frame each display frame: the curves are drawn in a frame's second pass."""
        return self._playing and self.painted_notice.recent()

    # -- the end -------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop training and end the worker thread (waits for it). Safe to call more than once."""
        if self._shut_down:
            return
        self._shut_down = True
        self._playing = False
        self._redraw_timer.stop()
        self.dialogs.shutdown()
        unlink_requests(self)
        self.worker.painted.set()  # a worker waiting for a picture to be painted goes on at once
        stop_thread(self.worker, self.worker_thread)

    @property
    def is_shut_down(self) -> bool:
        return self._shut_down

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: what Qt's fonts do not reach (plot labels, confusion cells, the diagram's header)
        ``factor`` times larger."""
        self.curves.set_text_scale(factor)
        self.network_view.set_text_scale(factor)
        self.graph_view.set_text_scale(factor)
        self.boundary_column.set_text_scale(factor)
        self.body.set_text_scale(factor)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # the app switched between light and dark
            self._follow_theme()

    def _follow_theme(self) -> None:
        palette = self.palette()
        self.boundary_column.restyle(palette)
        self.curves.restyle(palette)
        theme = theme_of_palette(palette)
        dark = theme != "light"  # the maps and classes are coloured for a dark page in high contrast too
        self.network_view.set_theme(dark)
        self.graph_view.set_theme(theme)
        self.theme_requested.emit(dark)

    def closeEvent(self, event) -> None:
        self.shutdown()
        super().closeEvent(event)
