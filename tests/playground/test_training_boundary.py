"""The decision boundary uses its column: the plot fills it with equal scales on both axes, the plane drawn
around the data's square as far as the plot reaches; and an untrained network's output shows in colour,
not as a white page."""

from __future__ import annotations

import numpy as np
import pytest

from playground.training.colours import probability_lut
from playground.training.grid import PlaneGrid
from playground.training.panel import TrainingPanel
from playground.training.session import TrainingSession
from playground.training.settings import TrainingSettings

WAIT = 20_000


@pytest.fixture
def panel(qtbot):
    panel = TrainingPanel()
    qtbot.addWidget(panel)
    panel.resize(1300, 900)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.data is not None and panel.boundary_redraws > 0, timeout=WAIT)
    yield panel
    panel.shutdown()


def test_the_plot_fills_its_column_and_the_picture_fills_the_plot(qtbot, panel):
    column, plot = panel.boundary_column, panel.boundary_plot
    vb = plot.getPlotItem().vb
    assert plot.height() > 1.3 * plot.width() * 0.9  # a tall column: a tall plot, not a square with bands
    used = sum(w.height() for w in (plot, column.legend, column.class_picker))
    assert used > 0.8 * column.height()
    # The worker draws the plane for the plot's shape: the image comes to cover the whole data area (once
    # the layout has settled and the frame for the plot's last shape is painted).
    def covered() -> bool:
        image = panel.boundary.image.mapRectToScene(panel.boundary.image.boundingRect())
        area = vb.sceneBoundingRect()
        return (image.top() <= area.top() + 2 and image.bottom() >= area.bottom() - 2
                and image.left() <= area.left() + 2 and image.right() >= area.right() - 2)

    qtbot.waitUntil(covered, timeout=WAIT)
    panel.resize(1100, 700)  # and again after the window changes shape
    qtbot.waitUntil(covered, timeout=WAIT)
    # The data's aspect is kept: one unit is as long across as up.
    x_size, y_size = vb.viewPixelSize()
    assert x_size == pytest.approx(y_size, rel=0.02)
    # And the data's square is all there, in the middle.
    x0, x1, y0, y1 = panel.data.extent
    (vx0, vx1), (vy0, vy1) = vb.viewRange()
    assert vx0 <= x0 + 1e-6 and vx1 >= x1 - 1e-6 and vy0 < y0 and vy1 > y1


def test_a_stretched_grid_keeps_the_square_s_pixels_and_maps():
    settings = TrainingSettings()
    session = TrainingSession(settings)
    square = PlaneGrid(settings, session.data.extent)
    tall = PlaneGrid(settings, session.data.extent, aspect=0.6)
    assert square.shape == (150, 150) and tall.shape == (150 + 2 * 50, 150)  # 150 / 0.6 = 250 rows
    x0, x1, y0, y1 = tall.view_extent
    assert (x0, x1) == pytest.approx(session.data.extent[:2]) and y1 - y0 == pytest.approx(250 / 150 * (x1 - x0))
    a, b = square.draw(session.model), tall.draw(session.model)
    pad = (tall.shape[0] - 150) // 2
    assert np.allclose(b.probability[pad:pad + 150], a.probability, atol=1e-6)  # the square's pixels, unchanged
    assert all(np.allclose(m, n, atol=1e-6) for m, n in zip(a.maps, b.maps))   # the small maps: of the square
    wide = PlaneGrid(settings, session.data.extent, aspect=5.0)  # beyond twice: twice, with bands beyond it
    assert wide.shape == (150, 300)


def test_the_untrained_network_s_output_shows_with_contrast(panel):
    probability = panel._frame.probability
    assert 0.35 < probability.min() and probability.max() < 0.65  # an untrained network is unsure everywhere
    lut = panel.boundary.image.lut
    assert lut is not None and np.array_equal(np.asarray(lut), probability_lut(False))
    low, high = np.percentile(probability, [5, 95])
    left, right = lut[int(low * 255)].astype(float), lut[int(high * 255)].astype(float)
    assert np.linalg.norm(left - right) > 60  # clearly orange on one side, blue on the other
    assert np.array_equal(probability_lut(False)[[0, 255]], panel.boundary.image.lut[[0, 255]])  # sure: as before
