"""Tensor engine against the same math written by hand in numpy, on a large MLP.

The step: MLP 1024-1024-1024-1 with tanh, batch 512, BCE with logits, forward + backward
+ Adam (lr 1e-3), float64. The hand-written version is plain idiomatic numpy. Both run the
same number of steps in this process, alternating, and we print the median times and the
ratio (target: ours at most 1.15 times numpy's).

Run: .venv/bin/python bench/tensor_large_vs_numpy.py [steps]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import engine
from engine.nn import Linear, Sequential, Tanh
from engine.nn import functional as F
from engine.optim import Adam

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
SIZES = [1024, 1024, 1024, 1]
BATCH = 512


class NumpyMLP:
    """Forward, backward and Adam for the same network, by hand."""

    def __init__(self, params: list[np.ndarray], lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params = [p.copy() for p in params]  # W1, b1, W2, b2, W3, b3
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.lr, self.betas, self.eps, self.t = lr, betas, eps, 0

    def step(self, X, y):
        W1, b1, W2, b2, W3, b3 = self.params
        h1 = np.tanh(X @ W1.T + b1)
        h2 = np.tanh(h1 @ W2.T + b2)
        z = h2 @ W3.T + b3
        loss = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))

        dz = (1 / (1 + np.exp(-z)) - y) / z.size
        dW3, db3 = dz.T @ h2, dz.sum(axis=0)
        dh2 = dz @ W3
        dz2 = dh2 * (1 - h2**2)
        dW2, db2 = dz2.T @ h1, dz2.sum(axis=0)
        dh1 = dz2 @ W2
        dz1 = dh1 * (1 - h1**2)
        dW1, db1 = dz1.T @ X, dz1.sum(axis=0)

        self.t += 1
        beta1, beta2 = self.betas
        for p, g, m, v in zip(self.params, (dW1, db1, dW2, db2, dW3, db3), self.m, self.v):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            m_hat = m / (1 - beta1**self.t)
            v_hat = v / (1 - beta2**self.t)
            p -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
        return loss


def main() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(BATCH, SIZES[0]))
    y = (rng.random((BATCH, 1)) < 0.5).astype(np.float64)

    engine.manual_seed(0)
    layers = []
    for n_in, n_out in zip(SIZES, SIZES[1:]):
        layers += [Linear(n_in, n_out), Tanh()]
    ours = Sequential(*layers[:-1])
    optimizer = Adam(ours.parameters(), lr=1e-3)
    by_hand = NumpyMLP([p.data for p in ours.parameters()])
    ours_X, ours_y = engine.Tensor(X), engine.Tensor(y)

    def ours_step():
        loss = F.binary_cross_entropy_with_logits(ours(ours_X), ours_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()

    ours_times, numpy_times = [], []
    for _ in range(STEPS):  # alternate, so both see the same machine state
        start = time.perf_counter()
        ours_loss = ours_step()
        ours_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        numpy_loss = by_hand.step(X, y)
        numpy_times.append(time.perf_counter() - start)

    ours_ms, numpy_ms = 1e3 * statistics.median(ours_times), 1e3 * statistics.median(numpy_times)
    network = "-".join(map(str, SIZES))
    print(f"MLP {network} tanh, batch {BATCH}, float64, forward+backward+Adam, {STEPS} steps, median:")
    print(f"  engine.Tensor      {ours_ms:8.1f} ms")
    print(f"  numpy by hand      {numpy_ms:8.1f} ms")
    print(f"  ratio ours/numpy   {ours_ms / numpy_ms:8.2f}    (target: at most 1.15)")
    print(f"  final losses: ours {ours_loss:.12f}, numpy {numpy_loss:.12f}")


if __name__ == "__main__":
    main()
