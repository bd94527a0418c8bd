"""How each node kind's output shape follows from its inputs' shapes: the editor's abstract evaluation.

Qt-free. As JAX declares beside each primitive how the shape of its result follows from the shapes of
its operands, each kind in the catalog names one rule here. A rule takes the operands' shapes (None for
an input not yet connected) and the node's parameters, and returns the result's shape (None while it
cannot be known yet), or raises `ShapeError` saying in shapes why they cannot combine:
``(4, 3) @ (2, 2): the inner sizes 3 and 2 differ``. The document checks every wire with these rules
before it exists, so no evaluation ever meets a shape error; the tests check each rule against the
shape numpy actually gives.
"""

from __future__ import annotations

import numpy as np

from .arrays import MAX_DIMS, MAX_ELEMENTS, Shape, shape_text


class ShapeError(ValueError):
    """Shapes that cannot combine, with the reason in shapes."""


def _axis_name(position_from_end: int) -> str:
    return "the last axis" if position_from_end == 1 else f"axis -{position_from_end}"


def broadcast(shapes: list[Shape | None], symbol: str) -> Shape | None:
    """NumPy's broadcasting of the shapes; the message names the first axis (from the right) that clashes.

    Unknown (None) while any input is: a partial answer could change when a wire is removed, and a removal
    must never break a node downstream (it only makes shapes unknown)."""
    if any(s is None for s in shapes):
        return None
    known = list(shapes)
    result: Shape = ()
    for shape in known:
        try:
            result = np.broadcast_shapes(result, shape)
        except ValueError:
            for back in range(1, min(len(result), len(shape)) + 1):
                m, n = result[-back], shape[-back]
                if m != n and 1 not in (m, n):
                    shown = f" {symbol} ".join(shape_text(s) for s in known)
                    raise ShapeError(f"{shown}: sizes {m} and {n} of {_axis_name(back)} differ and neither is 1, "
                                     "so they do not broadcast") from None
            raise  # pragma: no cover - broadcast_shapes fails only on such an axis
    if len(result) > MAX_DIMS:  # pragma: no cover - operands have at most MAX_DIMS axes
        raise ShapeError(f"the result {shape_text(result)} has more than {MAX_DIMS} dimensions")
    return result


def elementwise(symbol: str):
    def rule(shapes, params) -> Shape | None:
        return broadcast(list(shapes), symbol)
    return rule


def same_shape(shapes, params) -> Shape | None:
    return shapes[0]


def scalar_only(name: str):
    def rule(shapes, params) -> Shape | None:
        if shapes[0] not in (None, ()):
            raise ShapeError(f"{name} takes a scalar (engine.Tensor has no {name}), not shape {shape_text(shapes[0])}")
        return shapes[0]
    return rule


def _shown(shape: Shape | None) -> str:
    return "?" if shape is None else shape_text(shape)


def matmul(shapes, params) -> Shape | None:
    a, b = shapes
    for side, shape in (("left", a), ("right", b)):
        if shape == ():
            shown = f"{_shown(a)} @ {_shown(b)}"
            raise ShapeError(f"{shown}: @ needs arrays, and the {side} operand is a scalar (multiply it with ×)")
    if a is None or b is None:
        return None
    inner_a = a[-1]
    inner_b = b[0] if len(b) == 1 else b[-2]
    if inner_a != inner_b:
        raise ShapeError(f"{shape_text(a)} @ {shape_text(b)}: the inner sizes {inner_a} and {inner_b} differ")
    return a[:-1] + b[1:] if len(b) == 2 else a[:-1]


def transpose(shapes, params) -> Shape | None:
    return None if shapes[0] is None else tuple(reversed(shapes[0]))


def _axis(shape: Shape, axis: int, what: str) -> int:
    if not -len(shape) <= axis < len(shape):
        count = f"{len(shape)} axis" if len(shape) == 1 else f"{len(shape)} axes"
        raise ShapeError(f"{what} over axis {axis} of {shape_text(shape)}: it has {count}"
                         + (" (a scalar has none)" if not shape else f", numbered 0 to {len(shape) - 1}"))
    return axis % len(shape)


