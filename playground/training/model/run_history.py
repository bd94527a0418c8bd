"""What the curves show of a run, kept whole, free of Qt: each report's step, losses and accuracies (or R²),
and every step's own loss in between. A training setup carries it (`to_dict`, `from_dict`), so a run opened
again shows its curves as they were.

Two tables, one story. A *report* is the whole training and test sets evaluated at a step (one after each
chunk of steps the worker trains between two frames: at "Fastest" some twenty steps a report). The *trace* is
the loss each step computed anyway, for every step the run took (`StepLosses`): with a full batch that is the
train loss itself, with minibatches the loss of the step's batch. So a blow-up inside one chunk (Adam at 10
on two moons diverges within twenty steps) is on the curve, step by step, not averaged or dropped.

A run's step goes back when a divergence puts the weights back (to the step before a loss blew up, or to the
best weights the run had: `health.DivergenceWatch`). The curves keep what happened after that step all the
same: the rows past it, in both tables, become an abandoned stretch, drawn faded, and the rewind is a
`Restore` (drawn as a line "weights restored to step 544"); the run goes on from there on the curve it is
on. A report of the same step again (a pause, a typed weight) replaces that step's row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .peaks import peak_bins

COLUMNS = ("step", "train_loss", "test_loss", "train_accuracy", "test_accuracy")
# The trace's: a step's loss over the whole training set (a full batch), or over its minibatch.
TRACE_COLUMNS = ("step", "whole_loss", "batch_loss")
MAX_SAVED_ROWS = 2_000  # a setup keeps at most this many of each table's rows (thinned, the last kept)
MAX_RESTORES = 1_000
MAX_DRAWN = 2_000  # a line goes to the plot in at most this many points (`drawn`): two a pixel and more


@dataclass(frozen=True)
class Restore:
    """The weights went back from ``from_step`` to ``to_step``."""

    to_step: float
    from_step: float


@dataclass(frozen=True)
class StepLosses:
    """The losses of consecutive steps, as the steps computed them: ``losses[i]`` with the weights of
    ``first + i`` steps, the curve's step (the one `health.Blowup.message` names); ``whole``: over the whole
    training set (a full batch, or a regression's own train loss), so it is the train loss at that step;
    otherwise over the step's minibatch."""

    first: int
    losses: np.ndarray
    whole: bool


class _Table:
    """Rows of numbers in columns, the first a step, grown by doubling."""

    def __init__(self, columns: int):
        self.rows = np.empty((columns, 256))
        self.size = 0

    @property
    def last_step(self) -> float | None:
        return float(self.rows[0, self.size - 1]) if self.size else None

    def column(self, index: int) -> np.ndarray:
        return self.rows[index, :self.size]

    def cut(self, step: float) -> np.ndarray:
        """Take off the rows from ``step`` on, and return them."""
        keep = int(np.searchsorted(self.rows[0, :self.size], step))
        taken = self.rows[:, keep:self.size].copy()
        self.size = keep
        return taken

    def append(self, block: np.ndarray) -> None:
        """Rows (columns, k) after the last."""
        count = block.shape[1]
        while self.size + count > self.rows.shape[1]:
            self.rows = np.concatenate([self.rows, np.empty_like(self.rows)], axis=1)
        self.rows[:, self.size:self.size + count] = block
        self.size += count


class RunHistory:
    """The reports (step, train loss, test loss, train accuracy (R²), test accuracy (R²)) and the trace (step,
    whole-set loss, batch loss); the stretches a restore abandoned, and the restores."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self._reports = _Table(len(COLUMNS))
        self._trace = _Table(len(TRACE_COLUMNS))
        self.abandoned: list[np.ndarray] = []        # (5, k) each: the reports a restore took the run back over
        self.abandoned_trace: list[np.ndarray] = []  # (3, k) each: the steps it took the run back over
        self.restores: list[Restore] = []

    # -- growing --

    def add(self, step: float, train_loss: float, test_loss: float, train: float, test: float) -> None:
        """A report at ``step``."""
        last = self._live_last_step()
        if last is not None and step < last:  # the weights went back to ``step``
            self._go_back_to(step, reports_from=step)
        if self._reports.size and step == self._reports.last_step:
            self._reports.size -= 1  # the same step again: its row replaced
        self._reports.append(np.array([[step], [train_loss], [test_loss], [train], [test]], dtype=np.float64))

    def add_steps(self, steps: StepLosses) -> None:
        """Every step's own loss over a stretch of steps."""
        count = len(steps.losses)
        if not count:
            return
        first, reported, traced = steps.first, self._reports.last_step, self._trace.last_step
        # A step's loss is computed with the weights of its first step: a report at that step goes with it, a
        # later one (or a loss the trace has already) means the weights went back to it.
        if (reported is not None and first < reported) or (traced is not None and first <= traced):
            self._go_back_to(first, reports_from=first + 1)
        block = np.full((len(TRACE_COLUMNS), count), np.nan)
        block[0] = first + np.arange(count)
        block[1 if steps.whole else 2] = steps.losses
        self._trace.append(block)

    def _live_last_step(self) -> float | None:
        ends = [table.last_step for table in (self._reports, self._trace) if table.size]
        return max(ends) if ends else None

    def _go_back_to(self, step: float, reports_from: float) -> None:
        """The weights went back to ``step``: the reports from ``reports_from`` on and the trace's losses from
        ``step`` on are set aside, as abandoned stretches, and the rewind is a `Restore`."""
        last = self._live_last_step()
        reports, trace = self._reports.cut(reports_from), self._trace.cut(step)
        if reports.shape[1]:
            self.abandoned.append(reports)
        if trace.shape[1]:
            self.abandoned_trace.append(trace)
        if reports.shape[1] or trace.shape[1]:
            self.restores.append(Restore(float(step), float(last)))

    # -- reading --

    @property
    def size(self) -> int:
        """The number of reports."""
        return self._reports.size

    def column(self, index: int) -> np.ndarray:
        """A column of the reports (`COLUMNS`)."""
        return self._reports.column(index)

    @property
    def steps(self) -> np.ndarray:
        return self.column(0)

    @property
    def trace_size(self) -> int:
        return self._trace.size

    def trace_column(self, index: int) -> np.ndarray:
        """A column of the trace (`TRACE_COLUMNS`)."""
        return self._trace.column(index)

    def abandoned_column(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Every abandoned stretch of reports' steps and one column, end to end, nan between two stretches
        (one line drawn in pieces)."""
        return _end_to_end(self.abandoned, index)

    def abandoned_trace_column(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """The same of the trace's abandoned stretches."""
        return _end_to_end(self.abandoned_trace, index)

    def all_values(self, index: int) -> np.ndarray:
        """A column and its abandoned stretches together (the axis must show both)."""
        return np.concatenate([self.column(index), *(stretch[index] for stretch in self.abandoned)])

    def all_losses(self) -> np.ndarray:
        """Every loss the curves draw: the reports', the trace's and their abandoned stretches'."""
        trace = (self._trace.rows[1:, :self._trace.size], *(stretch[1:] for stretch in self.abandoned_trace))
        return np.concatenate([self.all_values(1), self.all_values(2), *(part.ravel() for part in trace)])

    @property
    def first_step(self) -> float | None:
        starts = [float(table.rows[0, 0]) for table in (self._reports, self._trace) if table.size]
        starts += [float(stretch[0, 0]) for stretch in (*self.abandoned, *self.abandoned_trace)]
        return min(starts) if starts else None

    @property
    def last_step(self) -> float | None:
        ends = [table.last_step for table in (self._reports, self._trace) if table.size]
        ends += [float(stretch[0, -1]) for stretch in (*self.abandoned, *self.abandoned_trace)]
        return max(ends) if ends else None

    def trace_at(self, step: float) -> tuple[float, float] | None:
        """The trace's (whole-set loss, batch loss) at ``step`` (nan where it has not that one), or None."""
        steps = self.trace_column(0)
        index = int(np.searchsorted(steps, step))
        if index < len(steps) and steps[index] == step:
            return float(self._trace.rows[1, index]), float(self._trace.rows[2, index])
        return None

    # -- in a training setup --

    def to_dict(self) -> dict:
        """The history as JSON-ready lists: ``rows`` (each report's step and four figures), ``trace`` (step,
        whole-set loss, batch loss), the ``abandoned`` stretches of both, the ``restores`` as [to step, from
        step]. A long table is thinned to `MAX_SAVED_ROWS` rows: the reports evenly, the trace keeping each
        stretch's lowest and highest loss (a blow-up is never thinned away)."""
        out = {"rows": _thinned(self._reports.rows[:, :self._reports.size]).T.tolist(),
               "abandoned": [_thinned(stretch, MAX_SAVED_ROWS // 10).T.tolist() for stretch in self.abandoned[-50:]],
               "restores": [[r.to_step, r.from_step] for r in self.restores[-MAX_RESTORES:]]}
        if self._trace.size or self.abandoned_trace:
            out["trace"] = _saved_trace(_peaks_kept(self._trace.rows[:, :self._trace.size]))
            out["abandoned_trace"] = [_saved_trace(_peaks_kept(stretch, MAX_SAVED_ROWS // 10))
                                      for stretch in self.abandoned_trace[-50:]]
        return out

    @classmethod
    def from_dict(cls, data: dict) -> RunHistory:
        """A history read back from `to_dict`'s lists (checked by the setup file's schema first)."""
        history = cls()
        if data.get("rows"):
            history._reports.append(np.array(data["rows"], dtype=np.float64).T)
        if data.get("trace"):
            history._trace.append(_read_trace(data["trace"]))
        history.abandoned = [np.array(stretch, dtype=np.float64).T.reshape(len(COLUMNS), -1)
                             for stretch in data.get("abandoned", []) if stretch]
        history.abandoned_trace = [_read_trace(stretch) for stretch in data.get("abandoned_trace", []) if stretch]
        history.restores = [Restore(float(to), float(frm)) for to, frm in data.get("restores", [])]
        return history


def drawn(steps: np.ndarray, values: np.ndarray, limit: int = MAX_DRAWN) -> tuple[np.ndarray, np.ndarray]:
    """A line's points as the plot gets them: all of them (copies) up to ``limit``, else bins of a power of two
    points, each its lowest and highest value (`peaks.peak_bins`: a blow-up of one step stays in sight)."""
    if len(steps) <= limit:
        return steps.copy(), values.copy()
    shown_steps, shown, _per_bin = peak_bins(steps, values[:, None], limit)
    return shown_steps, shown[:, 0]


def _saved_trace(rows: np.ndarray) -> list[list[float]]:
    """Trace rows (3, n) as a file has them: [step, loss, 1 for the whole set's or 0 for a batch's] (no nan
    for the column a row has not: JSON has none)."""
    whole = ~np.isnan(rows[1])
    return np.stack([rows[0], np.where(whole, rows[1], rows[2]), whole.astype(float)]).T.tolist()


def _read_trace(saved: list) -> np.ndarray:
    """`_saved_trace`'s rows back as the trace's (3, n)."""
    step, loss, whole = np.array(saved, dtype=np.float64).T.reshape(3, -1)
    rows = np.full((len(TRACE_COLUMNS), len(step)), np.nan)
    rows[0] = step
    rows[1] = np.where(whole == 1, loss, np.nan)
    rows[2] = np.where(whole == 1, np.nan, loss)
    return rows


def _end_to_end(stretches: list[np.ndarray], index: int) -> tuple[np.ndarray, np.ndarray]:
    if not stretches:
        return np.empty(0), np.empty(0)
    steps, values = [], []
    for stretch in stretches:
        steps += [stretch[0], [np.nan]]
        values += [stretch[index], [np.nan]]
    return np.concatenate(steps[:-1]), np.concatenate(values[:-1])


def _thinned(rows: np.ndarray, limit: int = MAX_SAVED_ROWS) -> np.ndarray:
    """At most ``limit`` of the columns of ``rows`` (columns, n), evenly spaced, the first and the last kept."""
    count = rows.shape[1]
    if count <= limit:
        return rows
    picked = np.unique(np.linspace(0, count - 1, limit).round().astype(int))
    return rows[:, picked]


def _peaks_kept(rows: np.ndarray, limit: int = MAX_SAVED_ROWS) -> np.ndarray:
    """At most ``limit`` of the trace's rows (3, n): in each of ``limit // 2 - 1`` even stretches, the rows of
    its lowest and of its highest loss (whole-set or batch, whichever the row has; a nan, a loss gone wrong,
    counts as the highest), and the first and last rows."""
    count = rows.shape[1]
    if count <= limit:
        return rows
    losses = np.where(np.isnan(rows[1]), rows[2], rows[1])
    highest = np.where(np.isnan(losses), np.inf, losses)
    edges = np.linspace(0, count, limit // 2).round().astype(int)
    picked = [0, count - 1]
    for start, end in zip(edges[:-1], edges[1:]):
        if end > start:
            picked += [start + int(np.argmin(highest[start:end])), start + int(np.argmax(highest[start:end]))]
    return rows[:, np.unique(picked)]
