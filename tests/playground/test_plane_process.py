"""The plane drawn in a process of its own while training runs (`plane_process`, issue 28 item 8): the process
draws exactly what the training thread would, a frame's figures are those of the weights its pictures were drawn
with, and a process that fails, dies or is missing costs no picture (the thread draws them, as before)."""

from __future__ import annotations

import os
import pickle
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import replace
from multiprocessing.connection import Listener
from pathlib import Path

import numpy as np
import pytest

from playground.graph.expression import parse_expression
from playground.training.model.network import parameter_name
from playground.training.model.plane_process import (
    LayerColours,
    NodeColours,
    PlaneJob,
    PlanePainter,
    WireJob,
    claim_painter,
    pictures,
    release_painter,
    start_process,
)
from playground.training.model.session import TrainingSession, TrainingSettings
from playground.training.model.wire_schedule import layer_weights
from playground.training.model.wires import WireLayout

GRAPH = ("X = points(); W1 = randn(2, 16, seed=0); b1 = zeros(16); W2 = randn(16, 1, seed=1); b2 = zeros(1); "
         "out = tanh(X @ W1 + b1) @ W2 + b2")
WAIT_S = 30.0  # the process's start on a busy machine


@pytest.fixture(scope="module")
def painter():
    painter = PlanePainter()
    painter.start()
    started = time.perf_counter()
    while not painter.ready and not painter.broken and time.perf_counter() - started < WAIT_S:
        time.sleep(0.01)
    assert painter.ready, "the plane's process did not start"
    yield painter
    painter.close()


def graph_session(aspect: float = 1.0) -> TrainingSession:
    session = TrainingSession(replace(TrainingSettings(hidden=(16,)), network="graph"), graph=parse_expression(GRAPH),
                              resolution=60, aspect=aspect)
    session.train_steps(30)
    return session


def graph_job(session: TrainingSession, focus=None) -> PlaneJob:
    plan, document = session.model.plan, session.model.document
    colours = NodeColours({node: document.node(node).kind for node in plan.per_point}, plan.output, True, False)
    return PlaneJob(0, None, tuple(p.data for p in session.model.parameters()), focus, colours)


def layer_job(session: TrainingSession) -> PlaneJob:
    named = dict(session.model.named_parameters())
    biases = tuple(named[parameter_name(layer, "bias")].data for layer in range(1, len(session.settings.layer_sizes)))
    return PlaneJob(0, None, tuple(p.data for p in session.model.parameters()), (1, 3), LayerColours(biases, True))


def drawn_there(painter: PlanePainter, session: TrainingSession, job: PlaneJob):
    serial = painter.submit(session.grid, job.weights, job.focus, job.colours, job.wires)
    assert serial is not None
    started = time.perf_counter()
    while (answer := painter.take(serial)) is None:
        assert not painter.broken and time.perf_counter() - started < WAIT_S
        time.sleep(0.001)
    return answer


def assert_same_pictures(there, here) -> None:
    assert there.error is None
    a, b = there.drawing, here.drawing
    assert np.array_equal(a.probability, b.probability)
    assert all(np.array_equal(x, y) for x, y in zip(a.contour, b.contour))
    assert all(np.array_equal(x, y) for x, y in zip(a.maps, b.maps))
    assert (a.focus is None) == (b.focus is None)
    if a.focus is not None:
        assert np.array_equal(a.focus.image, b.focus.image) and a.focus.node == b.focus.node
    if here.node_images is not None:
        assert a.node_maps is None and b.node_maps is None  # sent in colour only
        assert there.node_images.keys() == here.node_images.keys()
        assert all(np.array_equal(there.node_images[n], here.node_images[n]) for n in here.node_images)
    if here.images is not None:
        assert all(np.array_equal(x, y) for x, y in zip(there.images.maps, here.images.maps))


def test_the_process_draws_a_graph_exactly_as_the_thread_does(painter):
    session = graph_session()
    hidden = next(n for n in session.model.plan.per_point if session.model.plan.shapes[n][1:] == (16,))
    for focus in (None, (hidden, 5)):
        job = graph_job(session, focus)
        assert_same_pictures(drawn_there(painter, session, job), pictures(session.grid, job))


