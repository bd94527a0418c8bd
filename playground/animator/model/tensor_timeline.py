"""The backward animator for a network: the tensor graph of one batch, replayed from the engine.

Qt-free. `tensor_animation(model, loss_fn, X, y)` runs the network forward on one batch with
the engine's `Tensor`s, names each node after the layer that made it (Linear 1, Tanh 1, ...,
the loss) and each parameter after its layer (W1, b1, ...), lays the graph out left to right,
and turns the forward pass and the engine's own ``loss.backward_steps()`` into `Frame`s, as
`timeline.build_timeline` does for a scalar graph. `graph_animation(result)` does the same for
any scalar tensor a person computed (``playground.show(loss)``), naming nodes by their labels.
A node shows its shape and the norms of its value and gradient; a tensor of one element shows
its number.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from engine import Tensor
from engine.autograd import topological_order
from engine.nn import Linear, Sequential

from ...common.numbers import format_number, full_number
from ...graph.catalog import ARITHMETIC_GROUP, FUNCTION_GROUP, LEAF_GROUP
from ...graph.document import Edge
from ...graph.layout import layered_positions
from ...graph.tensor_evaluate import broadcast_text
from .timeline import DisplayState, DisplayTracker, Frame, NodeState, Timeline

TENSOR_CARD_WIDTH = 150.0
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
X_SPACING, Y_SPACING = TENSOR_CARD_WIDTH + 50.0, 110.0


@dataclass(frozen=True)
class OpInfo:
    word: str  # the op's name on a card's tag
    formula: str  # the forward computation, with {0}, {1}, ... for the operands' names
    rules: tuple[str, ...]  # per operand: what it receives, in terms of the upstream gradient g
    ports: tuple[str, ...]
    group: str = ARITHMETIC_GROUP


def _function(word: str, rule: str, formula: str = "") -> OpInfo:
    return OpInfo(word, formula or f"{word}({{0}})", (rule,), ("x",), FUNCTION_GROUP)


# Each op of the engine's Tensor, by its ``op`` name. A rule reads as the vector-Jacobian product
# the engine computes: g is the gradient arriving at the node, ⊙ multiplies element by element, {0}, {1}, ...
# the operands, written with their own names (`rule_text`).
OPS: dict[str, OpInfo] = {
    "linear": OpInfo("linear", "{0} · {1}ᵀ + {2}", ("g · {1}", "gᵀ · {0}", "g summed over the batch"), ("x", "W", "b")),
    "+": OpInfo("add", "{0} + {1}", ("g", "g"), ("a", "b")),
    "-": OpInfo("sub", "{0} − {1}", ("g", "−g"), ("a", "b")),
    "*": OpInfo("mul", "{0} ⊙ {1}", ("g ⊙ {1}", "g ⊙ {0}"), ("a", "b")),
    "/": OpInfo("div", "{0} / {1}", ("g / {1}", "−g ⊙ {0} / {1}²"), ("a", "b")),
    "**": OpInfo("pow", "{0} ** {1}", ("g ⊙ {1}·{0}^({1}−1)", "g ⊙ {0}^{1}·ln({0})"), ("a", "b")),
    "@": OpInfo("matmul", "{0} @ {1}", ("g @ {1}ᵀ", "{0}ᵀ @ g"), ("a", "b")),
    "neg": OpInfo("neg", "−{0}", ("−g",), ("x",)),
    "sum": OpInfo("sum", "sum({0})", ("g, copied to every element",), ("x",)),
    "mean": OpInfo("mean", "mean({0})", ("g / n, for every one of the n elements",), ("x",)),
    "reshape": OpInfo("reshape", "reshape({0})", ("g, reshaped back",), ("x",)),
    "transpose": OpInfo("transpose", "{0}ᵀ", ("g, transposed back",), ("x",)),
    "exp": _function("exp", "g ⊙ exp({0})"),
    "log": _function("log", "g / {0}"),
    "tanh": _function("tanh", "g ⊙ (1 − tanh({0})²)"),
    "sigmoid": _function("sigmoid", "g ⊙ σ({0})(1 − σ({0}))", "σ({0})"),
    "relu": _function("relu", "g ⊙ [{0} > 0]"),
    "leaky_relu": _function("leaky relu", "g ⊙ (1 if {0} > 0 else slope)", "leaky_relu({0})"),
    "abs": _function("abs", "g ⊙ sign({0})", "|{0}|"),
    "bce_with_logits": OpInfo("BCE", "BCE with logits({0}, {1})", ("g ⊙ (σ({0}) − {1}) / n", "−g ⊙ {0} / n"),
                              ("logits", "y"), FUNCTION_GROUP),
    # cross-entropy for k classes is log_softmax, the log-probability of each point's class picked, negated, averaged
    "log_softmax": _function("log softmax", "g − softmax({0}) ⊙ (g summed over the row)", "log_softmax({0})"),
    "getitem": OpInfo("pick", "{0}[each point's class]", ("g at the picked elements, 0 elsewhere",), ("x",)),
}
ELEMENTWISE = {"+", "-", "*", "/", "**"}  # their contributions are summed back where an operand was broadcast


def rule_text(info: OpInfo, index: int, operands) -> str:
    """What operand ``index`` receives, with the operands' own names: "g @ Wᵀ" for X in X @ W. A port's letter
    would read as another node where the graph has one of that name (lesson 9's bias b)."""
    return info.rules[index].format(*operands)


def _info(op: str, operands: int) -> OpInfo:
    known = OPS.get(op)
    if known is not None and len(known.ports) >= operands:
        return known
    ports = tuple(f"x{i + 1}" for i in range(operands))
    return OpInfo(op, f"{op}({', '.join(f'{{{i}}}' for i in range(operands))})",
                  tuple(f"the vector-Jacobian product of {op}" for _ in ports), ports)


# -- numbers ----------------------------------------------------------------------------------


def shape_text(shape: tuple[int, ...]) -> str:
    return "scalar" if shape == () else "×".join(str(n) for n in shape)


def norm(array) -> float:
    return float(np.linalg.norm(np.asarray(array, dtype=np.float64)))


def describe(array, limit: int = 4) -> str:
    """A tensor in a few words: its numbers when it has at most ``limit``, else its shape and norm."""
    array = np.asarray(array)
    if array.size == 1 and array.ndim == 0:
        return format_number(float(array))
    if array.size <= limit:
        return np.array2string(array, separator=", ", formatter={"float_kind": format_number})
    return f"{shape_text(array.shape)}, ‖·‖ = {format_number(norm(array))}"


WHOLE_IN_TOOLTIP = 64  # a tensor with at most this many numbers has them all in its card's tooltip


def every_number(array) -> list[str]:
    """A small tensor's numbers as the lessons write them (`describe`), a row a line, each line indented under
    the tooltip's "value:" or "grad:" line; nothing for a single number or a tensor too big to read whole."""
    array = np.asarray(array, dtype=np.float64)
    if array.size <= 1 or array.size > WHOLE_IN_TOOLTIP:
        return []
    text = np.array2string(array, separator=", ", formatter={"float_kind": format_number}, max_line_width=10**6,
                           threshold=WHOLE_IN_TOOLTIP)
    return ["  " + line for line in text.split("\n")]


def statistics(array, full: bool = False) -> str:
    """A tensor's mean, min, max and norm to read; a single number as itself (every digit if ``full``, for tooltips)."""
    array = np.asarray(array, dtype=np.float64)
    if array.size == 1:
        return (full_number if full else format_number)(float(array.reshape(())))
    return (f"mean {format_number(float(array.mean()))}, min {format_number(float(array.min()))}, "
            f"max {format_number(float(array.max()))}, ‖·‖ = {format_number(norm(array))}")


# -- the graph --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorNode:
    id: str
    title: str  # "Linear 1", "W1", "X", "loss"
    kind: str  # the tag on the card: "linear", "tanh", "weight", "inputs", "BCE"
    group: str  # the header's colour: a catalog group
    port_names: tuple[str, ...]
    shape: tuple[int, ...]
    requires_grad: bool
    description: str  # what it is, in a few words
    x: float = 0.0
    y: float = 0.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))


