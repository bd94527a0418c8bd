"""The numbers a lesson states, from the engine: a step's graph or small network, evaluated.

Qt-free. A lesson never types a computed number by hand: its text says ``{L}`` or ``{a.grad}``
and `GraphFacts` reads them from the engine's evaluation of the step's graph (the same numbers
the editor and the animator show). `NetworkFacts` does the same for a small tensor network on
a few points of two moons, replayed with the animator's own tensor timeline.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine import paths
from engine.data import make_moons
from engine.nn import Linear, Sequential, Tanh
from engine.nn.functional import binary_cross_entropy_with_logits

from ...animator.model.forward_timeline import ForwardAnimation, inputs_of, work_of_graph
from ...animator.model.tensor_timeline import TensorAnimation, describe, shape_text, tensor_animation
from ...animator.model.timeline import Timeline, terms
from ...common.numbers import format_number
from ...graph.document import GraphDocument, is_bare_constant
from ...graph.evaluate import Evaluation, evaluate


class GraphFacts:
    """A step's graph document with its values, gradients and animator positions."""

    def __init__(self, document: GraphDocument):
        self.document = document
        self.evaluation: Evaluation = evaluate(document)
        output = document.effective_output()
        if output is None:
            raise ValueError("the graph is empty")
        if output not in self.evaluation.values:
            raise ValueError(self.evaluation.incomplete[0] if self.evaluation.incomplete else "no output")
        self.output = output
        self.timeline = Timeline.of_document(document, self.evaluation)
        self._ids = {name: node_id for node_id, name in document.names().items()}
        self._terms = terms(document)

    def names(self) -> list[str]:
        return list(self._ids)

    def node_id(self, name: str) -> str | None:
        return self._ids.get(name)

    def name(self, node_id: str) -> str:
        return self.document.name(node_id)

    def term(self, node_id: str) -> str:
        """How a formula writes the node: its name, or its number for a bare constant (the 3 of 3*x)."""
        return self._terms[node_id]

    def value(self, node_id: str) -> float:
        return self.evaluation.results[node_id].value

    def grad(self, node_id: str) -> float:
        return self.evaluation.results[node_id].grad

    @property
    def forward_frames(self) -> int:
        return sum(frame.phase == "forward" for frame in self.timeline.frames)

    @property
    def frame_count(self) -> int:
        return len(self.timeline)

    def forward_order(self) -> list[str]:
        """The computed (not leaf) nodes, in the order the forward pass computes them."""
        return [frame.node_id for frame in self.timeline.frames
                if frame.phase == "forward" and not self.document.node(frame.node_id).is_leaf]

    def backward_order(self) -> list[str]:
        """Every node but the output and the bare constants (nobody asks for the gradient of a 3), in the
        order the backward pass completes its gradient."""
        return [node_id for node_id in self._completions() if not is_bare_constant(self.document, node_id)]

    def value_position(self, node_id: str) -> int | None:
        """The animator's position just after ``node_id``'s value is computed."""
        return next((i + 1 for i, frame in enumerate(self.timeline.frames)
                     if frame.phase == "forward" and frame.node_id == node_id), None)

    def grad_position(self, node_id: str) -> int | None:
        """The animator's position once ``node_id``'s gradient is complete (the seed for the output)."""
        if node_id == self.output:
            return self.forward_frames + 1
        return self._completions().get(node_id)

    def _completions(self) -> dict[str, int]:
        consumers = Counter(frame.step.parent for frame in self.timeline.frames if frame.step is not None)
        received: Counter = Counter()
        done = {}
        for position, frame in enumerate(self.timeline.frames, start=1):
            if frame.step is not None:
                received[frame.step.parent] += 1
                if received[frame.step.parent] == consumers[frame.step.parent]:
                    done[frame.step.parent] = position
        return done

    def number(self, name: str) -> str:
        """``L`` (a value) or ``a.grad`` (a gradient), written as the app writes numbers; ``y.change(x=1)``
        (how much y moves when the input x is moved by 1, measured by evaluating again) and
        ``y.predicted(x=1)`` (what the gradient predicts for it: x.grad × 1, y the output); ``a.paths``, how many
        paths lead from the output to a; KeyError if unknown."""
        nudge = _NUDGE.fullmatch(name)
        if nudge is not None:
            return format_number(self._nudged(*nudge.groups()))
        tangent = _TANGENT.fullmatch(name)
        if tangent is not None:
            return format_number(self.tangent(*tangent.groups()))
        if name in _WORK:  # forward mode's passes and edges against reverse mode's (`work_of_graph`)
            return f"{getattr(work_of_graph(self.document), _WORK[name]):,}"
        node_name, _dot, what = name.rpartition(".") if name.endswith((".grad", ".paths")) else (name, "", "")
        node_id = self.node_id(node_name)
        if node_id is None:
            raise KeyError(f"the graph has no node named '{node_name}' (it has {', '.join(self.names())})")
        if what == "paths":  # as many as the Why this gradient? list shows
            return str(self.path_count(node_id))
        if what == "grad":
            return format_number(self.grad(node_id))
        return format_number(self.value(node_id))

    def path_count(self, node_id: str) -> int:
        """``a.paths``: how many paths lead from the output down to the node (`engine.paths`, as the side panel's
        Why this gradient? list counts them)."""
        values = self.evaluation.values
        return paths(values[self.output], values[node_id], largest=1).count

    def tangent(self, node_name: str, input_name: str) -> float:
        """``t1.tangent(a)``: the node's tangent in forward mode along the input (∂t1/∂a), from
        `engine.forward_steps` as the animator's forward mode shows it."""
        node_id, input_id = self.node_id(node_name), self.node_id(input_name)
        if node_id is None or input_id is None:
            missing = node_name if node_id is None else input_name
            raise KeyError(f"the graph has no node named '{missing}' (it has {', '.join(self.names())})")
        if input_id not in inputs_of(self.document):
            raise KeyError(f"'{input_name}' is not an input the output depends on: forward mode cannot start there")
        return ForwardAnimation(self.document, input_id).tangents[node_id]

    def _nudged(self, node_name: str, what: str, input_name: str, step: str) -> float:
        node_id, input_id = self.node_id(node_name), self.node_id(input_name)
        if node_id is None or input_id is None:
            missing = node_name if node_id is None else input_name
            raise KeyError(f"the graph has no node named '{missing}' (it has {', '.join(self.names())})")
        if not self.document.node(input_id).is_leaf:
            raise KeyError(f"'{input_name}' is computed: only an input can be moved")
        h = float(step)
        if what == "predicted":
            if node_id != self.output:
                raise KeyError(f"the gradients are of the output, {self.name(self.output)}: predict its change")
            return self.grad(input_id) * h
        moved = self.document.copy()
        moved.set_value(input_id, self.document.node(input_id).value + h)
        result = evaluate(moved).results.get(node_id)
        if result is None or result.value is None:
            raise KeyError(f"{node_name} cannot be computed with {input_name} moved by {step}")
        return result.value - self.value(node_id)


