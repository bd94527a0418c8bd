"""The plane drawn in a process of its own, while training runs: the grid pass and its colouring off the
training process's interpreter lock.

A frame's pictures (`grid.PlaneGrid.draw`: the boundary and every neuron's or node's maps over some 30,000
grid points, then coloured) are as much Python as the GUI's painting of them, and in one process the two take
turns at the interpreter lock, whichever thread they run on: measured, the drawn 2-16-1 graph's frame cost
the training thread 7-8 ms and the GUI 8 ms, one after the other. In a second process the pass runs beside
the painting, on the machine's other core. So do the layer form's wires (`wires.WireLayout.render`: 11 ms for the
default network, eight times a second), drawn with the weights of the frame they go out with.

`PlanePainter` is the training worker's end: it starts the process (``spawn``: a fork of a process running Qt
threads is not safe), sends it a `PlaneJob` (the grid's `GridSpec` when it changed, the weights, the focus, how to
colour, the wires' layout when they are due) and takes back `PlanePictures` without waiting. The process (`serve`)
keeps the grid it was last sent, as the session does. Anything wrong (no process, a process that died, a job that
failed) makes the painter say so, and the worker draws in its own thread as it always could: a picture is never
lost.

The process lives for its parent only: a parent that goes (the window closed while the process was starting, a
crash, a kill) ends it quietly, wherever it was (`main`, `serve`), and Ctrl+C is the parent's to answer, not its.
A drawing that fails goes back to the worker as a `PlanePictures` error; any other failure still prints its
traceback.
"""

from __future__ import annotations

import logging
import os
import secrets
import subprocess
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Listener

import numpy as np

from .child_process import PARENT_GONE, child_main, start_child
from .grid import GridSpec, PlaneDrawing, PlaneGrid
from .neuron_images import NeuronImages, neuron_images, node_images
from .wires import WireLayout

log = logging.getLogger("autograd_playground.training")

READY = "ready"       # the process's first message: its imports are done
NICENESS = 5          # the process yields the CPU to the GUI when both want the same core
LONGEST_JOB_S = 2.0   # a picture not back after this long: the process is stuck, and not used again


@dataclass(frozen=True)
class LayerColours:
    """How the layer form's maps are coloured: by the theme, each neuron's bias beside its map."""

    biases: tuple[np.ndarray, ...]
    dark: bool

    def colour(self, drawing: PlaneDrawing) -> tuple[NeuronImages | None, dict | None]:
        return neuron_images(drawing.maps, self.biases, self.dark), None


@dataclass(frozen=True)
class NodeColours:
    """How a graph's node maps are coloured: by each node's kind, the output's as probabilities when the
    graph classifies."""

    kinds: dict[str, str]
    output: str
    classify: bool
    dark: bool

    def colour(self, drawing: PlaneDrawing) -> tuple[NeuronImages | None, dict | None]:
        return None, node_images(drawing.node_maps, self.kinds, self.output, self.classify, self.dark)


@dataclass(frozen=True)
class WireJob:
    """The layer form's wires to draw with a frame's pictures: where they run, and each layer's weights
    (1..n, as `WireLayout.render` takes them)."""

    layout: WireLayout
    weights: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class PlaneJob:
    serial: int
    spec: GridSpec | None             # the grid to draw on from now on; None: the one last sent
    weights: tuple[np.ndarray, ...]   # in the order of the model's ``parameters()``
    focus: tuple | None
    colours: LayerColours | NodeColours
    wires: WireJob | None = None      # the diagram's wires too, when they are due


@dataclass(frozen=True)
class PlanePictures:
    """A job's pictures: the drawing and its coloured maps, or what went wrong."""

    serial: int
    drawing: PlaneDrawing | None
    images: NeuronImages | None = None
    node_images: dict[str, np.ndarray] | None = None
    error: str | None = None
    wires: tuple[int, np.ndarray] | None = None  # the layout's serial and the wires' image, when asked for
    wire_seconds: float = 0.0                    # what drawing them took