def test_the_process_draws_the_layer_form_exactly_and_follows_a_new_grid(painter):
    session = TrainingSession(TrainingSettings(hidden=(8, 8)), resolution=60)
    session.train_steps(20)
    job = layer_job(session)
    assert_same_pictures(drawn_there(painter, session, job), pictures(session.grid, job))
    session.set_aspect(1.6)  # a new grid: sent with the next job
    job = layer_job(session)
    there = drawn_there(painter, session, job)
    assert there.drawing.probability.shape == pictures(session.grid, job).drawing.probability.shape != (60, 60)
    assert_same_pictures(there, pictures(session.grid, job))


def wire_layout(sizes: tuple[int, ...]) -> WireLayout:
    pairs = tuple((20.0 + 100 * i, 100.0 + 100 * i, np.linspace(5, 195, left), np.linspace(5, 195, right))
                  for i, (left, right) in enumerate(zip(sizes, sizes[1:])))
    return WireLayout(7, sizes, 100 * len(sizes), 200, pairs, 3.0, (230, 159, 0), (0, 114, 178))


def test_the_process_draws_the_layer_forms_wires_exactly_when_asked(painter):
    session = TrainingSession(TrainingSettings(hidden=(8, 8)), resolution=60)
    session.train_steps(20)
    layout = wire_layout(session.settings.layer_sizes)
    job = replace(layer_job(session), wires=WireJob(layout, layer_weights(layout, session.state_dict())))
    there = drawn_there(painter, session, job)
    serial, image = there.wires
    assert serial == layout.serial and there.wire_seconds > 0
    assert np.array_equal(image, layout.render(layer_weights(layout, session.state_dict())))
    assert drawn_there(painter, session, layer_job(session)).wires is None  # not asked: not drawn


def test_a_job_that_fails_there_says_why_and_the_next_one_is_drawn(painter):
    session = graph_session()
    job = graph_job(session)
    wrong = replace(job, weights=job.weights[:-1])  # a weight missing
    answer = drawn_there(painter, session, wrong)
    assert answer.drawing is None and "ValueError" in answer.error
    with pytest.raises(ValueError):  # the thread, drawing it instead, meets the same failure (and reports it)
        pictures(session.grid, wrong)
    assert not painter.broken
    assert_same_pictures(drawn_there(painter, session, job), pictures(session.grid, job))


def test_a_job_unpickled_there_imports_nothing_the_process_had_not_imported_before_it_was_ready():
    """A first job's pickle that imports (a graph document's file format: pydantic) holds a run's first picture up."""
    session = graph_session()
    layers = TrainingSession(TrainingSettings(hidden=(4,)), resolution=30)
    layout = wire_layout(layers.settings.layer_sizes)
    job = replace(graph_job(session), spec=session.grid.spec,
                  wires=WireJob(layout, layer_weights(layout, layers.state_dict())))
    script = ("import pickle, sys\n"
              "from playground.training.model.plane_process import import_what_jobs_need\n"
              "import_what_jobs_need()\n"
              "before = set(sys.modules)\n"
              "pickle.loads(sys.stdin.buffer.read())\n"
              "print(sorted(set(sys.modules) - before))\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(job), capture_output=True, cwd=root,
                          timeout=60, check=True)
    assert done.stdout.decode().strip() == "[]"


def test_a_process_that_dies_is_not_used_again():
    painter = PlanePainter()
    painter.start()
    started = time.perf_counter()
    while not painter.ready and time.perf_counter() - started < WAIT_S:
        time.sleep(0.01)
    session = graph_session()
    job = graph_job(session)
    painter._process.kill()
    painter._process.wait(5)
    serial = painter.submit(session.grid, job.weights, None, job.colours)
    started = time.perf_counter()
    while not painter.broken and time.perf_counter() - started < WAIT_S:
        assert painter.take(serial or 0) is None
        time.sleep(0.01)
    assert painter.broken and not painter.ready
    assert painter.submit(session.grid, job.weights, None, job.colours) is None
    painter.close()


