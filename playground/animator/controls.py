"""The animator's transport bar: first / back / play / forward / last, the timeline slider, the
speed slider and the export menu.

It owns no state of the animation: it says what the person asked for (signals) and shows
what the panel tells it (`show_position`, `show_playing`, `show_speed`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPushButton, QSlider, QStyle, QToolButton, QWidget

from ..widgets.tinted_icon import text_coloured_icon
from .player import DEFAULT_SPEED_INDEX, SPEEDS, speed_text


def named_tool_button(name: str, spoken: str, tooltip: str, icon=None) -> QToolButton:
    """A transport button: ``spoken`` is its action, which a screen reader says (it shows only an icon)."""
    button = QToolButton()
    button.setObjectName(name)
    button.setAccessibleName(spoken)
    button.setToolTip(tooltip)
    button.setAutoRaise(False)
    if icon is not None:
        button.setIcon(icon)
    button.setMinimumHeight(28)
    return button


class PlaybackControls(QWidget):
    """The row of controls under the animated graph."""

    first_clicked = Signal()
    back_clicked = Signal()
    play_clicked = Signal()
    forward_clicked = Signal()
    last_clicked = Signal()
    position_dragged = Signal(int)  # the timeline slider moved to this position
    speed_chosen = Signal(int)  # an index into SPEEDS
    export_gif_chosen = Signal()
    export_frames_chosen = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.first_button = named_tool_button("animFirstButton", "Go to the first step", "First step (Home)")
        self.back_button = named_tool_button("animStepBackButton", "Step back", "Step back (←)")
        self.play_button = named_tool_button("animPlayButton", "Play the animation", "Play or pause (Space)")
        self.play_button.setText("Play")
        self.play_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.play_button.setMinimumWidth(84)
        self.forward_button = named_tool_button("animStepForwardButton", "Step forward", "Step forward (→)")
        self.last_button = named_tool_button("animLastButton", "Go to the last step", "Last step (End)")
        Pixmap = QStyle.StandardPixmap
        # Each button's picture, drawn in the theme's button text colour (again when the theme changes).
        self._pictures = {self.first_button: Pixmap.SP_MediaSkipBackward, self.back_button: Pixmap.SP_MediaSeekBackward,
                          self.play_button: Pixmap.SP_MediaPlay, self.forward_button: Pixmap.SP_MediaSeekForward,
                          self.last_button: Pixmap.SP_MediaSkipForward}
        self._paint_pictures()
        self.export_button = QPushButton("Export")  # a push button draws its menu arrow beside the text
        self.export_button.setObjectName("animExportButton")
        self.export_button.setAccessibleName("Export the animation")
        self.export_button.setToolTip("Save the animation for slides: an animated GIF, or one PNG per step")
        export_menu = QMenu(self.export_button)
        export_menu.addAction("Animated GIF…", self.export_gif_chosen.emit).setObjectName("animExportGifAction")
        export_menu.addAction("PNG frames (one per step)…", self.export_frames_chosen.emit).setObjectName(
            "animExportFramesAction")
        self.export_button.setMenu(export_menu)

        self.timeline_slider = QSlider(Qt.Orientation.Horizontal)
        self.timeline_slider.setObjectName("animTimeline")
        self.timeline_slider.setAccessibleName("Step of the animation")
        self.timeline_slider.setToolTip("Drag to scrub through the steps")
        self.timeline_slider.setRange(0, 0)
        self.position_label = QLabel("0 / 0")
        self.position_label.setObjectName("animPositionLabel")
        self.position_label.setMinimumWidth(78)
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.speed_slider = QSlider(Qt.Orientation.Horizontal)
        self.speed_slider.setObjectName("animSpeedSlider")
        self.speed_slider.setAccessibleName(f"Playing speed: {speed_text(SPEEDS[DEFAULT_SPEED_INDEX])}")
        self.speed_slider.setRange(0, len(SPEEDS) - 1)
        self.speed_slider.setPageStep(1)
        self.speed_slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.speed_slider.setTickInterval(1)
        self.speed_slider.setValue(DEFAULT_SPEED_INDEX)
        self.speed_slider.setFixedWidth(120)
        self.speed_slider.setToolTip("Playing speed: 0.25 to 8 steps per second, or as fast as possible")
        self.speed_label = QLabel(speed_text(SPEEDS[DEFAULT_SPEED_INDEX]))
        self.speed_label.setObjectName("animSpeedLabel")
        self.speed_label.setMinimumWidth(QFontMetricsF(self.font()).horizontalAdvance("0.25 steps/s") + 8)

        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        for button in self.step_buttons():
            row.addWidget(button)
        row.addSpacing(8)
        row.addWidget(self.timeline_slider, 1)
        row.addWidget(self.position_label)
        row.addSpacing(12)
        row.addWidget(QLabel("Speed"))
        row.addWidget(self.speed_slider)
        row.addWidget(self.speed_label)
        row.addSpacing(8)
        row.addWidget(self.export_button)

        self.first_button.clicked.connect(self.first_clicked)
        self.back_button.clicked.connect(self.back_clicked)
        self.play_button.clicked.connect(self.play_clicked)
        self.forward_button.clicked.connect(self.forward_clicked)
        self.last_button.clicked.connect(self.last_clicked)
        self.timeline_slider.valueChanged.connect(self.position_dragged)
        self.speed_slider.valueChanged.connect(self.speed_chosen)

    def step_buttons(self) -> tuple[QToolButton, ...]:
        return self.first_button, self.back_button, self.play_button, self.forward_button, self.last_button

    def set_frame_count(self, count: int) -> None:
        """A new animation: the slider spans its ``count`` steps and sits at the start."""
        with QSignalBlocker(self.timeline_slider):
            self.timeline_slider.setRange(0, count)
            self.timeline_slider.setValue(0)
        self.position_label.setText(f"0 / {count}")

    def set_controls_enabled(self, enabled: bool) -> None:
        for widget in (*self.step_buttons(), self.export_button, self.timeline_slider):
            widget.setEnabled(enabled)

    def show_position(self, position: int, count: int) -> None:
        self.position_label.setText(f"{position} / {count}")
        if self.timeline_slider.value() != position:
            with QSignalBlocker(self.timeline_slider):
                self.timeline_slider.setValue(position)
        self.back_button.setEnabled(position > 0)
        self.first_button.setEnabled(position > 0)
        self.forward_button.setEnabled(position < count)
        self.last_button.setEnabled(position < count)

    def show_playing(self, playing: bool) -> None:
        self.play_button.setText("Pause" if playing else "Play")
        self.play_button.setAccessibleName("Pause the animation" if playing else "Play the animation")
        self._pictures[self.play_button] = (QStyle.StandardPixmap.SP_MediaPause if playing
                                            else QStyle.StandardPixmap.SP_MediaPlay)
        self.play_button.setIcon(text_coloured_icon(self, self._pictures[self.play_button]))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # a new theme: the pictures in its text colour
            self._paint_pictures()

    def _paint_pictures(self) -> None:
        # In the row's palette: Qt tells the row of a new palette before it hands it down to the buttons.
        for button, picture in self._pictures.items():
            button.setIcon(text_coloured_icon(self, picture))

    def show_speed(self, index: int) -> None:
        if self.speed_slider.value() != index:
            with QSignalBlocker(self.speed_slider):
                self.speed_slider.setValue(index)
        self.speed_label.setText(speed_text(SPEEDS[index]))
        # The slider's own value is an index into SPEEDS: its name says the speed.
        self.speed_slider.setAccessibleName(f"Playing speed: {speed_text(SPEEDS[index])}")
