"""Tensor engine against PyTorch on small training steps, where the cost per op decides.

Three steps on 200 two-moons points (noise 0.1), BCE with logits, Adam lr 0.01, full batch,
float64, PyTorch on the CPU with one thread:

- the MLP 2-16-16-1 with tanh built from ``nn.Linear`` layers (target: ours at most 0.4 of PyTorch's time);
- a drawn graph of tensors: the 2-16-1 tanh network written op by op, ``tanh(X @ W1 + b1) @ W2 + b2``;
- a drawn graph of scalars: the same 2-16-1 network written neuron by neuron with 0-d parameters,
  ``tanh(x1 * w1 + x2 * w2 + b)`` over the 200 points, as a student wires a graph in the editor.

Both engines run the same number of steps from the same weights in this process; we print
median step times, their ratio, and how far the two models drifted apart.

Run: .venv/bin/python bench/tensor_small_vs_torch.py [steps]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import torch

import engine
from engine.data import make_moons
from engine.nn import Linear, Sequential, Tanh
from engine.nn import functional as F
from engine.optim import Adam

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
HIDDEN = 16


def time_steps(step) -> list[float]:
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def training_step(forward, loss_function, target, optimizer):
    """One full-batch step: the loss of ``forward()``, its gradient, Adam's update."""

    def step():
        loss = loss_function(forward(), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    return step


def compare(title: str, ours_step, theirs_step, ours_params: list, theirs_params: list, target: str = "") -> None:
    """Time both steps (ours first, then PyTorch's) and print the medians, the ratio and the drift."""
    ours_us = 1e6 * statistics.median(time_steps(ours_step))
    theirs_us = 1e6 * statistics.median(time_steps(theirs_step))
    drift = max(np.max(np.abs(ours.data - theirs.detach().numpy())) for ours, theirs in zip(ours_params, theirs_params))
    print(f"{title}, {STEPS} steps each, median:")
    print(f"  engine.Tensor     {ours_us:8.1f} us")
    print(f"  PyTorch, 1 thread {theirs_us:8.1f} us   ({torch.__version__})")
    print(f"  ratio ours/PyTorch {ours_us / theirs_us:6.2f}{f'   (target: {target})' if target else ''}")
    print(f"  largest parameter difference after {STEPS} steps: {drift:.2e}")


def layers_step(X, targets) -> None:
    """The 2-16-16-1 MLP of ``nn.Linear`` layers."""
    engine.manual_seed(0)
    ours = Sequential(Linear(2, HIDDEN), Tanh(), Linear(HIDDEN, HIDDEN), Tanh(), Linear(HIDDEN, 1))
    theirs = torch.nn.Sequential(torch.nn.Linear(2, HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, HIDDEN),
                                 torch.nn.Tanh(), torch.nn.Linear(HIDDEN, 1)).double()
    theirs.load_state_dict({name: torch.from_numpy(data.copy()) for name, data in ours.state_dict().items()})
    ours_X, ours_y = engine.Tensor(X), engine.Tensor(targets)
    theirs_X, theirs_y = torch.from_numpy(X), torch.from_numpy(targets)
    compare(
        f"two-moons Adam step (2-{HIDDEN}-{HIDDEN}-1 tanh of nn.Linear, 200 points, float64)",
        training_step(lambda: ours(ours_X), F.binary_cross_entropy_with_logits, ours_y,
                      Adam(ours.parameters(), lr=0.01)),
        training_step(lambda: theirs(theirs_X), torch.nn.functional.binary_cross_entropy_with_logits, theirs_y,
                      torch.optim.Adam(theirs.parameters(), lr=0.01)),
        ours.parameters(), list(theirs.parameters()), target="at most 0.4",
    )


def both(arrays: list[np.ndarray]) -> tuple[list[engine.Tensor], list[torch.Tensor]]:
    """The same starting parameters as engine tensors and as torch tensors."""
    ours = [engine.Tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]
    return ours, theirs


def drawn_tensors_step(X, targets) -> None:
    """The 2-16-1 network written op by op with tensor parameters, as the editor builds it."""

    def forward(X, W1, b1, W2, b2):
        return (X @ W1 + b1).tanh() @ W2 + b2

    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-0.7, 0.7, (2, HIDDEN)), rng.uniform(-0.7, 0.7, HIDDEN),
              rng.uniform(-0.25, 0.25, (HIDDEN, 1)), rng.uniform(-0.25, 0.25, 1)]
    ours, theirs = both(arrays)
    ours_X, ours_y = engine.Tensor(X), engine.Tensor(targets)
    theirs_X, theirs_y = torch.from_numpy(X), torch.from_numpy(targets)
    compare(
        f"drawn graph of tensors (tanh(X @ W1 + b1) @ W2 + b2, 2-{HIDDEN}-1), Adam step",
        training_step(lambda: forward(ours_X, *ours), F.binary_cross_entropy_with_logits, ours_y,
                      Adam(ours, lr=0.01)),
        training_step(lambda: forward(theirs_X, *theirs), torch.nn.functional.binary_cross_entropy_with_logits,
                      theirs_y, torch.optim.Adam(theirs, lr=0.01)),
        ours, theirs,
    )


def drawn_scalars_step(X, y) -> None:
    """The 2-16-1 network written neuron by neuron with 0-d parameters: ``tanh(x1 w1 + x2 w2 + b)``
    per hidden neuron, ``sum of h v + c`` for the output (5 ops a hidden neuron, 2 the output's each)."""

    def forward(x1, x2, params):  # params: w1, w2, b, v of each hidden neuron, then c
        z = params[-1]
        for neuron in range(HIDDEN):
            w1, w2, b, v = params[4 * neuron:4 * neuron + 4]
            z = z + (x1 * w1 + x2 * w2 + b).tanh() * v
        return z

    rng = np.random.default_rng(0)
    arrays = [np.array(rng.uniform(-0.7, 0.7)) for _ in range(4 * HIDDEN + 1)]
    ours, theirs = both(arrays)
    ours_x1, ours_x2, ours_y = engine.Tensor(X[:, 0]), engine.Tensor(X[:, 1]), engine.Tensor(y)
    theirs_x1, theirs_x2, theirs_y = torch.from_numpy(X[:, 0].copy()), torch.from_numpy(X[:, 1].copy()), \
        torch.from_numpy(y)
    compare(
        f"drawn graph of scalars (tanh(x1 * w1 + x2 * w2 + b) per neuron, 2-{HIDDEN}-1, "
        f"{len(arrays)} 0-d parameters), Adam step",
        training_step(lambda: forward(ours_x1, ours_x2, ours), F.binary_cross_entropy_with_logits, ours_y,
                      Adam(ours, lr=0.01)),
        training_step(lambda: forward(theirs_x1, theirs_x2, theirs),
                      torch.nn.functional.binary_cross_entropy_with_logits, theirs_y,
                      torch.optim.Adam(theirs, lr=0.01)),
        ours, theirs,
    )


def main() -> None:
    torch.set_num_threads(1)
    X, y = make_moons(n_samples=200, noise=0.1, random_state=0)
    y = y.astype(np.float64)
    layers_step(X, y.reshape(-1, 1))
    drawn_tensors_step(X, y.reshape(-1, 1))
    drawn_scalars_step(X, y)


if __name__ == "__main__":
    main()
