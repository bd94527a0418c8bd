"""The animator's export: the animation as an animated GIF or one PNG per step, for slides.

`AnimationExporter` asks where (file dialogs that start in the home folder), walks the animator
through every step rendering each (`frame_image.render_frame`), writes the files (`export`) and
puts the animator back where it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from ..files.disk import failure_reason
from ..widgets.errors import guarded
from ..widgets.file_dialogs import FILE_FOLDER
from .export import qimage_to_pil, to_palette, write_gif, write_png_frames
from .frame_image import render_frame
from .model.timeline import Timeline
from .scene import AnimatorScene

FASTEST_GIF_FRAME_MS = 100  # a GIF of the "fastest" speed: ten steps a second


class Animator(Protocol):
    """What the exporter needs of the animator panel."""

    scene: AnimatorScene
    timeline: Timeline | None
    position: int
    frame_count: int
    speed: float | None

    def pause(self) -> None: ...
    def seek(self, position: int) -> object: ...


class AnimationExporter(QObject):
    status_message = Signal(str)

    def __init__(self, animator: Animator, dialog_parent: QWidget):
        super().__init__(dialog_parent)
        self.animator, self._dialog_parent = animator, dialog_parent

    def render_image(self, max_size: int = 900) -> QImage:
        """The graph as it is now, on white, with the step's title above it and a legend below,
        scaled to fit ``max_size`` pixels (never enlarged beyond 1.5x)."""
        animator = self.animator
        frame = animator.timeline.current if animator.timeline is not None else None
        caption = ("Before the first step" if frame is None
                   else f"Step {animator.position}/{animator.frame_count} · {frame.title}")
        return render_frame(animator.scene, caption, max_size)

    def frame_images(self, max_size: int):
        """One image after each step (the initial, empty state is not included), then back where it was."""
        animator = self.animator
        if animator.timeline is None:
            raise ValueError("there is no animation to export")
        animator.pause()
        saved = animator.position
        try:
            for position in range(1, animator.frame_count + 1):
                animator.seek(position)
                yield self.render_image(max_size)
        finally:
            animator.seek(saved)

    def export_gif(self, path: str | Path, frame_ms: int | None = None, max_size: int = 900) -> int:
        """Write an animated GIF with one frame per step (after step 1, 2, ..., n: the empty start
        is left out), each shown ``frame_ms`` (by default as long as at the chosen speed, 0.1 s for
        "fastest"); returns the number of frames. The position is restored afterwards.

        Raises ValueError when there is nothing to animate, OSError when the file cannot be written.
        Pillow holds every frame in memory until it writes the file (a few hundred kB each).
        """
        if frame_ms is None:
            speed = self.animator.speed
            frame_ms = round(1000 / speed) if speed else FASTEST_GIF_FRAME_MS
        frames = [to_palette(qimage_to_pil(image)) for image in self.frame_images(max_size)]
        return write_gif(frames, path, frame_ms)

    def export_png_frames(self, folder: str | Path, max_size: int = 900) -> int:
        """Write ``frame_0001.png`` ... (one per step, as `export_gif`) into ``folder``; returns the count."""
        return write_png_frames(self.frame_images(max_size), folder)

    @guarded
    def ask_and_export_gif(self) -> None:
        if not self._can_export():
            return
        path = FILE_FOLDER.ask_save_path(self._dialog_parent, "Export the animation as a GIF", "backward.gif",
                                         "Animated GIF (*.gif)")
        if path:
            self._export(self.export_gif, path if path.lower().endswith(".gif") else path + ".gif")

    @guarded
    def ask_and_export_frames(self) -> None:
        if not self._can_export():
            return
        folder = FILE_FOLDER.ask_folder(self._dialog_parent, "Export one PNG per step into a folder")
        if folder:
            self._export(self.export_png_frames, folder)

    def _can_export(self) -> bool:
        if self.animator.timeline is None:
            self.status_message.emit("Nothing to export: the animator has no graph")
            return False
        self.animator.pause()
        return True

    def _export(self, write, target: str) -> None:
        self._dialog_parent.setCursor(Qt.CursorShape.WaitCursor)
        try:
            count = write(target)
        except OSError as error:
            where = Path(target) / "frame.png" if Path(target).is_dir() else Path(target)  # PNG frames: a folder
            self.status_message.emit(f"Could not write {Path(target).name}: {failure_reason(error, where)}")
            return
        finally:
            self._dialog_parent.unsetCursor()
        self.status_message.emit(f"Saved {count} frames to {target}")

    def _recover(self, error: Exception) -> None:
        self.status_message.emit(f"Export: something went wrong ({type(error).__name__}: {error})")
