"""Where the app's own files are: ``resources/`` in a checkout, ``playground/resources`` once installed.

The wheel installs the repository's ``resources/`` folder as the package data of
``playground.resources`` (see pyproject.toml), so ``pip install .`` and ``pipx install .`` find the
examples and lessons as a checkout does.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # playground/, this module being in playground/files/
RESOURCES = _PACKAGE / "resources" if (_PACKAGE / "resources").is_dir() else _PACKAGE.parent / "resources"
EXAMPLES = RESOURCES / "examples"