class Parent:
    """The app's end of the plane's process as `PlanePainter.start` makes it (a listener, the real child started by
    `start_process`), the child's stderr caught: each test makes this end go away at another moment."""

    def __init__(self, key: bytes | None = None):
        self.key = secrets.token_bytes(32)
        self.listener = Listener(authkey=self.key)
        self.child = start_process(self.listener.address, self.key if key is None else key, stderr=subprocess.PIPE)

    def accept(self):
        return self.listener.accept()

    def ended(self) -> tuple[int, str]:
        """The child's exit code and what it wrote on stderr, once it ended by itself."""
        try:
            self.child.wait(timeout=WAIT_S)  # (a traceback fits in the pipe's buffer: read once it has ended)
        except subprocess.TimeoutExpired:
            self.child.kill()
            raise AssertionError("the plane's process outlived its parent") from None
        with self.child.stderr:
            return self.child.returncode, self.child.stderr.read().decode(errors="replace")


def test_a_process_whose_parent_went_before_ready_ends_quietly():
    """The window closed soon after the tab's first picture: the two had met, the child was importing. It used to
    print a BrokenPipeError's traceback, sending READY to nobody."""
    parent = Parent()
    connection = parent.accept()
    connection.close()
    parent.listener.close()
    assert parent.ended() == (0, "")


def test_a_process_whose_parent_went_before_they_met_ends_quietly():
    """The listener closed while the child still imports (its socket's file gone): it used to print the
    FileNotFoundError of its call."""
    parent = Parent()
    parent.listener.close()
    assert parent.ended() == (0, "")


def test_a_process_whose_parent_goes_while_it_waits_for_a_job_ends_quietly():
    parent = Parent()
    with parent.listener, parent.accept() as connection:
        assert connection.recv() == "ready"
    assert parent.ended() == (0, "")


def test_ctrl_c_is_the_apps_to_answer_and_the_process_then_ends_quietly():
    """Ctrl+C in the terminal goes to the app's process group: the child is in a group of its own, and SIGINT sent
    to it anyway is not its to answer (it used to die with a KeyboardInterrupt's traceback); it ends with the app."""
    parent = Parent()
    if os.name == "posix":
        assert os.getpgid(parent.child.pid) != os.getpgid(0)
    with parent.listener, parent.accept() as connection:
        assert connection.recv() == "ready"
        parent.child.send_signal(signal.SIGINT)
        time.sleep(0.3)
        assert parent.child.poll() is None  # still there: the app decides
        connection.send(None)  # the app lets go, as `PlanePainter.close` does
    assert parent.ended() == (0, "")


def test_a_real_failure_in_the_process_still_says_what_it_was():
    """Quiet only for a parent that has gone: a wrong key (a bug, not a lost parent) keeps its traceback."""
    parent = Parent(key=secrets.token_bytes(32))
    with parent.listener, pytest.raises(Exception, match="digest"):
        parent.accept()
    code, stderr = parent.ended()
    assert code != 0 and "AuthenticationError" in stderr and "Traceback" in stderr


def test_one_run_at_a_time_has_the_process():
    first, second = object(), object()
    assert claim_painter(first) is not None
    assert claim_painter(second) is None  # the first still has it: the second's thread draws
    assert claim_painter(first) is not None
    release_painter(first)
    assert claim_painter(second) is not None
    release_painter(second)


def test_frames_drawn_there_carry_the_figures_of_their_own_weights(qtbot, panel):
    """Played at Fastest with the process drawing: each frame's pictures are those of the weights it carries
    (drawn again here from them), and the frame after a pause is the paused step's."""
    worker = panel.worker
    panel.train_graph(parse_expression(GRAPH))
    panel.set_settings(replace(panel.settings, stop_when="never", steps_per_second=None))
    frames = []
    panel.worker.boundary_updated.connect(frames.append)
    panel.play()
    qtbot.waitUntil(lambda: worker._painter is not None and worker._painter.ready, timeout=int(WAIT_S * 1000))
    shown = len(frames)
    qtbot.waitUntil(lambda: len(frames) >= shown + 10, timeout=int(WAIT_S * 1000))
    panel.pause()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=10_000)
    qtbot.wait(200)
    session = worker.session
    order = [name for name, _ in session.model.named_parameters()]
    compared = [frame for frame in frames[shown:] if frame.extent == session.grid.view_extent][:10]
    assert len(compared) >= 5  # (a frame drawn before the plot's last change of shape is drawn on another grid)
    for frame in compared:
        drawn = session.grid.draw_weights([frame.state[name] for name in order])
        assert np.array_equal(drawn.probability, frame.drawing.probability), frame.step
    assert frames[-1].step == session.step and worker._painter is None  # let go of when the run ended


