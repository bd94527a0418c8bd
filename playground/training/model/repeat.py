"""Repeat: one setup trained several times, each run from initial weights of its own, on the same points: how
much does a run depend on its seed? (The MLCC "Neural net initialization" exercise; tensorflow/playground #1,
"visualizing different weight initializations".) Free of Qt.

A *group* is a setup (the training tab's, or the tab's with one setting changed: another activation, other
initial weights, another learning rate); each group is trained ``runs`` times, run k from the initial-weights
seed ``first + k`` (run 0 from the tab's own: it is the tab's run, taken again). The runs share the points
and the minibatch order, so the initial weights are all they differ in. They are trained in turns, a chunk
each, so that every curve grows together; each run keeps its test loss every few steps (`RunCurve`), its end
(`converged`: the test loss at the last step), and whether it diverged. `spread` is what the runs' ends
say together: lowest, median, highest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from engine import Tensor, no_grad

from ...common.colours import class_colours, map_words, probability_contrast, rgb_words, tint_rgb
from .points import SplitData
from .session import TrainingSession
from .settings import TrainingSettings
from .setup_file import TrainingSetup, capture

MIN_RUNS, MAX_RUNS = 2, 10
CURVE_POINTS = 200     # a run's test-loss curve keeps about this many points, evenly spread over its steps
THUMBNAIL = 48         # a run's boundary picture, a side in grid pixels
MAX_SEED = 2**32 - 1
# What a second group may change, and the words for it ("ReLU", "Xavier / Glorot", "learning rate 0.1").
COMPARABLE = ("activation", "init", "learning_rate")


@dataclass(frozen=True)
class Group:
    """A setup trained ``runs`` times; ``name`` says how it differs from the tab's ("This setup", "ReLU")."""

    name: str
    settings: TrainingSettings


def groups_for(settings: TrainingSettings, change: tuple[str, object] | None = None) -> list[Group]:
    """The tab's setup, and, with ``change`` = (setting, value), the same with that one setting changed."""
    groups = [Group("This setup", settings)]
    if change is not None:
        name, value = change
        if name not in COMPARABLE:
            raise ValueError(f"Repeat compares {', '.join(COMPARABLE)}, not {name!r}")
        if getattr(settings, name) == value:
            raise ValueError(f"the second setup must differ from this one: its {name} is {value!r} already")
        changes = {name: value, "activations": ()} if name == "activation" else {name: value}  # every layer's
        groups.append(Group(change_words(name, value), replace(settings, **changes)))
    return groups


def change_words(name: str, value) -> str:
    from .settings import ACTIVATIONS, INITS

    if name == "activation":
        return ACTIVATIONS[value]
    if name == "init":
        return INITS[value]
    return f"learning rate {value:g}"


def run_seeds(settings: TrainingSettings, runs: int) -> list[int]:
    """The initial-weights seeds of ``runs`` runs: the tab's own first, then the next ones."""
    first = settings.seed if settings.init_seed is None else settings.init_seed
    return [(first + k) % (MAX_SEED + 1) for k in range(runs)]


@dataclass
class RunCurve:
    """One run: its group, its seed, its test loss at some of its steps, and how it ended."""

    group: int
    seed: int
    steps: list[int] = field(default_factory=list)
    test_losses: list[float] = field(default_factory=list)
    diverged: str | None = None   # the divergence message, for a run that stopped there

    @property
    def converged(self) -> float:
        """The test loss at its last step (nan for a run that diverged, or has not started)."""
        return self.test_losses[-1] if self.test_losses and self.diverged is None else math.nan


@dataclass(frozen=True)
class Spread:
    """The ends of a group's runs (those that did not diverge): lowest, median, highest test loss."""

    lowest: float
    median: float
    highest: float
    runs: int
    diverged: int

    @property
    def ratio(self) -> float:
        """Highest over lowest: "varied almost 2X from lowest to highest"."""
        return self.highest / self.lowest if self.lowest > 0 else math.inf


def spread_of(losses: list[float], diverged: int = 0) -> Spread | None:
    finite = sorted(loss for loss in losses if math.isfinite(loss))
    if not finite:
        return None
    return Spread(finite[0], float(np.median(finite)), finite[-1], len(finite), diverged)


