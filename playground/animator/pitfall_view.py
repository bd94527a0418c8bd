"""The pitfall replay beside the animator's correct one: the same graph, replayed with a classic
mistake (`pitfalls`), stepping in lockstep, with the step where the two part and the final
gradients that differ.

The panel asks `prepare(document)` for the correct replay's passes (for "forget to zero" the
correct replay has two passes as well), then calls `seek` with every move, and `conceal` whenever a
quiz (Predict, a lesson's exercise) hides steps of the correct replay: the mistaken one must not
give those answers away.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..canvas.view import GraphView
from ..common.numbers import format_number
from ..graph.document import GraphDocument
from ..widgets.meaning_colours import RIGHT, WRONG, meaning_style, set_text_colour
from .model.pitfalls import PITFALLS, PitfallReplay, pitfall_replay, same_number
from .model.reveal import Reveal
from .model.timeline import BackwardPass, DisplayState, DocumentAnimation, Timeline
from .scene import AnimatorScene
from .scene_sync import SceneSync


class MistakeAnimation(DocumentAnimation):
    """The mistaken replay: a node whose final gradient is wrong says what it should be."""

    def __init__(self, document: GraphDocument, replay: PitfallReplay):
        self.replay = replay
        self.wrong_finals = replay.mistaken.final_grads(replay.output)
        self.tells_right = True  # False while a quiz hides answers: the right gradient is one of them
        super().__init__(document, replay.mistaken.passes)

    def flagged(self, node_id: str, state: DisplayState) -> bool:
        """True once the node shows the wrong final gradient the mistake leaves it with."""
        return node_id in self.replay.differing and same_number(state.grad, self.wrong_finals.get(node_id))

    def node_lines(self, node_id: str, state: DisplayState) -> list[str]:
        lines = super().node_lines(node_id, state)
        if self.flagged(node_id, state) and self.tells_right:
            lines.append(f"✗ right: {format_number(self.replay.differing[node_id][0])}")
        return lines


class PitfallView(QWidget):
    part_requested = Signal(int)  # go to the step where the replays part

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("pitfallPanel")
        self.replay: PitfallReplay | None = None
        self.animation: MistakeAnimation | None = None
        self._document: GraphDocument | None = None
        self._forward_frames = 0
        self.concealed = False  # a quiz hides steps of the correct replay: the numbers here wait

        self.combo = QComboBox()
        self.combo.setObjectName("pitfallCombo")
        self.combo.setAccessibleName("Mistake to replay beside the correct pass")
        self.combo.setToolTip("Replay the backward pass with a classic mistake, next to the correct one")
        # It gives way to the Animate combo beside it (whose entries stay whole) on a narrow projector: it may
        # be as narrow as 5 letters ("Mist…", on a 1024-pixel screen at 150% beside the Learn dock), its list and
        # tooltip still showing each mistake whole.
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(5)
        self.combo.addItem("No mistake", None)
        for key, pitfall in PITFALLS.items():
            self.combo.addItem(f"Mistake: {pitfall.title.lower()}", key)

        self.correct_caption = QLabel()  # the panel shows it above its own (correct) view
        self.correct_caption.setObjectName("pitfallCorrectCaption")
        set_text_colour(self.correct_caption, RIGHT, "font-weight: bold;")
        self.correct_caption.setWordWrap(True)  # whole, on two lines where the view is narrow (a projector)
        self.correct_caption.setVisible(False)
        self.caption = QLabel()
        self.caption.setObjectName("pitfallCaption")
        set_text_colour(self.caption, WRONG, "font-weight: bold;")
        self.caption.setWordWrap(True)
        self.scene = AnimatorScene(parent=self)
        self.view = GraphView(self.scene)
        self.view.setObjectName("pitfallView")
        self.view.setAccessibleName("The graph replayed with the mistake")
        self.view.setDragMode(GraphView.DragMode.ScrollHandDrag)
        self.view.set_minimap_visible(False)
        self.sync = SceneSync(self.scene, self.view)
        self.summary = QLabel()
        self.summary.setObjectName("pitfallSummary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.part_button = QPushButton("Go to where they part")
        self.part_button.setObjectName("pitfallPartButton")
        self.part_button.setAccessibleName("Go to the step where the replays part")

        bottom = QHBoxLayout()
        bottom.addWidget(self.summary, 1)
        bottom.addWidget(self.part_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.view, 1)
        layout.addLayout(bottom)
        self.setVisible(False)
        self.part_button.clicked.connect(self._on_part_button_clicked)

    @property
    def key(self) -> str | None:
        return self.combo.currentData()

    def choose(self, key: str | None) -> None:
        """Choose a pitfall by its key (None: no mistake); the combo's signal tells the panel."""
        index = 0 if key is None else self.combo.findData(key)
        if index < 0:
            raise ValueError(f"unknown pitfall {key!r}; choose one of {', '.join(PITFALLS)}")
        self.combo.setCurrentIndex(index)

    def prepare(self, document: GraphDocument) -> list[BackwardPass] | None:
        """Replay ``document`` with the chosen mistake beside it; returns the correct replay's passes for
        the main view (None: no mistake chosen, the engine's pass). Raises ValueError as the timeline does."""
        self.clear()
        if self.key is None:
            return None
        replay = pitfall_replay(document, self.key)
        animation = MistakeAnimation(document, replay)
        self.replay, self.animation, self._document = replay, animation, document
        self.concealed = False
        self._forward_frames = sum(frame.phase == "forward" for frame in animation.timeline.frames)
        self.scene.show_document(document)
        self.sync.start(animation)
        pitfall = replay.pitfall
        self.correct_caption.setText(f"Correct: {pitfall.correct}")
        self.caption.setText(f"With the mistake: {pitfall.mistake}")
        self.summary.setText(self._summary_html(document))
        self.part_button.setEnabled(replay.parting is not None)
        self.correct_caption.setVisible(True)
        self.setVisible(True)
        return replay.correct.passes

    def clear(self) -> None:
        self.replay = self.animation = self._document = None
        self.concealed = False
        self.sync.start(None)
        self.correct_caption.setVisible(False)
        self.setVisible(False)

    def conceal(self, hidden: frozenset[int], correct: Timeline) -> None:
        """The correct replay ``correct`` hides the steps at ``hidden`` (a quiz asks for them): hide here
        the same steps and every step that treats an edge the correct replay has not revealed yet (a
        wrong order reaches edges at other times), keep the right gradients off the cards, and the
        summary says where the replays part without the numbers, until nothing is hidden."""
        if self.animation is None:
            return
        mistaken = self.animation.timeline
        concealed = bool(hidden)
        shown_hidden = set(hidden) if concealed else set()
        if concealed:
            correct_positions = _step_positions(correct)
            for key, position in _step_positions(mistaken).items():
                if correct_positions.get(key) in hidden or key not in correct_positions:
                    shown_hidden.add(position)
        reveal = Reveal(mistaken, self._document, shown_hidden) if shown_hidden else None
        if concealed == self.concealed and _hidden(self.sync.reveal) == _hidden(reveal):
            return
        self.concealed = concealed
        self.animation.tells_right = not concealed
        self.sync.reveal = reveal
        self.sync.refresh_all()
        self.summary.setText(self._summary_html(self._document))

    @property
    def parting_position(self) -> int | None:
        return self.replay.parting_position(self._forward_frames) if self.replay is not None else None

    def seek(self, position: int) -> None:
        if self.animation is None:
            return
        timeline = self.animation.timeline
        old = timeline.position
        touched = timeline.seek(position)
        self.sync.refresh_moved(touched, old)

    def explain(self, position: int) -> str:
        """What the mistaken replay does at ``position``, to print under the correct step ("" when the same)."""
        if self.animation is None or position < 1:
            return ""
        frame = self.animation.timeline.frames[position - 1]
        marker = "  ⚑ the replays part here" if position == self.parting_position else ""
        reveal = self.sync.reveal
        explanation = reveal.explanation(position) if reveal is not None else frame.explanation
        return f"\n\nWith the mistake{marker}:\n{explanation}"

    def follow_zoom(self, zoom: float) -> None:
        """Show the mistaken replay at the main view's ``zoom``, so that the two read alike."""
        if self.animation is not None and abs(self.view.zoom() - zoom) > 1e-9:
            self.view.set_zoom(zoom)
            self.view.centerOn(self.scene.items_bounding_rect().center())

    def _summary_html(self, document: GraphDocument) -> str:
        replay = self.replay
        name = document.names()
        lines = [f"<b>{escape(replay.pitfall.title)}</b>: {escape(replay.pitfall.why)}"]
        if replay.parting is None:
            lines.append("On this graph the two replays never part: every node that passes a gradient on "
                         "is used only once, so nothing is lost. Try a graph where an intermediate result "
                         "is used twice (lesson 5's).")
        elif self.concealed:
            lines.append(f"They part at <b>step {self.parting_position}</b>. What each pass makes of it, and the "
                         f"final gradients, show here once every step is answered.")
            return "<br>".join(lines)
        else:
            lines.append(f"They part at <b>step {self.parting_position}</b>: {self._parting_html(name)}")
        if self.concealed:
            lines.append("The final gradients show here once every step is answered.")
        elif replay.differing:
            correct, mistaken = meaning_style(RIGHT, bold=True), meaning_style(WRONG, bold=True)
            finals = ", ".join(f"{escape(name[node])}: <span style='{correct}'>{format_number(right)}</span> "
                               f"→ <span style='{mistaken}'>{format_number(wrong)}</span>"
                               for node, (right, wrong) in replay.differing.items())
            lines.append(f"Final gradients that differ (correct → with the mistake): {finals}.")
        else:
            lines.append("The final gradients are the same.")
        return "<br>".join(lines)

    def _parting_html(self, name: dict[str, str]) -> str:
        """What each pass does at the step where they part: the same wire with another total (a mistaken
        sum), or another wire altogether (a wrong order), each said on its own terms."""
        replay = self.replay
        wrong, right = replay.mistaken.steps[replay.parting], replay.correct.steps[replay.parting]

        def total(step, colour: str) -> str:
            return (f"{escape(name[step.parent])}.grad = "
                    f"<span style='{meaning_style(colour, bold=True)}'>{format_number(step.total)}</span>")

        if (wrong.node, wrong.parent, wrong.port) == (right.node, right.parent, right.port):
            return (f"{escape(name[wrong.node])} → {escape(name[wrong.parent])} gives {total(wrong, WRONG)} "
                    f"where the correct pass has {total(right, RIGHT)}.")
        early = escape(name[wrong.node])
        complete = replay.correct.final_grads(replay.output).get(wrong.node)
        when = (f" while {early}'s own gradient is still {format_number(wrong.upstream)}, not yet its "
                f"{format_number(complete)}" if not same_number(wrong.upstream, complete) else "")
        return (f"the correct pass hands {escape(name[right.node])}'s gradient to {escape(name[right.parent])} "
                f"({total(right, RIGHT)}); the mistaken pass hands {early}'s on to "
                f"{escape(name[wrong.parent])} ({total(wrong, WRONG)}){when}.")

    def _on_part_button_clicked(self, _checked: bool = False) -> None:
        if self.parting_position is not None:
            self.part_requested.emit(self.parting_position)


def _step_positions(timeline: Timeline) -> dict[tuple, int]:
    """Each chain-rule step's position, keyed by the edge it treats and how often that edge came before
    (a second pass treats every edge again)."""
    positions, seen = {}, {}
    for position, frame in enumerate(timeline.frames, start=1):
        if frame.step is not None:
            edge = (frame.step.node, frame.step.parent, frame.step.port)
            seen[edge] = seen.get(edge, 0) + 1
            positions[(*edge, seen[edge])] = position
    return positions


def _hidden(reveal: Reveal | None) -> frozenset[int]:
    return reveal.hidden if reveal is not None else frozenset()
