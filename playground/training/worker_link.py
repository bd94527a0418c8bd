"""The panel and its worker, wired: the worker's reports to the panel's slots, the panel's requests
to the worker's slots (queued: they run in the worker's thread, between chunks of steps)."""

from __future__ import annotations

from PySide6.QtCore import QThread

from .worker import TrainingWorker
from .worker_threads import shut_down_at_exit, start_thread

# The panel's request signals, each with the worker slot it calls.
REQUESTS = {
    "publish_requested": "publish", "start_requested": "start", "pause_requested": "pause",
    "step_requested": "step_once", "reset_requested": "reset", "settings_requested": "apply_settings",
    "points_requested": "set_points", "values_requested": "set_values", "point_requested": "add_point",
    "focus_requested": "set_focus", "wire_layout_requested": "set_wire_layout",
    "parameter_requested": "set_parameter", "setup_requested": "load_setup", "theme_requested": "set_dark",
    "graph_requested": "set_graph", "graph_focus_requested": "set_graph_focus",
}


def link_worker(panel) -> tuple[TrainingWorker, QThread]:
    """A worker for ``panel``'s settings in a thread of its own, wired both ways, and its thread."""
    worker = TrainingWorker(panel.settings)
    worker.progressed.connect(panel._on_worker_progressed)
    worker.boundary_updated.connect(panel._on_worker_boundary_updated)
    worker.data_changed.connect(panel._on_worker_data_changed)
    worker.model_reset.connect(panel._on_worker_model_reset)
    worker.settings_applied.connect(panel._on_worker_settings_applied)
    worker.diverged.connect(panel._on_worker_paused_itself)
    worker.stalled.connect(panel.show_message)
    worker.stop_reached.connect(panel._on_worker_paused_itself)
    worker.failed.connect(panel._on_worker_failed)
    worker.graph_refused.connect(panel.show_message)
    worker.setup_answered.connect(panel.setups._on_worker_setup_answered)
    thread = start_thread(worker, "trainingWorkerThread")
    shut_down_at_exit(panel)
    for request, slot in REQUESTS.items():
        getattr(panel, request).connect(getattr(worker, slot))
    panel.theme_requested.emit(panel.network_view.canvas.dark)  # chosen before the worker existed
    if panel.network_view.canvas.wire_layout is not None:  # laid out before the worker existed
        panel.wire_layout_requested.emit(panel.network_view.canvas.wire_layout)
    return worker, thread


def unlink_requests(panel) -> None:
    """Disconnect every request (at shutdown: nothing more goes to a worker that is stopping)."""
    for request in REQUESTS:
        try:
            getattr(panel, request).disconnect()
        except (RuntimeError, TypeError):
            pass
