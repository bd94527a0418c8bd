"""The gradient health plot's lines over a long run: the worker thins the log into bins of a power of two
steps whose points never change once full (`peak_bins`), every spike kept; the plot keeps the picture of
those points in pieces and draws only the recent tail again (`HealthLine`)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.training.gradient_plot import GradientHealthPlot, HealthLine
from playground.training.model.gradient_log import MAX_SHOWN, HealthFrame, peak_bins


def history(count: int, layers: int = 3, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return np.arange(1, count + 1, dtype=float), np.exp(rng.normal(-3, 1, size=(count, layers)))


def test_a_short_log_is_sent_whole():
    steps, norms = history(MAX_SHOWN)
    shown_steps, shown_norms, per_bin = peak_bins(steps, norms)
    assert per_bin == 1 and np.array_equal(shown_steps, steps) and np.array_equal(shown_norms, norms)
    shown_norms[0, 0] = -1  # a copy
    assert norms[0, 0] > 0


@settings(max_examples=60, deadline=None)
@given(count=st.integers(MAX_SHOWN + 1, 40_000), spike_at=st.floats(0, 1, exclude_max=True))
def test_a_long_log_is_binned_in_powers_of_two_each_bin_its_lowest_and_highest(count, spike_at):
    steps, norms = history(count, seed=count)
    spike = int(spike_at * count)
    norms[spike, 1] = 1e6
    shown_steps, shown_norms, per_bin = peak_bins(steps, norms)
    assert len(shown_steps) <= MAX_SHOWN and per_bin & (per_bin - 1) == 0  # a power of two
    assert per_bin == 2 or len(shown_steps) > MAX_SHOWN // 2  # the smallest that fits
    bins = -(-count // per_bin)
    assert len(shown_steps) == 2 * bins and np.array_equal(shown_steps[::2], steps[::per_bin])
    for b in (0, bins // 2, bins - 1):
        part = norms[b * per_bin:(b + 1) * per_bin]
        assert np.array_equal(shown_norms[2 * b], part.min(axis=0))
        assert np.array_equal(shown_norms[2 * b + 1], part.max(axis=0))
    assert shown_norms[2 * (spike // per_bin) + 1, 1] == 1e6  # one step among thousands: still in sight


def test_a_full_bin_never_changes_while_the_log_grows_until_the_bins_double():
    steps, norms = history(20_000)
    earlier = peak_bins(steps[:9_000], norms[:9_000])
    later = peak_bins(steps[:15_000], norms[:15_000])
    assert earlier[2] == later[2] == 32  # at most 500 bins
    full = 2 * (9_000 // 32)
    assert np.array_equal(earlier[0][:full], later[0][:full]) and np.array_equal(earlier[1][:full], later[1][:full])
    assert peak_bins(steps[:16_000], norms[:16_000])[2] == 32 and peak_bins(steps[:16_001], norms[:16_001])[2] == 64


def test_a_bin_of_nothing_but_missing_norms_stays_missing():
    steps, norms = history(4_096)
    norms[:16] = np.nan
    norms[16:20] = np.nan  # part of a bin: the rest of it is drawn
    _, shown, per_bin = peak_bins(steps, norms)
    assert per_bin == 16 and np.isnan(shown[:2]).all() and np.isfinite(shown[2:]).all()


def frame_of(steps: np.ndarray, norms: np.ndarray) -> HealthFrame:
    shown_steps, shown_norms, per_bin = peak_bins(steps, norms)
    layers = norms.shape[1]
    return HealthFrame(shown_steps, shown_norms, ("tanh",) * (layers - 1) + (None,), (0.1,) * (layers - 1) + (None,),
                       (None,) * layers, norms[-1].copy(), per_bin)


@pytest.fixture
def plot(qtbot):
    widget = GradientHealthPlot(pg.mkQApp().palette())
    qtbot.addWidget(widget)
    widget.resize(500, 240)
    widget.show()
    return widget


def drawn(line: HealthLine) -> tuple[np.ndarray, np.ndarray]:
    x, y = line.getData()
    return x, 10 ** y  # the log axis keeps log10 of the norms


def test_the_lines_are_the_frames_points_and_the_settled_pieces_are_kept(qtbot, plot):
    steps, norms = history(12_000)
    norms[5_000:5_010, 2] = 0.0  # no place on a log scale: left out
    plot.show_lines(frame_of(steps[:6_000], norms[:6_000]))
    line = plot.lines[2]
    assert line.settled >= 2
    kept = [segment.getData()[0] for segment in line.segments[:line.settled]]
    for count in (6_100, 7_000, 8_000):
        frame = frame_of(steps[:count], norms[:count])
        plot.show_lines(frame)
        for index, layer in enumerate(plot.lines):
            x, y = drawn(layer)
            keep = frame.norms[:, index] > 0
            assert np.array_equal(x, frame.steps[keep]) and np.allclose(y, frame.norms[keep, index], rtol=1e-12)
        # what was settled is not handed to pyqtgraph again (its picture is kept): the same arrays
        assert all(segment.getData()[0] is points for segment, points in zip(line.segments, kept))
    assert len(line.tail.getData()[0]) <= HealthLine.SEGMENT_POINTS + 3
    assert np.array_equal(plot.last_norms(), norms[7_999])


def test_the_pieces_are_cut_again_when_the_bins_double_or_a_new_run_starts(qtbot, plot):
    steps, norms = history(40_000, layers=2)
    plot.show_lines(frame_of(steps[:16_000], norms[:16_000]))
    frame = frame_of(steps[:17_000], norms[:17_000])  # 64 steps a bin now
    plot.show_lines(frame)
    x, y = drawn(plot.lines[0])
    assert np.array_equal(x, frame.steps) and np.allclose(y, frame.norms[:, 0])
    again = frame_of(steps[:300], norms[:300] * 2)  # Reset: a new run from step 1
    plot.show_lines(again)
    x, y = drawn(plot.lines[1])
    assert np.array_equal(x, again.steps) and np.allclose(y, again.norms[:, 1])
    plot.show_lines(None)
    assert all(len(drawn(line)[0]) == 0 for line in plot.lines)
