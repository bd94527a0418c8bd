"""`Module`: the parameter bookkeeping shared by scalar and tensor networks, as in PyTorch.

Parameters are found by walking a module's attributes in definition order: a `Value`, a
`Tensor` that requires grad, a sub-`Module`, or a list/tuple of those. Names follow
PyTorch's dotted form (``layers.0.neurons.3.w.1``).

Every module is in training mode until ``eval()`` (``train(False)``) puts it and the modules in it in
evaluation mode, as PyTorch's; only the layers that act otherwise while training read it (`Dropout`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..tensor import Tensor
from ..value import Value


class Module:
    training = True  # PyTorch's start: training mode, until `eval`

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} defines no forward()")

    def named_parameters(self, prefix: str = "") -> Iterator[tuple[str, Value | Tensor]]:
        """Each parameter once, under the first name it is found by (a shared layer is listed once, as PyTorch)."""
        seen = set()
        for name, parameter in self._all_named_parameters(prefix):
            if id(parameter) not in seen:
                seen.add(id(parameter))
                yield name, parameter

    def _all_named_parameters(self, prefix: str = ""):
        for name, attribute in vars(self).items():
            yield from _named_parameters_of(attribute, prefix + name)

    def children(self) -> Iterator[Module]:
        """The modules directly inside this one (attributes, or in a list or tuple), in definition order."""
        for attribute in vars(self).values():
            yield from _modules_in(attribute)

    def train(self, mode: bool = True) -> Module:
        """Training mode (``mode`` True) or evaluation mode, for this module and every module inside it, as
        ``torch.nn.Module.train``; returns the module."""
        self.training = bool(mode)
        for child in self.children():
            child.train(mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode (`train` with False): dropout passes everything on, unscaled."""
        return self.train(False)

    def parameters(self) -> list[Value | Tensor]:
        return [parameter for _, parameter in self.named_parameters()]

    def zero_grad(self) -> None:
        for parameter in self.parameters():
            if isinstance(parameter, Value):
                parameter.grad = 0.0
            else:
                parameter.grad = None  # PyTorch's default, set_to_none=True

    def state_dict(self) -> dict[str, float | np.ndarray]:
        """A copy of every parameter's data by name: floats for `Value`s, arrays for `Tensor`s."""
        return {
            name: parameter.data if isinstance(parameter, Value) else parameter.data.copy()
            for name, parameter in self._all_named_parameters()  # every name, shared ones too, as PyTorch
        }

    def load_state_dict(self, state: dict) -> None:
        """Copy ``state`` into the parameters; every name must match and every shape agree."""
        parameters = dict(self._all_named_parameters())
        missing = sorted(parameters.keys() - state.keys())
        unexpected = sorted(state.keys() - parameters.keys())
        if missing or unexpected:
            raise KeyError(f"state_dict does not match the model: missing {missing}, unexpected {unexpected}")
        for name, parameter in parameters.items():
            if isinstance(parameter, Value):
                parameter.data = float(state[name])
                continue
            data = np.asarray(state[name], dtype=parameter.data.dtype)
            if data.shape != parameter.data.shape:
                raise ValueError(f"{name}: shape {data.shape} in state_dict, {parameter.data.shape} in the model")
            parameter.data[...] = data

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _modules_in(attribute):
    if isinstance(attribute, Module):
        yield attribute
    elif isinstance(attribute, (list, tuple)):
        for item in attribute:
            yield from _modules_in(item)


def _named_parameters_of(attribute, name: str):
    if isinstance(attribute, Value) or (isinstance(attribute, Tensor) and attribute.requires_grad):
        yield name, attribute
    elif isinstance(attribute, Module):
        yield from attribute._all_named_parameters(prefix=name + ".")
    elif isinstance(attribute, (list, tuple)):
        for index, item in enumerate(attribute):
            yield from _named_parameters_of(item, f"{name}.{index}")
