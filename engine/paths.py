"""Why is a.grad 31? A gradient as the sum over every path from the output down to a node.

The chain rule, unrolled: d(out)/d(x) is the sum, over every path out = n0 <- n1 <- ... <- nk = x
in the graph, of the product of the local derivatives along it, d(n0)/d(n1) * d(n1)/d(n2) * ...
For lesson 2's ``L = (a*b + c) * (a + d)`` at a=2, b=3, c=4, d=5:

    a.grad = 31 = 7 * 1 * 3   (L <- t2 <- t1 <- a: through a*b)
               + 10 * 1       (L <- t3 <- a: through a+d)

The number of paths grows exponentially with depth (a ladder of n diamonds has 2^n), so `paths`
counts them and sums them by dynamic programming (which is what the backward pass does) and lists
only the ``largest`` ones by size, found with a k-best search over the same order; the rest are
reported as a count and a total.

Scalar graphs (`Value`) only: on a `Tensor` graph an edge carries a Jacobian, not a number.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any

from .autograd import topological_order
from .tensor import Tensor
from .value import Value

MAX_LISTED = 100_000  # ``largest=None`` lists every path: refused beyond this many


@dataclass(frozen=True)
class GradientPath:
    """One path from the output down to the node, with the local derivative of each edge on it."""

    nodes: tuple  # the output first, the node last
    indices: tuple[int, ...]  # at each edge, which operand of the node above the one below is (x*x: 0 or 1)
    locals: tuple[float, ...]  # each edge's local derivative d(above)/d(below)
    product: float  # the product of ``locals`` (as the backward pass forms it): this path's share


@dataclass(frozen=True)
class PathSum:
    """A node's gradient as a sum over paths: the ``paths`` listed (largest first), how many there are
    in all (``count``), and the sum over all of them (``total``, the gradient d(output)/d(node))."""

    paths: tuple[GradientPath, ...]
    count: int
    total: float

    @property
    def rest_count(self) -> int:
        """How many paths are not listed."""
        return self.count - len(self.paths)

    @property
    def rest_total(self) -> float:
        """The sum over the paths not listed: "N more paths, together ..."."""
        return self.total - math.fsum(path.product for path in self.paths) if self.rest_count else 0.0

    def __iter__(self):
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def paths(output, node, largest: int | None = None) -> PathSum:
    """The paths from ``output`` down to ``node`` in ``output``'s graph, each with the product of its
    local derivatives; they add up to d(output)/d(node).

    ``largest``: list only that many, the largest in size (nan first, as the most telling); ``None``
    lists them all (refused with a ValueError past `MAX_LISTED`). A node that ``output`` does not
    depend on has no path, and 0 for a total.
    """
    if isinstance(output, Tensor) or isinstance(node, Tensor):
        raise TypeError("paths() works on scalar (Value) graphs: on a Tensor graph an edge carries a Jacobian, "
                        "not a number")
    if not isinstance(output, Value) or not isinstance(node, Value):
        raise TypeError(f"paths() takes two Values of one graph, not {type(output).__name__} and {type(node).__name__}")
    order = topological_order(output)  # parents before children, ending with the output
    position = {id(n): i for i, n in enumerate(order)}
    if id(node) not in position:
        return PathSum((), 0, 0.0)
    # One sweep from the output down (children before parents): how many paths reach each node, their
    # sum, and the ``keep`` largest partial paths (each a linked list back to the output).
    count = {id(output): 1}
    total = {id(output): 1.0}
    keep = largest
    best: dict[int, list] = {id(output): [(1.0, None)]}  # (product, (above, index, local, link))
    if keep is None:
        keep = _count_paths(order, output, node)
        if keep > MAX_LISTED:
            raise ValueError(f"{keep:,} paths lead from the output to this node: list the largest "
                             f"(largest=...) instead of all of them")
    for above in reversed(order):
        key = id(above)
        if key not in count or above._backward is None or key == id(node):
            continue
        # Each share is carried down by the op's own rule, as the backward pass carries it (a ReLU at
        # 0 passes 0 whatever comes from above, where 0 * inf would be nan): the sums then agree.
        rule = above._backward
        totals = rule(above, total[key])
        partial = best.get(key, [])
        carried = [rule(above, product) for product, _ in partial] if keep else []
        for index, (below, local) in enumerate(zip(above._prev, type(above)._local_derivatives(above))):
            if local is None:  # an operand that takes no gradient (a constant exponent)
                continue
            below_key = id(below)
            count[below_key] = count.get(below_key, 0) + count[key]
            total[below_key] = total.get(below_key, -0.0) + totals[index]
            if keep:
                extended = [(shares[index], (above, index, local, link))
                            for shares, (_, link) in zip(carried, partial)]
                best[below_key] = _largest(best.get(below_key, []) + extended, keep)
    listed = tuple(_unlink(product, link, node) for product, link in best.get(id(node), [])) if keep else ()
    return PathSum(listed, count.get(id(node), 0), total.get(id(node), 0.0))


def _count_paths(order: list, output: Any, node: Any) -> int:
    count = {id(output): 1}
    for above in reversed(order):
        if id(above) in count and above._backward is not None and above is not node:
            for below, local in zip(above._prev, type(above)._local_derivatives(above)):
                if local is not None:
                    count[id(below)] = count.get(id(below), 0) + count[id(above)]
    return count.get(id(node), 0)


def _size(item) -> float:
    product = item[0]
    return math.inf if math.isnan(product) else abs(product)


def _largest(items: list, keep: int) -> list:
    return heapq.nlargest(keep, items, key=_size)  # stable: among equals, the first met stays first


def _unlink(product: float, link, node) -> GradientPath:
    nodes, indices, locals_ = [node], [], []
    while link is not None:
        above, index, local, link = link
        nodes.append(above)
        indices.append(index)
        locals_.append(local)
    return GradientPath(tuple(reversed(nodes)), tuple(reversed(indices)), tuple(reversed(locals_)), product)
