"""What the curves show of a run, kept whole, free of Qt: each report's step, losses and accuracies (or R²).
A training setup carries it (`to_dict`, `from_dict`), so a run opened again shows its curves as they were.

A run's step goes back when a divergence puts the weights back (to the step before a loss blew up, or to the
best weights the run had: `health.DivergenceWatch`). The curves keep what happened after that step all the
same: the rows past it become an abandoned stretch, drawn faded, and the rewind is a `Restore` (drawn as a
line "weights restored to step 544"); the run goes on from there on the curve it is on. A report of the same
step again (a pause, a typed weight) replaces that step's row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

COLUMNS = ("step", "train_loss", "test_loss", "train_accuracy", "test_accuracy")
MAX_SAVED_ROWS = 2_000  # a setup keeps at most this many of the curve's points (thinned evenly, the last kept)
MAX_RESTORES = 1_000


@dataclass(frozen=True)
class Restore:
    """The weights went back from ``from_step`` to ``to_step``."""

    to_step: float
    from_step: float


class RunHistory:
    """Step, train loss, test loss, train accuracy (R²), test accuracy (R²): one row per report, grown by
    doubling; the stretches a restore abandoned, and the restores."""

    def __init__(self):
        self.clear()

    def clear(self) -> None:
        self._rows = np.empty((len(COLUMNS), 256))
        self.size = 0
        self.abandoned: list[np.ndarray] = []  # (5, k) each: the rows a restore took the run back over
        self.restores: list[Restore] = []

    def add(self, step: float, train_loss: float, test_loss: float, train: float, test: float) -> None:
        if self.size and step <= self._rows[0, self.size - 1]:
            keep = int(np.searchsorted(self._rows[0, :self.size], step))  # the rows before this step stay
            if step < self._rows[0, self.size - 1]:  # the weights went back: the stretch past them is kept aside
                # From the step the run goes back to, where the faded stretch leaves the curve it goes on on.
                self.abandoned.append(self._rows[:, keep:self.size].copy())
                self.restores.append(Restore(float(step), float(self._rows[0, self.size - 1])))
            self.size = keep
        if self.size == self._rows.shape[1]:
            self._rows = np.concatenate([self._rows, np.empty_like(self._rows)], axis=1)
        self._rows[:, self.size] = (step, train_loss, test_loss, train, test)
        self.size += 1

    def column(self, index: int) -> np.ndarray:
        return self._rows[index, :self.size]

    @property
    def steps(self) -> np.ndarray:
        return self.column(0)

    def abandoned_column(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Every abandoned stretch's steps and one column, end to end, nan between two stretches (one line
        drawn in pieces)."""
        if not self.abandoned:
            return np.empty(0), np.empty(0)
        steps, values = [], []
        for stretch in self.abandoned:
            steps += [stretch[0], [np.nan]]
            values += [stretch[index], [np.nan]]
        return np.concatenate(steps[:-1]), np.concatenate(values[:-1])

    def all_values(self, index: int) -> np.ndarray:
        """A column and its abandoned stretches together (the axis must show both)."""
        return np.concatenate([self.column(index), *(stretch[index] for stretch in self.abandoned)])

    @property
    def first_step(self) -> float | None:
        starts = [float(self._rows[0, 0])] if self.size else []
        starts += [float(stretch[0, 0]) for stretch in self.abandoned]
        return min(starts) if starts else None

    @property
    def last_step(self) -> float | None:
        ends = [float(self._rows[0, self.size - 1])] if self.size else []
        ends += [float(stretch[0, -1]) for stretch in self.abandoned]
        return max(ends) if ends else None

    # -- in a training setup --

    def to_dict(self) -> dict:
        """The history as JSON-ready lists: ``rows`` (step and the four figures), the ``abandoned`` stretches,
        the ``restores`` as [to step, from step]; a long curve thinned to `MAX_SAVED_ROWS` points."""
        return {"rows": _thinned(self._rows[:, :self.size]).T.tolist(),
                "abandoned": [_thinned(stretch, MAX_SAVED_ROWS // 10).T.tolist() for stretch in self.abandoned[-50:]],
                "restores": [[r.to_step, r.from_step] for r in self.restores[-MAX_RESTORES:]]}

    @classmethod
    def from_dict(cls, data: dict) -> RunHistory:
        """A history read back from `to_dict`'s lists (checked by the setup file's schema first)."""
        history = cls()
        for row in data.get("rows", []):
            history._append(row)
        history.abandoned = [np.array(stretch, dtype=np.float64).T.reshape(len(COLUMNS), -1)
                             for stretch in data.get("abandoned", []) if stretch]
        history.restores = [Restore(float(to), float(frm)) for to, frm in data.get("restores", [])]
        return history

    def _append(self, row) -> None:
        if self.size == self._rows.shape[1]:
            self._rows = np.concatenate([self._rows, np.empty_like(self._rows)], axis=1)
        self._rows[:, self.size] = row
        self.size += 1


def _thinned(rows: np.ndarray, limit: int = MAX_SAVED_ROWS) -> np.ndarray:
    """At most ``limit`` of the columns of ``rows`` (5, n), evenly spaced, the first and the last kept."""
    count = rows.shape[1]
    if count <= limit:
        return rows
    picked = np.unique(np.linspace(0, count - 1, limit).round().astype(int))
    return rows[:, picked]
