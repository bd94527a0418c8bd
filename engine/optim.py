"""SGD (with momentum and Nesterov), Adam and AdamW, step for step as ``torch.optim``, and the
learning-rate schedules `StepLR` and `CosineAnnealingLR` of ``torch.optim.lr_scheduler``.

They work on `Tensor` parameters (updated in place) and on `Value` parameters (gathered into
one array, updated, written back). Tensor parameters that step together are updated the same
way, laid end to end in one vector (see `_Flat`); their state is kept per parameter, as views
of the flat state. The update formulas follow PyTorch's single-tensor implementations in the
same order of operations, so the two agree to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from .tensor import Tensor
from .value import Value


class Optimizer:
    def __init__(self, params, lr: float):
        self.params = list(params)
        if not self.params:
            raise ValueError("optimizer got an empty parameter list")
        if not lr >= 0.0:  # also refuses nan
            raise ValueError(f"Invalid learning rate: {lr}")
        if all(isinstance(p, Value) for p in self.params):
            self._scalar = True
        elif all(isinstance(p, Tensor) for p in self.params):
            self._scalar = False
        else:
            raise TypeError("parameters must be all Values or all Tensors")
        self.lr = lr
        self.state: list[dict] = [{} for _ in self.params]  # per parameter, for scalars one shared entry
        self._flat: _Flat | None = None  # the tensor parameters that stepped together last time

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = 0.0 if self._scalar else None

    def step(self) -> None:
        if self._scalar:
            data = np.fromiter((p.data for p in self.params), np.float64, len(self.params))
            grad = np.fromiter((p.grad for p in self.params), np.float64, len(self.params))
            self._update(self.state[0], data, grad)
            for p, new in zip(self.params, data.tolist()):
                p.data = new
            return
        # As PyTorch, a parameter without a gradient is left alone (its step count lags behind).
        # Small parameters step together (`_Flat`); a large one alone, in place, as copying it
        # in and out of the flat vector would cost more than the calls it saves.
        together, alone = [], []
        for i, p in enumerate(self.params):
            if p.grad is not None:
                (together if p.data.size <= _Flat.LARGEST else alone).append(i)
        if together:
            if self._flat is None or self._flat.indices != tuple(together):
                self._flat = _Flat.gather(tuple(together), self.params, self.state)
            if self._flat is not None:
                self._flat.step(self._update, self.params, self.state)
            else:  # their states are out of step with each other: one parameter at a time
                alone += together
        for i in alone:
            self._update(self.state[i], self.params[i].data, self.params[i].grad)

    def _update(self, state: dict, param: np.ndarray, grad: np.ndarray) -> None:
        raise NotImplementedError

    def step_scale(self, param: Tensor) -> float | np.ndarray:
        """How far the last step moved ``param`` per unit of the direction it stepped along, per element:
        ``lr`` for SGD (the direction is the gradient, or the momentum buffer); Adam overrides it. A
        proximal step taken after this optimizer's (L1's soft threshold) scales its threshold by it, so
        that it shrinks each weight in the same units the optimizer moved it."""
        return self.lr

    # The running state a step leaves behind (Adam's moments and step count, SGD's momentum
    # buffer), saved and restored as with ``torch.optim.Optimizer.state_dict()``: so that a run
    # resumed from saved weights takes exactly the step it would have taken.
    _SCRATCH = ("scratch",)  # working memory, not state

    def state_dict(self) -> dict:
        """``{"state": {index: {name: array or number}}, "lr": lr}``, copies of the running state."""
        state = {index: {name: (np.array(value) if isinstance(value, np.ndarray) else value)
                         for name, value in entry.items() if name not in self._SCRATCH}
                 for index, entry in enumerate(self.state) if entry}
        return {"state": state, "lr": self.lr}

    def load_state_dict(self, state_dict: dict) -> None:
        """Take the running state of `state_dict` (of an optimizer over parameters of the same shapes)."""
        entries = state_dict["state"]
        for index, entry in entries.items():
            if not 0 <= int(index) < len(self.state):
                raise ValueError(f"state for parameter {index}, but there are {len(self.state)} parameters")
            shape = np.shape(self.params[int(index)].data) if not self._scalar else (len(self.params),)
            for name, value in entry.items():
                if isinstance(value, np.ndarray) and value.shape != shape:
                    raise ValueError(f"{name} of parameter {index} has shape {value.shape}, the parameter {shape}")
        self.state = [{} for _ in self.params]
        self._flat = None  # gathered again from the new state at the next step
        for index, entry in entries.items():
            restored = {name: (np.array(value, dtype=np.float64) if isinstance(value, np.ndarray) else value)
                        for name, value in entry.items()}
            if "exp_avg" in restored:
                restored["scratch"] = np.empty_like(restored["exp_avg"])
            self.state[int(index)] = restored
        self.lr = float(state_dict.get("lr", self.lr))


class _Flat:
    """Tensor parameters that step together, laid end to end: one update of a flat vector.

    Every numpy call costs about a microsecond before it touches a number, and Adam's update is
    a dozen calls: for an MLP's 6 small parameters, or the 65 0-d parameters of a graph drawn
    neuron by neuron, the calls were the cost, not the arithmetic. The update is elementwise,
    so on the flat vector it does the same arithmetic in the same order: the same bits.

    The state stays per parameter (``optimizer.state[i]``, for `state_dict` and `step_scale`):
    its arrays are views of the flat state's, its numbers (the step count) copies written back
    after each step.
    """

    # The largest parameter (in elements) stepped together with others: beyond about this size,
    # copying it into the flat vector and back costs more than the dozen numpy calls it saves.
    LARGEST = 4096

    def __init__(self, indices: tuple[int, ...], params: list[Tensor], state: dict):
        self.indices = indices
        data = [params[i].data for i in indices]
        ends = np.cumsum([d.size for d in data]).tolist()
        self._parts = [(end - d.size, end, d.shape) for d, end in zip(data, ends)]
        self.param = np.empty(ends[-1], dtype=data[0].dtype)
        self.grad = np.empty_like(self.param)
        self._param_views = self.split(self.param)
        self.state = state
        self._shared: dict[str, np.ndarray] = {}  # the flat arrays the parameters' states are views of

    @classmethod
    def gather(cls, indices: tuple[int, ...], params: list[Tensor], states: list[dict]) -> _Flat | None:
        """The parameters at ``indices`` as one, with their states laid end to end; None when their
        states cannot be one (different step counts, one stepped and one not) or their dtypes differ."""
        chosen = [params[i] for i in indices]
        if len({id(p) for p in chosen}) != len(chosen) or len({p.data.dtype for p in chosen}) > 1:
            return None  # a parameter listed twice is stepped twice, as PyTorch does
        entries = [states[i] for i in indices]
        first = entries[0]
        if any(entry.keys() != first.keys() for entry in entries):
            return None
        numbers = {name: value for name, value in first.items() if not isinstance(value, np.ndarray)}
        if any(entry[name] != value for entry in entries for name, value in numbers.items()):
            return None
        state = {name: np.concatenate([entry[name].ravel() for entry in entries]) if name not in numbers
                 else numbers[name] for name in first}
        flat = cls(indices, params, state)
        flat.share(entries)
        return flat

    def split(self, flat: np.ndarray) -> list[np.ndarray]:
        """``flat`` cut into views with the parameters' shapes."""
        return [flat[start:end].reshape(shape) for start, end, shape in self._parts]

    def step(self, update, params: list[Tensor], states: list[dict]) -> None:
        """``update(state, param, grad)`` once on the flat vector, the results written back in place."""
        chosen = [params[i] for i in self.indices]
        np.concatenate([p.data.ravel() for p in chosen], out=self.param)
        np.concatenate([p.grad.ravel() for p in chosen], out=self.grad)
        update(self.state, self.param, self.grad)
        for p, new in zip(chosen, self._param_views):
            p.data[...] = new  # in place: the model and the optimizer keep sharing the arrays
        self.share([states[i] for i in self.indices])

    def share(self, entries: list[dict]) -> None:
        """Give each parameter's state its part of the flat state: views of arrays, copies of numbers."""
        for name, value in self.state.items():
            if not isinstance(value, np.ndarray):
                for entry in entries:
                    entry[name] = value
            elif self._shared.get(name) is not value:  # new since the last step (Adam's first)
                self._shared[name] = value
                for entry, part in zip(entries, self.split(value)):
                    entry[name] = part


