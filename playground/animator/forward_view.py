"""Forward mode in the animator: the "Animate" combo's third choice, the input to take the derivative by
(`forwardInputCombo`), and the counter (`workCounter`) that compares the work for all gradients.

Choosing "Forward mode" animates the editor's graph with `ForwardAnimation` (values and tangents flowing
forward together, from `engine.forward_steps`), one pass for the input chosen; the counter then says how
many passes all gradients take against reverse mode's one backward pass. On a tensor graph the pass is
along one element of the input (`forwardElementCombo`: a one-hot tangent, `TensorForwardAnimation`), so it
ends with one element of the gradient. For the training network the counter says the same of its
parameters (337 forward passes against 1 backward pass for 2-16-16-1).
"""

from __future__ import annotations

from functools import partial

import numpy as np
from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QComboBox, QLabel

from ..widgets.errors import report_handled
from .model.editor_tensors import document_tensors
from .model.forward_timeline import ForwardAnimation, inputs_of, work_of_graph, work_of_network
from .model.tensor_forward import TensorForwardAnimation, index_text, tensor_inputs

FORWARD_SOURCE = ("forward", "Forward mode (the editor's graph)")
FORWARD_NETWORK_SOURCE = ("forward-network", "Forward mode (the training network)")
FORWARD_SOURCES = (FORWARD_SOURCE[0], FORWARD_NETWORK_SOURCE[0])
MAX_ELEMENTS = 1024  # the element combo lists this many of a large input's elements
COUNTER_STYLE = "QLabel#workCounter { color: palette(text); background: palette(alternate-base); padding: 3px 6px; }"


