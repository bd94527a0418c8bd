"""The graph drawn in the editor as the training tab's network (issue 28): what the tab does when it is asked
to train a graph, and while it trains one.

`train` takes a graph document (the main window hands the editor's, from "Train this graph" or the Network
choice): a graph that cannot be trained is refused with the reason, and nothing changes; otherwise the tab
keeps a copy, draws it in the network diagram's place (`graph_view`), and the worker trains it from its drawn
values. Choosing "The editor's graph" in the Network box asks for the graph (`graph_wanted`) rather than
switching on its own: the tab never trains a graph it has not been given. A map hovered on the graph's cards
goes on the big plot, as a hovered neuron of the diagram does.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Slot

from ..graph.network import GraphProblem, TrainingPlan, plan_training
from .model.settings import TrainingSettings


class GraphTraining(QObject):
    def __init__(self, panel):
        """``panel``: the `TrainingPanel` this room belongs to (its settings, controls, view and requests)."""
        super().__init__(panel)
        self.panel = panel
        self.graph = None                 # the graph document trained (a copy), or None
        self.plan: TrainingPlan | None = None

    def check(self, document, settings: TrainingSettings | None = None) -> str | None:
        """Why ``document`` cannot be trained with ``settings`` (the tab's by default), or None."""
        settings = settings or self.panel.settings
        try:
            plan_training(document, settings.outputs)
        except GraphProblem as problem:
            return str(problem)
        return None

    def train(self, document) -> str | None:
        """Train ``document`` from its drawn values (see the module docstring); returns why not, or None."""
        panel = self.panel
        settings = replace(panel.settings, network="graph")
        try:
            self.plan = plan_training(document, settings.outputs)
        except GraphProblem as problem:
            panel.show_message(f"The editor's graph cannot be trained: {problem}")
            panel.form.show(panel.settings, panel._classes())  # the Network box shows what is trained still
            return str(problem)
        panel.pause()
        self.graph = document.copy()
        panel.graph_view.show_graph(self.graph, self.plan)
        panel.network_controls.show_graph(self.plan.describe())
        panel.clear_message()
        panel.graph_requested.emit(self.graph.copy())  # the worker's own copy, for its thread alone
        panel.set_settings(settings)
        return None

    def adopt(self, graph) -> None:
        """The graph a setup brings (None: a setup of the layer form), trained from the setup's weights: drawn in
        the diagram's place; the worker restores it with the rest of the setup."""
        if graph is None:
            return
        self.graph = graph.copy()
        self.plan = plan_training(self.graph, self.panel.settings.outputs)
        self.panel.graph_view.show_graph(self.graph, self.plan)
        self.panel.network_controls.show_graph(self.plan.describe())

    @property
    def is_training(self) -> bool:
        """Whether the tab trains a graph (rather than the layer form's network)."""
        return self.panel.settings.trains_graph

    def wanted(self) -> None:
        """The person chose "The editor's graph": the box shows the network trained until the graph comes."""
        panel = self.panel
        panel.form.show(panel.settings, panel._classes())
        panel.graph_wanted.emit()

    @Slot(str, int)
    def on_map_hovered(self, node_id: str, column: int) -> None:
        """A map of the graph under the mouse goes on the big plot (the worker draws it at full resolution)."""
        panel = self.panel
        panel._hovered = (node_id, column) if node_id else None
        panel.graph_focus_requested.emit(node_id, column)
        panel.painter.show_focus(panel._frame, panel._hovered)