def _check_non_negative(**settings: float) -> None:
    for name, value in settings.items():
        if not value >= 0.0:
            raise ValueError(f"Invalid {name} value: {value}")


class SGD(Optimizer):
    def __init__(self, params, lr: float = 1e-3, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: float = 0.0, nesterov: bool = False):
        super().__init__(params, lr)
        _check_non_negative(momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        self.momentum, self.dampening, self.weight_decay, self.nesterov = momentum, dampening, weight_decay, nesterov

    def _update(self, state, param, grad):
        if self.weight_decay:
            grad = grad + self.weight_decay * param
        if self.momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = np.array(grad)
            else:
                # buf = momentum * buf + (1 - dampening) * grad
                buffer *= self.momentum
                buffer += (1.0 - self.dampening) * grad
            grad = grad + self.momentum * buffer if self.nesterov else buffer
        param -= self.lr * grad


class Adam(Optimizer):
    """Adam; ``weight_decay`` adds ``weight_decay * param`` to the gradient (L2), as torch.optim.Adam."""

    _decoupled = False

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0):
        super().__init__(params, lr)
        _check_non_negative(eps=eps, weight_decay=weight_decay)
        if not (0.0 <= betas[0] < 1.0 and 0.0 <= betas[1] < 1.0):
            raise ValueError(f"Invalid beta parameters: {betas}")
        self.betas, self.eps, self.weight_decay = tuple(betas), eps, weight_decay

    def _update(self, state, param, grad):
        beta1, beta2 = self.betas
        if not state:
            state.update(step=0, exp_avg=np.zeros_like(param), exp_avg_sq=np.zeros_like(param),
                         scratch=np.empty_like(param))
        state["step"] += 1
        step, exp_avg, exp_avg_sq, scratch = state["step"], state["exp_avg"], state["exp_avg_sq"], state["scratch"]
        if self.weight_decay:
            if self._decoupled:
                param *= 1.0 - self.lr * self.weight_decay  # AdamW: shrink the weights directly
            else:
                grad = grad + self.weight_decay * param  # Adam: L2 through the gradient

        # m = m + (1 - beta1) (g - m)
        np.subtract(grad, exp_avg, out=scratch)
        scratch *= 1.0 - beta1
        exp_avg += scratch
        # v = beta2 v + (1 - beta2) g^2
        np.multiply(grad, grad, out=scratch)
        scratch *= 1.0 - beta2
        exp_avg_sq *= beta2
        exp_avg_sq += scratch
        # p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
        step_size = self.lr / (1.0 - beta1**step)
        np.sqrt(exp_avg_sq, out=scratch)
        scratch /= math.sqrt(1.0 - beta2**step)
        scratch += self.eps
        np.divide(exp_avg, scratch, out=scratch)
        scratch *= step_size
        param -= scratch


    def step_scale(self, param: Tensor) -> float | np.ndarray:
        """``lr / (sqrt(v_hat) + eps)`` per element, with ``v_hat = v / (1 - beta2^t)``: the step was this
        times the bias-corrected mean gradient ``m_hat``. ``lr`` for a parameter not yet stepped."""
        index = next((i for i, p in enumerate(self.params) if p is param), None)
        if index is None:
            raise ValueError("step_scale: the tensor is not one of this optimizer's parameters")
        state = self.state[index]
        if not state:
            return self.lr
        # lr / (sqrt(v) / sqrt(1 - beta2^t) + eps), the same denominator as the step's
        denominator = np.sqrt(state["exp_avg_sq"]) / math.sqrt(1.0 - self.betas[1] ** state["step"]) + self.eps
        return self.lr / denominator


