"""How the animator's rooms sit in its tab: the graph (and a pitfall's replay below it) with the source
row above and the legend below on the left, the step panel on the right, the transport bar under both.

Nothing here is wider than it must be: the combos may shrink to a dozen characters (their lists
stay whole), the legend wraps between its entries, and the step panel may get narrow (its rows wrap),
so that the tab and the Learn dock beside it fit a 1366-pixel laptop screen.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QToolButton, QVBoxLayout, QWidget

from ..canvas.give_way import GiveWay
from ..widgets.whole_entries_combo import WholeEntriesCombo
from .colors import legend_html
from .forward_view import ForwardView
from .graph_outline import AnimatorOutline
from .path_view import AnimatorPaths
from .step_caption import StepCaption

COMBO_CHARACTERS = 12  # what a combo shows at the least; its list shows each entry whole
STEPS_WIDTH = 400  # the step panel's width when open, at 100%
MESSAGE_STYLE = ("QLabel#animatorMessage { background: #fdecea; color: #8a1c1c; "
                 "border: 1px solid #f0b4ae; border-radius: 5px; padding: 6px 10px; }")


def shrinkable(combo: QComboBox) -> QComboBox:
    """A combo as wide as its longest entry where there is room, and narrower where there is not (an explicit
    minimum takes the place of Qt's, which is the longest entry's width)."""
    combo.setMinimumWidth(round(combo.fontMetrics().averageCharWidth() * COMBO_CHARACTERS) + 32)
    return combo


def message_label() -> QLabel:
    """The red box above the graph that says why nothing can be animated."""
    message = QLabel()
    message.setObjectName("animatorMessage")
    message.setWordWrap(True)
    message.setStyleSheet(MESSAGE_STYLE)
    message.setVisible(False)
    return message


def source_combo(sources: dict[str, str]) -> QComboBox:
    """What the animator animates: never cut ("Forward mode (the training network)" read "Forward mode (the
    tra"), it asks to be as wide as its longest entry, those added later and in presentation mode's font too;
    where a row has no room for that (a 1024-pixel screen at 150% beside the Learn dock) it gives way rather
    than push the Steps and Export buttons out of sight."""
    combo = shrinkable(WholeEntriesCombo())
    combo.setObjectName("animSourceCombo")
    combo.setAccessibleName("What to animate")
    combo.setToolTip("Animate the editor's graph (scalars), or the training panel's network on one batch of "
                     "its data (tensors, with their shapes and gradient norms)")
    for source, text in sources.items():
        combo.addItem(text, source)
    return combo


def legend_label() -> QLabel:
    legend = QLabel(legend_html())
    legend.setObjectName("animLegend")
    legend.setTextFormat(Qt.TextFormat.RichText)
    legend.setWordWrap(True)
    legend.setToolTip("What the node colours mean")
    return legend


def arrange(panel) -> QSplitter:
    """Lay out ``panel``'s rooms (and give it ``forward``, ``paths`` and ``give_way``); returns the splitter
    that holds the graph above a pitfall's replay."""
    shrinkable(panel.pitfalls.combo)
    panel.forward = ForwardView(panel)  # forward mode: a source of its own, its input, the work counter
    left = QWidget()
    left_layout = QVBoxLayout(left)
    left_layout.setContentsMargins(0, 0, 0, 0)
    left_layout.setSpacing(4)
    source_row = QHBoxLayout()
    source_row.addWidget(QLabel("Animate"))
    source_row.addWidget(panel.source_combo)
    source_row.addWidget(shrinkable(panel.forward.input_combo))
    source_row.addWidget(shrinkable(panel.forward.element_combo))
    source_row.addSpacing(8)
    source_row.addWidget(panel.pitfalls.combo)
    source_row.addWidget(panel.predict.toggle)
    source_row.addStretch(1)
    steps_button = QToolButton()
    steps_button.setObjectName("stepPanelToggle")
    steps_button.setAccessibleName("Show or hide the step panel")
    steps_button.setAutoRaise(True)
    steps_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    source_row.addWidget(steps_button)
    left_layout.addLayout(source_row)
    left_layout.addWidget(panel.forward.counter)
    left_layout.addWidget(panel.message)
    correct = QWidget()  # the graph, and below it the mistaken replay when a pitfall is chosen
    correct_layout = QVBoxLayout(correct)
    correct_layout.setContentsMargins(0, 0, 0, 0)
    correct_layout.addWidget(panel.pitfalls.correct_caption)
    correct_layout.addWidget(panel.view, 1)
    graphs = QSplitter(Qt.Orientation.Vertical)  # graphs are wider than tall: one above the other
    graphs.setObjectName("animatorGraphsSplitter")
    graphs.addWidget(correct)
    graphs.addWidget(panel.pitfalls)
    graphs.setCollapsible(0, False)
    left_layout.addWidget(graphs, 1)
    caption_row = left_layout.count()  # the step's arithmetic goes here, once the step panel's action exists
    left_layout.addWidget(panel.legend)
    panel.steps.extra.addWidget(panel.predict)
    panel.paths = AnimatorPaths(panel)  # "Why this gradient?" for the current step's node, under the quiz
    panel.outline = AnimatorOutline(panel)  # the graph in words for a screen reader, under the paths
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.setObjectName("animatorSplitter")
    splitter.addWidget(left)
    splitter.addWidget(panel.steps)
    splitter.setStretchFactor(0, 1)
    splitter.setCollapsible(0, False)
    splitter.setSizes([900, STEPS_WIDTH])
    # The step panel makes room for the graph where the window is too narrow for both (a projector, the
    # Learn dock open, presentation mode); the cards still show each step's numbers, the button opens it.
    panel.give_way = GiveWay(splitter, panel.view, panel)
    panel.steps_action = panel.give_way.add(panel.steps, "&Step panel (animator)", STEPS_WIDTH, "actionStepPanel",
                                            "Show or hide the animator's step list and explanation (it closes by "
                                            "itself to give the graph room)")
    panel.steps_action.setIconText("Steps")
    steps_button.setDefaultAction(panel.steps_action)
    panel.caption = StepCaption(panel.steps, panel.steps_action, panel.legend)  # while the step panel gives way
    left_layout.insertWidget(caption_row, panel.caption)
    panel.view.fitted.connect(panel.give_way.update_soon)
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(4, 4, 4, 4)  # the style's 9 px a side are rows of the graph on a projector
    layout.addWidget(splitter, 1)
    layout.addWidget(panel.controls)
    return graphs
