"""Moving in time: the animator's transport (the first/back/play/forward/last buttons, the position
slider, the speed, the arrow keys) and the clock that plays, on the panel's timeline.

Every move goes through `seek`, which redraws only what the move changed (the scene, the pitfall's
replay, Predict's box, the step text) and says where the panel now is (`step_reached`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..widgets.errors import guarded
from .keys import PlaybackKeys
from .player import Player, speed_text


class Playback:
    """Moves ``panel`` (an `AnimatorPanel`) through its timeline, step by step or playing."""

    def __init__(self, panel):
        self.panel = panel
        self.player = Player(panel)
        self.player.stepped.connect(self._on_player_stepped)
        controls = panel.controls
        controls.first_clicked.connect(self._on_first_clicked)
        controls.back_clicked.connect(self._on_back_clicked)
        controls.play_clicked.connect(self._on_play_clicked)
        controls.forward_clicked.connect(self._on_forward_clicked)
        controls.last_clicked.connect(self._on_last_clicked)
        controls.position_dragged.connect(self._on_position_dragged)
        controls.speed_chosen.connect(self._on_speed_chosen)
        self.keys = PlaybackKeys(panel, panel.view, {
            Qt.Key.Key_Right: self.step_forward, Qt.Key.Key_Left: self.step_back, Qt.Key.Key_Space: self.toggle_play,
            Qt.Key.Key_Home: self.first, Qt.Key.Key_End: self.last}, self._recover)

    @property
    def _timeline(self):
        return self.panel.timeline

    def seek(self, position: int) -> set[str]:
        """Go to ``position`` (clamped to 0..frame count); returns the ids of the nodes whose display changed."""
        panel, timeline = self.panel, self._timeline
        if timeline is None:
            return set()
        old = timeline.position
        touched = timeline.seek(position)
        panel.sync.step_first()  # the step moved to is what the eye follows now (a question's card beside it)
        panel.sync.refresh_moved(touched, old)
        panel.pitfalls.seek(timeline.position)
        panel.predict.on_position(timeline.position)
        panel.refresh_text()
        if timeline.position != old:
            panel.step_reached.emit(timeline.position)
        return touched

    def step_forward(self) -> bool:
        """One step on; False at the end, or when Predict mode asks for the step first (then it waits)."""
        timeline = self._timeline
        if timeline is None or timeline.position >= len(timeline):
            return False
        if self.panel.predict.holds(timeline.position + 1):
            self.pause()
            return False
        self.seek(timeline.position + 1)
        return True

    def step_back(self) -> bool:
        timeline = self._timeline
        if timeline is None or timeline.position == 0:
            return False
        self.seek(timeline.position - 1)
        return True

    def first(self) -> None:
        self.seek(0)

    def last(self) -> None:
        self.seek(len(self._timeline) if self._timeline is not None else 0)

    def play(self) -> None:
        """Step at the chosen speed until the last step (from the start if already at the end)."""
        timeline = self._timeline
        if timeline is None or not len(timeline):
            return
        if timeline.position >= len(timeline):
            self.seek(0)
        self.player.start()
        self._show_playing()

    def pause(self) -> None:
        self.player.stop()
        self._show_playing()

    def toggle_play(self) -> None:
        if self.player.is_playing:
            self.pause()
        else:
            self.play()

    def set_speed_index(self, index: int) -> None:
        """Choose one of `SPEEDS` (0.25, 0.5, 1, 2, 4, 8 steps per second, then fastest)."""
        self.panel.controls.show_speed(self.player.set_speed_index(index))
        self.panel.fitting.set_playing_fastest(self.player.is_playing and self.player.speed is None)

    def _recover(self, error: Exception) -> None:
        """Something went wrong while moving: stop playing and say so."""
        self.pause()
        self.panel.status_message.emit(f"Animator: something went wrong ({type(error).__name__}: {error})")

    def _show_playing(self) -> None:
        playing = self.player.is_playing
        self.panel.controls.show_playing(playing)
        self.panel.fitting.set_playing_fastest(playing and self.player.speed is None)

    # -- slots -----------------------------------------------------------------------------

    @guarded
    def _on_player_stepped(self, steps: int) -> None:
        timeline = self._timeline
        if timeline is None or timeline.position >= len(timeline):
            self.pause()
            return
        if self.panel.predict.is_on:  # one step at a time: each backward step waits for its prediction
            self.step_forward()
        else:
            self.seek(timeline.position + steps)
        if timeline.position >= len(timeline):
            self.pause()

    @guarded
    def _on_first_clicked(self, _checked: bool = False) -> None:
        self.first()

    @guarded
    def _on_back_clicked(self, _checked: bool = False) -> None:
        self.step_back()

    @guarded
    def _on_play_clicked(self, _checked: bool = False) -> None:
        self.toggle_play()

    @guarded
    def _on_forward_clicked(self, _checked: bool = False) -> None:
        self.step_forward()

    @guarded
    def _on_last_clicked(self, _checked: bool = False) -> None:
        self.last()

    @guarded
    def _on_position_dragged(self, value: int) -> None:
        self.seek(value)

    @guarded
    def _on_speed_chosen(self, value: int) -> None:
        self.set_speed_index(value)
        self.panel.status_message.emit(f"Animation speed: {speed_text(self.player.speed)}")