@dataclass
class TensorAnimation:
    """A network's tensor graph for one batch, laid out, with its forward and backward frames."""

    nodes: dict[str, TensorNode]
    edges: list[Edge]
    output: str
    timeline: Timeline
    wire_labels: dict[Edge, float]  # what a wire shows at its step: the norm of its gradient, or the number
    labels_stay = False  # the cards show the gradients: a wire's label shows only at its own step
    finished_note = ""

    def node(self, node_id: str) -> TensorNode:
        return self.nodes[node_id]

    def node_lines(self, node_id: str, state: DisplayState) -> list[str]:
        node = self.nodes[node_id]
        lines = [f"shape {shape_text(node.shape)}"]
        if state.value is None:
            lines.append("value —")
        else:
            lines.append(f"value {format_number(float(np.reshape(state.value, -1)[0]))}" if node.size == 1
                         else f"‖value‖ {format_number(norm(state.value))}")
        if state.grad is None:
            lines.append("grad —" if node.requires_grad else "grad not needed")
        else:
            lines.append(f"grad {format_number(float(np.reshape(state.grad, -1)[0]))}" if node.size == 1
                         else f"‖grad‖ {format_number(norm(state.grad))}")
        return lines

    def node_tooltip(self, node_id: str, state: DisplayState) -> str:
        node = self.nodes[node_id]
        lines = [f"{node.title} ({node.kind}): {node.description}", f"{state.state.value}",
                 f"shape {node.shape}"]
        # A lesson names a small tensor's numbers (b1's three, its gradient's): the card has room for their
        # norm, so its tooltip holds them all, written as the lesson writes them.
        if state.value is not None:
            lines += [f"value: {statistics(state.value, full=True)}", *every_number(state.value)]
        if state.grad is not None:
            lines += [f"grad: {statistics(state.grad, full=True)}", *every_number(state.grad)]
        elif not node.requires_grad:
            lines.append("needs no gradient: nothing learns it")
        return "\n".join(lines)


