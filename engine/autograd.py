"""The autograd core shared by the scalar `Value` and the numpy `Tensor`.

A node of either kind has:

- ``_prev``: the tuple of its parents, in argument order (``x*x`` keeps both edges);
- ``_backward``: its vector-Jacobian product, a plain module-level function
  ``rule(node, upstream) -> tuple of contributions, one per parent`` (``None`` for a parent
  that needs no gradient), or ``None`` for a leaf;
- two class hooks: ``_receive_grad(node, total)``, called once per backward pass when a
  node's gradient is complete, and ``_local_derivatives(node)``, called only when steps are
  recorded (scalars return d(node)/d(parent); tensors return ``None``, their Jacobians are
  never built).

The rules are plain functions, never closures over the output node: a closure that
captures its own output is a reference cycle, and cycles keep every spent graph alive until
the cyclic garbage collector runs (the reason micrograd's demo step takes a second).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from functools import wraps
from typing import Any, NamedTuple


class BackwardStep(NamedTuple):
    """One application of the chain rule: ``node`` hands ``contribution`` to ``parent``.

    ``contribution = upstream x local`` (for tensors, a vector-Jacobian product),
    ``total`` is the parent's running gradient in this pass after adding it, and ``index``
    is the parent's position among the node's operands (``x*x`` gives steps 0 and 1).
    """

    node: Any
    parent: Any
    local: Any
    upstream: Any
    contribution: Any
    total: Any
    index: int


def topological_order(root) -> list:
    """Every node that ``root`` depends on, parents before children, ending with ``root``.

    Iterative depth-first search, so a chain of a million ops needs no recursion.
    """
    order = []
    expanded_nodes = set()
    # A node is pushed once to expand it and once more (flag True) to emit it after all its
    # parents. It counts as expanded when popped, not when pushed: a node reached again by a
    # longer path must still be expanded above everything that uses it.
    stack = [(root, False)]
    push, pop, emit, expand = stack.append, stack.pop, order.append, expanded_nodes.add
    while stack:
        node, ready = pop()
        if ready:
            emit(node)
            continue
        if node in expanded_nodes:
            continue
        expand(node)
        push((node, True))
        for parent in node._prev:
            if parent not in expanded_nodes:
                push((parent, False))
    return order


def backward_steps(root, seed, *, record: bool = True, free_graph: bool = False) -> Iterator[BackwardStep]:
    """Run reverse-mode autodiff from ``root``, seeded with ``seed`` = d(root)/d(root).

    Yields a `BackwardStep` per edge when ``record`` is true; ``backward()`` runs this same
    loop with ``record=False`` (no step objects built) to the end. ``free_graph`` releases
    each node's saved context once its gradient has been passed on, as PyTorch frees its
    saved tensors unless ``retain_graph=True``.
    """
    order = topological_order(root)
    node_type = type(root)
    receive, local_derivatives, free = node_type._receive_grad, node_type._local_derivatives, node_type._free_saved
    totals = {root: seed}  # gradient received so far by each node in this pass
    pop, get = totals.pop, totals.get
    for node in reversed(order):
        upstream = pop(node, None)
        if upstream is None:  # nothing flows here (no parent of it needs a gradient)
            continue
        receive(node, upstream)
        rule = node._backward
        if rule is None:
            continue
        contributions = rule(node, upstream)
        if record:
            operands = zip(node._prev, contributions, local_derivatives(node))
            for index, (parent, contribution, local) in enumerate(operands):
                if contribution is not None:
                    total = get(parent)
                    totals[parent] = total = contribution if total is None else total + contribution
                    yield BackwardStep(node, parent, local, upstream, contribution, total, index)
        else:  # the same accumulation, without building step records
            for parent, contribution in zip(node._prev, contributions):
                if contribution is not None:
                    total = get(parent)
                    totals[parent] = contribution if total is None else total + contribution
        if free_graph:
            free(node)


def run_backward(root, seed, *, free_graph: bool = False) -> None:
    """Run `backward_steps` to the end without recording: what ``backward()`` does."""
    deque(backward_steps(root, seed, record=False, free_graph=free_graph), maxlen=0)


# ---------------------------------------------------------------------------------------
# Grad mode: PyTorch's ``no_grad``, per thread (the GUI's training worker has its own).

_grad_mode = threading.local()


def is_grad_enabled() -> bool:
    return getattr(_grad_mode, "enabled", True)


class no_grad:
    """Context manager and decorator (``@no_grad()`` or bare ``@no_grad``): ops inside build no
    graph, as ``torch.no_grad``."""

    def __new__(cls, function=None):
        guard = super().__new__(cls)
        return guard if function is None else guard(function)

    def __enter__(self):
        self._previous = is_grad_enabled()
        _grad_mode.enabled = False
        return self

    def __exit__(self, *exc_info):
        _grad_mode.enabled = self._previous
        return False

    def __call__(self, function):
        @wraps(function)
        def without_grad(*args, **kwargs):
            with no_grad():
                return function(*args, **kwargs)

        return without_grad
