"""The editor's graph trained in the training tab (issue 28): the shell carries the graph from one panel to the
other, so neither reaches into the other.

- "Train this graph" (the editor's button, Edit > Train this graph) and the training tab's choice "The editor's
  graph" hand the editor's document to `TrainingPanel.train_graph`; a graph it refuses is refused in the
  status bar, with the reason, and nothing changes.
- The editor greys its button, the reason in its tooltip, for the training tab's number of classes.
- While a graph trains, the editor shows the trained network as long as it shows that graph: the maps the
  training tab paints (each node over the plane) and its numbers (trained values, the training loss's gradients).
- An edit of the graph while it trains: before any step, the tab simply takes the new graph; after steps, the
  run pauses and the person is asked whether to start over on the new graph (Undo in the editor brings the old
  graph back). "Keep training" leaves the run on the graph as it was, until the next "Train this graph".
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QMainWindow, QMessageBox

from ..graph.document import maths_of

START_OVER, KEEP = "start over", "keep"


class GraphTrainingLink(QObject):
    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        self.editor, self.training = window.editor, window.training
        self._declined = False  # "Keep training the old graph": no more questions until the next Train
        self._check_timer = QTimer(self, singleShot=True, interval=0)  # once an edit (or a macro) is done
        self._check_timer.timeout.connect(self._on_editor_graph_settled)
        self.editor.train_graph_requested.connect(self.train)
        self.training.graph_wanted.connect(self.train)
        self.training.settings_requested.connect(lambda s: self.editor.set_training_outputs(s.outputs))
        self.training.graph_maps_shown.connect(self._on_training_graph_maps_shown)
        self.editor.set_training_outputs(self.training.settings.outputs)
        window.document.subscribe(self._on_document_changed)

    def ask_start_over(self) -> str:
        """Start over on the edited graph, or keep training the old one? (Tests answer it.)"""
        box = QMessageBox(QMessageBox.Icon.Question, "The graph changed",
                          "The training tab is training this graph. Start over on the graph as it is now (from its "
                          "drawn values), or keep training the graph as it was? Undo in the editor brings that "
                          "graph back.", QMessageBox.StandardButton.NoButton, self.window)
        box.setObjectName("graphChangedQuestion")
        start = box.addButton("Start over on the new graph", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Keep training the old graph", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(start)
        box.exec()
        return START_OVER if box.clickedButton() is start else KEEP

    def train(self) -> bool:
        """Have the training tab train the editor's graph; False (with the reason in the status bar) if it cannot."""
        problem = self.training.train_graph(self.window.document)
        if problem is not None:
            self.window.statusBar().showMessage(f"The graph cannot be trained: {problem}", 8000)
            return False
        self._declined = False
        self.window.tabs.setCurrentWidget(self.training)
        self.window.statusBar().showMessage("The training tab trains the editor's graph: press Play", 6000)
        return True

    @property
    def trains_the_editors_graph(self) -> bool:
        """Whether the training tab trains the graph the editor shows, as it is now."""
        return self._trains_the_editors_graph()

    def _trains_the_editors_graph(self) -> bool:
        graph = self.training.graph_training.graph
        return (self.training.settings.trains_graph and graph is not None
                and maths_of(graph) == maths_of(self.window.document))

    def _on_document_changed(self, _change) -> None:
        self._check_timer.start()

    def _on_editor_graph_settled(self) -> None:
        training = self.training
        if not training.settings.trains_graph or training.graph_training.graph is None:
            return
        if self._trains_the_editors_graph():
            return
        self.editor.show_training_maps(None)  # its maps were of the graph as it was
        if self._declined:
            return
        if training.step == 0 and not training.is_playing:  # nothing trained to lose: the tab follows the editor
            if training.graph_training.check(self.window.document) is None:
                training.train_graph(self.window.document)
            return
        training.pause()
        if self.ask_start_over() == START_OVER:
            self.train()
        else:
            self._declined = True

    def _on_training_graph_maps_shown(self, images, totals, numbers) -> None:
        if self._trains_the_editors_graph():
            self.editor.show_training_maps(images, totals, numbers)
