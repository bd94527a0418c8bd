"""The engine's random number generator, seeded like PyTorch's with `manual_seed`."""

import numpy as np

_generator = np.random.default_rng()


def manual_seed(seed: int) -> np.random.Generator:
    """Seed the generator that initialises every layer, as ``torch.manual_seed`` does."""
    global _generator
    _generator = np.random.default_rng(seed)
    return _generator


def generator() -> np.random.Generator:
    return _generator
