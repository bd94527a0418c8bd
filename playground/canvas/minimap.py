"""The minimap: the whole graph in a corner of a `view.GraphView`, with a rectangle for what the view shows;
a click or a drag in it moves the view there."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QFrame, QGraphicsScene, QGraphicsView

from .style import LIGHT_COLORS

SCENE_EXTENT = 50_000.0  # the view can pan anywhere within ± this, and over the whole graph beyond it


def scene_colors(scene: QGraphicsScene | None) -> dict:
    """The scene's palette (`style`), or the light one."""
    return getattr(scene, "colors", None) or LIGHT_COLORS


def scene_bounds(scene: QGraphicsScene | None) -> QRectF:
    """Where the scene's items are (a card scene answers from its own index)."""
    if scene is None:
        return QRectF()
    return scene.items_bounding_rect() if hasattr(scene, "items_bounding_rect") else scene.itemsBoundingRect()


class MiniMap(QGraphicsView):
    """The whole graph in a corner of the main view, with a rectangle for what the main view shows.

    Click or drag in it to centre the main view there.
    """

    def __init__(self, main_view: QGraphicsView):  # the `view.GraphView` it maps (no import: no circle)
        super().__init__(main_view.scene(), main_view)
        self.main_view = main_view
        self.setObjectName("graphMiniMap")
        self.setAccessibleName("Minimap: the whole graph; click or drag to move the view")
        self.setInteractive(False)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAcceptDrops(False)
        self.viewport().setAcceptDrops(False)
        self.setSceneRect(-SCENE_EXTENT, -SCENE_EXTENT, 2 * SCENE_EXTENT, 2 * SCENE_EXTENT)
        self.setFixedSize(176, 118)
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Minimap: click or drag to move the view")
        self._refit_timer = QTimer(self)
        self._refit_timer.setSingleShot(True)
        self._refit_timer.setInterval(60)
        self._refit_timer.timeout.connect(self.refit)
        self._following = False  # listening to the scene's changes: only while shown (see `_follow_scene`)

    def _follow_scene(self, follow: bool) -> None:
        """Listen to the scene's changes while the minimap is shown, and only then: a scene with a listener to
        its `changed` signal hands every repaint's regions to Python (a trained graph's thirty times a second,
        up to 17 ms a time beside training), with none it sends them straight to its views."""
        scene = self.scene()
        if scene is None or follow == self._following:
            return
        if follow:
            scene.changed.connect(self._on_scene_changed)
        else:
            scene.changed.disconnect(self._on_scene_changed)
        self._following = follow

    def _on_scene_changed(self, _regions) -> None:
        if self.isVisible():
            self._refit_timer.start()

    def hideEvent(self, event) -> None:
        self._follow_scene(False)
        super().hideEvent(event)

    def refit(self) -> None:
        rect = scene_bounds(self.scene())
        if rect.isNull():
            rect = QRectF(-200, -150, 400, 300)
        margin = 30
        self.fitInView(rect.adjusted(-margin, -margin, margin, margin), Qt.AspectRatioMode.KeepAspectRatio)
        self.viewport().update()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._follow_scene(True)
        self.refit()

    def visible_area(self) -> QRectF:
        """The part of the scene the main view shows, in scene coordinates."""
        return self.main_view.mapToScene(self.main_view.viewport().rect()).boundingRect()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, scene_colors(self.scene())["minimap_bg"])

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        colors = scene_colors(self.scene())
        accent = colors["minimap_view"]
        fill = QColor(accent)
        fill.setAlpha(22)
        painter.setBrush(fill)
        painter.setPen(QPen(accent, 1.5 / max(self.transform().m11(), 1e-6)))
        painter.save()
        painter.drawRect(self.visible_area())
        painter.resetTransform()
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colors["minimap_border"], 1))
        painter.drawRect(QRectF(self.viewport().rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.restore()

    def _centre_main_view(self, pos: QPointF) -> None:
        self.main_view.centerOn(self.mapToScene(pos.toPoint()))
        self.main_view.stop_keeping_fitted()
        self.viewport().update()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._centre_main_view(event.position())
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._centre_main_view(event.position())
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        event.accept()

    def mouseDoubleClickEvent(self, event) -> None:
        event.accept()

    def wheelEvent(self, event) -> None:
        event.accept()

    def contextMenuEvent(self, event) -> None:
        event.accept()
