"""The animator's tensor timeline replays the engine's backward pass through a network, layer by layer."""

from __future__ import annotations

from copy import deepcopy

import numpy as np
import pytest

from engine import Tensor
from engine.nn import Linear, Module, ReLU, Sequential
from engine.train import binary_loss
from playground.animator.model.tensor_timeline import tensor_animation
from playground.animator.model.timeline import NodeState
from playground.training.model.session import TrainingSession, TrainingSettings, network_snapshot


def default_snapshot(**settings):
    session = TrainingSession(TrainingSettings(**settings))
    session.train_steps(30)
    return network_snapshot(session.settings, session.state_dict(), session.step, session.data)


def by_title(animation, title):
    return next(node for node in animation.nodes.values() if node.title == title)


def engine_gradients(snapshot):
    """What one plain ``loss.backward()`` gives each parameter, on a copy of the network."""
    copy = deepcopy(snapshot.model)
    loss = snapshot.loss_fn(copy(Tensor(snapshot.X)), snapshot.y)
    loss.backward()
    return {name: p.grad for name, p in copy.named_parameters()}, loss.item()


def test_the_default_network_is_named_layer_by_layer_with_shapes():
    snapshot = default_snapshot()
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    n = len(snapshot.X)
    titles = [node.title for node in animation.nodes.values()]
    assert titles == ["X", "W1", "b1", "Linear 1", "Tanh 1", "W2", "b2", "Linear 2", "Tanh 2", "W3", "b3",
                      "Linear 3", "y", "loss"]
    assert by_title(animation, "X").shape == (n, 2) and not by_title(animation, "X").requires_grad
    assert by_title(animation, "W1").shape == (16, 2) and by_title(animation, "W1").kind == "weight"
    assert by_title(animation, "Linear 2").shape == (n, 16) and by_title(animation, "Linear 2").kind == "linear"
    assert by_title(animation, "Linear 1").port_names == ("x", "W", "b")
    assert by_title(animation, "loss").shape == () and animation.output == by_title(animation, "loss").id
    linear3 = by_title(animation, "Linear 3")
    operands = sorted((e.port, animation.node(e.source).title) for e in animation.edges if e.target == linear3.id)
    assert operands == [(0, "Tanh 2"), (1, "W3"), (2, "b3")]
    # laid out left to right: every wire runs rightwards
    assert all(animation.node(e.source).x < animation.node(e.target).x for e in animation.edges)


def test_one_backward_frame_per_engine_step_and_the_final_gradients_are_the_engines():
    snapshot = default_snapshot()
    expected, loss = engine_gradients(snapshot)
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    frames = animation.timeline.frames
    assert [f.phase for f in frames[:14]] == ["forward"] * 14 and frames[14].phase == "seed"
    backward = [f for f in frames if f.phase == "backward"]
    assert len(backward) == 11  # loss→Linear 3; each Linear to its input (but X), W and b; each Tanh to its Linear
    animation.timeline.seek(len(animation.timeline))
    display = animation.timeline.display
    names = {"W1": "0.weight", "b1": "0.bias", "W2": "2.weight", "b2": "2.bias", "W3": "4.weight", "b3": "4.bias"}
    for title, name in names.items():
        node = by_title(animation, title)
        assert np.array_equal(display[node.id].grad, expected[name]), title
        assert display[node.id].state is NodeState.DONE
    assert float(display[animation.output].value) == loss
    x, y = by_title(animation, "X"), by_title(animation, "y")
    assert display[x.id].grad is None and display[x.id].state is NodeState.COMPUTED  # no gradient needed
    assert display[y.id].grad is None


def test_stepping_to_the_end_and_back_restores_every_display():
    snapshot = default_snapshot()
    timeline = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y).timeline

    def shown():
        return {k: (v.state, id(v.value) if v.value is not None else None, id(v.grad) if v.grad is not None else None)
                for k, v in timeline.display.items()}

    states = [shown()]
    while timeline.step_forward():
        states.append(shown())
    while timeline.step_back():
        assert shown() == states[timeline.position]
    assert all(s.state is NodeState.NOT_REACHED and s.value is None for s in timeline.display.values())


def test_a_step_explains_the_rule_with_shapes_and_norms():
    snapshot = default_snapshot()
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    w2 = by_title(animation, "W2")
    frame = next(f for f in animation.timeline.frames if f.phase == "backward" and f.edge.source == w2.id)
    assert frame.title.startswith("Linear 2 → W2: 16×16, ‖·‖ = ")
    assert "input 'W'" in frame.explanation and "contribution = gᵀ · Tanh 1" in frame.explanation
    assert f"g = d(loss)/d(Linear 2): {len(snapshot.X)}×16, ‖·‖ = " in frame.explanation
    assert frame.wires == (frame.edge,)
    b3 = by_title(animation, "b3")
    frame = next(f for f in animation.timeline.frames if f.phase == "backward" and f.edge.source == b3.id)
    assert "g summed over the batch" in frame.explanation and "b3.grad = [" in frame.explanation
    forward = next(f for f in animation.timeline.frames if f.node_id == by_title(animation, "Linear 1").id)
    assert forward.title.startswith("Linear 1 = X · W1ᵀ + b1")
    assert len(forward.wires) == 3


