"""Tensor engine against PyTorch on the two-moons training step.

The step: 200 two-moons points (noise 0.1), MLP 2-16-16-1 with tanh, BCE with logits,
Adam lr 0.01, full batch, float64, PyTorch on the CPU with one thread. Both run the same
number of steps from the same weights in this process; we print median step times, their
ratio (target: ours at most half of PyTorch's), and how far the two models drifted apart.

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


def time_steps(step) -> list[float]:
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    torch.set_num_threads(1)
    X, y = make_moons(n_samples=200, noise=0.1, random_state=0)
    targets = y.reshape(-1, 1).astype(np.float64)

    engine.manual_seed(0)
    ours = Sequential(Linear(2, 16), Tanh(), Linear(16, 16), Tanh(), Linear(16, 1))
    ours_optimizer = Adam(ours.parameters(), lr=0.01)
    ours_X, ours_y = engine.Tensor(X), engine.Tensor(targets)

    theirs = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.Tanh(),
                                 torch.nn.Linear(16, 1)).double()
    theirs.load_state_dict({name: torch.from_numpy(data.copy()) for name, data in ours.state_dict().items()})
    theirs_optimizer = torch.optim.Adam(theirs.parameters(), lr=0.01)
    theirs_X, theirs_y = torch.from_numpy(X), torch.from_numpy(targets)

    def ours_step():
        loss = F.binary_cross_entropy_with_logits(ours(ours_X), ours_y)
        ours_optimizer.zero_grad()
        loss.backward()
        ours_optimizer.step()

    def theirs_step():
        loss = torch.nn.functional.binary_cross_entropy_with_logits(theirs(theirs_X), theirs_y)
        theirs_optimizer.zero_grad()
        loss.backward()
        theirs_optimizer.step()

    ours_us = 1e6 * statistics.median(time_steps(ours_step))
    theirs_us = 1e6 * statistics.median(time_steps(theirs_step))
    drift = max(np.max(np.abs(ours.state_dict()[name] - p.detach().numpy())) for name, p in theirs.named_parameters())

    print(f"two-moons Adam step (2-16-16-1 tanh, 200 points, float64), {STEPS} steps each, median:")
    print(f"  engine.Tensor     {ours_us:8.1f} us")
    print(f"  PyTorch, 1 thread {theirs_us:8.1f} us   ({torch.__version__})")
    print(f"  ratio ours/PyTorch {ours_us / theirs_us:6.2f}   (target: at most 0.5)")
    print(f"  largest parameter difference after {STEPS} steps: {drift:.2e}")


if __name__ == "__main__":
    main()