def reduction(name: str):
    """A sum or mean over everything or one axis. A scalar has no axis to name: numpy's np.sum lets one
    reduce a scalar over axis 0 (np.mean does not), but the engine's backward cannot, so both refuse it."""
    def rule(shapes, params) -> Shape | None:
        shape = shapes[0]
        if shape is None:
            return None
        axis, keepdims = params.get("axis"), bool(params.get("keepdims", False))
        if axis is None:
            return (1,) * len(shape) if keepdims else ()
        axis = _axis(shape, axis, name)
        return shape[:axis] + ((1,) if keepdims else ()) + shape[axis + 1:]
    return rule


def along_axis(name: str):
    def rule(shapes, params) -> Shape | None:
        shape = shapes[0]
        if shape is not None and not (shape == () and params.get("axis", -1) in (0, -1)):  # as numpy allows
            _axis(shape, params.get("axis", -1), name)
        return shape
    return rule


def reshape(shapes, params) -> Shape | None:
    shape = shapes[0]
    wanted = tuple(params.get("shape", ()))
    if shape is None:
        return None
    size = int(np.prod(shape, dtype=np.int64))
    if -1 in wanted:
        rest = int(np.prod([n for n in wanted if n != -1], dtype=np.int64))
        if rest == 0 or size % rest:
            raise ShapeError(f"reshape {shape_text(shape)} into {shape_text(wanted)}: {size} elements do not "
                             f"divide into rows of {rest}")
        wanted = tuple(size // rest if n == -1 else n for n in wanted)
    target = int(np.prod(wanted, dtype=np.int64))
    if target != size:
        raise ShapeError(f"reshape {shape_text(shape)} into {shape_text(wanted)}: {size} elements cannot fill {target}")
    return wanted


def mse(shapes, params) -> Shape | None:
    a, b = shapes
    if a is not None and b is not None and a != b:
        raise ShapeError(f"mse({shape_text(a)}, {shape_text(b)}): the prediction and the target need the same shape")
    return ()


def cross_entropy(shapes, params) -> Shape | None:
    logits, labels = shapes
    if logits is not None and len(logits) != 2:
        raise ShapeError(f"cross_entropy: the logits need shape (batch, classes), not {shape_text(logits)}")
    if labels is not None and len(labels) != 1:
        raise ShapeError(f"cross_entropy: the labels need shape (batch,), one class number per row, "
                         f"not {shape_text(labels)}")
    if logits is not None and labels is not None and logits[0] != labels[0]:
        raise ShapeError(f"cross_entropy({shape_text(logits)}, {shape_text(labels)}): {logits[0]} rows of logits "
                         f"but {labels[0]} labels")
    return ()


# -- node parameters ---------------------------------------------------------------------------


def check_params(kind_name: str, params: dict, defaults: dict) -> dict:
    """The parameters of a node of ``kind_name``, defaults filled in; `ShapeError` for a bad one."""
    unknown = set(params) - set(defaults)
    if unknown:
        allowed = ", ".join(defaults) or "none"
        raise ShapeError(f"{kind_name} has no parameter {sorted(unknown)[0]!r} (its parameters: {allowed})")
    checked = {**defaults, **params}
    for name, value in checked.items():
        if name == "axis":
            if value is None and defaults[name] is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -MAX_DIMS <= value < MAX_DIMS:
                raise ShapeError(f"{kind_name}: axis must be a whole number from {-MAX_DIMS} to {MAX_DIMS - 1}"
                                 + (" or none (over everything)" if defaults[name] is None else "")
                                 + f", not {value!r}")
            checked[name] = int(value)
        elif name == "keepdims":
            if not isinstance(value, (bool, np.bool_)):
                raise ShapeError(f"{kind_name}: keepdims is true or false, not {value!r}")
            checked[name] = bool(value)
        elif name == "shape":
            checked[name] = _reshape_target(kind_name, value)
    return checked


def _reshape_target(kind_name: str, value) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in value):
        raise ShapeError(f"{kind_name}: the shape is a list of whole numbers, not {value!r}")
    shape = tuple(int(n) for n in value)
    if len(shape) > MAX_DIMS:
        raise ShapeError(f"{kind_name}: shape {shape_text(shape)} has more than {MAX_DIMS} dimensions")
    if shape.count(-1) > 1 or any(n < 1 and n != -1 for n in shape):
        raise ShapeError(f"{kind_name}: each size is at least 1, and one of them may be -1 (the rest), "
                         f"not {shape_text(shape)}")
    if int(np.prod([n for n in shape if n != -1], dtype=np.int64)) > MAX_ELEMENTS:
        raise ShapeError(f"{kind_name}: shape {shape_text(shape)} holds more than {MAX_ELEMENTS:,} elements")
    return shape
