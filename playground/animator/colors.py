"""What the animator's states, phases and wires look like, the same in every theme: each colour is a middle tone
(relative luminance about 0.2) that stands 3:1 off white, the dark theme's cards and black alike (WCAG 1.4.11)."""

from __future__ import annotations

from .model.timeline import NodeState

STATE_COLORS: dict[NodeState, str] = {
    NodeState.NOT_REACHED: "#747e8c",  # grey
    NodeState.COMPUTED: "#2580d2",  # blue
    NodeState.RECEIVING: "#bb680a",  # orange
    NodeState.READY: "#987a00",  # ochre yellow
    NodeState.PROCESSING: "#e83d18",  # bright orange-red: the accent
    NodeState.DONE: "#1f8f4a",  # green
}
# Each state's badge on its card's corner, and in the legend beside its colour: the state told by a shape
# as well as a colour (WCAG 1.4.1), so a student who cannot tell the orange from the green still sees
# which node is being processed and which are done.
STATE_MARKS: dict[NodeState, str] = {
    NodeState.NOT_REACHED: "…",
    NodeState.COMPUTED: "=",
    NodeState.RECEIVING: "←",
    NodeState.READY: "●",
    NodeState.PROCESSING: "▶",
    NodeState.DONE: "✔",
}
WRONG_MARK = "✗"  # a pitfall replay's wrong gradient
FORWARD_WIRE_COLOR = STATE_COLORS[NodeState.COMPUTED]  # the operands flowing into the node being computed
BACKWARD_WIRE_COLOR = STATE_COLORS[NodeState.PROCESSING]  # the wire the current contribution travels along
WRONG_COLOR = "#df473e"  # a pitfall replay's node whose final gradient is wrong: red
UNUSED_OPACITY = 0.35  # nodes and wires the output does not depend on
PHASE_NAMES = {"forward": "Forward pass", "seed": "Backward pass: the seed", "backward": "Backward pass"}
PHASE_COLORS = {"forward": STATE_COLORS[NodeState.COMPUTED], "seed": STATE_COLORS[NodeState.READY],
                "backward": STATE_COLORS[NodeState.PROCESSING]}


def legend_html(scale: float = 1.0) -> str:
    """The colour key under the graph, as rich text (``scale``: presentation mode's zoom). A narrow panel
    wraps it between entries, never inside one."""
    dot, text = round(15 * scale), round(11 * scale)
    entries = [f"<span style='color:{STATE_COLORS[state]}; font-size:{dot}px'>●</span>&nbsp;"
               f"<b>{STATE_MARKS[state]}</b>&nbsp;" + state.value.replace(" ", "&nbsp;") for state in NodeState]
    entries.append(f"<span style='color:{BACKWARD_WIRE_COLOR}; font-size:{dot}px'>━</span>"
                   "&nbsp;wire&nbsp;of&nbsp;the&nbsp;current&nbsp;step")
    return f"<span style='font-size:{text}px'>{'&nbsp;&nbsp; '.join(entries)}</span>"