def _stages(model) -> list[tuple[str, object]]:
    """The network's parts in order, each with a name: Linear 1, Tanh 1, Linear 2, ..."""
    modules = model.modules if isinstance(model, Sequential) else [model]
    stages, linear = [], 0
    for module in modules:
        if isinstance(module, Linear):
            linear += 1
            stages.append((f"Linear {linear}", module))
        else:
            stages.append((f"{type(module).__name__} {linear}" if linear else type(module).__name__, module))
    return stages


def tensor_animation(model, loss_fn, X, y, loss_name: str = "loss") -> TensorAnimation:
    """Run ``model`` forward on the batch ``X`` with labels ``y``, then ``loss_fn(logits, y)``; the frames
    of its forward pass and of the engine's backward pass through it. The model's weights stay as
    they are, but their ``.grad`` is filled as by one ``loss.backward()``."""
    X = np.asarray(X, dtype=np.float64)
    inputs = Tensor(X)
    names: dict[int, tuple[str, str, str]] = {  # id(tensor) -> (title, kind, description)
        id(inputs): ("X", "inputs", f"the batch: {X.shape[0]} points, {X.shape[-1]} features each"),
    }
    for parameter in model.parameters():
        parameter.grad = None  # the panel shows this pass's gradients only
    if not isinstance(model, Sequential):
        return _labelled_network_animation(model, loss_fn, inputs, y, names, loss_name)
    stage_of: dict[int, str] = {}
    h = inputs
    for stage, module in _stages(model):
        if isinstance(module, Linear):
            k = stage.split()[-1]
            names[id(module.weight)] = (f"W{k}", "weight", f"the weight matrix of {stage} (out × in), learned")
            if module.bias is not None:
                names[id(module.bias)] = (f"b{k}", "bias", f"the bias vector of {stage}, learned")
        h = module(h)
        stage_of.setdefault(id(h), stage)
    logits = h
    loss = loss_fn(logits, y)
    if loss.shape != ():
        raise ValueError(f"the loss must be a single number, not of shape {loss.shape}")
    order = _forward_order(topological_order(loss))

    # Name each op after the part of the network that made it: walking forward, a node belongs to
    # the first part whose output depends on it.
    marked: set[int] = set()
    stage_outputs = [(stage_of[id(t)], t) for t in order if id(t) in stage_of] + [("loss", loss)]
    members: dict[str, list[Tensor]] = {}
    for stage, output in stage_outputs:
        for t in topological_order(output):
            if id(t) not in marked and t._prev:
                marked.add(id(t))
                members.setdefault(stage, []).append(t)
    for stage, tensors in members.items():
        name = loss_name if stage == "loss" else stage
        for number, t in enumerate(tensors, start=1):
            info = _info(t.op, len(t._prev))
            if t is tensors[-1]:
                title = name
                what = f"the {loss_name}: one number for the whole batch" if t is loss else f"{stage}'s output"
            else:  # the steps on the way: loss₁, loss₂, ...
                title, what = f"{name}{str(number).translate(SUBSCRIPTS)}", f"step {number} of computing {name}"
            names[id(t)] = (title, info.word, what)
    for t in order:
        if id(t) not in names and t.shape == logits.shape:
            names[id(t)] = ("y", "targets", "the labels of the batch, as the loss wants them")
    return _animation(loss, order, names)


