"""Scalar engine against micrograd 0.1.0 on micrograd's own demo training step.

The step (micrograd's demo.ipynb): MLP 2-16-16-1 with ReLU and a linear output, 100 moon
points, SVM hinge loss + 1e-4 L2, plain SGD. Both engines run the same number of steps,
one after the other, in this process; we print the median step times, their ratio, and
the graph memory per node (tracemalloc, one forward pass).

Run: .venv/bin/python bench/scalar_vs_micrograd.py [steps]
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
import tracemalloc

import micrograd.engine
import micrograd.nn

import engine
from engine.data import make_moons
from engine.nn import MLP, Neuron

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10


class ChainedNeuron(Neuron):
    """Our neuron with micrograd's graph shape: b + w1*x1 + ... as a chain of binary adds."""

    def forward(self, x):
        total = self.b
        for wi, xi in zip(self.w, x):
            total = total + wi * xi
        return total.relu() if self.activation == "relu" else total


def chained_copy(model: MLP) -> MLP:
    for layer in model.layers:
        for neuron in layer.neurons:
            neuron.__class__ = ChainedNeuron
    return model


def demo_loss(model, value_type, X, y):
    """micrograd's demo loss, written once for both engines."""
    inputs = [[value_type(float(a)), value_type(float(b))] for a, b in X]
    scores = [model(x) for x in inputs]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    return data_loss + reg_loss, scores


def train_step(model, value_type, X, y, k):
    total, _ = demo_loss(model, value_type, X, y)
    model.zero_grad()
    total.backward()
    learning_rate = 1.0 - 0.9 * k / 100
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    return total.data


def time_steps(model, value_type, X, y) -> list[float]:
    gc.collect()
    times = []
    for k in range(STEPS):
        start = time.perf_counter()
        train_step(model, value_type, X, y, k)
        times.append(time.perf_counter() - start)
    return times


def count_nodes(root) -> int:
    seen, stack = {id(root)}, [root]
    while stack:
        node = stack.pop()
        for parent in node._prev:
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return len(seen)


def bytes_per_node(model, value_type, X, y) -> float:
    gc.collect()
    tracemalloc.start()
    total, _ = demo_loss(model, value_type, X, y)
    total.backward()
    allocated, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return allocated / count_nodes(total)


def main() -> None:
    X, y = make_moons(n_samples=100, noise=0.1, random_state=1)
    y = [2.0 * label - 1.0 for label in y]  # labels -1 / +1 for the hinge loss

    engine.manual_seed(1337)
    ours = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    random.seed(1337)
    theirs = micrograd.nn.MLP(2, [16, 16, 1])
    # Same starting weights, so both take the same steps.
    for p, q in zip(ours.parameters(), theirs.parameters()):
        q.data = p.data

    engine.manual_seed(1337)
    ours_chained = chained_copy(MLP(2, [16, 16, 1], activation="relu", linear_output=True))

    ms = {}
    for name, model, value_type in (
        ("engine.Value", ours, engine.Value),
        ("engine.Value, chained +", ours_chained, engine.Value),
        ("micrograd 0.1.0", theirs, micrograd.engine.Value),
    ):
        ms[name] = 1e3 * statistics.median(time_steps(model, value_type, X, y))
    nodes = {
        "engine.Value": count_nodes(demo_loss(ours, engine.Value, X, y)[0]),
        "micrograd 0.1.0": count_nodes(demo_loss(theirs, micrograd.engine.Value, X, y)[0]),
    }
    ours_bytes = bytes_per_node(ours, engine.Value, X, y)
    chained_bytes = bytes_per_node(ours_chained, engine.Value, X, y)
    theirs_bytes = bytes_per_node(theirs, micrograd.engine.Value, X, y)

    mg = ms["micrograd 0.1.0"]
    print(f"micrograd's demo step, {STEPS} steps each, median time:")
    print(f"  micrograd 0.1.0            {mg:8.1f} ms   {nodes['micrograd 0.1.0']} nodes per step")
    print(f"  engine.Value               {ms['engine.Value']:8.1f} ms   {nodes['engine.Value']} nodes per step"
          " (a neuron's weighted sum is one n-ary sum node)")
    print(f"  engine.Value, chained +    {ms['engine.Value, chained +']:8.1f} ms   micrograd's graph shape")
    print(f"  speed-up                   {mg / ms['engine.Value']:8.1f} x    (target: at least 10 x)")
    print(f"  speed-up, same graph shape {mg / ms['engine.Value, chained +']:8.1f} x")
    print("graph memory per node (forward + backward, tracemalloc):")
    print(f"  micrograd 0.1.0            {theirs_bytes:8.0f} B")
    print(f"  engine.Value               {ours_bytes:8.0f} B   ratio {ours_bytes / theirs_bytes:.2f}"
          " (target: at most 0.33)")
    print(f"  engine.Value, chained +    {chained_bytes:8.0f} B   ratio {chained_bytes / theirs_bytes:.2f}")


if __name__ == "__main__":
    main()