def test_card_lines_show_shape_and_norms():
    snapshot = default_snapshot()
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    timeline = animation.timeline
    timeline.seek(len(timeline))
    w1 = by_title(animation, "W1")
    state = timeline.display[w1.id]
    assert animation.node_lines(w1.id, state) == [
        "shape 16×2", f"‖value‖ {np.linalg.norm(state.value):.4g}", f"‖grad‖ {np.linalg.norm(state.grad):.4g}"]
    x = by_title(animation, "X")
    assert animation.node_lines(x.id, timeline.display[x.id])[-1] == "grad not needed"
    loss = animation.output
    assert animation.node_lines(loss, timeline.display[loss])[1:] == [
        f"value {float(timeline.display[loss].value):.4g}", "grad 1"]


def test_a_loss_made_of_several_ops_names_each_and_its_constants():
    snapshot = default_snapshot(loss="hinge")
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    titles = [node.title for node in animation.nodes.values()]
    assert titles[-6:] == ["y", "loss₁", "1", "loss₂", "loss₃", "loss"]
    assert [by_title(animation, t).kind for t in ("loss₁", "loss₂", "loss₃")] == ["mul", "sub", "relu"]
    forward = next(f for f in animation.timeline.frames if f.node_id == by_title(animation, "loss₂").id)
    assert forward.title.startswith("loss₂ = 1 − loss₁")
    assert by_title(animation, "1").kind == "constant" and by_title(animation, "loss").kind == "mean"


class Scale(Module):
    """Multiplies every point by one learned row: its gradient is summed over the batch by broadcasting."""

    def __init__(self, features: int):
        self.scale = Tensor(np.linspace(0.5, 1.5, features).reshape(1, features), requires_grad=True)

    def forward(self, x):
        return x * self.scale


def test_broadcasting_is_named_and_a_reused_node_adds_up():
    scale = Scale(2)
    model = Sequential(scale, Linear(2, 3), ReLU(), Linear(3, 1))
    X = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])
    y = np.array([0, 1, 1])

    def loss_fn(logits, labels):  # logits used twice: their gradient has two contributions
        return binary_loss("bce")(logits, labels) + (logits * logits).mean()

    animation = tensor_animation(model, loss_fn, X, y)
    node = next(n for n in animation.nodes.values() if n.kind == "mul" and n.title.startswith("Scale"))
    step = next(f for f in animation.timeline.frames if f.phase == "backward" and f.node_id == node.id
                and animation.node(f.edge.source).shape == (1, 2))
    assert "g ⊙ X, summed over the broadcast axes" in step.explanation
    logits = by_title(animation, "Linear 2")
    into_logits = [f for f in animation.timeline.frames if f.phase == "backward" and f.edge.source == logits.id]
    assert len(into_logits) == 3  # from the BCE and from both operands of logits * logits
    assert "used 3 times: contributions add up" in into_logits[-1].explanation
    animation.timeline.seek(len(animation.timeline))
    reference = Sequential(Scale(2), Linear(2, 3), ReLU(), Linear(3, 1))
    reference.load_state_dict(model.state_dict())
    loss_fn(reference(Tensor(X)), y).backward()
    assert np.array_equal(animation.timeline.display[by_title(animation, "W1").id].grad,
                          reference[1].weight.grad)
    scale_leaf = next(n for n in animation.nodes.values() if n.shape == (1, 2))
    assert np.array_equal(animation.timeline.display[scale_leaf.id].grad, reference[0].scale.grad)


def test_a_loss_that_is_not_one_number_is_refused():
    model = Sequential(Linear(2, 1))
    with pytest.raises(ValueError, match="single number"):
        tensor_animation(model, lambda logits, y: logits * 2.0, np.zeros((4, 2)), np.zeros(4))


def test_a_batch_size_takes_the_first_training_points():
    snapshot = default_snapshot(batch_size=16)
    assert snapshot.X.shape == (16, 2) and "a batch of 16 training points" in snapshot.description
    assert "2 → 16 → 16 → 1 network at step 30" in snapshot.description


def test_step_text_shows_short_numbers_and_tooltips_every_digit():
    snapshot = default_snapshot()
    animation = tensor_animation(snapshot.model, snapshot.loss_fn, snapshot.X, snapshot.y)
    loss = animation.output
    value = float(snapshot.loss_fn(snapshot.model(Tensor(snapshot.X)), snapshot.y).item())
    forward = next(f for f in animation.timeline.frames if f.phase == "forward" and f.node_id == loss)
    text = forward.title + "\n" + forward.explanation
    assert repr(value) not in text  # not 0.660016975203545
    animation.timeline.seek(len(animation.timeline))
    assert repr(value) in animation.node_tooltip(loss, animation.timeline.display[loss])
