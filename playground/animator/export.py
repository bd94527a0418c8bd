"""Turn rendered animator frames into files: an animated GIF (with Pillow) or numbered PNGs.

Qt is used only to read the pixels of a `QImage`; the GIF itself is written by Pillow to a
temporary file beside the target and then moved into place (`files.atomic_path`), so a failed
export never leaves half a file behind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import Image
from PySide6.QtGui import QImage

from ..files.disk import atomic_path

LAST_FRAME_HOLD = 4  # the last frame stays up this many frame durations before the GIF loops


def qimage_to_pil(image: QImage) -> Image.Image:
    """An RGB Pillow image with the pixels of ``image`` (any format; alpha is dropped)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = rgb.width(), rgb.height()
    data = bytes(rgb.constBits())[: rgb.bytesPerLine() * height]
    return Image.frombuffer("RGB", (width, height), data, "raw", "RGB", rgb.bytesPerLine(), 1).copy()


def to_palette(image: Image.Image) -> Image.Image:
    """The image with an adaptive 256-colour palette: what a GIF frame holds, a third of the memory of RGB."""
    return image.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)


def write_gif(frames: Sequence[Image.Image], path: str | Path, frame_ms: int = 500, loop: int = 0) -> int:
    """Write ``frames`` as an animated GIF, each shown ``frame_ms`` (the last one longer); returns the count."""
    frames = list(frames)
    if not frames:
        raise ValueError("there are no frames to write")
    durations = [int(frame_ms)] * len(frames)
    durations[-1] = int(frame_ms) * LAST_FRAME_HOLD
    with atomic_path(path) as temporary:
        frames[0].save(temporary, format="GIF", save_all=True, append_images=frames[1:],
                       duration=durations if len(frames) > 1 else durations[0], loop=loop)
    return len(frames)


def write_png_frames(images: Iterable[QImage], folder: str | Path, prefix: str = "frame_") -> int:
    """Save ``images`` as ``frame_0001.png``, ``frame_0002.png``, ... in ``folder`` (created if needed), each
    through a temporary file and a rename: a frame is there whole or not at all."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for count, image in enumerate(images, start=1):
        target = folder / f"{prefix}{count:04d}.png"
        with atomic_path(target) as temporary:
            if not image.save(str(temporary), "PNG"):
                raise OSError(f"could not write {target}")
    return count
