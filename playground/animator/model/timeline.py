"""The backward animator's timeline: the forward pass node by node, then the engine's own backward steps.

Qt-free. A `Timeline` is a cursor over `Frame`s; each frame lists the changes it makes to
what is displayed (node states, values, gradients) with their old and new values, so
stepping backwards in time undoes a frame exactly. `build_timeline` makes the frames of a
graph document from fresh engine `Value`s and their ``backward_steps()``, so what the
animator shows is what the engine does; `tensor_timeline` does the same for a network.

What the panel animates is an *animation*: a `timeline`, the number each wire shows once its
step is passed (`wire_labels`, kept on screen if `labels_stay`), a `finished_note` for the last
step, and how a node's display state reads on its card (`node_lines`) and in its tooltip
(`node_tooltip`). `DocumentAnimation` below and `tensor_timeline.TensorAnimation` are the two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from ...common.numbers import format_number, full_number
from ...graph.catalog import kind
from ...graph.document import Edge, GraphDocument, is_bare_constant
from ...graph.evaluate import Evaluation, build_values, evaluate


class NodeState(Enum):
    NOT_REACHED = "not reached yet"
    COMPUTED = "value computed"
    RECEIVING = "receiving gradient"
    READY = "gradient ready"
    PROCESSING = "being processed"
    DONE = "done"


@dataclass(frozen=True)
class Change:
    node_id: str
    field: str  # "state", "value" or "grad"
    old: object
    new: object


@dataclass(frozen=True)
class ChainStep:
    """One chain-rule step of a backward replay, by node id: ``node`` hands ``contribution`` to ``parent``.

    ``before`` is the parent's gradient just before (None: it had none yet) and ``total`` just
    after; ``note`` says what a mistaken replay (`pitfalls`) did differently at this step.
    """

    node: str
    parent: str
    port: int
    local: float
    upstream: float
    contribution: float
    before: float | None
    total: float
    note: str = ""


@dataclass
class Frame:
    phase: str  # "forward", "seed" or "backward"
    node_id: str  # the node this frame is about (for backward: the node passing its gradient on)
    title: str  # one line for the step list
    explanation: str  # the step's arithmetic, several lines
    edge: Edge | None = None  # backward: the wire the contribution travels along
    wires: tuple[Edge, ...] = ()  # the wires to highlight: the operands' (forward) or the edge (backward)
    changes: list[Change] = field(default_factory=list)
    step: ChainStep | None = None  # a scalar graph's backward frame: the chain-rule step it shows


@dataclass
class DisplayState:
    state: NodeState = NodeState.NOT_REACHED
    value: object = None  # a float for scalar graphs, a numpy array for tensor graphs
    grad: object = None


class DisplayTracker:
    """What is displayed as frames are built: `change` records a change in a frame only when it is one."""

    def __init__(self, node_ids):
        self.shown = {node_id: DisplayState() for node_id in node_ids}

    def initial(self) -> dict[str, DisplayState]:
        return {node_id: DisplayState() for node_id in self.shown}

    def change(self, frame: Frame, node_id: str, name: str, new) -> None:
        old = getattr(self.shown[node_id], name)
        if old is new or (not hasattr(new, "shape") and not hasattr(old, "shape") and old == new):
            return  # arrays are compared by identity: each step makes new ones
        frame.changes.append(Change(node_id, name, old, new))
        setattr(self.shown[node_id], name, new)


def terms(document: GraphDocument) -> dict[str, str]:
    """How a formula writes each node: its name (`GraphDocument.names`), but an unlabelled constant as
    its number, the way a textbook writes ``3 * x`` rather than ``c1 * x``."""
    names = dict(document.names())
    for node in document.nodes:
        if node.kind == "constant" and not node.label:
            names[node.id] = format_number(node.value)
    return names


def local_derivative_formula(document: GraphDocument, node_id: str, port: int,
                             names: dict[str, str] | None = None) -> str:
    """d(node)/d(operand on ``port``) in symbols, with the operands' names: ``b``, ``1 - tanh(x)^2``...
    (``names``: `terms` of the document, if the caller has them)."""
    names_of = names if names is not None else terms(document)
    node = document.node(node_id)
    operands = []
    for p in range(node.port_count):
        edge = document.edge_at(node_id, p)
        operands.append(names_of[edge.source] if edge else "?")
    a = operands[0] if operands else "x"
    b = operands[1] if len(operands) > 1 else "y"
    out = names_of[node_id]
    formulas = {
        "add": ("1", "1"),
        "sub": ("1", "-1"),
        "mul": (b, a),
        "div": (f"1/{b}", f"-{a}/{b}^2"),
        "pow": (f"{b}*{a}^({b}-1)", f"{a}^{b}*ln({a})"),
        "neg": ("-1",),
        "exp": (f"exp({a}) = {out}",),
        "log": (f"1/{a}",),
        "tanh": (f"1 - tanh({a})^2 = 1 - {out}^2",),
        "sigmoid": (f"sigmoid({a})*(1 - sigmoid({a}))",),
        "relu": (f"1 if {a} > 0 else 0",),
        "sin": (f"cos({a})",),
        "cos": (f"-sin({a})",),
        "abs": (f"sign({a})",),
    }
    if node.kind == "sum":
        return "1"
    return formulas[node.kind][port]


def forward_formula(document: GraphDocument, node_id: str, operands: list[str]) -> str:
    """The op applied to ``operands`` (names or numbers): ``a * b``, ``-x``, ``x1 + x2 + x3``, ``tanh(n)``."""
    node_kind = kind(document.node(node_id).kind)
    if node_kind.name == "neg":
        return f"-{operands[0]}"
    if node_kind.symbol and (len(operands) == 2 or node_kind.is_variadic):
        return f" {node_kind.symbol} ".join(operands)
    return f"{node_kind.name}({', '.join(operands)})"


@dataclass
class BackwardPass:
    """One backward pass of a replay. A pass after the first starts from ``start_grads`` (what
    each node's gradient is when it begins: zeros after ``zero_grad()``, or what was left over)
    and says so in its seed frame."""

    steps: list[ChainStep]
    start_grads: dict[str, float] | None = None
    start_note: str = ""


def engine_steps(document: GraphDocument, evaluation: Evaluation) -> list[ChainStep]:
    """The engine's own ``backward_steps()`` for the document's output, by node id.

    Runs a fresh backward pass on freshly built `Value`s, so that the evaluation's are left as they were.
    """
    output = document.effective_output()
    order = [n for n in document.topological_order() if n in evaluation.values]
    values, _missing = build_values(document, order)
    node_of = {id(v): node_id for node_id, v in values.items()}
    totals: dict[str, float] = {}
    steps = []
    for step in values[output].backward_steps():
        node_id, parent_id = node_of[id(step.node)], node_of[id(step.parent)]
        steps.append(ChainStep(node_id, parent_id, step.index, step.local, step.upstream, step.contribution,
                               totals.get(parent_id), step.total))
        totals[parent_id] = step.total
    return steps


def build_timeline(document: GraphDocument, evaluation: Evaluation | None = None,
                   passes: list[BackwardPass] | None = None) -> tuple[list[Frame], dict[str, DisplayState]]:
    """The frames of the forward and backward pass, and the display state before the first frame.

    ``evaluation`` is ``evaluate(document)`` if the caller has it. The backward frames replay
    ``passes``: by default one pass of the engine's own steps (`engine_steps`); a teaching replay
    (`pitfalls`) gives its own. Raises ValueError when the output cannot be evaluated (an
    unconnected input it depends on, an empty graph); nodes the output does not depend on are
    left out, finished or not.
    """
    evaluation = evaluation if evaluation is not None else evaluate(document)
    output = document.effective_output()
    if output is None:
        raise ValueError("the graph is empty")
    needed = document.ancestors(output) | {output}
    order = [n for n in document.topological_order() if n in needed]
    for node_id in order:
        ports = evaluation.results[node_id].missing_ports
        if ports:
            raise ValueError(f"input '{ports[0]}' of {document.name(node_id)} is not connected")
    values = evaluation.values
    tracker = DisplayTracker(order)
    frames: list[Frame] = []
    names_of = terms(document)

    # Forward: values appear in topological order.
    for node_id in order:
        node = document.node(node_id)
        name, value = names_of[node_id], values[node_id].data
        operand_wires = tuple(e for e in (document.edge_at(node_id, p) for p in range(node.port_count)) if e)
        if is_bare_constant(document, node_id):
            title = f"{name} (a constant)"
            explanation = f"Forward: {full_number(value)} is a constant"
        elif node.is_leaf:
            title = f"{name} = {format_number(value)}"
            what = kind(node.kind).title.lower()
            article = "an" if what[0] in "aeiou" else "a"
            explanation = f"Forward: {name} is {article} {what}: {name} = {full_number(value)}"
        else:
            names = [names_of[edge.source] for edge in operand_wires]
            numbers = [format_number(values[edge.source].data) for edge in operand_wires]
            title = f"{name} = {forward_formula(document, node_id, names)} = {format_number(value)}"
            explanation = (f"Forward: {name} = {forward_formula(document, node_id, names)}\n"
                           f"  = {forward_formula(document, node_id, numbers)}\n  = {full_number(value)}")
        problem = evaluation.results[node_id].problem
        if problem:
            explanation += f"\n⚠ {problem}"
        frame = Frame("forward", node_id, title, explanation, wires=operand_wires)
        tracker.change(frame, node_id, "state", NodeState.COMPUTED)
        tracker.change(frame, node_id, "value", value)
        frames.append(frame)

    if passes is None:
        passes = [BackwardPass(engine_steps(document, evaluation))]
    for number, backward_pass in enumerate(passes, start=1):
        frames.extend(_backward_frames(document, order, output, backward_pass, tracker, number, names_of))
    return frames, tracker.initial()


def _backward_frames(document: GraphDocument, order: list[str], output: str, backward_pass: BackwardPass,
                     tracker: DisplayTracker, number: int, names_of: dict[str, str]) -> list[Frame]:
    """The seed frame and one frame per chain-rule step of one backward pass (``number`` counts from 1)."""
    shown, change = tracker.shown, tracker.change
    name = names_of[output]
    again = f" (backward pass {number})" if number > 1 else ""
    frame = Frame("seed", output, f"seed{again}: d({name})/d({name}) = 1",
                  f"Backward starts at the output {name}:\nd({name})/d({name}) = 1"
                  + (f"\n\n{backward_pass.start_note}" if backward_pass.start_note else ""))
    if backward_pass.start_grads is not None:
        for node_id in order:
            change(frame, node_id, "grad", backward_pass.start_grads.get(node_id))
            change(frame, node_id, "state", NodeState.COMPUTED)
    change(frame, output, "grad", 1.0)
    change(frame, output, "state", NodeState.READY)
    frames = [frame]

    consumers = {node_id: 0 for node_id in order}
    for edge in document.edges:
        if edge.source in consumers and edge.target in consumers:
            consumers[edge.source] += 1
    received = {node_id: 0 for node_id in order}
    current = None
    for step in backward_pass.steps:
        node_id, parent_id = step.node, step.parent
        edge = document.edge_at(node_id, step.port)
        node_name, parent_name = names_of[node_id], names_of[parent_id]
        formula = local_derivative_formula(document, node_id, step.port, names_of)
        if step.before is None or not math.isclose(step.before + step.contribution, step.total, rel_tol=1e-12):
            total_line = f"{parent_name}.grad = {format_number(step.total)}"  # the first, or an overwrite
        else:
            total_line = (f"{parent_name}.grad: {format_number(step.before)} + {format_number(step.contribution)} = "
                          f"{format_number(step.total)}")
        if step.note:
            total_line += f"\n✗ {step.note}"
        elif consumers[parent_id] > 1:
            total_line += f"   ({parent_name} is used {consumers[parent_id]} times: contributions add up)"
        local = format_number(step.local)
        derivative = f"d({node_name})/d({parent_name}) = " + (local if formula == local else f"{formula} = {local}")
        explanation = (f"{derivative}\n"
                       f"contribution = {format_number(step.upstream)} × {format_number(step.local)} = "
                       f"{format_number(step.contribution)}\n{total_line}")
        arrow = f"{node_name} → {parent_name}"
        node = document.node(node_id)
        if sum(document.edge_at(node_id, p).source == parent_id for p in range(node.port_count)) > 1:
            arrow += f" ({kind(node.kind).port_name(step.port)})"  # x * x: which of the two operands
        frame = Frame("backward", node_id, f"{arrow}: {format_number(step.upstream)} × "
                      f"{format_number(step.local)} = {format_number(step.contribution)}", explanation, edge,
                      (edge,), step=step)
        if current != node_id:
            if current is not None:
                change(frame, current, "state", NodeState.DONE)
            current = node_id
        change(frame, node_id, "state", NodeState.PROCESSING)
        change(frame, parent_id, "grad", step.total)
        received[parent_id] += 1
        complete = received[parent_id] == consumers[parent_id]
        change(frame, parent_id, "state", NodeState.READY if complete else NodeState.RECEIVING)
        frames.append(frame)
    if current is not None and len(frames) > 1:
        frame = frames[-1]
        change(frame, current, "state", NodeState.DONE)
        for node_id in order:  # the leaves have nothing to pass on: done once their gradient is ready
            if document.node(node_id).is_leaf and shown[node_id].state is NodeState.READY:
                change(frame, node_id, "state", NodeState.DONE)
    return frames


class Timeline:
    """A cursor over the frames: ``position`` frames have been applied (0 = before the first)."""

    def __init__(self, frames: list[Frame], initial: dict[str, DisplayState]):
        self.frames = frames
        self.display = {node_id: DisplayState(s.state, s.value, s.grad) for node_id, s in initial.items()}
        self.position = 0

    @classmethod
    def of_document(cls, document: GraphDocument, evaluation: Evaluation | None = None,
                    passes: list[BackwardPass] | None = None) -> Timeline:
        """The forward and backward pass of a graph document (ValueError if it cannot be evaluated);
        ``passes``: a replay other than the engine's one pass (see `build_timeline`)."""
        return cls(*build_timeline(document, evaluation, passes))

    def __len__(self) -> int:
        return len(self.frames)

    @property
    def current(self) -> Frame | None:
        return self.frames[self.position - 1] if self.position > 0 else None

    def step_forward(self) -> bool:
        if self.position >= len(self.frames):
            return False
        for c in self.frames[self.position].changes:
            setattr(self.display[c.node_id], c.field, c.new)
        self.position += 1
        return True

    def step_back(self) -> bool:
        if self.position == 0:
            return False
        self.position -= 1
        for c in reversed(self.frames[self.position].changes):
            setattr(self.display[c.node_id], c.field, c.old)
        return True

    def seek(self, position: int) -> set[str]:
        """Move to ``position``; returns the ids of the nodes whose display changed."""
        position = max(0, min(position, len(self.frames)))
        touched = set()
        while self.position < position:
            touched.update(c.node_id for c in self.frames[self.position].changes)
            self.step_forward()
        while self.position > position:
            touched.update(c.node_id for c in self.frames[self.position - 1].changes)
            self.step_back()
        return touched

    def frame_of_node(self, node_id: str) -> int:
        """The position just after the first backward frame about ``node_id`` (else its forward frame)."""
        best = None
        for i, frame in enumerate(self.frames):
            if frame.node_id == node_id:
                if frame.phase == "backward":
                    return i + 1
                best = i + 1 if best is None else best
        return best or 0


class DocumentAnimation:
    """A graph document's animation: its timeline, the gradient each wire carries, and how a node reads."""

    labels_stay = True  # a wire keeps showing its gradient once its step is passed

    def __init__(self, document: GraphDocument, passes: list[BackwardPass] | None = None):
        """``passes``: a teaching replay's backward passes instead of the engine's one (see `build_timeline`)."""
        self.document = document
        self.evaluation = evaluate(document)
        # ValueError if it cannot be evaluated
        self.timeline = Timeline.of_document(document, self.evaluation, passes)
        self.wire_labels: dict[Edge, float] = self.evaluation.edge_grads
        if passes is not None:  # what this replay's wires carry
            self.wire_labels = {document.edge_at(step.node, step.port): step.contribution
                                for backward_pass in passes for step in backward_pass.steps}

    @property
    def finished_note(self) -> str:
        """What the last step should add: which values came out nan or inf, and why."""
        problems = [f"{self.document.name(node_id)}: {self.evaluation.results[node_id].problem}"
                    for node_id in self.timeline.display if self.evaluation.results[node_id].problem]
        if not problems:
            return ""
        return "⚠ Some values are nan or inf, and so are the gradients through them:\n" + "\n".join(problems)

    def node_lines(self, node_id: str, state: DisplayState) -> list[str]:
        """The value and the gradient reached so far ("—" before)."""
        return [f"value {format_number(state.value)}", f"grad {format_number(state.grad)}"]

    def node_tooltip(self, node_id: str, state: DisplayState) -> str:
        text = (f"{self.document.name(node_id)}: {state.state.value}\n"
                f"value = {full_number(state.value)}\ngrad = {full_number(state.grad)}")
        problem = self.evaluation.results[node_id].problem
        return f"{text}\n⚠ {problem}" if problem and state.value is not None else text
