"""The base of the pieces a scene is built from: gestures, the inline editor, the menus.

Each is a QObject the scene owns as a Qt child and reaches its scene through Qt's parent link,
not through a Python reference, so scene and parts make no reference cycle: a scene nobody
holds is freed at once (and stops following its document), as if it had no parts.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ..canvas.card_scene import CardScene


class ScenePart(QObject):
    """A piece of ``scene``'s behaviour, owned by it.

    An exception in one of its slots is reported (`errors.guarded`) and then emitted with
    ``failed``, for the scene to put itself right (the app goes on).
    """

    failed = Signal(object)  # the exception a slot of this part recovered from

    def __init__(self, scene: CardScene):
        super().__init__(scene)

    @property
    def scene(self) -> CardScene:
        return self.parent()

    def _recover(self, error: Exception) -> None:
        self.failed.emit(error)
