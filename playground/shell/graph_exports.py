"""File > Export for the editor's graph: a picture (PNG or SVG, without selection highlights) or a Python
script that rebuilds it with the engine (optionally checked against PyTorch)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QRectF, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QMainWindow

from ..files.disk import atomic_path, failure_reason, write_atomic
from ..graph.export_code import to_python
from ..widgets.file_dialogs import FILE_FOLDER


class GraphExports(QObject):
    def __init__(self, window: QMainWindow, files):
        """``files`` is the window's `DocumentFiles`: the graph's name and folder."""
        super().__init__(window)
        self.window, self.files = window, files

    def export_image(self, path: str | Path) -> None:
        """Draw the graph (without selection highlights) to a PNG or SVG file."""
        path = Path(path)
        scene = self.window.editor.scene
        selected = scene.selected_node_ids()
        scene.clearSelection()
        source = scene.itemsBoundingRect().adjusted(-24, -24, 24, 24)
        size = QSize(max(1, round(source.width())), max(1, round(source.height())))
        try:  # drawn into a temporary file beside the target, then put in its place: never half a picture
            with atomic_path(path) as temporary:
                if path.suffix.lower() == ".svg":
                    generator = QSvgGenerator()
                    generator.setFileName(str(temporary))
                    generator.setSize(size)
                    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
                    generator.setTitle(self.files.name)
                    painter = QPainter(generator)
                    scene.render(painter, QRectF(0, 0, size.width(), size.height()), source)
                    painter.end()
                else:
                    image = QImage(size * 2, QImage.Format.Format_ARGB32)
                    image.fill(self.window.palette().base().color())
                    painter = QPainter(image)
                    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                    scene.render(painter, QRectF(image.rect()), source)
                    painter.end()
                    if not image.save(str(temporary), "PNG"):
                        raise OSError(f"could not write {path}")
        finally:
            scene.select_nodes(selected)

    def export_code(self, path: str | Path, use_torch: bool = False) -> None:
        write_atomic(path, to_python(self.window.document, use_torch=use_torch))

    def on_export_image_triggered(self, extension: str) -> None:
        default = self.files.start_folder() / f"{Path(self.files.name).stem or 'graph'}.{extension}"
        path, _ = QFileDialog.getSaveFileName(self.window, f"Export image as {extension.upper()}", str(default),
                                              f"{extension.upper()} image (*.{extension})")
        if path:
            FILE_FOLDER.remember(path)
            try:
                self.export_image(path)
            except OSError as error:
                self.window.show_error("The image could not be exported", failure_reason(error, path))
            else:
                self.window.statusBar().showMessage(f"Exported {path}", 5000)

    def on_export_code_triggered(self, use_torch: bool) -> None:
        default = self.files.start_folder() / f"{Path(self.files.name).stem.replace(' ', '_') or 'graph'}.py"
        path, _ = QFileDialog.getSaveFileName(self.window, "Export Python code", str(default), "Python (*.py)")
        if not path:
            return
        FILE_FOLDER.remember(path)
        try:
            self.export_code(path, use_torch)
        except OSError as error:
            self.window.show_error("The code could not be exported", failure_reason(error, path))
        except ValueError as error:
            self.window.show_error("The code could not be exported", str(error))
        else:
            self.window.statusBar().showMessage(f"Exported {path}", 5000)
