"""Scalar engine against micrograd 0.1.0 on micrograd's own demo training step.

The step (micrograd's demo.ipynb): MLP 2-16-16-1 with ReLU and a linear output, 100 moon
points, SVM hinge loss + 1e-4 L2, plain SGD. The loss and the update are one function, run
by both engines; what differs is each engine's own `MLP`:

- ``engine.Value``: our MLP, whose neuron computes ``b + w . x`` as one `Value.dot` node;
- ``engine.Value, chained +``: our `Value`s in micrograd's graph shape (``b + w1*x1 + ...``
  as a chain of binary ``*`` and ``+``), to show what the node representation alone buys;
- ``micrograd 0.1.0``: micrograd's MLP and `Value`, as published.

All three start from the same weights and compute the same numbers. Each engine is timed
from a freshly collected heap (so no engine pays for another's garbage), first with the
cyclic garbage collector on (Python's default), then with it off for every engine (what is
left is the work per node); each: 2 warm-up steps, then min / median / max over the timed
steps. Memory: the graph of one step (forward + backward, kept alive) under tracemalloc,
per node and per step.

Run: .venv/bin/python bench/scalar_vs_micrograd.py [steps]   (at least 5; default 7)
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

STEPS = max(5, int(sys.argv[1]) if len(sys.argv) > 1 else 7)
WARMUP = 2
TARGETS = {  # issue 12: speed-up over micrograd (median over median)
    ("ours", True): 10.0,
    ("ours", False): 3.0,
    ("chained", True): 6.0,
}
MEMORY_TARGET = 1 / 3  # bytes per node, ours over micrograd's


class ChainedNeuron(Neuron):
    """Our neuron in micrograd's graph shape: ``b + w1*x1 + ...`` as binary ``*`` and ``+`` nodes."""

    def forward(self, x):
        total = self.b
        for wi, xi in zip(self.w, x):
            total = total + wi * xi
        return total.relu() if self.activation == "relu" else total


def demo_loss(model, value_type, X, y):
    """micrograd's demo loss (demo.ipynb's ``loss()``, whole batch), written once for both engines."""
    inputs = [[value_type(a), value_type(b)] for a, b in X]
    scores = [model(x) for x in inputs]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    accuracy = [(yi > 0) == (si.data > 0) for yi, si in zip(y, scores)]
    return data_loss + reg_loss, sum(accuracy) / len(accuracy)


def train_step(model, value_type, X, y, k) -> float:
    """micrograd's demo step: loss, zero_grad, backward, SGD with a decaying learning rate."""
    total, _ = demo_loss(model, value_type, X, y)
    model.zero_grad()
    total.backward()
    learning_rate = 1.0 - 0.9 * k / 100
    for p in model.parameters():
        p.data -= learning_rate * p.grad
    return total.data


def make_models():
    """The three networks with the same starting weights (micrograd's initialisation drawn by us)."""
    engine.manual_seed(1337)
    ours = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    engine.manual_seed(1337)
    chained = MLP(2, [16, 16, 1], activation="relu", linear_output=True)
    for layer in chained.layers:
        for neuron in layer.neurons:
            neuron.__class__ = ChainedNeuron
    random.seed(1337)
    theirs = micrograd.nn.MLP(2, [16, 16, 1])
    for p, q in zip(ours.parameters(), theirs.parameters()):
        q.data = p.data
    return {"ours": (ours, engine.Value), "chained": (chained, engine.Value),
            "micrograd": (theirs, micrograd.engine.Value)}


def time_steps(model, value_type, X, y, collector_on: bool) -> list[float]:
    """Seconds per step, from a freshly collected heap, with the cyclic collector on or off."""
    gc.enable()
    gc.collect()
    if not collector_on:
        gc.disable()
    try:
        losses, times = [], []
        for k in range(WARMUP + STEPS):
            start = time.perf_counter()
            losses.append(train_step(model, value_type, X, y, k))
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
        gc.collect()  # this engine's garbage is collected here, on nobody's clock
    return times[WARMUP:], losses


def count_nodes(root) -> int:
    seen, stack = {id(root)}, [root]
    while stack:
        for parent in stack.pop()._prev:
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return len(seen)


def graph_memory(model, value_type, X, y) -> tuple[int, int]:
    """Bytes held by one step's graph (forward + backward, still alive) and its node count."""
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        total, _ = demo_loss(model, value_type, X, y)
        total.backward()
        allocated, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        gc.enable()
    return allocated, count_nodes(total)


def main() -> None:
    X, y = make_moons(n_samples=100, noise=0.1, random_state=1)
    X = [(float(a), float(b)) for a, b in X]
    y = [2.0 * label - 1.0 for label in y]  # labels -1 / +1 for the hinge loss
    names = {"micrograd": "micrograd 0.1.0", "ours": "engine.Value", "chained": "engine.Value, chained +"}

    medians = {}
    print(f"micrograd's demo step (2-16-16-1 ReLU MLP, 100 moons, hinge + 1e-4 L2, SGD), python "
          f"{sys.version.split()[0]}; each engine from a collected heap, {WARMUP} warm-up + {STEPS} timed steps")
    for collector_on in (True, False):
        print(f"cyclic garbage collector {'ON (Python default)' if collector_on else 'OFF for every engine'}:"
              "                min   median      max")
        losses = {}
        for key, (model, value_type) in make_models().items():
            times, losses[key] = time_steps(model, value_type, X, y, collector_on)
            ms = [1e3 * t for t in times]
            medians[key, collector_on] = statistics.median(ms)
            print(f"  {names[key]:<26}{min(ms):10.1f}{statistics.median(ms):9.1f}{max(ms):9.1f} ms")
        same = all(abs(a - b) <= 1e-9 * abs(b) for key in ("ours", "chained")
                   for a, b in zip(losses[key], losses["micrograd"]))
        print(f"  same losses as micrograd at every step: {'yes' if same else 'NO'}")
        for key in ("ours", "chained"):
            ratio = medians["micrograd", collector_on] / medians[key, collector_on]
            target = TARGETS.get((key, collector_on))
            verdict = f"   (target: at least {target:g} x) {'OK' if ratio >= target else 'BELOW'}" if target else ""
            print(f"  speed-up, {names[key]:<26}{ratio:6.1f} x{verdict}")

    print("graph of one step (forward + backward, alive), tracemalloc:")
    memory = {key: graph_memory(model, value_type, X, y) for key, (model, value_type) in make_models().items()}
    theirs_per_node = memory["micrograd"][0] / memory["micrograd"][1]
    for key in ("micrograd", "ours", "chained"):
        allocated, nodes = memory[key]
        per_node = allocated / nodes
        ratio = per_node / theirs_per_node
        verdict = (f"   (target: at most {MEMORY_TARGET:.2f}) {'OK' if ratio <= MEMORY_TARGET else 'ABOVE'}"
                   if key == "ours" else "")
        print(f"  {names[key]:<26}{nodes:7d} nodes {allocated / 1e6:6.1f} MB  {per_node:5.0f} B per node"
              f"   ratio {ratio:.2f}{verdict}")
    print("what differs: engine.Value's neuron is one node (Value.dot: b + w . x), micrograd's is 2n binary"
          " nodes; 'chained +' is our engine in micrograd's graph shape. The loss, update and data are the"
          " same code and the same numbers for all three.")


if __name__ == "__main__":
    main()