def pictures(grid: PlaneGrid, job: PlaneJob) -> PlanePictures:
    """What a job asks for, drawn on ``grid``: the same code in the process and in the worker's thread. A graph's
    node maps go out in colour only (a frame is painted from those): their numbers were a third of what the
    process sent back, and reading them took the training thread's time."""
    drawing = grid.draw_weights(job.weights, job.focus)
    images, nodes = job.colours.colour(drawing)
    if nodes is not None:
        drawing = replace(drawing, node_maps=None)
    wires, wire_seconds = None, 0.0
    if job.wires is not None:
        started = time.perf_counter()
        wires = job.wires.layout.serial, job.wires.layout.render(job.wires.weights)
        wire_seconds = time.perf_counter() - started
    return PlanePictures(job.serial, drawing, images, nodes, wires=wires, wire_seconds=wire_seconds)


def import_what_jobs_need() -> None:
    """Import what unpickling any job needs, before the process says it is ready: the first graph document's
    unpickling imported its file format (pydantic), and a run's first picture came 150 ms after Play."""
    from ...graph import document  # noqa: F401


def serve(connection) -> None:
    """The process: answer each job in turn until the connection closes (or a None arrives)."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)  # a chunk's products are small: BLAS's helper threads would take the GUI's core
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    import_what_jobs_need()
    try:
        connection.send(READY)
    except PARENT_GONE:
        return  # the window closed while this process started: nobody to draw for
    grid: PlaneGrid | None = None
    while True:
        try:
            job = connection.recv()
        except PARENT_GONE:
            return
        if job is None:
            return
        try:
            if job.spec is not None:
                grid = None  # a grid that fails to build is not drawn on
                grid = job.spec.build()
            if grid is None:
                raise RuntimeError("no grid to draw on")
            answer = pictures(grid, job)
        except Exception as error:  # noqa: BLE001 - the worker draws this one itself, and reports what fails
            answer = PlanePictures(job.serial, None, error=f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except (OSError, ValueError):
            return


class PlanePainter:
    """The training worker's end of the process; every method is called from the worker's thread.

    ``submit`` sends a job and returns its serial; ``take`` returns that job's pictures once they are there
    (None until then), dropping any earlier job's the worker no longer wants."""

    def __init__(self):
        self._process = None
        self._connection = None
        self._ready = False
        self.broken = False       # the process could not start or has died: the worker draws itself
        self._grid_sent: PlaneGrid | None = None
        self._serial = 0
        self._sent_at = 0.0

    def start(self) -> None:
        """Start the process, without waiting for it (its imports take about a second): `ready` says when.

        A plain ``python -c`` calling `main`, not `multiprocessing`'s spawn: spawn runs the parent's main
        script again in the child (the whole app and Qt, or a script without a ``__main__`` guard). The two
        meet on a `multiprocessing.connection` listener (a local socket or pipe, with a key only they know),
        accepted on a short-lived thread so that neither the worker nor the GUI waits for the child."""
        if self._process is not None or self.broken:
            return
        try:
            key = secrets.token_bytes(32)
            listener = Listener(authkey=key)
            process = start_process(listener.address, key)
        except Exception:  # noqa: BLE001 - no process here (a sandbox, a frozen app): the worker draws itself
            log.exception("the plane's process did not start; the training thread draws the pictures")
            self.broken = True
            return
        self._process = process
        threading.Thread(target=self._accept, args=(listener,), name="plane process accept", daemon=True).start()

    def _accept(self, listener: Listener) -> None:
        try:
            with listener:
                self._connection = listener.accept()
        except Exception:  # noqa: BLE001 - a child that never called: the worker draws itself
            log.exception("the plane's process did not connect")
            self.broken = True

    @property
    def ready(self) -> bool:
        """Started, its imports done, and alive."""
        if self.broken or self._connection is None:
            return False
        if not self._ready:
            try:
                if self._connection.poll():
                    self._ready = self._connection.recv() == READY
            except (EOFError, OSError):
                self._break("the plane's process ended before it was ready")
        return self._ready

    def submit(self, grid: PlaneGrid, weights, focus, colours, wires: WireJob | None = None) -> int | None:
        """Send a job (the grid's spec with it when the process has another); its serial, or None when the
        process is not there to take it."""
        if not self.ready:
            return None
        self._serial += 1
        spec = grid.spec if grid is not self._grid_sent else None
        try:
            self._connection.send(PlaneJob(self._serial, spec, tuple(weights), focus, colours, wires))
        except (OSError, ValueError):
            self._break("the plane's process stopped taking jobs")
            return None
        self._sent_at = time.perf_counter()
        self._grid_sent = grid
        return self._serial

    def take(self, serial: int) -> PlanePictures | None:
        """Job ``serial``'s pictures if they have come (earlier jobs' are dropped); None if not yet, and
        `broken` once the process has died or kept a job longer than `LONGEST_JOB_S`."""
        if self.broken or self._connection is None:
            return None
        try:
            while self._connection.poll():
                answer = self._connection.recv()
                if answer.error is not None:
                    self._grid_sent = None  # the next job sends its grid again
                if answer.serial == serial:
                    return answer
        except Exception:  # noqa: BLE001 - a connection that fails in any way is not used again
            log.exception("the plane's process sent what could not be read")
            self._break("the plane's process failed")
            return None
        if self._process.poll() is not None:
            self._break(f"the plane's process ended (exit code {self._process.returncode})")
        elif time.perf_counter() - self._sent_at > LONGEST_JOB_S:
            self._break(f"the plane's process took over {LONGEST_JOB_S:.0f} s for a picture")
        return None

    def close(self) -> None:
        """End the process (it ends by itself, too, when this process does)."""
        connection, process = self._connection, self._process
        self._connection = self._process = None
        self._ready = False
        self._grid_sent = None
        if connection is not None:
            try:
                connection.send(None)
            except (OSError, ValueError):
                pass
            connection.close()
        if process is not None:
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()

    def _break(self, why: str) -> None:
        log.warning("%s; the training thread draws the pictures from now on", why)
        self.broken = True
        self._ready = False
        if self._process is not None and self._process.poll() is None:
            self._process.kill()


