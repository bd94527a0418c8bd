"""The animator's clock: plays at a chosen speed, asking for one step (or, at "fastest", a few) per tick."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from ..common.numbers import format_number

SPEEDS: tuple[float | None, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, None)  # steps per second; None: fastest
DEFAULT_SPEED_INDEX = 2  # 1 step per second
FASTEST_MIN_RATE = 60.0  # steps per second "fastest" keeps up even when a repaint takes longer than 1/60 s
MAX_CATCH_UP = 8  # steps at most in one turn of the event loop


def speed_text(speed: float | None) -> str:
    if speed is None:
        return "fastest"
    number = format_number(speed)
    return f"{number} step/s" if speed == 1 else f"{number} steps/s"


class Player(QObject):
    """While playing, `stepped` says how many steps to take now."""

    stepped = Signal(int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._speed_index = DEFAULT_SPEED_INDEX
        self._last_tick: float | None = None  # when "fastest" last stepped (perf_counter)
        self._owed = 0.0  # steps "fastest" is behind 60 per second
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._apply_speed()

    @property
    def is_playing(self) -> bool:
        return self._timer.isActive()

    @property
    def speed_index(self) -> int:
        return self._speed_index

    @property
    def speed(self) -> float | None:
        """Steps per second; None: as fast as the event loop allows."""
        return SPEEDS[self._speed_index]

    @property
    def interval(self) -> int:
        """Milliseconds between two ticks (0 at "fastest": every turn of the event loop)."""
        return self._timer.interval()

    def set_speed_index(self, index: int) -> int:
        """Choose one of `SPEEDS` (clamped); returns the index chosen."""
        self._speed_index = max(0, min(int(index), len(SPEEDS) - 1))
        self._apply_speed()
        return self._speed_index

    def start(self) -> None:
        self._apply_speed()
        self._last_tick, self._owed = None, 0.0
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _apply_speed(self) -> None:
        speed = self.speed
        self._timer.setInterval(0 if speed is None else round(1000 / speed))

    def _on_timer_timeout(self) -> None:
        steps = 1
        if self.speed is None:
            # Fastest: one step per turn of the event loop; when a turn takes longer than 1/60 s
            # (repainting a big graph), catch up with a few steps at once so it still plays at 60/s.
            now = time.perf_counter()
            if self._last_tick is not None:
                owed = min(self._owed + (now - self._last_tick) * FASTEST_MIN_RATE, MAX_CATCH_UP)
                steps = max(1, int(owed))
                self._owed = max(0.0, owed - steps)
            self._last_tick = now
        self.stepped.emit(steps)
