"""``gradcheck``: the engine's gradients against central finite differences, as torch.autograd.gradcheck.

Every output element against every input element: the analytical Jacobian comes from one
backward pass per output element, the numerical one from ``(f(x+eps) - f(x-eps)) / 2 eps``.
An entry passes when ``|analytical - numerical| <= atol + rtol * |numerical|``.
"""

from __future__ import annotations

import numpy as np

from .tensor import Tensor
from .value import Value


class GradcheckError(RuntimeError):
    """Raised by `gradcheck` with the worst mismatching Jacobian entry in its message."""


def gradcheck(fn, inputs, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True) -> bool:
    """True if ``fn``'s gradients with respect to ``inputs`` match finite differences.

    ``inputs`` are `Value`s, or `Tensor`s of which those with ``requires_grad`` are checked.
    Raises `GradcheckError` naming the worst entry (or returns False if ``raise_exception``
    is False).
    """
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    if all(isinstance(x, Value) for x in inputs):
        checked = list(inputs)
        analytical, numerical = _scalar_jacobians(fn, inputs, eps)
    elif all(isinstance(x, Tensor) for x in inputs):
        checked = [x for x in inputs if x.requires_grad]
        analytical, numerical = _tensor_jacobians(fn, inputs, checked, eps)
    else:
        raise TypeError("gradcheck inputs must be all Values or all Tensors")

    worst = None  # (how far past the tolerance, input index, output element, input element, analytical, numerical)
    for i, (a, n) in enumerate(zip(analytical, numerical)):
        with np.errstate(invalid="ignore"):
            excess = np.abs(a - n) / (atol + rtol * np.abs(n))
        excess = np.where(np.isnan(excess), np.inf, excess)  # nan on either side is a failure
        if excess.size and (worst is None or excess.max() > worst[0]):
            out_index, in_index = np.unravel_index(int(np.argmax(excess)), excess.shape)
            worst = (excess.max(), i, out_index, in_index, a[out_index, in_index], n[out_index, in_index])
    if worst is None or worst[0] <= 1.0:
        return True
    _, i, out_index, in_index, a, n = worst
    shape = np.shape(checked[i].data)
    i = next(k for k, x in enumerate(inputs) if x is checked[i])  # name the input by its position in ``inputs``
    element = tuple(map(int, np.unravel_index(in_index, shape))) if shape else ()
    message = (
        f"Jacobian mismatch for output element {out_index} with respect to input {i}, element {element}: "
        f"analytical {a!r}, numerical {n!r} (difference {abs(a - n):.3g}, allowed {atol + rtol * abs(n):.3g})"
    )
    if raise_exception:
        raise GradcheckError(message)
    return False


def _scalar_jacobians(fn, inputs: tuple[Value, ...], eps: float):
    saved = [x.grad for x in inputs]
    for x in inputs:
        x.grad = 0.0
    fn(*inputs).backward()
    analytical = [np.array([[x.grad]]) for x in inputs]
    for x, grad in zip(inputs, saved):
        x.grad = grad
    numerical = []
    for x in inputs:
        original = x.data
        x.data = original + eps
        plus = fn(*inputs).data
        x.data = original - eps
        minus = fn(*inputs).data
        x.data = original
        numerical.append(np.array([[(plus - minus) / (2 * eps)]]))
    return analytical, numerical


def _tensor_jacobians(fn, inputs: tuple[Tensor, ...], checked: list[Tensor], eps: float):
    if not checked:
        raise ValueError("gradcheck: no input requires grad")
    for x in checked:
        if not x.data.flags.c_contiguous:  # perturbing works on a flat view of the data
            x.data = np.ascontiguousarray(x.data)
    saved = [x.grad for x in checked]
    out = fn(*inputs)
    n_out = out.data.size
    analytical = [np.zeros((n_out, x.data.size)) for x in checked]
    for j in range(n_out if out.requires_grad else 0):  # an output cut from the inputs has zero gradient
        seed = np.zeros(n_out)
        seed[j] = 1.0
        for x in checked:
            x.grad = None
        out.backward(seed.reshape(out.shape), retain_graph=True)
        for jacobian, x in zip(analytical, checked):
            if x.grad is not None:
                jacobian[j] = x.grad.ravel()
    for x, grad in zip(checked, saved):
        x.grad = grad

    numerical = []
    for x in checked:
        flat = x.data.reshape(-1)  # a view: writing it perturbs the input in place
        jacobian = np.zeros((n_out, flat.size))
        for k in range(flat.size):
            original = flat[k]
            flat[k] = original + eps
            plus = np.array(fn(*inputs).data, dtype=np.float64).ravel()
            flat[k] = original - eps
            minus = np.array(fn(*inputs).data, dtype=np.float64).ravel()
            flat[k] = original
            jacobian[:, k] = (plus - minus) / (2 * eps)
        numerical.append(jacobian)
    return analytical, numerical
