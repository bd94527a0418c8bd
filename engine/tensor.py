"""The numpy engine: ``Tensor`` with PyTorch's autograd semantics.

- results require grad iff an operand does (and grad mode is on, see `no_grad`);
- only leaves keep ``.grad`` after ``backward()``, unless ``retain_grad()`` was called;
- ``backward()`` frees the graph's saved context unless ``retain_graph=True``, so a second
  pass raises, as in PyTorch;
- every op's gradient is summed back to its operand's shape when broadcasting widened it.

The ops and their derivative rules live side by side in `engine.ops`; the methods here
only name them.
"""

from __future__ import annotations

import numpy as np

from .autograd import backward_steps, is_grad_enabled, run_backward


class Tensor:
    __slots__ = ("data", "grad", "requires_grad", "label", "_prev", "_op", "_backward", "_ctx", "_retains_grad")

    def __init__(self, data, requires_grad: bool = False, dtype=np.float64, label: str = ""):
        if isinstance(data, Tensor):
            data = data.data
        self.data = np.array(data, dtype=dtype)
        if requires_grad and not np.issubdtype(self.data.dtype, np.floating):
            raise RuntimeError(f"only floating point tensors can require gradients, not {self.data.dtype}")
        self.grad = None
        self.requires_grad = bool(requires_grad)
        self.label = label
        self._prev = ()
        self._op = ""
        self._backward = None
        self._ctx = None
        self._retains_grad = False

    # -- what a tensor is ---------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def size(self) -> int:
        return self.data.size

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def is_leaf(self) -> bool:
        """True for tensors made by the user (or without grad), False for op results in a graph."""
        return self._backward is None

    @property
    def op(self) -> str:
        return self._op

    @property
    def parents(self) -> tuple[Tensor, ...]:
        return self._prev

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        body = np.array2string(self.data, separator=", ", prefix="tensor(")
        extra = ", requires_grad=True" if self.requires_grad and self.is_leaf else ""
        extra += f", op={self._op!r}" if self._op else ""
        return f"tensor({body}{extra})"

    def _repr_svg_(self) -> str:
        """The graph behind this tensor, drawn for a notebook (no graphviz needed)."""
        from .draw import to_svg

        return to_svg(self)

    def item(self) -> float:
        if self.data.size != 1:
            raise ValueError(f"item() needs a tensor with one element, not shape {self.shape}")
        return self.data.item()

    def numpy(self) -> np.ndarray:
        """The data, shared, not copied. As PyTorch, refused while the tensor requires grad."""
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self.data

    def tolist(self):
        return self.data.tolist()

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's data, cut from the graph."""
        out = Tensor.__new__(Tensor)
        _init_leaf(out, self.data, False)
        return out

    def retain_grad(self) -> None:
        """Keep ``.grad`` on this non-leaf tensor after ``backward()``."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if not self.is_leaf:
            self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if not self.is_leaf:
            raise RuntimeError("you can only change requires_grad flags of leaf variables")
        self.requires_grad = requires_grad
        return self

    # -- backward -----------------------------------------------------------------------

    def backward(self, gradient=None, retain_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad``, as ``torch.Tensor.backward``."""
        run_backward(self, self._seed(gradient), free_graph=not retain_graph)

    def backward_steps(self, gradient=None, retain_graph: bool = False):
        """The backward pass as a generator of `BackwardStep`s (``local`` is None for tensors)."""
        return backward_steps(self, self._seed(gradient), free_graph=not retain_graph)

    def _seed(self, gradient) -> np.ndarray:
        if not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if gradient is None:
            if self.data.size != 1:
                raise RuntimeError(
                    f"grad can be implicitly created only for scalar outputs, this one has shape {self.shape}; "
                    "pass gradient= to backward()"
                )
            seed = np.empty(self.data.shape, self.data.dtype)
            seed.fill(1.0)  # np.ones without its Python wrapper, a microsecond per backward()
            return seed
        seed = np.asarray(gradient.data if isinstance(gradient, Tensor) else gradient, dtype=self.data.dtype)
        if seed.shape != self.shape:
            raise ValueError(f"gradient of shape {seed.shape} does not match the output's shape {self.shape}")
        return seed

    # Hooks of the shared autograd core: during a pass, ``grad`` holds the running total.
    @staticmethod
    def _begin_pass(interior: list[Tensor], leaves: list[Tensor]) -> tuple[list, list]:
        nodes = interior + leaves
        before = [node.grad for node in nodes]
        for node in nodes:
            node.grad = None
        return nodes, before

    @staticmethod
    def _end_pass(interior: list[Tensor], leaves: list[Tensor], set_aside: tuple[list, list]) -> None:
        for node, grad in zip(*set_aside):
            total = node.grad
            keeps = node.requires_grad if node._backward is None else node._retains_grad
            if total is None or not keeps:
                node.grad = grad
            elif grad is None:
                # ``total`` may be an array another node also holds (add passes its upstream
                # on to both operands): the grad a user sees is a copy of its own.
                node.grad = np.array(total, dtype=node.data.dtype)
            else:
                grad += total
                node.grad = grad

    @staticmethod
    def _local_derivatives(node: Tensor) -> tuple:
        return (None,) * len(node._prev)  # a tensor op's Jacobian is never materialised

    @staticmethod
    def _free_saved(node: Tensor) -> None:
        node._ctx = None
        node._backward = _freed_rule

    # -- operators, functions, reductions, shapes: see engine.ops ---------------------------

    def __add__(self, other):
        return ops.add(self, other)

    def __radd__(self, other):
        return ops.add(other, self)

    def __sub__(self, other):
        return ops.sub(self, other)

    def __rsub__(self, other):
        return ops.sub(other, self)

    def __mul__(self, other):
        return ops.mul(self, other)

    def __rmul__(self, other):
        return ops.mul(other, self)

    def __truediv__(self, other):
        return ops.div(self, other)

    def __rtruediv__(self, other):
        return ops.div(other, self)

    def __pow__(self, exponent):
        return ops.pow(self, exponent)

    def __rpow__(self, base):
        return ops.pow(base, self)

    def __matmul__(self, other):
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        return ops.matmul(other, self)

    def __neg__(self):
        return ops.neg(self)

    def __getitem__(self, index):
        return ops.getitem(self, index)

    # Comparisons give plain boolean tensors outside the graph, as PyTorch's.
    def __lt__(self, other):
        return _compare(np.less, self, other)

    def __le__(self, other):
        return _compare(np.less_equal, self, other)

    def __gt__(self, other):
        return _compare(np.greater, self, other)

    def __ge__(self, other):
        return _compare(np.greater_equal, self, other)

    __hash__ = object.__hash__  # identity, so graphs can key dictionaries by node

    # numpy would otherwise apply ``array + tensor`` element by element, making an object array of
    # Tensors; with this it hands the operation to our reflected operators (__radd__, __rmatmul__, ...).
    __array_ufunc__ = None

    def exp(self):
        return ops.exp(self)

    def log(self):
        return ops.log(self)

    def tanh(self):
        return ops.tanh(self)

    def sigmoid(self):
        return ops.sigmoid(self)

    def relu(self):
        return ops.relu(self)

    def leaky_relu(self, negative_slope: float = 0.01):
        return ops.leaky_relu(self, negative_slope)

    def abs(self):
        return ops.abs(self)

    __abs__ = abs

    def sqrt(self):
        return ops.pow(self, 0.5)

    def sum(self, axis=None, keepdims: bool = False):
        return ops.sum(self, axis, keepdims)

    def mean(self, axis=None, keepdims: bool = False):
        return ops.mean(self, axis, keepdims)

    def max(self, axis=None, keepdims: bool = False):
        return ops.max(self, axis, keepdims)

    def softmax(self, axis: int = -1):
        return ops.softmax(self, axis)

    def log_softmax(self, axis: int = -1):
        return ops.log_softmax(self, axis)

    def logsumexp(self, axis=None, keepdims: bool = False):
        return ops.logsumexp(self, axis, keepdims)

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return ops.reshape(self, shape)

    def transpose(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return ops.transpose(self, axes or None)

    @property
    def T(self):
        return ops.transpose(self, None)


def _init_leaf(tensor: Tensor, data: np.ndarray, requires_grad: bool) -> None:
    tensor.data = data
    tensor.grad = None
    tensor.requires_grad = requires_grad
    tensor.label = ""
    tensor._prev = ()
    tensor._op = ""
    tensor._backward = None
    tensor._ctx = None
    tensor._retains_grad = False


def as_tensor(value) -> Tensor:
    """A Tensor as is; a number or array as a constant leaf (float64 unless already floating)."""
    if isinstance(value, Tensor):
        return value
    data = np.asarray(value)
    if not np.issubdtype(data.dtype, np.floating):
        data = data.astype(np.float64)
    out = Tensor.__new__(Tensor)
    _init_leaf(out, data, False)
    return out


def make_result(data: np.ndarray, op: str, parents: tuple, rule, ctx=None) -> Tensor:
    """The output of an op: part of the graph iff grad mode is on and an operand requires grad."""
    out = Tensor.__new__(Tensor)
    out.data = data
    out.grad = None
    out.label = ""
    out._retains_grad = False
    out._op = op
    for parent in parents:
        if parent.requires_grad:
            if is_grad_enabled():
                out.requires_grad = True
                out._prev = parents
                out._backward = rule
                out._ctx = ctx
                return out
            break
    out.requires_grad = False
    out._prev = ()
    out._backward = None
    out._ctx = None
    return out


def _compare(ufunc, a, b) -> Tensor:
    a, b = as_tensor(a), as_tensor(b)
    out = Tensor.__new__(Tensor)
    _init_leaf(out, ufunc(a.data, b.data), False)
    return out


def _freed_rule(node, upstream):
    raise RuntimeError(
        "Trying to backward through the graph a second time: its saved values were freed by the "
        "first backward(). Specify retain_graph=True in the first backward() if you need to "
        "backward through the graph a second time."
    )


from . import ops  # noqa: E402  (ops builds on the class above)