def _labelled_network_animation(model, loss_fn, inputs: Tensor, y, names: dict, loss_name: str) -> TensorAnimation:
    """A network without layers (a graph drawn in the editor): its parameters named as it names them, each op by
    the label the network gave its result (else t1, t2, ...), then the loss."""
    for name, parameter in model.named_parameters():
        names[id(parameter)] = (name, "parameter", "learned: training changes it")
    loss = loss_fn(model(inputs), y)
    if loss.shape != ():
        raise ValueError(f"the loss must be a single number, not of shape {loss.shape}")
    order = _forward_order(topological_order(loss))
    taken = {t.label for t in order if t.label}
    counters: Counter = Counter()
    for t in order:
        if t._prev and id(t) not in names:
            word = _info(t.op, len(t._prev)).word
            if t is loss:
                names[id(t)] = (loss_name, word, f"the {loss_name}: one number for the whole batch")
            else:
                names[id(t)] = (t.label or _next_name("t", counters, taken), word, f"{word} of its operands")
        elif id(t) not in names and t.size > 1 and not t.requires_grad and t.ndim == 2 and t.shape[0] == len(y):
            names[id(t)] = ("y", "targets", "the labels of the batch, as the loss wants them")
    return _animation(loss, order, names)


def check_tensor_result(result) -> None:
    """Raise ``TypeError`` or ``ValueError`` (saying why) unless `graph_animation` can show ``result``."""
    if not isinstance(result, Tensor):
        raise TypeError(f"expected an engine.Tensor, not {type(result).__name__}")
    if result.shape != ():
        raise ValueError(f"the result must be a single number (a loss), not of shape {result.shape}: "
                         "reduce it first, e.g. with .sum() or .mean()")
    if not result.requires_grad:
        raise ValueError("nothing in this result requires grad, so there is no backward pass to show")


def graph_animation(result: Tensor, roles: dict[int, tuple[str, str]] | None = None) -> TensorAnimation:
    """The forward and backward pass of whatever ``result`` was computed from; the ``.grad``s of its leaves
    are left as they were. Nodes are named by their labels; an unlabelled result is t1, t2, ... in
    forward order, an unlabelled leaf that requires grad b1, b2, ... if it is a vector (a bias), else w1,
    w2, ..., any other x1, x2, ... (one element: its number). ``roles``: id(leaf) -> (kind, description) where
    the caller knows what a leaf is (the editor's inputs and parameters); a tensor alone does not say whether
    training would change it, only that its gradient is wanted."""
    check_tensor_result(result)
    order = _forward_order(topological_order(result))
    taken = {t.label for t in order if t.label}
    counters: Counter = Counter()
    names: dict[int, tuple[str, str, str]] = {}
    for t in order:
        if t._prev:
            word = _info(t.op, len(t._prev)).word
            title = t.label or _next_name("t", counters, taken)
            names[id(t)] = (title, word, "the result" if t is result else f"{word} of its operands")
        elif t.label or t.size > 1 or t.requires_grad:
            # A learned vector is a layer's bias (b), a learned matrix or scalar a weight (w), as nn.Linear has them.
            prefix = ("b" if t.ndim == 1 else "w") if t.requires_grad else "x"
            kind = "parameter" if t.requires_grad else "input"
            title = t.label or _next_name(prefix, counters, taken)
            kind, what = (roles or {}).get(id(t), (kind, "it requires grad: the backward pass computes its gradient"
                                                   if t.requires_grad else "an input"))
            names[id(t)] = (title, kind, what)
    leaves = [t for t in order if not t._prev]
    kept = [t.grad for t in leaves]
    for leaf in leaves:
        leaf.grad = None  # the replay shows this pass's gradients only
    try:
        return _animation(result, order, names, retain_graph=True)  # the person may go on with it
    except RuntimeError as error:
        if "freed" not in str(error):
            raise
        raise ValueError("its graph was freed by backward(), as PyTorch frees it: show the result before calling "
                         ".backward(), or call .backward(retain_graph=True)") from None
    finally:
        for leaf, grad in zip(leaves, kept):
            leaf.grad = grad  # the person's tensors are as they were