_shared: PlanePainter | None = None
_owner: object | None = None
_lock = threading.Lock()


def _started_painter() -> PlanePainter:
    """The app's one painter, its process started (or starting); called under `_lock`."""
    global _shared
    if _shared is None:
        _shared = PlanePainter()
    _shared.start()  # nothing once started (or broken)
    return _shared


def warm_up_painter() -> None:
    """Start the app's plane process now (its imports take about a second), so that a first run has it from its
    first frames: the default network reaches 97% within a second of Play, before a process started then was up."""
    with _lock:
        _started_painter()


def claim_painter(owner: object) -> PlanePainter | None:
    """The app's one plane process, for ``owner`` (a training worker) until it lets go (`release_painter`);
    None while another owner has it. One process serves every run in turn: it costs a second to start."""
    global _owner
    with _lock:
        if _owner is not None and _owner is not owner:
            return None
        _owner = owner
        return _started_painter()


def release_painter(owner: object) -> None:
    global _owner
    with _lock:
        if _owner is owner:
            _owner = None


def start_process(address, key: bytes, stderr=None) -> subprocess.Popen:
    """The process started and told where to call (the listener's ``address``, and ``key``); its messages go to
    ``stderr`` (None: this process's stderr). See `child_process`."""
    return start_child(__name__, address, key, stderr)


def main() -> None:
    """The process's start: the listener's address and key on stdin, then `serve` until the worker's end closes
    (`child_process.child_main`: a parent gone before the two meet ends it quietly)."""
    child_main(serve)