class ForwardView:
    def __init__(self, panel):
        self.panel = panel
        panel.source_combo.addItem(FORWARD_SOURCE[1], FORWARD_SOURCE[0])
        panel.source_combo.addItem(FORWARD_NETWORK_SOURCE[1], FORWARD_NETWORK_SOURCE[0])
        self.input_combo = QComboBox()
        self.input_combo.setObjectName("forwardInputCombo")
        self.input_combo.setAccessibleName("The input forward mode takes the derivative by")
        self.input_combo.setToolTip("Forward mode: the input whose tangent is seeded to 1 (one pass per input)")
        self.input_combo.setVisible(False)
        self.element_combo = QComboBox()
        self.element_combo.setObjectName("forwardElementCombo")
        self.element_combo.setAccessibleName("The element of a tensor input forward mode moves")
        self.element_combo.setToolTip("Forward mode on a tensor: the element of the input whose tangent is 1 (a "
                                      "one-hot tangent, 0 at every other element); the pass ends with the "
                                      "output's derivative by that element, one element of the gradient")
        self.element_combo.setVisible(False)
        self.element_combo.activated.connect(self._on_element_combo_activated)
        self.counter = QLabel()
        self.counter.setObjectName("workCounter")
        self.counter.setAccessibleDescription("Forward mode's passes against reverse mode's one")
        self.counter.setWordWrap(True)
        self.counter.setStyleSheet(COUNTER_STYLE)
        self.counter.setVisible(False)
        self.network_work = None  # the training network's WorkCount, once it has been sent
        self._network = None  # (model, loss_fn, X, y, description) of the training network last sent
        # Connected before the panel's own slot (arrange runs first): once forward mode shows, the panel's slot sees
        # its source shown and leaves it; when it could not be shown, the panel's slot shows the editor's graph.
        panel.source_combo.activated.connect(self._on_source_combo_activated)
        self.input_combo.activated.connect(self._on_input_combo_activated)
        panel.step_reached.connect(self._on_panel_step_reached)
        panel.follower.changed.connect(self._on_followed_document_changed)
        self._edited_in_forward = False  # the editor's graph changed while forward mode showed it
        self._input_name = ""  # the input of the last forward pass
        self._parameter_names: list[str] = []  # the training network's, once forward mode has run on it

    @property
    def is_on(self) -> bool:
        return self.panel.source == FORWARD_SOURCE[0]

    def load(self, input_name: str | None = None, element: int | None = None) -> bool:
        """Forward mode on the editor's graph along the input named ``input_name`` (default: the one chosen, else
        the first) and, on a tensor graph, its element at flat index ``element`` (default: the one chosen for
        that input, else the first); False (and a message) if the graph has no such input or cannot be
        animated."""
        panel = self.panel
        document = panel.followed_document or panel.document
        tensor = document.is_tensor_graph
        try:
            inputs = tensor_inputs(document, document_tensors(document)[0]) if tensor else inputs_of(document)
        except ValueError as error:  # no scalar output, an input not connected: nothing to differentiate
            panel.status_message.emit(f"Forward mode: can't animate this graph: {error}")
            return False
        names = [document.name(i) for i in inputs]
        if not inputs:
            panel.status_message.emit("Forward mode: the graph has no input the output depends on")
            return False
        wanted = input_name if input_name is not None else self.input_combo.currentText()
        if input_name is not None and input_name not in names:
            panel.status_message.emit(f"Forward mode: the graph has no input named {input_name}")
            return False
        input_id = inputs[names.index(wanted)] if wanted in names else inputs[0]
        same_input = document.name(input_id) == self._input_name
        with QSignalBlocker(self.input_combo):
            self.input_combo.clear()
            for node_id, name in zip(inputs, names):
                self.input_combo.addItem(name, node_id)
            self.input_combo.setCurrentIndex(inputs.index(input_id))
        if tensor:
            if element is None:  # the element chosen stays while the input does
                element = max(self.element_combo.currentIndex(), 0) if same_input else 0
            element = self._list_elements(document.shape_of(input_id) or (), element)
            build = partial(TensorForwardAnimation.of_document, input_id=input_id, element=element)
        else:
            build = partial(ForwardAnimation, input_id=input_id)
        loaded = panel.load(document, build, FORWARD_SOURCE[0])
        self._input_name, self._edited_in_forward = document.name(input_id), False
        if loaded:
            animation = panel.animation
            try:
                work = animation.work if tensor else work_of_graph(panel.document)
                self.counter.setText(work.text())
            except ValueError:
                self.counter.setText("")
            along = animation.seed_name if tensor else document.name(input_id)
            panel.status_message.emit(f"Forward mode along {along}: {len(panel.timeline)} steps, one per node")
        self._show_controls()
        return loaded

    def _list_elements(self, shape: tuple[int, ...], element: int) -> int:
        """Offer the elements of an input of ``shape`` (its first `MAX_ELEMENTS`); returns ``element`` clamped."""
        size = min(int(np.prod(shape, dtype=np.int64)), MAX_ELEMENTS)
        element = min(max(int(element), 0), size - 1)
        with QSignalBlocker(self.element_combo):
            self.element_combo.clear()
            for index in range(size):
                self.element_combo.addItem(index_text(shape, index) or "its one element", index)
            self.element_combo.setCurrentIndex(element)
        return element

    def load_network(self, parameter: str | None = None, element: int | None = None) -> bool:
        """Forward mode on the training network (one batch) along the parameter named ``parameter`` (W1, b1, ...;
        default: the one chosen, else the first) and its element at flat index ``element``; False (and a
        message) if there is no network or it cannot be animated."""
        panel = self.panel
        if self._network is None:
            panel.network_requested.emit()  # the main window answers with count_network() and load_network()
        if self._network is None:
            panel.status_message.emit("Forward mode: the training panel has no network yet: open the Training tab")
            return False
        model, loss_fn, X, y, description = self._network
        names = self._parameter_names if self._parameter_names else []
        wanted = parameter if parameter is not None else self.input_combo.currentText()
        index = names.index(wanted) if wanted in names else 0
        same_input = bool(names) and names[index] == self._input_name
        if element is None:
            element = max(self.element_combo.currentIndex(), 0) if same_input else 0
        shape = list(model.parameters())[index].shape
        element = self._list_elements(shape, element)
        build = partial(TensorForwardAnimation.of_network, model, loss_fn, X, y, parameter=index, element=element)
        loaded = panel.show_tensor_animation(build, FORWARD_NETWORK_SOURCE[0], description)
        if loaded:
            animation = panel.animation
            self._parameter_names = animation.leaf_titles
            with QSignalBlocker(self.input_combo):
                self.input_combo.clear()
                self.input_combo.addItems(animation.leaf_titles)
                self.input_combo.setCurrentIndex(index)
            self._input_name = animation.leaf_titles[index]
            self.counter.setText(animation.work.text())
            panel.status_message.emit(f"Forward mode along {animation.seed_name}: {len(panel.timeline)} steps, "
                                      "one per node")
        self._show_controls()
        return loaded

    def count_network(self, model, loss_fn, X, y, description: str = "the network") -> None:
        """The training network was sent: count the work of its gradients both ways (on a copy), and keep it
        for forward mode on it."""
        self._network, self._parameter_names = (model, loss_fn, X, y, description), []
        try:
            self.network_work = work_of_network(model, loss_fn, X, y)
        except Exception as error:  # a counter must not stop the network's animation
            report_handled(error, "counting the network's forward passes")
            self.network_work = None
        self._show_controls()

    def _show_controls(self) -> None:
        source = self.panel.source
        self.input_combo.setVisible(source in FORWARD_SOURCES)
        self.element_combo.setVisible(source in FORWARD_SOURCES and isinstance(self.panel.animation,
                                                                                TensorForwardAnimation)
                                      and self.element_combo.count() > 1)
        if source == "network" and self.network_work is not None:
            self.counter.setText(self.network_work.text())
        self.counter.setVisible(source in (*FORWARD_SOURCES, "network") and bool(self.counter.text()))

    def _on_source_combo_activated(self, index: int) -> None:
        self._edited_in_forward = False  # the person chose: no edit brings forward mode back now
        try:
            chosen = self.panel.source_combo.itemData(index)
            if chosen == FORWARD_SOURCE[0]:
                self.load()
            elif chosen == FORWARD_NETWORK_SOURCE[0]:
                self.load_network()
            self._show_controls()
        except Exception as error:  # a slot: the animator goes on
            report_handled(error, "starting forward mode")

    def _load_shown(self, name: str, element: int | None = None) -> bool:
        """Forward mode again on what it shows (the editor's graph or the network), along ``name``."""
        if self.panel.source == FORWARD_NETWORK_SOURCE[0]:
            return self.load_network(name, element)
        return self.load(name, element)

    def _on_input_combo_activated(self, index: int) -> None:
        try:
            self._load_shown(self.input_combo.itemText(index))
        except Exception as error:
            report_handled(error, "changing forward mode's input")

    def _on_element_combo_activated(self, index: int) -> None:
        try:
            self._load_shown(self.input_combo.currentText(), index)
        except Exception as error:
            report_handled(error, "changing forward mode's element")

    def _on_followed_document_changed(self, _change) -> None:
        if self.is_on:
            self._edited_in_forward = True

    def _on_panel_step_reached(self, position: int) -> None:
        if position != 0:
            return
        try:  # something was loaded: an edit while forward mode was shown brings it back on the new graph
            if self._edited_in_forward and self.panel.source == "graph":
                self._edited_in_forward = False
                inputs = [self.panel.document.name(i) for i in inputs_of(self.panel.document)]
                if inputs:
                    self.load(self._input_name if self._input_name in inputs else inputs[0])
                    return
            self._show_controls()
        except Exception as error:
            report_handled(error, "following an edit in forward mode")
