"""When the layer form's diagram gets new wires, and with which frame.

Drawing the wires (`wires.WireLayout.render`) costs as much as the rest of a frame: 11 ms for the default network,
40-70 ms for six layers of 64. While a run goes on they are drawn at most `WIRE_RATE` times a second and in at
most a `WIRE_SHARE` of the time of whoever draws them, and go out with a later frame; with no run going on, or
for a layout just made, they are drawn for the frame at once. While the plane's process draws a run's pictures,
it draws the wires too, with the weights of the frame they go out with (`job`, `drawn_there`); else the training
worker's thread draws them once a frame is painted (`draw_if_due`).
"""

from __future__ import annotations

import time

import numpy as np

from .network import parameter_name
from .plane_process import WireJob
from .settings import TrainingSettings
from .wires import WireLayout

WIRE_RATE = 10.0   # the diagram's wires at most this often (they cost as much as the rest of a frame)
WIRE_SHARE = 0.1   # ... and at most this share of the drawer's time (six layers of 64: 40-70 ms an image)

Wires = tuple[int, np.ndarray]  # the layout's serial and the wires' image


class WireSchedule:
    def __init__(self):
        self.layout: WireLayout | None = None  # where the wires run now (the view's latest layout)
        self._drawn: tuple[int, float] = (0, 0.0)  # the layout serial and the time they were last drawn
        self._cost = 0.0  # how long the last image took
        self._pending: Wires | None = None  # drawn after a frame, for the next

    def forget(self) -> None:
        """The network is gone: wires drawn for it are not sent."""
        self._pending = None

    def draw_if_due(self, settings: TrainingSettings, state: dict[str, np.ndarray] | None) -> None:
        """During a run, once a frame is painted: the wires for ``state`` (the weights of the frame just sent) when
        they are due; they go out with the next frame."""
        if state is not None and self._fits(settings) and self._due():
            self._pending = self._render(state)

    def job(self, settings: TrainingSettings, state: dict[str, np.ndarray]) -> WireJob | None:
        """For the plane's process, with the pictures of a frame of ``state``: the wires, when they are due (at once
        for a new layout)."""
        if not self._fits(settings) or (self._drawn[0] == self.layout.serial and not self._due()):
            return None
        self._drawn = (self.layout.serial, time.perf_counter())
        return WireJob(self.layout, layer_weights(self.layout, state))

    def drawn_there(self, wires: Wires | None, seconds: float) -> None:
        """The process's wires, for the frame they were drawn with (`for_frame` sends them)."""
        if wires is not None:
            self._pending, self._cost = wires, seconds

    def for_frame(self, settings: TrainingSettings, state: dict[str, np.ndarray], running: bool) -> Wires | None:
        """The wires to send with a frame of ``state``: drawn at once for a new layout and whenever training is not
        running; while it runs, those drawn after the last frame was painted (`draw_if_due`)."""
        if not self._fits(settings):
            return None
        pending, self._pending = self._pending, None
        if self._drawn[0] != self.layout.serial or not running:
            return self._render(state)
        return pending if pending is not None and pending[0] == self.layout.serial else None

    def _fits(self, settings: TrainingSettings) -> bool:
        """A layer form whose diagram the layout was made for (a trained graph has no wires)."""
        return (self.layout is not None and not settings.trains_graph
                and self.layout.sizes == settings.layer_sizes)

    def _due(self) -> bool:
        return time.perf_counter() - self._drawn[1] >= max(1.0 / WIRE_RATE, self._cost / WIRE_SHARE)

    def _render(self, state: dict[str, np.ndarray]) -> Wires:
        layout = self.layout
        started = time.perf_counter()
        self._drawn = (layout.serial, started)
        image = layout.render(layer_weights(layout, state))
        self._cost = time.perf_counter() - started
        return layout.serial, image


def layer_weights(layout: WireLayout, state: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """Each layer's weights (1..n), as `WireLayout.render` takes them."""
    return tuple(state[parameter_name(layer, "weight")] for layer in range(1, len(layout.sizes)))