_TANGENT = re.compile(r"([A-Za-z_]\w*)\.tangent\(\s*([A-Za-z_]\w*)\s*\)")
_WORK = {"forward.passes": "inputs", "forward.edges": "forward_edges", "backward.edges": "backward_edges"}
_NUDGE = re.compile(r"([A-Za-z_]\w*)\.(change|predicted)\(\s*([A-Za-z_]\w*)\s*=\s*([-+]?\d+(?:\.\d+)?)\s*\)")


@dataclass(frozen=True)
class NetworkSpec:
    """A small network for the tensor-level animator: 2 inputs, ``hidden`` tanh units, 1 output, on
    the first ``points`` points of two moons (noise 0.1) drawn with ``seed``."""

    hidden: int = 3
    points: int = 4
    seed: int = 0

    def __post_init__(self):
        for name, low, high in (("hidden", 1, 8), ("points", 2, 32), ("seed", 0, 2**31 - 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")

    def build(self):
        """A fresh model, loss function, batch and description (the animator fills the model's grads)."""
        rng = np.random.default_rng([self.seed, 2024])
        model = Sequential(Linear(2, self.hidden), Tanh(), Linear(self.hidden, 1))
        for layer in (model.modules[0], model.modules[2]):  # PyTorch's default, from our own generator
            bound = 1.0 / math.sqrt(layer.in_features)
            layer.weight.data[...] = rng.uniform(-bound, bound, layer.weight.shape)
            layer.bias.data[...] = rng.uniform(-bound, bound, layer.bias.shape)
        X, y = make_moons(self.points, noise=0.1, random_state=self.seed)
        targets = np.asarray(y, dtype=np.float64).reshape(-1, 1)
        description = (f"a 2 → {self.hidden} → 1 network on a batch of {self.points} points "
                       "(binary cross-entropy)")
        return model, binary_cross_entropy_with_logits, np.asarray(X, dtype=np.float64), targets, description


class NetworkFacts:
    """A small network's tensors after one forward and backward pass: values, gradients, shapes by title."""

    def __init__(self, spec: NetworkSpec):
        self.spec = spec
        model, loss_fn, X, y, self.description = spec.build()
        self.animation: TensorAnimation = tensor_animation(model, loss_fn, X, y)
        timeline = self.animation.timeline
        timeline.seek(len(timeline))
        self._by_title = {node.title: node.id for node in self.animation.nodes.values()}
        self.display = {node_id: (state.value, state.grad) for node_id, state in timeline.display.items()}
        timeline.seek(0)

    @property
    def forward_frames(self) -> int:
        return sum(frame.phase == "forward" for frame in self.animation.timeline.frames)

    @property
    def frame_count(self) -> int:
        return len(self.animation.timeline)

    def names(self) -> list[str]:
        return list(self._by_title)

    def value_position(self, name: str) -> int | None:
        """The animator's position just after the forward step that computes the tensor ``name`` (None: none)."""
        node_id = self._by_title.get(name)
        return next((position for position, frame in enumerate(self.animation.timeline.frames, start=1)
                     if frame.phase == "forward" and frame.node_id == node_id), None)

    def array(self, name: str) -> np.ndarray:
        """``b1`` (a value), ``b1.grad``, ``Linear 1.grad.sum(0)`` (summed over the batch) as an array
        (`number` also knows ``b1.size``, ``hidden`` and ``points``)."""
        base, what = name, ""
        for suffix in (".grad.sum(0)", ".grad", ".shape"):
            if name.endswith(suffix):
                base, what = name[: -len(suffix)], suffix
                break
        node_id = self._by_title.get(base)
        if node_id is None:
            raise KeyError(f"the network has no tensor named '{base}' (it has {', '.join(self.names())})")
        value, grad = self.display[node_id]
        if what == ".shape":
            return np.asarray(self.animation.nodes[node_id].shape)
        if what and grad is None:
            raise KeyError(f"'{base}' gets no gradient")
        if what == ".grad.sum(0)":
            return np.asarray(grad).sum(axis=0)
        return np.asarray(grad if what == ".grad" else value)

    def number(self, name: str) -> str:
        if name in ("hidden", "points"):  # the network's size, as the lesson's 'network:' line set it
            return str(getattr(self.spec, name))
        if name.endswith(".size"):  # how many numbers a tensor holds
            return str(self.array(name[: -len(".size")]).size)
        array = self.array(name)
        if name.endswith(".shape"):
            return shape_text(tuple(int(n) for n in array))
        return describe(array, limit=8)


Facts = GraphFacts | NetworkFacts
