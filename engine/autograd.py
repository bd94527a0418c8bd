"""The autograd core shared by the scalar `Value` and the numpy `Tensor`.

A node of either kind has:

- ``_prev``: the tuple of its parents, in argument order (``x*x`` keeps both edges);
- ``_backward``: its vector-Jacobian product, a plain module-level function
  ``rule(node, upstream) -> contributions, one per parent`` (``None`` for a parent that
  needs no gradient), or ``None`` for a leaf;
- ``grad``: during a backward pass, the node's running total of the gradient arriving in
  this pass (``None``, or a zero the class chooses, until the first contribution).

and its class has four hooks: ``_begin_pass(interior, leaves)`` clears the totals and
returns what it set aside; ``_end_pass(interior, leaves, set_aside)`` turns the totals into
the grads a user sees (leaves accumulate); ``_local_derivatives(node)``, called only when
steps are recorded (scalars return d(node)/d(parent); tensors return ``None``, their
Jacobians are never built); ``_free_saved(node)`` drops a node's saved context once its
gradient has been passed on.

Keeping the running totals on the nodes (not in a dictionary keyed by node) makes each
chain-rule edge one attribute read and one write, whether or not steps are recorded.

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
    return _depth_first(root, None)


def interior_order(root) -> tuple[list, list]:
    """The op results ``root`` depends on in topological order (ending with ``root``), and
    its leaves, each once in the order first met.

    The nodes of `topological_order` without the leaves, in the same order: a backward pass
    visits only the nodes that pass a gradient on.
    """
    if root._backward is None:
        return [], [root]
    leaves = []
    return _depth_first(root, leaves), leaves


def _depth_first(root, leaves: list | None) -> list:
    """Depth-first topological sort; leaves go to ``leaves`` when met, if it is a list."""
    order = []
    seen = {root}
    # The path from the root to the node being expanded, each with the iterator over its
    # parents (last first) where its expansion resumes: a node is placed once all of its
    # parents are. A node counts as seen when first met; in a DAG a node met again is either
    # placed already or (if it is still on the path) its own ancestor, which cannot happen.
    # So a node whose parents have all been seen is placed at once, without the walk (a
    # neuron's dot product, once its weights and inputs have been met through another one).
    path, parents_left = [root], [reversed(root._prev)]
    see, place, all_seen = seen.add, order.append, seen.issuperset
    enter, enter_parents, leave, leave_parents = path.append, parents_left.append, path.pop, parents_left.pop
    while parents_left:
        for parent in parents_left[-1]:
            if parent not in seen:
                see(parent)
                if leaves is not None and parent._backward is None:
                    leaves.append(parent)
                    continue
                grandparents = parent._prev
                if all_seen(grandparents):
                    place(parent)
                    continue
                enter(parent)
                enter_parents(reversed(grandparents))
                break
        else:
            leave_parents()
            place(leave())
    return order


def backward_steps(root, seed, *, record: bool = True, free_graph: bool = False) -> Iterator[BackwardStep]:
    """Run reverse-mode autodiff from ``root``, seeded with ``seed`` = d(root)/d(root).

    Yields a `BackwardStep` per edge when ``record`` is true; ``backward()`` runs this same
    loop with ``record=False`` (no step objects built) to the end. ``free_graph`` releases
    each node's saved context once its gradient has been passed on, as PyTorch frees its
    saved tensors unless ``retain_graph=True``.

    Running totals are kept in the nodes' ``grad`` while the pass runs (the class's
    ``_end_pass`` settles them, also when the generator is closed early): two passes over
    one graph at the same time would mix their totals.
    """
    interior, leaves = interior_order(root)
    node_type = type(root)
    local_derivatives, free = node_type._local_derivatives, node_type._free_saved
    new_step = tuple.__new__  # BackwardStep(...) without the Python-level __new__ namedtuple adds
    set_aside = node_type._begin_pass(interior, leaves)
    root.grad = seed
    try:
        for node in reversed(interior):
            upstream = node.grad  # complete: every node that uses this one has passed its share on
            if upstream is None:  # nothing flows here (no parent of it needs a gradient)
                continue
            contributions = node._backward(node, upstream)
            if record:
                operands = zip(node._prev, contributions, local_derivatives(node))
                for index, (parent, contribution, local) in enumerate(operands):
                    if contribution is not None:
                        total = parent.grad
                        parent.grad = total = contribution if total is None else total + contribution
                        yield new_step(BackwardStep, (node, parent, local, upstream, contribution, total, index))
            else:  # the same accumulation, without building step records
                for parent, contribution in zip(node._prev, contributions):
                    if contribution is not None:
                        total = parent.grad
                        parent.grad = contribution if total is None else total + contribution
            if free_graph:
                free(node)
    finally:
        node_type._end_pass(interior, leaves, set_aside)


def run_backward(root, seed, *, free_graph: bool = False) -> None:
    """Run `backward_steps` to the end without recording: what ``backward()`` does."""
    deque(backward_steps(root, seed, record=False, free_graph=free_graph), maxlen=0)


# ---------------------------------------------------------------------------------------
# Grad mode: PyTorch's ``no_grad``, per thread (the GUI's training worker has its own).

class _GradMode(threading.local):
    enabled = True  # each thread starts with grad on; a class default, not an AttributeError caught every op


_grad_mode = _GradMode()


def is_grad_enabled() -> bool:
    return _grad_mode.enabled


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