class AdamW(Adam):
    """Adam with decoupled weight decay (default 1e-2), as torch.optim.AdamW."""

    _decoupled = True

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2):
        super().__init__(params, lr, betas, eps, weight_decay)


# -- learning-rate schedules, as torch.optim.lr_scheduler ------------------------------------------


class LRScheduler:
    """Sets ``optimizer.lr`` from its starting value ``optimizer.initial_lr`` and the count of
    `step()` calls, ``last_epoch`` (PyTorch's name: one call per epoch, or here per training step).

    As in PyTorch, call ``scheduler.step()`` after ``optimizer.step()``; building a scheduler
    takes its first step, so the optimizer starts at ``get_lr()`` of epoch 0. ``last_epoch=k``
    resumes a schedule as if it had been stepped k + 1 times, which needs ``initial_lr``. The
    rates are computed in closed form, so resuming lands exactly where stepping would.
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        if last_epoch == -1:
            optimizer.initial_lr = optimizer.lr
        elif not hasattr(optimizer, "initial_lr"):
            raise KeyError("param 'initial_lr' is not specified in param_groups[0] when resuming an optimizer")
        self.optimizer = optimizer
        self.base_lrs = [optimizer.initial_lr]
        self.last_epoch = last_epoch
        self.step()

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        return [self.optimizer.lr]

    def step(self) -> None:
        self.last_epoch += 1
        self.optimizer.lr = self.get_lr()[0]


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs: lr = base * gamma^(epoch // step_size)."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        if not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"step_size must be a positive int, not {step_size!r}")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Half a cosine from the base rate down to ``eta_min`` over ``T_max`` epochs (Loshchilov & Hutter):
    lr = eta_min + (base - eta_min) * (1 + cos(pi * epoch / T_max)) / 2; beyond T_max it rises again,
    as PyTorch's does."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1):  # noqa: N803
        if not isinstance(T_max, int) or T_max < 1:
            raise ValueError(f"T_max must be a positive int, not {T_max!r}")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        cosine = (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
        return [self.eta_min + (base - self.eta_min) * cosine for base in self.base_lrs]
