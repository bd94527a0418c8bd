"""The big plot of a regression: the predicted value as a heat map, the points coloured on the same scale
(symmetric about 0, out to the largest target), and a colour bar that says the scale."""

from __future__ import annotations

import numpy as np

from playground.common.colours import map_rgb, strong_diverging_lut
from playground.training.boundary_plot import BoundaryColumn
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings


def test_a_regression_is_drawn_as_its_value_with_its_points_on_the_same_scale(qtbot):
    column = BoundaryColumn()
    qtbot.addWidget(column)
    column.resize(500, 600)
    column.show()
    session = TrainingSession(TrainingSettings(problem="regression", dataset="plane", loss="mse",
                                               steps_per_second=None))
    session.train_steps(200)
    d = session.data
    column.fit_to(d.extent, np.concatenate([d.X_train, d.X_test]))
    column.show_values(d.X_train, d.y_train, d.X_test, d.y_test)
    drawing = session.draw()
    column.view.set_probability(drawing.probability, session.grid.view_extent, drawing.contour)
    low, high = column.view.levels
    reach = max(np.abs(d.y_train).max(), np.abs(d.y_test).max())
    assert (low, high) == (-reach, reach) and 1.0 < reach < 1.4  # the plane's targets reach about 1.2
    # the picture: each pixel the value's colour on that scale
    shown = column.view.image.image
    assert shown.shape[-1] == 3 and np.array_equal(shown, map_rgb(drawing.probability, low, high))
    # the points: the highest target in the full blue end of the scale, the lowest in the orange end
    colours = column.view.point_colours()
    lut = strong_diverging_lut()
    top, bottom = int(np.argmax(d.y_train)), int(np.argmin(d.y_train))
    assert np.abs(colours[top].astype(int) - lut[255 if d.y_train[top] == reach else 250]).max() <= 12
    assert np.abs(colours[bottom].astype(int) - lut[0 if d.y_train[bottom] == -reach else 5]).max() <= 12
    # a point near 0 sits near the neutral middle
    middle = int(np.argmin(np.abs(d.y_train)))
    assert np.abs(colours[middle].astype(int) - lut[128]).max() <= 20
    assert len(column.view.point_colours(test=True)) == len(d.y_test)
    # the colour bar says the scale; the classes' picker and its click are gone
    bar = column.findChild(object, "valueColourBar")
    assert bar.isVisible() and bar.accessibleName() and bar.levels == (low, high)
    assert bar.texts()[0].startswith("−") or bar.texts()[0].startswith("-")
    assert not column.class_picker.isVisible() and not column.discretize_check.isEnabled()
    # and back to a classification: classes' colours, no bar
    moons = TrainingSession()
    m = moons.data
    column.show_points(m.X_train, m.y_train, m.X_test, m.y_test)
    column.show_classes(m.classes)
    assert not bar.isVisible() and column.class_picker.isVisible() and not column.view.regression
    assert len(column.view.point_colours()) == 0