def _next_name(prefix: str, counters: Counter, taken: set[str]) -> str:
    while True:
        counters[prefix] += 1
        name = f"{prefix}{counters[prefix]}"
        if name not in taken:
            return name


def tensor_node_ids(result: Tensor) -> dict[int, str]:
    """id(tensor) -> the id of its node in the animation `graph_animation` or `tensor_animation` makes of
    ``result``'s graph (forward mode draws the same nodes)."""
    return _node_ids(_forward_order(topological_order(result)))


def _node_ids(order: list) -> dict[int, str]:
    return {id(t): f"t{i}" for i, t in enumerate(order)}


def _animation(loss: Tensor, order: list, names: dict[int, tuple[str, str, str]],
               retain_graph: bool = False) -> TensorAnimation:
    """Nodes, wires, layout and frames of the graph ``order`` (operands first, ending with ``loss``)."""
    ids = _node_ids(order)
    nodes: dict[str, TensorNode] = {}
    edges: list[Edge] = []
    for t in order:
        node_id = ids[id(t)]
        if id(t) in names:
            title, kind, description = names[id(t)]
        else:
            title, kind, description = describe(t.data, 1), "constant", "a fixed number"
        if t._prev:
            info = _info(t.op, len(t._prev))
            ports, group = info.ports[:len(t._prev)], info.group
        else:
            ports, group = (), LEAF_GROUP
        nodes[node_id] = TensorNode(node_id, title, kind, group, ports, t.shape, t.requires_grad, description)
        edges.extend(Edge(ids[id(parent)], node_id, port) for port, parent in enumerate(t._prev))
    positions = layered_positions({n: len(node.port_names) for n, node in nodes.items()}, edges,
                                  X_SPACING, Y_SPACING)
    nodes = {n: replace(node, x=positions[n][0], y=positions[n][1]) for n, node in nodes.items()}

    frames, initial, wire_labels = _frames(order, ids, nodes, edges, loss, retain_graph)
    return TensorAnimation(nodes, edges, ids[id(loss)], Timeline(frames, initial), wire_labels)


def _forward_order(order: list) -> list:
    """``order`` (parents before children) with each leaf moved to just before its first consumer:
    X, W1, b1, Linear 1, Tanh 1, W2, ... reads layer by layer."""
    result, placed = [], set()
    for t in order:
        if not t._prev:
            continue
        for parent in t._prev:
            if not parent._prev and id(parent) not in placed:
                placed.add(id(parent))
                result.append(parent)
        result.append(t)
    return result or order  # a loss that is itself a leaf: nothing to reorder


def _value_lines(data: np.ndarray) -> str:
    if data.size == 1:
        return f"value: {format_number(float(data.reshape(())))}"
    if data.size <= 4:
        return f"value: {describe(data)}\n{statistics(data)}"
    return f"value: {statistics(data)}"


