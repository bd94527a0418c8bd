"""The decision boundary shows the data: the plot frames the points with a margin, equal scales on both
axes, as large as its column allows, the plane drawn over the data's square behind it; and an untrained
network's output shows in colour, not as a white page."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pyqtgraph as pg
import pytest

from playground.common.colours import probability_lut
from playground.training.model.grid import PlaneGrid
from playground.training.model.points import square_extent
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings
from playground.training.panel import TrainingPanel
from playground.training.plot_fit import FittedPlotHolder, aspect_range, fitted_view, view_for_aspect

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


def covered(panel) -> bool:
    """The picture of the plane covers the plot's whole data area."""
    image = panel.boundary.image.mapRectToScene(panel.boundary.image.boundingRect())
    area = panel.boundary_plot.getPlotItem().vb.sceneBoundingRect()
    return (image.top() <= area.top() + 2 and image.bottom() >= area.bottom() - 2
            and image.left() <= area.left() + 2 and image.right() >= area.right() - 2)


def shown_range(panel) -> tuple[float, float, float, float]:
    (x0, x1), (y0, y1) = panel.boundary_plot.getPlotItem().vb.viewRange()
    return x0, x1, y0, y1


def within(shown, square, slack: float = 0.01) -> bool:
    """``shown`` inside ``square``, but for the pixel or so pyqtgraph adds to keep the scales equal."""
    room = slack * (square[1] - square[0])
    return (square[0] - room <= shown[0] and shown[1] <= square[1] + room
            and square[2] - room <= shown[2] and shown[3] <= square[3] + room)


def test_the_plot_shows_the_data_with_a_margin_not_a_band_of_empty_plane(qtbot, panel):
    """Issue 18: in a tall column the two moons (y from -0.6 to 1.2) were shown from y = -2.9 to 3.5."""
    qtbot.waitUntil(lambda: covered(panel), timeout=WAIT)
    points = np.concatenate([panel.data.X_train, panel.data.X_test])
    low, high = points.min(axis=0), points.max(axis=0)
    x0, x1, y0, y1 = shown_range(panel)
    print("moons", low.round(2), high.round(2), "shown", np.round([x0, x1, y0, y1], 2))
    assert x0 < low[0] and x1 > high[0] and y0 < low[1] and y1 > high[1]  # every point, inside the frame
    # The margin: at most the data's square's, never the tall column's whole height.
    square = panel.data.extent
    assert within(shown_range(panel), square) and y1 - y0 < 2.2 * (high[1] - low[1])
    # One unit is as long across as up, and the picture covers the whole data area.
    x_size, y_size = panel.boundary_plot.getPlotItem().vb.viewPixelSize()
    assert x_size == pytest.approx(y_size, rel=0.02)
    panel.resize(1100, 700)  # and again after the window changes shape
    qtbot.waitUntil(lambda: covered(panel), timeout=WAIT)
    assert shown_range(panel)[3] - shown_range(panel)[2] < 2.2 * (high[1] - low[1])


@pytest.mark.parametrize("dataset, classes", [("circles", 2), ("spiral", 3), ("blobs", 4), ("xor", 2)])
def test_every_dataset_is_shown_whole_with_a_margin(qtbot, panel, dataset, classes):
    loss = "cross_entropy" if classes > 2 else "bce"
    panel.set_settings(replace(panel.settings, dataset=dataset, classes=classes, loss=loss))
    qtbot.waitUntil(lambda: panel.settings.dataset == dataset and panel._data is not None
                    and panel._data.settings.dataset == dataset, timeout=WAIT)
    qtbot.waitUntil(lambda: covered(panel), timeout=WAIT)
    points = np.concatenate([panel.data.X_train, panel.data.X_test])
    low, high = points.min(axis=0), points.max(axis=0)
    x0, x1, y0, y1 = shown_range(panel)
    print(dataset, low.round(2), high.round(2), "shown", np.round([x0, x1, y0, y1], 2))
    assert x0 < low[0] and x1 > high[0] and y0 < low[1] and y1 > high[1]
    span = max(high - low)
    assert x1 - x0 < 1.6 * span and y1 - y0 < 1.6 * span  # a margin, not the half-empty plane of before


def flat_cloud() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    points = np.column_stack([rng.uniform(0, 10, 80), rng.uniform(0, 2, 80)])
    return points, (points[:, 0] > 5).astype(int)


def test_a_csv_of_a_flat_cloud_is_framed_inside_its_square(qtbot, panel, tmp_path):
    points, labels = flat_cloud()
    path = tmp_path / "flat.csv"
    path.write_text("x1,x2,label\n" + "".join(f"{a:.4f},{b:.4f},{c}\n" for (a, b), c in zip(points, labels)))
    assert panel.load_csv(path)
    qtbot.waitUntil(lambda: panel._data is not None and panel._data.settings.dataset == "csv", timeout=WAIT)
    # The plane of the file's square painted, and the plot fitted to it.
    qtbot.waitUntil(lambda: panel._frame is not None and not panel._frame_dirty
                    and np.allclose(panel._frame.extent, panel.data.extent), timeout=WAIT)
    qtbot.wait(100)
    x0, x1, y0, y1 = shown_range(panel)
    square = panel.data.extent
    print("csv shown", np.round([x0, x1, y0, y1], 2), "square", np.round(square, 2))
    assert x0 < points[:, 0].min() and x1 > points[:, 0].max() and y0 < points[:, 1].min() and y1 > points[:, 1].max()
    assert within((x0, x1, y0, y1), square)


def test_in_a_wide_room_the_plot_takes_the_data_s_shape(qtbot):
    """A wide, short room: the data area as wide as the flat cloud is (plus its margin), not a square
    with the empty plane above and below it."""
    points, _ = flat_cloud()
    square = square_extent(points)
    plot = pg.PlotWidget()
    plot.getPlotItem().setAspectLocked(True)
    holder = FittedPlotHolder(plot, 100)
    qtbot.addWidget(holder)
    holder.resize(900, 320)
    holder.show()
    qtbot.waitExposed(holder)
    holder.show_fitted(fitted_view(points, square))
    qtbot.wait(50)
    area = plot.getPlotItem().vb.size()
    (x0, x1), (y0, y1) = plot.getPlotItem().vb.viewRange()
    print("wide room: data area", area.width(), area.height(), "shown", np.round([x0, x1, y0, y1], 2))
    assert area.width() > 2.0 * area.height()
    assert y1 - y0 < 0.5 * (x1 - x0) and y0 < points[:, 1].min() and y1 > points[:, 1].max()
    assert x0 < points[:, 0].min() and x1 > points[:, 0].max()


def test_a_fitted_view_is_the_points_box_with_a_margin_inside_the_square():
    points = np.array([[-1.0, -0.6], [2.0, 1.2], [0.5, 0.3]])  # the two moons' corners
    square = square_extent(points)
    x0, x1, y0, y1 = fitted_view(points, square)
    assert (x0, x1) == pytest.approx(square[:2])  # the long side: the square's own margin
    assert y0 == pytest.approx(0.3 - (0.9 * 1.15 + 0.1)) and y1 == pytest.approx(0.3 + (0.9 * 1.15 + 0.1))
    assert view_for_aspect((x0, x1, y0, y1), 1.0) == pytest.approx(square)  # a square plot: the square
    fitted = (x0, x1, y0, y1)
    assert aspect_range(fitted) == pytest.approx((1.0, (x1 - x0) / (y1 - y0)))  # from the square to the box
    assert view_for_aspect(fitted, (x1 - x0) / (y1 - y0)) == pytest.approx(fitted)  # the box's shape: the box


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
