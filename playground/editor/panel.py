"""The graph editor tab: palette, canvas, expression box, properties and gradient check, around one document.

Any change to the document re-runs forward and backward through the engine (once per turn
of the event loop, however many changes one edit makes) and shows the result everywhere.
"""

from __future__ import annotations

import json
from dataclasses import replace

from PySide6.QtCore import QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..canvas.give_way import GiveWay
from ..canvas.path_list import PathHighlighter, PathListBox
from ..canvas.view import GraphView
from ..common.numbers import format_number, full_number
from ..files.validation import parse_json
from ..graph import edits
from ..graph.concealment import HIDDEN, NOTHING_CONCEALED, Concealment
from ..graph.document import Change, Edge, GraphDocument, Node
from ..graph.evaluate import Evaluation, evaluate
from ..graph.expression import ExpressionError, parse_expression
from ..graph.gradient_check import check_gradients
from ..graph.layout import layered_layout
from ..graph.network import GraphProblem, plan_training
from ..graph.why_gradient import why_gradient
from ..widgets.errors import report_handled
from ..widgets.focus import focus_target
from ..widgets.meaning_colours import PROBLEM, RIGHT, WRONG, fitted, set_text_colour
from .commands import EditCommand
from .keyboard_moves import CANVAS_HINT
from .outline_room import OutlineRoom
from .palette import NodePalette
from .properties import PropertiesPanel
from .scene import GraphScene
from .shortened_button import ShortenedButton
from .side_scroll import SideScroll
from .trained_view import TrainedView

TOO_BIG = ("The graph is larger than the view at a readable size: press F to see it all, pan with the middle "
           "button or Space+drag, or press M for the minimap")
TOO_BIG_AFTER_FIT = ("The graph is larger than the view at a readable size, its output in view: pan with the middle "
                     "button or Space+drag, press M for the minimap, or zoom out (Ctrl+−) to see it all")
CLIPBOARD_MIME = "application/x-autograd-playground-graph"
PASTE_OFFSET = 40.0
TRAINABLE_DELAY_MS = 150  # "Train this graph" is checked again this long after the last edit
SIDE_WIDTH = 340  # a selected input's properties whole (its Fed by row and Range boxes asked 336 of 290)
PALETTE_WIDTH = 115
QUIZ_GRADCHECK = ("Check gradients waits until the quiz is answered: it would print the gradients it asks for "
                  "(switch Predict off, or finish the lesson's exercise)")

# The gradient check's OK column: a mark, and its words for a reader and a tooltip (never colour alone).
VERDICT_CELLS = {
    "agree": ("✓", "The engine's gradient agrees with central finite differences"),
    "differ": ("✗", "The engine's gradient and central finite differences differ"),
    "unchecked": ("?", "Not checked: at an output of {output}, a step of {eps:g} changes it by less than its own "
                       "rounding, so finite differences cannot see this gradient"),
}


def expression_row_button(name: str, accessible: str) -> QToolButton:
    """A button at one end of the expression row that opens or closes the panel on its side."""
    button = QToolButton()
    button.setObjectName(name)
    button.setAccessibleName(accessible)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    button.setAutoRaise(True)
    return button


