"""What a lesson's exercise hides on the tensor replay of an editor graph, and on the editor's cards. Qt-free.

The animator replays an editor tensor graph (`editor_tensors.document_animation`) with node ids of its
own (t0, t1, ...), each titled with the document's name for its node (X, W, b, Z, ...): `replay_ids` ties
the two. While a lesson asks for a gradient, `tensor_after` says which steps of the replay stay hidden
(as `reveal.after` does on a scalar timeline), `TensorReveal` writes their rows, step boxes, cards and
tooltips with "?" for every number (the shapes and the rules stay: they are what the lesson teaches),
and `tensor_concealment` tells the editor's cards and wires what to hide as well.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from ...graph.concealment import NOTHING_CONCEALED, Concealment
from ...graph.document import Edge, GraphDocument
from .reveal import HIDDEN, Reveal
from .tensor_timeline import OPS, TensorAnimation, rule_text
from .timeline import DisplayState

_RULES = {info.word: info for info in OPS.values()}  # a replay node's kind is its op's word ("add", "matmul")


def replay_ids(animation: TensorAnimation, document: GraphDocument) -> dict[str, str]:
    """Each document node's id in the replay (the nodes a loss is made of inside have none of their own)."""
    by_title = {node.title: replay_id for replay_id, node in animation.nodes.items()}
    return {node_id: by_title[name] for node_id, name in document.names().items() if name in by_title}


def _is_leaf(animation: TensorAnimation, replay_id: str) -> bool:
    return not animation.nodes[replay_id].port_names


def tensor_after(animation: TensorAnimation, document: GraphDocument, position: int,
                 asked: Collection[str] = ()) -> set[int]:
    """A lesson's exercise on the replay of ``document``: every step after ``position`` but the inputs' values
    and the seed, and every step that hands a share of its gradient to a node in ``asked`` (document ids)."""
    ids = replay_ids(animation, document)
    asked_here = {ids[node_id] for node_id in asked if node_id in ids}
    hidden = set()
    for p, frame in enumerate(animation.timeline.frames, start=1):
        given = frame.phase == "seed" or (frame.phase == "forward" and _is_leaf(animation, frame.node_id))
        if (p > position and not given) or (frame.edge is not None and frame.edge.source in asked_here):
            hidden.add(p)
    return hidden


class TensorReveal(Reveal):
    """`reveal.Reveal` for a `TensorAnimation`: the hidden steps' numbers read "?", their shapes and rules stay."""

    def __init__(self, animation: TensorAnimation, hidden: Iterable[int], notes: Mapping[int, str] | None = None):
        self.animation, self.timeline, self.document = animation, animation.timeline, None
        self.hidden = frozenset(hidden)
        self.notes = dict(notes or {})
        self._changed_at = None

    def _note(self, position: int) -> str:
        return f"\n\n{self.notes[position]}" if self.notes.get(position) else ""

    def title(self, position: int) -> str:
        frame = self.timeline.frames[position - 1]
        if position not in self.hidden or frame.phase == "forward":  # a forward row shows the formula and shape
            return frame.title
        return f"{frame.title.rsplit(': ', 1)[0]}: {HIDDEN}"

    def explanation(self, position: int) -> str:
        frame = self.timeline.frames[position - 1]
        if position not in self.hidden:
            return frame.explanation
        if frame.phase == "forward":  # what it computes and the shapes; not the numbers
            lines = frame.explanation.split("\n")
            kept = [line for line in lines if not line.startswith(("value:", "mean ", "[", "scalar"))]
            return "\n".join(kept[:2] + [f"value: {HIDDEN}"]) + self._note(position)
        edge = frame.edge
        node, parent = self.animation.nodes[edge.target], self.animation.nodes[edge.source]
        info = _RULES.get(node.kind)
        operands = [self.animation.nodes[e.source].title
                    for e in sorted((e for e in self.animation.edges if e.target == node.id), key=lambda e: e.port)]
        rule = (rule_text(info, edge.port, operands) if info is not None and edge.port < len(info.rules)
                else "its local rule")
        return (f"{node.title} hands its gradient to {parent.title} (input '{node.port_names[edge.port]}')\n"
                f"g = d(loss)/d({node.title}): {HIDDEN}\ncontribution = {rule}\n  = {HIDDEN}\n"
                f"{parent.title}.grad = {HIDDEN}{self._note(position)}")

    def card_lines(self, node_id: str, lines: list[str]) -> list[str]:
        """A tensor card's lines ("shape …", "value …", "grad …") with the hidden numbers as "?"."""
        return [f"{line.split(' ', 1)[0]} {HIDDEN}" if self._hides_line(node_id, line) else line for line in lines]

    def _hides_line(self, node_id: str, line: str) -> bool:
        word = line.split(" ", 1)[0]
        field = {"value": "value", "‖value‖": "value", "grad": "grad", "‖grad‖": "grad"}.get(word)
        return field is not None and line != "grad —" and self.hides_number(node_id, field)

    def tooltip(self, node_id: str, state: DisplayState, text: str) -> str:
        hidden = {field for field in ("value", "grad") if self.hides_number(node_id, field)}
        lines, field = [], None
        for line in text.split("\n"):
            if line.startswith(" "):  # a hidden number's array, indented under its line, goes with it
                if field not in hidden:
                    lines.append(line)
                continue
            field = line.split(":", 1)[0]
            lines.append(f"{field}: {HIDDEN}" if field in hidden else line)
        return "\n".join(lines)


def tensor_concealment(animation: TensorAnimation, document: GraphDocument, hidden: Iterable[int]) -> Concealment:
    """What the editor's cards must not show while the replay of ``document`` hides the steps at ``hidden``:
    the values of hidden forward steps, the gradients hidden steps add to, and the wires they travel."""
    document_id = {replay: node_id for node_id, replay in replay_ids(animation, document).items()}
    values, grads, wires = set(), set(), set()
    for position in hidden:
        frame = animation.timeline.frames[position - 1]
        if frame.phase == "forward" and frame.node_id in document_id:
            values.add(document_id[frame.node_id])
        elif frame.edge is not None and frame.edge.source in document_id:
            source = document_id[frame.edge.source]
            grads.add(source)
            target = document_id.get(frame.edge.target)
            wires.update(edge for edge in document.edges if edge.source == source
                         and (target is None or edge == Edge(source, target, frame.edge.port)))
    if not (values or grads or wires):
        return NOTHING_CONCEALED
    return Concealment(frozenset(values), frozenset(grads), frozenset(wires))
