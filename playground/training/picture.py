"""From a worker's frame to what the views draw, free of Qt: the diagram's `NetworkPicture`, and the
words and scale for one neuron shown on the big plot."""

from __future__ import annotations

import numpy as np

from .model.network import parameter_name
from .model.points import COLOUR_NAMES
from .model.settings import ACTIVATIONS, FEATURES, TrainingSettings
from .network_headers import layer_captions
from .network_view import NetworkPicture
from .worker import BoundaryFrame


def output_names(frame: BoundaryFrame) -> tuple[str, ...]:
    """One output: P(the second class); several: the classes; a regression's: ŷ."""
    return names_of_outputs(frame.settings, frame.classes)


def names_of_outputs(settings: TrainingSettings, classes: tuple[str, ...]) -> tuple[str, ...]:
    """The classes' names (until the data has come, the colours'), or P(the second) for one output; a
    regression's one output is the predicted value, ŷ."""
    if settings.regression:
        return ("ŷ",)
    names = tuple(classes) if len(classes) == settings.classes else COLOUR_NAMES[:settings.classes]
    return (f"P({names[1]})",) if settings.outputs == 1 else names


def names_of_inputs(settings: TrainingSettings) -> tuple[str, ...]:
    return tuple(FEATURES[f] for f in settings.features)


def network_picture(frame: BoundaryFrame) -> NetworkPicture:
    s = frame.settings
    layers = range(1, len(s.layer_sizes))
    return NetworkPicture(
        sizes=s.layer_sizes,
        input_names=names_of_inputs(s),
        output_names=output_names(frame),
        activations=tuple(caption.words for caption in layer_captions(s)),
        maps=frame.drawing.maps,
        dead=frame.drawing.dead,
        weights=tuple(frame.state[parameter_name(layer, "weight")] for layer in layers),
        biases=tuple(frame.state[parameter_name(layer, "bias")] for layer in layers),
        weight_grads=tuple(frame.gradients[parameter_name(layer, "weight")] for layer in layers),
        bias_grads=tuple(frame.gradients[parameter_name(layer, "bias")] for layer in layers),
        wires=frame.wires,
        images=frame.images,
    )


def focus_caption(frame: BoundaryFrame, layer: int, index: int) -> tuple[str, tuple[float, float]]:
    """What the big plot says it shows for neuron ``index`` of ``layer``, and the values its colours span:
    an input over its own range, a hidden neuron from -1 to 1 as the diagram, an output from 0 to 1."""
    s = frame.settings
    last = len(s.layer_sizes) - 1
    if layer == 0:
        name = FEATURES[s.features[index]]
        reach = float(np.max(np.abs(frame.drawing.maps[0][index]))) or 1.0
        return f"Showing input {name}: line at {name} = 0", (-reach, reach)
    if layer == last:  # one output: on the boundary's own scale; a class's: from nothing (0) to blue (1)
        levels = (0.0, 1.0) if s.outputs == 1 else (-1.0, 1.0)
        return f"Showing output {output_names(frame)[index]}: line at 0.5", levels
    activation = s.layer_activations[layer - 1]
    level = "0.5" if activation == "sigmoid" else "0"
    return (f"Showing layer {layer} neuron {index + 1} ({ACTIVATIONS[activation]}): −1 orange, 1 blue, "
            f"line at {level}", (-1.0, 1.0))