class EditorPanel(QWidget):
    evaluated = Signal(object)  # the new Evaluation
    summary_changed = Signal(str)  # what the status bar says of the graph: "Output = 0.7071"
    status_message = Signal(str)
    status_withdrawn = Signal(str)  # a message said before that is no longer true (the main window clears it)
    animate_backward_requested = Signal()  # "Animate backward": the main window opens the animator on this graph
    train_graph_requested = Signal()  # "Train this graph": the main window has the training tab train it
    graph_built = Signal(str)  # an expression's graph replaced the document (the expression)

    def __init__(self, document: GraphDocument, undo_stack: QUndoStack, parent=None):
        super().__init__(parent)
        self.setObjectName("editorPanel")
        self.document, self.undo_stack = document, undo_stack
        self._evaluation: Evaluation | None = None
        self._concealment = NOTHING_CONCEALED
        self._waiting_maps: tuple | None = None  # a trained graph's latest maps and numbers, out of sight
        # While the training tab trains this graph: its trained network's numbers, shown in place of the drawn
        # graph's (`trained_view`); `_shown` is what the cards, outline and side panel show.
        self.trained_view = TrainedView(undo_stack, self)
        self.trained_view.changed.connect(self._show_evaluation)
        self._shown: Evaluation | None = None
        self._evaluation_timer = QTimer(self, singleShot=True, interval=0)
        self._evaluation_timer.timeout.connect(self.refresh)

        self.scene = GraphScene(document, undo_stack)
        self.view = GraphView(self.scene)
        self.view.setAccessibleName("Graph canvas")
        self.view.keep_fitted = True  # fitted at start, on resize and on tab show, until the person zooms or pans
        self.view.fit_readably = True  # an array card's numbers never below 11 px on the screen after a fit
        self.palette = NodePalette()
        self.properties = PropertiesPanel(document, undo_stack)
        self.paths = PathListBox()  # "Why this gradient?" for the selected node
        self.paths.list.setAccessibleName("Paths from the output to the selected node, each with its product of "
                                          "local derivatives")
        self.path_highlight = PathHighlighter(self.scene)
        self._path_node: str | None = None
        # The graph in words for a screen reader, in step with the canvas (its side panel may have given way).
        self.outline = OutlineRoom(document, self.scene, self.view, lambda: self.give_way, self)
        self.outline_action = self.outline.action

        self.expression_input = QLineEdit()
        self.expression_input.setObjectName("expressionInput")
        self.expression_input.setAccessibleName("Expression to build a graph from")
        self.expression_input.setPlaceholderText("Type an expression, e.g.  a=2; b=3; L=tanh(a*b + 1)  and press Enter")
        self.expression_input.setToolTip(self.expression_input.placeholderText())  # the box may be too short for it
        self.build_button = ShortenedButton("Build graph", "Build")
        self.build_button.setObjectName("buildExpressionButton")
        self.build_button.setAccessibleName("Build graph from expression")
        self.build_button.setToolTip("Build graph from the expression (Enter does it too)")
        self.expression_error = QLabel()
        self.expression_error.setObjectName("expressionError")
        set_text_colour(self.expression_error, PROBLEM, "font-family: monospace;")
        self.expression_error.setVisible(False)

        self.animate_button = ShortenedButton("Animate backward ▶", "Animate ▶")
        self.animate_button.setObjectName("animateBackwardButton")
        self.animate_button.setAccessibleName("Animate the backward pass of this graph")
        self.train_button = ShortenedButton("Train this graph ▶", "Train ▶")
        self.train_button.setObjectName("trainGraphButton")
        self.train_button.setAccessibleName("Train this graph on the training points")
        self._training_outputs = 1  # the scores a point the training tab wants (k classes: k)
        # Whether the graph can be trained is read again once edits pause (a slider drag is many edits).
        self._trainable_timer = QTimer(self, singleShot=True, interval=TRAINABLE_DELAY_MS)
        self._trainable_timer.timeout.connect(self._show_trainable)
        self.gradcheck_button = QPushButton("Check gradients")
        self.gradcheck_button.setObjectName("gradCheckButton")
        self.gradcheck_button.setAccessibleName("Check gradients against finite differences")
        self.gradcheck_table = QTableWidget(0, 5)
        self.gradcheck_table.setObjectName("gradCheckTable")
        self.gradcheck_table.setAccessibleName("Gradient check: the engine against finite differences")
        self.gradcheck_table.setHorizontalHeaderLabels(["Node", "Engine", "Finite diff.", "Difference", "OK"])
        header = self.gradcheck_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the name takes what is left
        self.gradcheck_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.gradcheck_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.gradcheck_table.verticalHeader().setVisible(False)

        expression_row = QHBoxLayout()
        self.palette_button = expression_row_button("paletteToggle", "Show or hide the node palette")
        expression_row.addWidget(self.palette_button)
        expression_row.addWidget(QLabel("Expression"))
        expression_row.addWidget(self.expression_input, 1)
        expression_row.addWidget(self.build_button)
        expression_row.addWidget(self.animate_button)
        expression_row.addWidget(self.train_button)
        self.side_button = expression_row_button("sidePanelToggle", "Show or hide the side panel")
        expression_row.addWidget(self.side_button)
        self.side = side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.properties, 3)  # the whole panel scrolls where it is short (`SideScroll`)
        side_layout.addWidget(self.outline.widget, 2)
        side_layout.addWidget(self.paths, 2)
        side_layout.addWidget(self.gradcheck_button)
        side_layout.addWidget(self.gradcheck_table, 2)
        # On a short window the side panel scrolls, its fields never crushed; it is as wide as a selected leaf's
        # properties (and its scroll bar): selecting one moves nothing.
        self.side_room = SideScroll(side)
        self.side_room.setMinimumWidth(self.side_room.room_for(SIDE_WIDTH))
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.palette)
        splitter.addWidget(self.view)
        splitter.addWidget(self.side_room)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([PALETTE_WIDTH, 800, self.side_room.room_for(SIDE_WIDTH)])
        # On a small screen, beside the Learn dock or in presentation mode the panels make room for the graph:
        # the side panel first (the cards show the values too; double-click edits one), then the palette (Tab
        # adds a node at the cursor). The buttons at both ends of the expression row open them again.
        self.give_way = GiveWay(splitter, self.view, self)
        self.side_action = self.give_way.add(self.side_room, "Side &panel (properties, gradient check)",
                                             self.side_room.room_for(SIDE_WIDTH),
                                             "actionSidePanel", "Show or hide the selected node's properties "
                                             "and the gradient check (they close by themselves to give the "
                                             "graph room)")
        self.palette_action = self.give_way.add(self.palette, "Node p&alette", PALETTE_WIDTH, "actionNodePalette",
                                                "Show or hide the list of nodes to drag onto the canvas (Tab "
                                                "over the canvas adds one too)")
        self.side_action.setIconText("Details")
        self.palette_action.setIconText("Nodes")
        self.palette_button.setDefaultAction(self.palette_action)
        self.side_button.setDefaultAction(self.side_action)
        layout = QVBoxLayout(self)
        layout.addLayout(expression_row)

        layout.addWidget(self.expression_error)
        layout.addWidget(self.trained_view.bar)
        layout.addWidget(splitter, 1)

        document.subscribe(self._on_document_changed)
        self.expression_input.returnPressed.connect(self._on_expression_entered)
        self.build_button.clicked.connect(self._on_expression_entered)
        self.gradcheck_button.clicked.connect(self.run_gradient_check)
        self.animate_button.clicked.connect(self.animate_backward_requested)
        self.train_button.clicked.connect(self.train_graph_requested)
        self.palette.kind_activated.connect(self._on_palette_kind_activated)
        self.scene.selection_ids_changed.connect(self._on_selection_ids_changed)
        self.scene.edit_requested.connect(self._on_edit_requested)
        self.scene.properties_requested.connect(self._on_properties_requested)
        self.view.keyboard_arrived.connect(lambda: self.status_message.emit(CANVAS_HINT))
        self.view.setAccessibleDescription(CANVAS_HINT)
        self.paths.path_hovered.connect(self.path_highlight.show)
        self.view.fitted.connect(self._on_view_fitted)
        self.view.fitted.connect(self.give_way.update_soon)  # a new graph may want more room, or less
        self.scene.status_message.connect(self.status_message)
        self.properties.status_message.connect(self.status_message)
        self.refresh()

    # -- evaluation ------------------------------------------------------------------------

    @property
    def evaluation(self) -> Evaluation:
        """The evaluation of the document as it is now (runs a pending one at once)."""
        if self._evaluation is None or self._evaluation_timer.isActive():
            self.refresh()
        return self._evaluation

    def _on_document_changed(self, change: Change) -> None:
        self._evaluation_timer.start()
        if self.gradcheck_table.rowCount():  # its numbers were for the graph as it was
            self.gradcheck_table.setRowCount(0)
            self.gradcheck_table.setToolTip("The graph changed: press Check gradients to compare again")

    def _on_edit_requested(self, node_id: str) -> None:
        """A double-clicked array leaf is edited in the properties panel's table (a scalar one on its card)."""
        if self.document.has_node(node_id) and self.document.node(node_id).is_tensor:
            self.give_way.reveal(self.properties)  # the side panel may have given way to the graph
            self.properties.edit_array(node_id)

    def _on_properties_requested(self, _node_id: str) -> None:
        """Enter on a selected operation: the keyboard goes to its properties (the side panel opens if it gave way)."""
        self.give_way.reveal(self.properties)
        first = focus_target(self.properties)
        if first is not None:
            first.setFocus(Qt.FocusReason.TabFocusReason)
        else:
            self.status_message.emit("This node has no properties to edit")

    @property
    def shown_evaluation(self) -> Evaluation:
        """What the cards, wires, outline and side panel show: the trained network's numbers while the training
        tab trains this graph (unless the drawn values were chosen), else `evaluation`."""
        if self._shown is None or self._evaluation_timer.isActive():
            self.refresh()
        return self._shown

    def refresh(self) -> None:
        self._evaluation_timer.stop()
        self._evaluation = evaluate(self.document)
        self._show_evaluation()
        self._trainable_timer.start()
        self.evaluated.emit(self._evaluation)

    def _show_evaluation(self) -> None:
        """Show the drawn graph's numbers, or the trained network's (with its maps)."""
        if self._evaluation is None:
            return
        trained = self.trained_view
        self.scene.show_maps(trained.maps if trained.active else {}, trained.totals)
        self._shown = shown = trained.evaluation(self.document, self._evaluation)
        self.scene.show_evaluation(shown)
        self.properties.set_evaluation(shown)
        self.outline.show_evaluation(shown)
        self._show_paths()
        self.summary_changed.emit(self.summary())

    # -- training this graph ---------------------------------------------------------------

    def training_problem(self) -> str | None:
        """Why this graph cannot be trained as the training tab stands (its number of classes), or None."""
        try:
            plan_training(self.document, self._training_outputs)
        except GraphProblem as problem:
            return str(problem)
        return None

    def set_training_outputs(self, outputs: int) -> None:
        """The scores a point the training tab needs (1: two classes or a regression; k: k classes)."""
        if outputs != self._training_outputs:
            self._training_outputs = outputs
            self._show_trainable()

    def _show_trainable(self) -> None:
        """Train this graph: enabled for a graph that can be trained, else greyed with the reason in its tooltip
        (and in what a screen reader says of it)."""
        problem = self.training_problem()
        self.train_button.setEnabled(problem is None)
        tip = ("Train this graph on the training points: its output is each point's score" if problem is None
               else f"Cannot train this graph: {problem}")
        self.train_button.setToolTip(tip)
        self.train_button.setAccessibleDescription(tip)

    def show_training_maps(self, maps: dict | None, totals: dict[str, int] | None = None, numbers=None) -> None:
        """While the training tab trains this graph, what each node computes over the plane on its card (node id ->
        (columns, r, r) colours) and the trained network's numbers (`graph.trained.TrainedNumbers`, a few times a
        second); None: the drawn values again. Out of sight (the training tab shown), only the latest are kept,
        and put on the cards when the editor shows: maps come thirty times a second."""
        if maps is not None and not self.isVisible():
            waiting = self._waiting_maps
            kept = numbers if numbers is not None else (waiting[2] if waiting is not None else None)
            self._waiting_maps = (maps, totals, kept)
            return
        self._waiting_maps = None
        trained = self.trained_view
        fresh = maps is None or trained.maps is None or (numbers is not None and numbers is not trained.numbers)
        trained.set_trained(maps, totals, numbers)
        if not fresh and trained.active:  # the same numbers: only the maps are new
            self.scene.show_maps(maps, totals)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._waiting_maps is not None:
            self.show_training_maps(*self._waiting_maps)

    def summary(self) -> str:
        """The evaluation's summary, but "Output = ?" while a quiz asks for the output's value."""
        shown = self.shown_evaluation
        output = shown.output
        if output is not None and output in self._concealment.values and shown.trained is None:
            return f"Output = {HIDDEN} (a quiz asks for it)"
        return shown.summary()

    def set_text_scale(self, factor: float) -> None:
        """Presentation mode: cards drawn ``factor`` times larger, the palette and the side panel as much
        wider (their text grew with the application's font), the canvas taking what is left."""
        self.view.set_text_scale(factor)
        palette, side = round(PALETTE_WIDTH * factor), self.side_room.room_for(round(SIDE_WIDTH * factor))
        self.side_room.setMinimumWidth(side)
        total = sum(self.splitter.sizes())
        self.splitter.setSizes([palette, max(total - palette - side, 100), side])
        self.give_way.set_width(self.palette, palette)
        self.give_way.set_width(self.side_room, side)
        self.give_way.set_text_scale(factor)

    def conceal(self, concealment: Concealment) -> None:
        """Show "?" on the cards, the wires and the properties for what a quiz asks for."""
        if concealment == self._concealment:
            return
        self._concealment = concealment
        self.scene.conceal(concealment)
        self.properties.conceal(concealment)
        self.outline.conceal(concealment)
        self._show_paths()
        self.summary_changed.emit(self.summary())
        if concealment.grads and self.gradcheck_table.rowCount():  # its Engine column holds answers now asked for
            self.gradcheck_table.setRowCount(0)
        self.gradcheck_button.setToolTip(QUIZ_GRADCHECK if concealment.grads else "")

    # -- building from an expression --------------------------------------------------------

    def build_from_expression(self, text: str) -> bool:
        """Replace the graph with the expression's (one undo step); on an error point at it and keep the graph."""
        try:
            new_document = parse_expression(text)
        except ExpressionError as error:
            pointer = ""
            if error.column is not None:
                pointer = f"\n{text}\n{' ' * error.column}^"
            self.expression_error.setText(f"{error.message}{pointer}")
            self.expression_error.setVisible(True)
            self.status_message.emit(f"Expression not built: {error.message}")
            return False
        self.expression_error.setVisible(False)
        self._push(edits.replace_document(self.document, new_document, f"Build {text.strip()[:40]}"))
        self.view.fit()
        self.status_message.emit(f"Built the graph of {text.strip()}")
        self.graph_built.emit(text.strip())
        return True

    def _on_expression_entered(self) -> None:
        self.build_from_expression(self.expression_input.text())

    # -- editing -----------------------------------------------------------------------------

    def _push(self, edit: edits.Edit) -> None:
        if edit.actions:
            self.undo_stack.push(EditCommand(self.document, edit))

    def _on_palette_kind_activated(self, kind_name: str) -> None:
        self.scene.add_node_at(kind_name, self.view.mapToScene(self.view.free_spot()))

    def _on_view_fitted(self, whole_graph_shown: bool) -> None:
        if whole_graph_shown:
            for message in (TOO_BIG, TOO_BIG_AFTER_FIT):  # the window grew, or panels gave way: no longer true
                self.status_withdrawn.emit(message)
        else:
            self.status_message.emit(TOO_BIG_AFTER_FIT if self.view.last_fit_was_whole else TOO_BIG)

    def _on_selection_ids_changed(self, node_ids: list) -> None:
        self.properties.show_node(node_ids[0] if len(node_ids) == 1 else None, selected=len(node_ids))
        self._path_node = node_ids[0] if len(node_ids) == 1 else None
        self._show_paths()

    def _show_paths(self) -> None:
        """The selected node's gradient as a sum over paths (numbers "?" while a quiz asks for them)."""
        self.path_highlight.clear()
        if self._evaluation_timer.isActive():  # the graph changed: the coming evaluation lists them
            return
        node_id = self._path_node
        if node_id is not None and not self.document.has_node(node_id):
            node_id = self._path_node = None
        why = None
        if node_id is not None and self._shown is not None and self._shown.trained is not None:
            self.paths.show_why(None, "The paths are the drawn graph's: choose Back to the drawn values over "
                                      "the graph to see them")
            return
        if node_id is not None and self._evaluation is not None:
            try:
                why = why_gradient(self.document, self._evaluation, node_id, self._concealment)
            except Exception as error:  # a bug here must not take the editor down
                report_handled(error, "listing the paths of a gradient")
        empty = None if node_id is None else "No gradient to explain: the graph has no complete scalar output."
        self.paths.show_why(why, *([empty] if empty else []))

    def select_node(self, node_id: str) -> None:
        """Select one node, as a click on it does, and scroll it into view (a lesson points at it)."""
        self.scene.select_nodes([node_id])
        item = self.scene.node_item(node_id)
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if item is not None and not shown.contains(item.sceneBoundingRect()):  # a card in view stays where it is:
            self.view.ensureVisible(item, 10, 10)  # scrolling it to a 50 px margin cut the fitted graph's far side

    def select_all(self) -> None:
        self.scene.select_nodes([n.id for n in self.document.nodes])

    def delete_selection(self) -> None:
        if not self.scene.delete_selection():  # the selected nodes and wires, one undo step
            self.status_message.emit("Nothing selected to delete")

    def copy_selection(self) -> bool:
        """Put the selected nodes and the wires among them on the clipboard (as graph JSON)."""
        selected = set(self.scene.selected_node_ids())
        if not selected:
            self.status_message.emit("Nothing selected to copy")
            return False
        data = self.document.to_dict()
        data["nodes"] = [n for n in data["nodes"] if n["id"] in selected]
        data["edges"] = [e for e in data["edges"] if e["from"] in selected and e["to"] in selected]
        data["output"] = None
        mime = QMimeData()
        text = json.dumps(data)
        mime.setData(CLIPBOARD_MIME, text.encode("utf-8"))
        mime.setText(text)
        QGuiApplication.clipboard().setMimeData(mime)
        return True

    def cut_selection(self) -> None:
        if self.copy_selection():
            selected = self.scene.selected_node_ids()
            edit = edits.remove_nodes(self.document, selected)
            edit.text = "Cut"
            self._push(edit)

    def paste(self) -> None:
        mime = QGuiApplication.clipboard().mimeData()
        if mime is None or not mime.hasFormat(CLIPBOARD_MIME):
            self.status_message.emit("The clipboard holds no graph nodes to paste")
            return
        try:
            pasted = GraphDocument.from_dict(parse_json(bytes(mime.data(CLIPBOARD_MIME)).decode("utf-8")))
        except ValueError as error:  # UnicodeDecodeError and every parse failure are ValueErrors
            self.status_message.emit(f"Cannot paste: {error}")
            return
        self._paste_nodes(pasted.nodes, pasted.edges, "Paste")

    def duplicate_selection(self) -> None:
        selected = set(self.scene.selected_node_ids())
        if not selected:
            self.status_message.emit("Nothing selected to duplicate")
            return
        nodes = [n for n in self.document.nodes if n.id in selected]
        wires = [e for e in self.document.edges if e.source in selected and e.target in selected]
        self._paste_nodes(nodes, wires, "Duplicate")

    def _paste_nodes(self, nodes: list[Node], wires: list[Edge], text: str) -> None:
        shifted = [replace(n, x=n.x + PASTE_OFFSET, y=n.y + PASTE_OFFSET) for n in nodes]
        edit = edits.add_subgraph(self.document, shifted, wires, text)
        self._push(edit)
        self.scene.select_nodes([a.node.id for a in edit.actions if isinstance(a, edits.AddNode)])

    def auto_layout(self) -> None:
        positions = layered_layout(self.document)
        edit = edits.move_nodes(self.document, positions, "Auto-layout")
        if edit.actions:
            self.scene.animate_next_moves()
            self._push(edit)
        self.view.fit()

    # -- gradient check ----------------------------------------------------------------------

    def run_gradient_check(self) -> None:
        if self._concealment.grads:  # the check prints every leaf's gradient: the very answers a quiz asks for
            self.status_message.emit(QUIZ_GRADCHECK)
            return
        rows = check_gradients(self.document)
        table = self.gradcheck_table
        table.setToolTip("")
        table.setRowCount(len(rows))
        for i, row in enumerate(rows):
            # Short numbers keep the table narrow enough to show its OK column; hovering a cell
            # shows every digit.
            cells = [(row.name, row.name), (format_number(row.analytic), full_number(row.analytic)),
                     (format_number(row.numerical), full_number(row.numerical)),
                     (f"{row.difference:.1e}", repr(row.difference)), VERDICT_CELLS[row.verdict]]
            for j, (text, full) in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(full.format(output=format_number(row.output_size), eps=row.eps) if j == 4 else full)
                if j == 4 and row.verdict != "unchecked":
                    item.setForeground(QColor(fitted(RIGHT if row.passed else WRONG, table.palette(),
                                                     QPalette.ColorRole.Base)))
                table.setItem(i, j, item)
        if not rows:
            self.status_message.emit("Gradient check: the graph has no complete output to check")
        else:
            agree = sum(row.verdict == "agree" for row in rows)
            unchecked = sum(row.verdict == "unchecked" for row in rows)
            text = f"Gradient check: {agree} of {len(rows)} leaves agree with central finite differences"
            if unchecked:
                text += (f"; {unchecked} cannot be checked that way: the output is too large for a small step to "
                         "change it visibly (hover its ?)")
            self.status_message.emit(text)