def test_a_layer_form_runs_wires_are_drawn_there_with_the_weights_of_their_frame(qtbot, panel):
    """While the process draws, it draws the wires too, with the weights of the frame they go out with (this
    thread drew them after a frame was painted, for the next: 11 ms of its time, eight times a second)."""
    worker = panel.worker
    panel.set_settings(replace(panel.settings, stop_when="never", steps_per_second=None))
    qtbot.waitUntil(lambda: worker.wires.layout is not None, timeout=int(WAIT_S * 1000))
    frames = []
    worker.boundary_updated.connect(frames.append)
    panel.play()
    qtbot.waitUntil(lambda: worker._painter is not None and worker._painter.ready, timeout=int(WAIT_S * 1000))
    shown = len(frames)
    qtbot.waitUntil(lambda: sum(frame.wires is not None for frame in frames[shown:]) >= 4, timeout=int(WAIT_S * 1000))
    panel.pause()
    qtbot.waitUntil(lambda: not panel.is_playing, timeout=10_000)
    layout = worker.wires.layout
    for frame in [frame for frame in frames[shown:] if frame.wires is not None][:4]:
        serial, image = frame.wires
        assert serial == layout.serial
        assert np.array_equal(image, layout.render(layer_weights(layout, frame.state))), frame.step


@pytest.fixture
def own_painter():
    """The app's painter replaced by a fresh one for this test (it is broken on purpose), and put back."""
    from playground.training.model import plane_process

    kept = plane_process._shared
    plane_process._shared = None
    yield
    if plane_process._shared is not None:
        plane_process._shared.close()
    plane_process._shared = kept


def test_a_run_whose_process_dies_goes_on_being_drawn(qtbot, panel, own_painter):
    worker = panel.worker
    panel.train_graph(parse_expression(GRAPH))
    panel.set_settings(replace(panel.settings, stop_when="never", steps_per_second=None))
    panel.play()
    qtbot.waitUntil(lambda: worker._painter is not None and worker._painter.ready, timeout=int(WAIT_S * 1000))
    painter = worker._painter
    painter._process.kill()
    qtbot.waitUntil(lambda: painter.broken, timeout=int(WAIT_S * 1000))
    drawn = panel.boundary_redraws
    qtbot.waitUntil(lambda: panel.boundary_redraws >= drawn + 10, timeout=int(WAIT_S * 1000))
    panel.pause()


def test_at_a_slow_pace_the_picture_is_of_the_step_shown(qtbot, panel):
    """Two steps a second, the process drawing: each step's picture comes at once, not with the next step."""
    worker = panel.worker
    panel.train_graph(parse_expression(GRAPH))
    panel.set_settings(replace(panel.settings, stop_when="never", steps_per_second=2))
    frames = []
    worker.boundary_updated.connect(frames.append)
    panel.play()
    qtbot.waitUntil(lambda: worker._painter is not None and worker._painter.ready, timeout=int(WAIT_S * 1000))
    checked = 0
    while checked < 3:
        step = panel.step
        qtbot.waitUntil(lambda step=step: panel.step > step, timeout=5000)
        qtbot.wait(200)  # the next step is half a second away; a frame is due in a display frame
        if panel.step == step + 1:  # (no step came meanwhile on a slow machine)
            assert frames[-1].step == panel.step
            checked += 1
    panel.pause()


def test_the_process_is_started_with_the_tab_before_any_run(qtbot, panel, own_painter):
    """Started once the tab has its first picture, so a first run has it from its first frames."""
    from playground.training.model import plane_process

    panel.publish_requested.emit()  # as at the tab's start (the fixture's own start went to the app's painter)
    qtbot.waitUntil(lambda: plane_process._shared is not None and plane_process._shared.ready,
                    timeout=int(WAIT_S * 1000))
    assert not panel.is_playing