class RepeatRuns:
    """The runs of every group (see the module docstring), trained a chunk at a time with `advance`."""

    def __init__(self, groups: list[Group], data: SplitData, runs: int, steps: int, graph=None,
                 resolution: int = THUMBNAIL):
        if not MIN_RUNS <= runs <= MAX_RUNS:
            raise ValueError(f"Repeat trains {MIN_RUNS} to {MAX_RUNS} runs, not {runs!r}")
        if not isinstance(steps, int) or steps < 1:
            raise ValueError(f"a run takes at least one step, not {steps!r}")
        self.groups, self.runs, self.steps = groups, runs, steps
        self.data = data.copy()
        self.sessions: list[TrainingSession] = []
        self.curves: list[RunCurve] = []
        for index, group in enumerate(groups):
            for seed in run_seeds(group.settings, runs):
                settings = replace(group.settings, init_seed=seed)
                self.sessions.append(TrainingSession(settings, data=self.data, resolution=resolution, graph=graph))
                self.curves.append(RunCurve(index, seed))
        self._every = max(1, steps // CURVE_POINTS)
        for session, curve in zip(self.sessions, self.curves):
            self._record(session, curve)

    @property
    def done(self) -> bool:
        return all(curve.diverged is not None or session.step >= self.steps
                   for session, curve in zip(self.sessions, self.curves))

    @property
    def step(self) -> int:
        """The step the slowest run still going has reached."""
        going = [session.step for session, curve in zip(self.sessions, self.curves) if curve.diverged is None]
        return min(going) if going else self.steps

    def advance(self, count: int, should_stop=None) -> None:
        """Train every run still going ``count`` steps further (in pieces that end on a curve's point), in turn."""
        for session, curve in zip(self.sessions, self.curves):
            if should_stop is not None and should_stop():
                return
            left = min(count, self.steps - session.step)
            while left > 0 and curve.diverged is None:
                piece = min(left, self._every - session.step % self._every)
                result = session.train_steps(piece, should_stop)
                left -= result.steps
                if result.divergence is not None:
                    curve.diverged = result.divergence.message()
                    break
                if result.steps < piece:  # asked to stop
                    return
                if session.step % self._every == 0 or session.step == self.steps:
                    self._record(session, curve)

    def _record(self, session: TrainingSession, curve: RunCurve) -> None:
        curve.steps.append(session.step)
        curve.test_losses.append(loss_on_test_points(session))

    def spread(self, group: int) -> Spread | None:
        curves = [curve for curve in self.curves if curve.group == group]
        return spread_of([curve.converged for curve in curves], sum(curve.diverged is not None for curve in curves))

    def boundary(self, run: int) -> np.ndarray:
        """What run ``run`` predicts over the plane (its thumbnail), as `TrainingSession.boundary`."""
        return self.sessions[run].boundary()

    def setup_of(self, run: int) -> TrainingSetup:
        """Run ``run`` as a setup the training tab can take on: its settings (its own initial-weights seed), the
        points, its step, weights and optimizer state."""
        return capture(self.sessions[run], with_weights=True, anchor=False)


def loss_on_test_points(session: TrainingSession) -> float:
    """The loss over the test points (the training points when there are none), the tab's loss as it shows it."""
    data = session.data
    X, y = (session.F_test, data.y_test) if len(data.y_test) else (session.F_train, data.y_train)
    with no_grad(), np.errstate(all="ignore"):
        return float(session.loss_fn(session.model(Tensor(X)), y).item())


def thumbnail_words(picture: np.ndarray, classify: bool, dark: bool) -> np.ndarray:
    """A run's boundary (`RepeatRuns.boundary`: P(class 1) (R, R), k classes' probabilities (k, R, R), or a
    regression's values, row 0 at the plane's bottom) in colour as the big plot has it, 0xffRRGGBB with row 0 at the
    top: two classes on the boundary plot's contrast, k classes tinted each with its colour by its probability."""
    picture = np.asarray(picture, dtype=np.float32)
    if classify and picture.ndim == 3:
        colours = class_colours(dark)
        likeliest = picture.argmax(axis=0)
        tinted = np.stack([tint_rgb(picture[c], colours[c % len(colours)], dark) for c in range(len(picture))])
        words = rgb_words(tinted)
        words = np.take_along_axis(words, likeliest[None], axis=0)[0]
    elif classify:
        words = map_words(probability_contrast(picture), 0.0, 1.0, dark)
    else:
        reach = max(float(np.nanmax(np.abs(picture))) if np.isfinite(picture).any() else 1.0, 1e-9)
        words = map_words(picture, -reach, reach, dark)
    return np.ascontiguousarray(np.asarray(words, dtype=np.uint32)[::-1])