def _frames(order, ids, nodes, edges, loss, retain_graph: bool):
    tracker = DisplayTracker(nodes)
    shown, change = tracker.shown, tracker.change
    frames: list[Frame] = []
    operand_wires: dict[str, list[Edge]] = {n: [] for n in nodes}
    for edge in edges:
        operand_wires[edge.target].append(edge)

    for t in order:  # forward: values appear in topological order
        node = nodes[ids[id(t)]]
        if not t._prev:
            title = f"{node.title}: {shape_text(node.shape)} {node.kind}"
            explanation = f"Forward: {node.title} is {node.description}.\nshape {node.shape}\n{_value_lines(t.data)}"
        else:
            operands = [nodes[ids[id(p)]].title for p in t._prev]
            formula = _info(t.op, len(t._prev)).formula.format(*operands)
            shapes = ", ".join(shape_text(p.shape) for p in t._prev)
            title = f"{node.title} = {formula}  [{shape_text(node.shape)}]"
            explanation = (f"Forward: {node.title} = {formula}\nshapes {shapes} → {shape_text(node.shape)}\n"
                           f"{_value_lines(t.data)}")
        frame = Frame("forward", node.id, title, explanation, wires=tuple(operand_wires[node.id]))
        change(frame, node.id, "state", NodeState.COMPUTED)
        change(frame, node.id, "value", t.data)
        frames.append(frame)

    output = nodes[ids[id(loss)]]
    frame = Frame("seed", output.id, f"seed: d({output.title})/d({output.title}) = 1",
                  f"Backward starts at the {output.title}: d({output.title})/d({output.title}) = 1.\n"
                  "Each step multiplies the gradient g that reached a node by that node's local "
                  "derivative and hands the result to one of its inputs.")
    change(frame, output.id, "grad", np.ones(()))
    change(frame, output.id, "state", NodeState.READY)
    frames.append(frame)

    consumers = Counter(edge.source for edge in edges)
    received: Counter = Counter()
    wire_labels: dict[Edge, float] = {}
    current = None
    for step in loss.backward_steps(retain_graph=retain_graph):  # the engine's own steps
        node, parent = nodes[ids[id(step.node)]], nodes[ids[id(step.parent)]]
        edge = Edge(parent.id, node.id, step.index)
        info = _info(step.node.op, len(step.node._prev))
        operands = [nodes[ids[id(operand)]].title for operand in step.node._prev]
        port, rule = node.port_names[step.index], rule_text(info, step.index, operands)
        contribution = np.asarray(step.contribution)
        summed = (step.node.op in ELEMENTWISE and np.shape(step.upstream) != contribution.shape)
        previous = shown[parent.id].grad
        if previous is None:
            total_line = f"{parent.title}.grad = {describe(step.total)}"
        else:
            total_line = f"{parent.title}.grad: {describe(previous)} + this = {describe(step.total)}"
        if summed:  # NumPy broadcast the operand: say over which axes its gradient was summed back
            said = broadcast_text(parent.title, contribution.shape, np.shape(step.upstream))
            total_line = f"{said}\n{total_line}" if said else total_line
        if consumers[parent.id] > 1:
            total_line += f"\n({parent.title} is used {consumers[parent.id]} times: contributions add up)"
        explanation = (f"{node.title} hands its gradient to {parent.title} (input '{port}')\n"
                       f"g = d(loss)/d({node.title}): {describe(step.upstream)}\n"
                       f"contribution = {rule}" + (", summed over the broadcast axes" if summed else "") +
                       f"\n  = {describe(contribution)}\n{total_line}")
        frame = Frame("backward", node.id, f"{node.title} → {parent.title}: {describe(contribution)}", explanation,
                      edge, (edge,))
        if current != node.id:
            if current is not None:
                change(frame, current, "state", NodeState.DONE)
            current = node.id
        change(frame, node.id, "state", NodeState.PROCESSING)
        change(frame, parent.id, "grad", step.total)
        received[parent.id] += 1
        complete = received[parent.id] == consumers[parent.id]
        change(frame, parent.id, "state", NodeState.READY if complete else NodeState.RECEIVING)
        wire_labels[edge] = float(contribution.reshape(-1)[0]) if contribution.size == 1 else norm(contribution)
        frames.append(frame)
    if current is not None:
        frame = frames[-1]
        change(frame, current, "state", NodeState.DONE)
        for node_id, state in shown.items():  # the leaves have nothing to pass on: done once their gradient is ready
            if state.state is NodeState.READY and not operand_wires[node_id]:
                change(frame, node_id, "state", NodeState.DONE)
    return frames, tracker.initial(), wire_labels
