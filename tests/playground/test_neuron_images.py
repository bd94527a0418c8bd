"""The diagram's maps coloured in the worker's thread (`model.neuron_images`): the same colours the
diagram used to make itself, for the theme the panel asked for."""

import numpy as np

from playground.common.colours import class_colours, map_rgb, probability_contrast, rgb_words, tint_rgb
from playground.training.model.network import parameter_name
from playground.training.model.neuron_images import neuron_images
from playground.training.model.session import TrainingSession
from playground.training.model.settings import TrainingSettings


def drawing_and_biases(**settings):
    session = TrainingSession(TrainingSettings(**settings))
    session.train_steps(5)
    state = session.state_dict()
    biases = tuple(state[parameter_name(layer, "bias")] for layer in range(1, len(session.settings.layer_sizes)))
    return session.draw(), biases


def test_each_layer_is_coloured_on_its_own_scale_with_row_0_at_the_top():
    drawing, biases = drawing_and_biases(hidden=(4, 3))
    images = neuron_images(drawing.maps, biases, dark=False)
    inputs = drawing.maps[0]
    reach = np.abs(inputs).reshape(len(inputs), -1).max(axis=1)[:, None, None]
    assert np.array_equal(images.maps[0], rgb_words(map_rgb(inputs, -reach, reach))[:, ::-1])
    for layer in (1, 2):
        assert np.array_equal(images.maps[layer], rgb_words(map_rgb(drawing.maps[layer], -1.0, 1.0))[:, ::-1])
    assert np.array_equal(images.maps[3],
                          rgb_words(map_rgb(probability_contrast(drawing.maps[3]), 0.0, 1.0))[:, ::-1])
    assert [m.shape[0] for m in images.maps] == [2, 4, 3, 1]
    assert all(m.flags.c_contiguous and m.dtype == np.uint32 for m in images.maps)
    assert [b.shape for b in images.biases] == [(4, 3), (3, 3), (1, 3)]
    assert np.array_equal(images.biases[0], map_rgb(biases[0], -1.0, 1.0))


def test_a_word_is_opaque_red_green_blue():
    assert rgb_words(np.array([[1, 2, 3], [255, 128, 0]], np.uint8)).tolist() == [0xFF010203, 0xFFFF8000]


def test_several_classes_are_tinted_and_the_dark_theme_differs():
    drawing, biases = drawing_and_biases(hidden=(5,), dataset="blobs", classes=3, loss="cross_entropy")
    light, dark = neuron_images(drawing.maps, biases, False), neuron_images(drawing.maps, biases, True)
    outputs = drawing.maps[-1]
    assert len(outputs) == 3
    for c in range(3):
        assert np.array_equal(light.maps[-1][c], rgb_words(tint_rgb(outputs[c], class_colours(False)[c]))[::-1])
    assert light.dark is False and dark.dark is True
    assert not np.array_equal(light.maps[1], dark.maps[1])


def test_the_worker_colours_for_the_theme_the_panel_follows(qtbot, panel):
    assert panel._frame.images is not None and panel._frame.images.dark is False
    panel.network_view.set_theme(True)  # what the panel does when the app turns dark
    panel.theme_requested.emit(True)
    qtbot.waitUntil(lambda: panel._frame.images.dark is True, timeout=5000)
    panel._redraw(force=True)
    shown = panel.network_view.canvas.map_pixels(1, 0)
    assert np.shares_memory(shown, panel._frame.images.maps[1])  # the worker's pixels, not coloured again here
